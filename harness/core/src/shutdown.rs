//! An orderly end, whatever ends the program: a signal (SIGINT, SIGTERM, SIGHUP), a
//! standard output that cannot be written, or a normal exit.
//!
//! Every adapter process group that reptest starts is registered here while it lives
//! (`impls/external/process.rs`), and so is every temporary file an atomic write has
//! staged ([`crate::atomic`]). [`exit`] and the signal watcher of [`install`]:
//!
//! 1. take the registry's lock, so no adapter is started or reaped and no staged file is
//!    renamed into place meanwhile (an atomic write either completes or leaves nothing);
//! 2. send SIGTERM to every registered process group (the adapter and any process it
//!    started), give them [`GRACE`] to exit, then SIGKILL those left;
//! 3. remove the staged temporary files;
//! 4. exit: 128 + the signal number after a signal (130 for SIGINT, 143 for SIGTERM).

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// How long adapters have to exit after SIGTERM before they are killed.
pub const GRACE: Duration = Duration::from_secs(2);

/// What must be cleaned up if the program ends now.
#[derive(Debug, Default)]
pub struct Registry {
    /// Process group ids (each the pid of the adapter that leads it) not yet reaped.
    pub(crate) groups: BTreeSet<i32>,
    /// Temporary files staged by an atomic write and not yet renamed into place.
    pub(crate) staged: BTreeSet<PathBuf>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    groups: BTreeSet::new(),
    staged: BTreeSet::new(),
});

/// Set once the program is ending: no adapter may be started any more.
static ENDING: AtomicBool = AtomicBool::new(false);

/// The registry, locked. Hold it while starting or reaping a process, and while renaming
/// staged files into place.
pub fn lock() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Registry {
    /// Registers the process group led by `pid`, just started (with the lock held since
    /// before the start, and [`ending`] checked).
    pub fn track_group(&mut self, pid: i32) {
        self.groups.insert(pid);
    }

    /// Forgets the group led by `pid`, whose leader was just reaped (with the lock held
    /// while reaping, so a signal never targets a reused pid).
    pub fn untrack_group(&mut self, pid: i32) {
        self.groups.remove(&pid);
    }
}

/// Whether the program is ending (a signal arrived, or [`exit`] was called).
pub fn ending() -> bool {
    ENDING.load(Ordering::SeqCst)
}

/// Starts the signal watcher: on SIGINT, SIGTERM or SIGHUP, adapters are terminated,
/// staged files removed, a line says what happened, and the program exits with
/// 128 + the signal number. Call once, early in `main`.
///
/// It also ignores SIGXFSZ, so a write past a file-size limit (`ulimit -f`) is an error
/// that the write reports, not the end of the program.
pub fn install() -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        // SAFETY: SIG_IGN is a valid disposition for SIGXFSZ; no handler code runs.
        unsafe {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        }
        let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
        std::thread::Builder::new()
            .name("reptest-signals".into())
            .spawn(move || {
                if let Some(signal) = signals.forever().next() {
                    let name = match signal {
                        SIGINT => "SIGINT",
                        SIGTERM => "SIGTERM",
                        _ => "SIGHUP",
                    };
                    end(128 + signal, Some(name));
                }
            })?;
    }
    Ok(())
}

/// Ends the program with `code` after terminating every adapter and removing every
/// staged file; use it instead of [`std::process::exit`].
pub fn exit(code: i32) -> ! {
    end(code, None)
}

fn end(code: i32, signal: Option<&str>) -> ! {
    ENDING.store(true, Ordering::SeqCst);
    // Held until the process exits: nothing is started, reaped or renamed from now on.
    let mut registry = lock();
    let stopped = terminate(&registry.groups);
    for path in std::mem::take(&mut registry.staged) {
        let _ = std::fs::remove_file(path);
    }
    if let Some(signal) = signal {
        use std::io::Write;
        let adapters = match stopped {
            0 => String::new(),
            n => format!("; stopped {n} adapter process(es)"),
        };
        let _ = writeln!(
            std::io::stderr(),
            "\nreptest: interrupted by {signal}{adapters}; no file was left half-written"
        );
    }
    std::process::exit(code)
}

/// SIGTERM to each group, up to [`GRACE`] for them to go, SIGKILL to the rest; returns
/// how many groups there were.
fn terminate(groups: &BTreeSet<i32>) -> usize {
    #[cfg(unix)]
    {
        for &group in groups {
            // SAFETY: kill(2) with a negative pid signals a process group of ours (the
            // registry holds only groups not yet reaped); it touches no memory.
            unsafe {
                libc::kill(-group, libc::SIGTERM);
            }
        }
        let mut left: Vec<i32> = groups.iter().copied().collect();
        let deadline = Instant::now() + GRACE;
        while !left.is_empty() && Instant::now() < deadline {
            left.retain(|&group| !gone(group));
            std::thread::sleep(Duration::from_millis(10));
        }
        for group in left {
            // SAFETY: as above.
            unsafe {
                libc::kill(-group, libc::SIGKILL);
            }
        }
    }
    groups.len()
}

/// Reaps the group's leader if it exited, and tells whether no process of the group is
/// left.
#[cfg(unix)]
fn gone(group: i32) -> bool {
    let mut status = 0;
    // SAFETY: waitpid on our own child with WNOHANG; `status` is a valid out-pointer.
    // Reaping here is safe from races: whoever else reaps holds the registry lock, which
    // the caller holds.
    unsafe {
        libc::waitpid(group, &mut status, libc::WNOHANG);
        libc::kill(-group, 0) == -1
            && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH)
    }
}
