//! `reptest`: the RFC 9309 conformance suite's command line.

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    // SIGPIPE stays ignored (Rust's default): an adapter that dies while reptest writes a
    // request is a write error on that pipe, recorded for the query in flight, not the
    // end of reptest. A closed standard output is handled in cli::out.
    if let Err(e) = reptest::shutdown::install() {
        eprintln!("reptest: warning: cannot watch for SIGINT/SIGTERM ({e}); an interrupted run may leave adapter processes behind");
    }
    let cli = cli::Cli::parse();
    let result = cli.run();
    cli::stdout::flush();
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("reptest: error: {message}");
            ExitCode::from(2)
        }
    }
}
