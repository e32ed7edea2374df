//! The crawler's process group: spawned as the leader of a group of its own, ended as a
//! whole (SIGTERM, then SIGKILL after [`TERM_GRACE`]), and ended on drop too, so no
//! process of a run outlives it, also when the caller panics.
//!
//! The leader is not reaped until the group is ended: while it is a zombie its process
//! id, which is the group id, cannot be reused, so signalling the group can never reach
//! an unrelated process.

use std::io;
use std::os::unix::process::{CommandExt as _, ExitStatusExt as _};
use std::process::{Child, ChildStderr, ChildStdout, Command, ExitStatus};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal, WaitId, WaitIdOptions};

use super::run::Exit;

/// How long the group has between SIGTERM and SIGKILL.
pub(crate) const TERM_GRACE: Duration = Duration::from_secs(2);
/// How long to wait for SIGKILL to take effect (a process in uninterruptible sleep may
/// take a while; after this, the run ends regardless).
const KILL_WAIT: Duration = Duration::from_secs(2);
/// The polling interval while waiting for the leader or the group.
const POLL: Duration = Duration::from_millis(10);

/// The groups of every crawler running in this process, for [`kill_running`].
static RUNNING: Mutex<Vec<Pid>> = Mutex::new(Vec::new());

/// SIGKILLs the process group of every crawler still running in this process, at once.
///
/// A signal that terminates reptest (Ctrl-C's SIGINT, SIGTERM) runs no destructor, and
/// the crawlers, each in a process group of its own, do not receive the terminal's
/// SIGINT. A binary that runs crawlers should therefore call this from its signal handler
/// (for example one installed with the `ctrlc` crate) before it exits. The groups stay
/// registered until their runs end them, so calling it twice is harmless.
pub fn kill_running() {
    for &pgid in running().iter() {
        let _ = rustix::process::kill_process_group(pgid, Signal::KILL);
    }
}

fn running() -> MutexGuard<'static, Vec<Pid>> {
    RUNNING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A crawler's process group, led by the spawned process. Dropping it ends the group.
#[derive(Debug)]
pub(crate) struct Group {
    child: Child,
    pgid: Pid,
    /// When the leader was seen to have exited.
    exited_at: Option<Instant>,
    /// Set once the group has been ended and the leader reaped (or given up on).
    ended: Option<Ended>,
}

/// How a group ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ended {
    /// The leader's exit.
    pub(crate) exit: Exit,
    /// Some process of the group was still running and had to be signalled.
    pub(crate) signalled: bool,
}

impl Group {
    /// Spawns `command` as the leader of a new process group.
    pub(crate) fn spawn(command: &mut Command) -> io::Result<Self> {
        command.process_group(0);
        // Registered before the child exists, so a concurrent `kill_running` cannot miss
        // it; the lock is held across the spawn for that reason. The group is also
        // registered with reptest's shutdown (`reptest_core::shutdown`), which ends every
        // registered group on SIGINT, SIGTERM or SIGHUP before the program exits; once
        // the program is ending, no crawler starts.
        let mut shutdown = reptest_core::shutdown::lock();
        if reptest_core::shutdown::ending() {
            return Err(io::Error::new(
                io::ErrorKind::Interrupted,
                "the program is ending: no crawler is started",
            ));
        }
        let mut running = running();
        let child = command.spawn()?;
        let pgid = Pid::from_child(&child);
        running.push(pgid);
        shutdown.track_group(pgid.as_raw_nonzero().get());
        Ok(Self {
            child,
            pgid,
            exited_at: None,
            ended: None,
        })
    }

    /// The group id (the leader's process id).
    pub(crate) fn id(&self) -> u32 {
        self.child.id()
    }

    /// The leader's stdout, if piped and not yet taken.
    pub(crate) fn take_stdout(&mut self) -> Option<ChildStdout> {
        self.child.stdout.take()
    }

    /// The leader's stderr, if piped and not yet taken.
    pub(crate) fn take_stderr(&mut self) -> Option<ChildStderr> {
        self.child.stderr.take()
    }

    /// Whether the leader has exited (it is left unreaped until [`end`](Self::end)).
    pub(crate) fn leader_exited(&mut self) -> bool {
        if self.exited_at.is_some() || self.ended.is_some() {
            return true;
        }
        let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
        let exited = loop {
            match rustix::process::waitid(WaitId::Pid(self.pgid), options) {
                Ok(status) => break status.is_some(),
                Err(rustix::io::Errno::INTR) => continue,
                // ECHILD: nothing left to wait for; treat it as gone.
                Err(_) => break true,
            }
        };
        if exited {
            self.exited_at = Some(Instant::now());
        }
        exited
    }

    /// Waits until the leader exits or `deadline` passes; returns when it exited, if it
    /// did.
    pub(crate) fn wait_leader(&mut self, deadline: Instant) -> Option<Instant> {
        loop {
            if self.leader_exited() {
                return self.exited_at;
            }
            let now = Instant::now();
            if now >= deadline {
                return None;
            }
            std::thread::sleep(POLL.min(deadline - now));
        }
    }

    /// Ends the group: if any process of it still runs, SIGTERM (and SIGCONT, for a
    /// stopped one) to the whole group, SIGKILL after [`TERM_GRACE`]; then reaps the
    /// leader. Idempotent.
    pub(crate) fn end(&mut self) -> Ended {
        if let Some(ended) = self.ended {
            return ended;
        }
        let mut signalled = false;
        if alive(self.pgid) {
            signalled = true;
            let _ = rustix::process::kill_process_group(self.pgid, Signal::TERM);
            let _ = rustix::process::kill_process_group(self.pgid, Signal::CONT);
            if !settle(self.pgid, TERM_GRACE) {
                let _ = rustix::process::kill_process_group(self.pgid, Signal::KILL);
                settle(self.pgid, KILL_WAIT);
            }
        }
        // Unregistered before the leader is reaped, and reaped with the shutdown lock
        // held: once reaped, its id may be reused, and no signal may reach it then.
        let mut shutdown = reptest_core::shutdown::lock();
        shutdown.untrack_group(self.pgid.as_raw_nonzero().get());
        running().retain(|&pgid| pgid != self.pgid);
        // Reap the leader only once it has exited: `wait` must not block on a process
        // that ignored even SIGKILL (uninterruptible sleep).
        let status = if self.leader_exited() {
            self.child.wait().ok()
        } else {
            self.child.try_wait().ok().flatten()
        };
        let ended = Ended {
            exit: status.map_or(Exit::Unknown, exit_of),
            signalled,
        };
        drop(shutdown);
        self.ended = Some(ended);
        ended
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        self.end();
    }
}

/// The exit of a reaped process.
fn exit_of(status: ExitStatus) -> Exit {
    match (status.code(), status.signal()) {
        (Some(code), _) => Exit::Code(code),
        (None, Some(signal)) => Exit::Signal(signal),
        (None, None) => Exit::Unknown,
    }
}

/// Waits up to `limit` for the group to have no running process; returns whether it has.
fn settle(pgid: Pid, limit: Duration) -> bool {
    let deadline = Instant::now() + limit;
    loop {
        if !alive(pgid) {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(POLL);
    }
}

/// Whether some process of the group is still running. An exited process waiting to be
/// reaped (a zombie: the unreaped leader, or an orphan whose init does not reap) does not
/// count: it runs nothing and holds nothing but its process id.
pub(crate) fn alive(pgid: Pid) -> bool {
    match scan_proc(pgid) {
        Some(alive) => alive,
        // No /proc: the signal test, which also counts zombies (ends by the limits).
        None => rustix::process::test_kill_process_group(pgid).is_ok(),
    }
}

/// Scans `/proc` for a running (not zombie) process whose process group is `pgid`;
/// `None` where there is no `/proc`.
fn scan_proc(pgid: Pid) -> Option<bool> {
    let entries = std::fs::read_dir("/proc").ok()?;
    let wanted = pgid.as_raw_nonzero().get();
    let mut seen_any = false;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if !name.bytes().all(|byte| byte.is_ascii_digit()) {
            continue;
        }
        seen_any = true;
        // The process may have vanished meanwhile: then it is not running.
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        if let Some((state, pgrp)) = state_and_pgrp(&stat) {
            if pgrp == wanted && state != "Z" && state != "X" {
                return Some(true);
            }
        }
    }
    // A /proc without a single process (not procfs) says nothing.
    seen_any.then_some(false)
}

/// The state and the process group from a `/proc/<pid>/stat` line: `pid (comm) state ppid
/// pgrp ...`, where `comm` may hold spaces and parentheses.
fn state_and_pgrp(stat: &str) -> Option<(&str, i32)> {
    let (_, rest) = stat.rsplit_once(')')?;
    let mut fields = rest.split_whitespace();
    let state = fields.next()?;
    let _ppid = fields.next()?;
    let pgrp = fields.next()?.parse().ok()?;
    Some((state, pgrp))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_stat_lines_with_odd_command_names() {
        assert_eq!(
            state_and_pgrp("123 (a) b (c)) S 1 456 456 0 -1 4194560"),
            Some(("S", 456))
        );
        assert_eq!(state_and_pgrp("9 (sleep) Z 1 77 77"), Some(("Z", 77)));
        assert_eq!(state_and_pgrp("garbage"), None);
    }
}
