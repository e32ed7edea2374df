//! `reptest impls`.

use super::Outcome;
use reptest::{impls, Availability};
use serde_json::json;
use std::process::ExitCode;

/// List implementations with availability, version, language and capabilities.
#[derive(clap::Args)]
pub struct Args {
    /// Print a JSON array of objects instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Outcome {
    let all = impls::all();
    if args.json {
        let list: Vec<_> = all
            .iter()
            .map(|i| {
                let info = i.info();
                let (available, why, fix) = match i.availability() {
                    Availability::Available => (true, None, None),
                    Availability::Unavailable { why, fix } => (false, Some(why), Some(fix)),
                };
                json!({
                    "name": info.name, "available": available, "version": info.version,
                    "language": info.language,
                    "capabilities": {
                        "full_urls": info.capabilities.full_urls,
                        "fetch_outcomes": info.capabilities.fetch_outcomes,
                        "reports_line": info.capabilities.reports_line,
                    },
                    "why": why, "fix": fix,
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&list).map_err(|e| e.to_string())?
        );
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{:<14} {:<10} {:<10} {:<10} capabilities",
        "name", "available", "version", "language"
    );
    for i in &all {
        let info = i.info();
        let caps = &info.capabilities;
        let mut words = Vec::new();
        words.push(if caps.full_urls { "urls" } else { "paths" });
        if caps.fetch_outcomes {
            words.push("fetch-outcomes");
        }
        if caps.reports_line {
            words.push("lines");
        }
        let available = match i.availability() {
            Availability::Available => "yes".to_string(),
            Availability::Unavailable { .. } => "no".to_string(),
        };
        println!(
            "{:<14} {:<10} {:<10} {:<10} {}",
            info.name,
            available,
            info.version,
            info.language,
            words.join(",")
        );
        if let Availability::Unavailable { why, fix } = i.availability() {
            println!("    {why}\n    fix: {fix}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
