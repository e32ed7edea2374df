//! `reptest impls`.

use super::CommandResult;
use reptest::impls;
use std::process::ExitCode;

/// List implementations with availability, version, language and capabilities.
#[derive(clap::Args)]
pub struct Args {
    /// Print a JSON array of objects instead of a table.
    #[arg(long)]
    json: bool,
    /// Start every external adapter for its handshake, ignoring the handshakes cached
    /// in harness/external/.state/handshakes.json.
    #[arg(long)]
    recheck: bool,
    /// List the newest-release variants instead (`NAME@latest`: the newest release of
    /// each PyPI and npm library, installed beside its pin by `bash harness/external/setup
    /// --latest`). They run only when named: `reptest run --impl NAME@latest`.
    #[arg(long)]
    latest: bool,
}

pub fn run(args: Args) -> CommandResult {
    let registry = super::registry(impls::Options {
        cached_handshakes: !args.recheck,
        ..Default::default()
    });
    let all = if args.latest {
        registry.latest()
    } else {
        registry.all()
    };
    let availability = impls::availabilities(&all);
    let rows: Vec<_> = all.iter().map(|i| i.info()).zip(&availability).collect();
    if args.json {
        outln!("{}", reptest::report::impls::json(&rows));
        return Ok(ExitCode::SUCCESS);
    }
    out!("{}", reptest::report::impls::table(&rows));
    let hint = super::external_hint();
    if !hint.is_empty() {
        outln!("{}", hint.trim_start_matches('\n').trim_start());
    }
    Ok(ExitCode::SUCCESS)
}
