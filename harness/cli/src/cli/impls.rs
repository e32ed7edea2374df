//! `reptest impls`.

use super::CommandResult;
use reptest::{impls, Availability};
use serde_json::json;
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
}

pub fn run(args: Args) -> CommandResult {
    let registry = super::registry(impls::Options {
        cached_handshakes: !args.recheck,
        ..Default::default()
    });
    let all = registry.all();
    let availability = impls::availabilities(&all);
    if args.json {
        let list: Vec<_> = all
            .iter()
            .zip(&availability)
            .map(|(i, availability)| {
                let info = i.info();
                let (available, why, fix) = match availability {
                    Availability::Available => (true, None, None),
                    Availability::Unavailable { why, fix } => (false, Some(why), Some(fix)),
                };
                json!({
                    "name": info.name, "available": available, "version": info.version,
                    "language": info.language, "kind": info.kind.as_str(),
                    "capabilities": {
                        "full_urls": info.capabilities.full_urls,
                        "fetch_outcomes": info.capabilities.fetch_outcomes,
                        "reports_line": info.capabilities.reports_line,
                        // Fetches robots.txt itself over HTTP (library API or crawler).
                        "fetches": info.capabilities.fetches,
                        // Judged as a black box by what it fetches on the loopback site.
                        "crawler": info.kind == reptest::ImplKind::Crawler,
                    },
                    "why": why, "fix": fix,
                })
            })
            .collect();
        outln!(
            "{}",
            serde_json::to_string_pretty(&list).map_err(|e| e.to_string())?
        );
        return Ok(ExitCode::SUCCESS);
    }
    let width = all.iter().map(|i| i.name().len()).max().unwrap_or(0).max(4);
    let version_width = all
        .iter()
        .map(|i| i.info().version.len())
        .max()
        .unwrap_or(0)
        .clamp(7, 24);
    outln!(
        "{:<width$} {:<9} {:<version_width$} {:<10} capabilities",
        "name",
        "available",
        "version",
        "language"
    );
    let mut other_fixes = Vec::new();
    let mut missing = 0;
    for (i, availability) in all.iter().zip(&availability) {
        let info = i.info();
        let caps = &info.capabilities;
        let (available, words) = match availability {
            Availability::Available => {
                let mut words = vec![if caps.full_urls { "urls" } else { "paths" }];
                if caps.fetch_outcomes {
                    words.push("fetch-outcomes");
                }
                if info.kind == reptest::ImplKind::Crawler {
                    words.push("crawler");
                } else if caps.fetches {
                    words.push("fetches");
                }
                if caps.reports_line {
                    words.push("lines");
                }
                ("yes", words.join(","))
            }
            Availability::Unavailable { why, fix } => {
                missing += 1;
                if !fix.starts_with(SETUP) {
                    other_fixes.push(format!("{}: {fix}", info.name));
                }
                ("no", format!("- ({why})"))
            }
        };
        outln!(
            "{:<width$} {:<9} {:<version_width$} {:<10} {}",
            info.name,
            available,
            info.version,
            info.language,
            words
        );
    }
    if missing > 0 {
        outln!(
            "\n{missing} of {} unavailable; to install the external ones: {SETUP}",
            all.len()
        );
        for fix in other_fixes {
            outln!("  {fix}");
        }
    }
    let hint = super::external_hint();
    if !hint.is_empty() {
        outln!("{}", hint.trim_start_matches('\n').trim_start());
    }
    Ok(ExitCode::SUCCESS)
}

/// The one command that installs every external implementation.
const SETUP: &str = "bash harness/external/setup";
