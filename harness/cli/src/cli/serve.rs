//! `reptest serve`.

use super::CommandResult;
use std::process::ExitCode;

/// Serve an implementation as an external adapter: speak protocol v1
/// (harness/PROTOCOL.md) on stdin/stdout, the handshake line first, then one answer per
/// request, until stdin closes.
///
/// So any in-process implementation can stand where an external one does, e.g. in an
/// adapters.toml: command = ["reptest", "serve", "--impl", "reference"].
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    implementation: super::ImplArg,
}

pub fn run(args: Args) -> CommandResult {
    let implementation = args.implementation.one()?;
    reptest::eval::serve(
        implementation.as_ref(),
        std::io::stdin().lock(),
        std::io::stdout().lock(),
    )
    .map_err(|e| format!("i/o: {e}"))?;
    Ok(ExitCode::SUCCESS)
}
