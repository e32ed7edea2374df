//! `reptest`: the RFC 9309 conformance suite's command line.

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match cli.run() {
        Ok(code) => code,
        Err(message) => {
            eprintln!("reptest: error: {message}");
            ExitCode::from(2)
        }
    }
}
