//! `reptest eval`.

use super::CommandResult;
use std::process::ExitCode;

/// Answer JSON-lines requests on stdin, one JSON line each on stdout, in order.
///
/// Input lines: {"id": any (optional), "robots": "..." or "robots_b64": "...", "agent":
/// "...", "url": "..."}. Output lines: {"id": ..., "verdict": "allowed"|"disallowed",
/// "line": N} or {"id": ..., "error": "..."}: one line out for every line in. A bad or
/// blank line, or one longer than 16 MiB (skipped to its newline), gets an error answer
/// and the stream goes on; the exit code is 2 if any line was bad.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    implementation: super::ImplArg,
}

pub fn run(args: Args) -> CommandResult {
    let implementation = args.implementation.one()?;
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    let totals = reptest::eval::stream(implementation.as_ref(), stdin, stdout)
        .map_err(|e| format!("i/o: {e}"))?;
    if totals.errors > 0 {
        eprintln!(
            "reptest eval: {} line(s) answered with an error, {} with a verdict",
            totals.errors, totals.answered
        );
        return Ok(ExitCode::from(2));
    }
    Ok(ExitCode::SUCCESS)
}
