//! `reptest`: the RFC 9309 conformance suite's command line.

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    restore_default_sigpipe();
    let cli = cli::Cli::parse();
    match cli.run() {
        Ok(code) => code,
        Err(message) => {
            eprintln!("reptest: error: {message}");
            ExitCode::from(2)
        }
    }
}

/// Lets `reptest ... | head` end quietly, as Unix tools do, instead of panicking on a
/// closed stdout: Rust ignores SIGPIPE by default, which turns a closed pipe into a write
/// error that `println!` panics on.
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called once at start-up, before any thread exists; SIG_DFL is a valid handler.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
