//! A pool of worker threads per crate adapter, grown on demand.
//!
//! A case is a [`Job`] run on an idle worker, or on a new one when every worker is busy,
//! so a campaign of thousands of cases per second does not start a thread per case. A
//! worker goes back to the pool after its job, unless the job ran past its timeout: such
//! a worker was lowered to the least scheduling priority ([`Worker::lower_priority`]) and
//! retires when it finishes. Workers whose pool is gone exit.

use std::io;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{mpsc, Arc, Mutex, PoisonError, Weak};
use std::thread;

/// The stack of a worker thread: generous, because a stack overflow in a library
/// aborts the whole process and cannot be caught.
const WORKER_STACK: usize = 64 << 20;

/// One case to run; returns `true` when it ran past its timeout (the worker retires).
pub(super) type Job = Box<dyn FnOnce() -> bool + Send>;

/// A job with the handle its worker goes back to the pool with.
type Message = (Job, Handle);

/// An idle worker: where to send its next job.
struct Handle {
    jobs: mpsc::Sender<Message>,
    tid: Arc<AtomicI64>,
}

/// The workers of one adapter.
pub(super) struct Workers {
    name: String,
    idle: Mutex<Vec<Handle>>,
}

/// The worker a job was given to.
pub(super) struct Worker {
    tid: Arc<AtomicI64>,
}

impl Workers {
    /// An empty pool whose threads are called `name`.
    pub(super) fn new(name: String) -> Arc<Workers> {
        Arc::new(Workers {
            name,
            idle: Mutex::new(Vec::new()),
        })
    }

    /// Runs `job` on an idle worker, or on a new one.
    pub(super) fn submit(self: &Arc<Self>, job: Job) -> io::Result<Worker> {
        let mut job = job;
        loop {
            let idle = self
                .idle
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .pop();
            let Some(handle) = idle else { break };
            let tid = Arc::clone(&handle.tid);
            let sender = handle.jobs.clone();
            match sender.send((job, handle)) {
                Ok(()) => return Ok(Worker { tid }),
                // That worker is gone: try the next one.
                Err(mpsc::SendError((back, _))) => job = back,
            }
        }
        self.spawn(job)
    }

    fn spawn(self: &Arc<Self>, job: Job) -> io::Result<Worker> {
        let (jobs, inbox) = mpsc::channel::<Message>();
        let tid = Arc::new(AtomicI64::new(0));
        let handle = Handle {
            jobs: jobs.clone(),
            tid: Arc::clone(&tid),
        };
        // Only the handle travelling with the job keeps the channel open: when the pool
        // (holding idle handles) is dropped, `recv` fails and the worker exits.
        drop(jobs.send((job, handle)));
        drop(jobs);
        let pool: Weak<Workers> = Arc::downgrade(self);
        let worker_tid = Arc::clone(&tid);
        thread::Builder::new()
            .name(self.name.clone())
            .stack_size(WORKER_STACK)
            .spawn(move || {
                worker_tid.store(current_tid(), Ordering::SeqCst);
                super::quiet_panics();
                while let Ok((job, handle)) = inbox.recv() {
                    if job() {
                        return;
                    }
                    let Some(pool) = pool.upgrade() else { return };
                    pool.idle
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .push(handle);
                }
            })?;
        Ok(Worker { tid })
    }
}

impl Worker {
    /// Gives the worker the least scheduling priority (nice 19, Linux): a job that ran
    /// past its timeout then only uses a core nothing else wants.
    pub(super) fn lower_priority(&self) {
        #[cfg(target_os = "linux")]
        {
            let tid = self.tid.load(Ordering::SeqCst);
            if tid > 0 {
                // SAFETY: setpriority only reads its integer arguments; a thread that has
                // exited meanwhile makes it fail with ESRCH, which is fine to ignore.
                unsafe {
                    libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, 19);
                }
            }
        }
    }
}

/// The kernel's id of the calling thread (0 where not known).
fn current_tid() -> i64 {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: gettid has no arguments and cannot fail.
        unsafe { libc::syscall(libc::SYS_gettid) }
    }
    #[cfg(not(target_os = "linux"))]
    {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::time::Duration;

    #[test]
    fn idle_workers_are_reused() {
        let workers = Workers::new("test".into());
        let threads = Arc::new(Mutex::new(std::collections::HashSet::new()));
        for _ in 0..20 {
            let (done, wait) = mpsc::channel();
            let seen = Arc::clone(&threads);
            workers
                .submit(Box::new(move || {
                    seen.lock().unwrap().insert(thread::current().id());
                    done.send(()).unwrap();
                    false
                }))
                .unwrap();
            wait.recv().unwrap();
            // Let the worker put itself back before the next case.
            thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(threads.lock().unwrap().len(), 1);
    }

    #[test]
    fn busy_workers_make_new_ones_and_stuck_ones_retire() {
        let workers = Workers::new("test".into());
        let (release, gate) = mpsc::channel::<()>();
        let gate = Arc::new(Mutex::new(gate));
        let finished = Arc::new(AtomicUsize::new(0));
        let blocking = |retire: bool| -> Job {
            let gate = Arc::clone(&gate);
            let finished = Arc::clone(&finished);
            Box::new(move || {
                gate.lock().unwrap().recv().unwrap();
                finished.fetch_add(1, Ordering::SeqCst);
                retire
            })
        };
        workers.submit(blocking(true)).unwrap().lower_priority();
        workers.submit(blocking(false)).unwrap();
        release.send(()).unwrap();
        release.send(()).unwrap();
        while finished.load(Ordering::SeqCst) < 2 {
            thread::sleep(Duration::from_millis(1));
        }
        thread::sleep(Duration::from_millis(20));
        // The retired worker did not come back; the other did.
        assert_eq!(workers.idle.lock().unwrap().len(), 1);
    }
}
