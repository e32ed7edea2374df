//! `reptest impls`: the implementations with their availability, version, language and
//! capabilities, as a table for people ([`table`]) or a JSON array ([`json()`]).

use reptest_core::{Availability, ImplInfo, ImplKind};
use serde_json::json;
use std::fmt::Write as _;

/// The one command that installs every external implementation.
pub const SETUP: &str = "bash harness/external/setup";

/// The table: one line per implementation (name, available, version, language, and its
/// capabilities or why it is unavailable), then how many are unavailable and the fixes
/// other than [`SETUP`]. Every line ends with a line break.
pub fn table(rows: &[(&ImplInfo, &Availability)]) -> String {
    let width = rows
        .iter()
        .map(|(i, _)| i.name.len())
        .max()
        .unwrap_or(0)
        .max(4);
    let version_width = rows
        .iter()
        .map(|(i, _)| i.version.len())
        .max()
        .unwrap_or(0)
        .clamp(7, 24);
    let mut out = String::new();
    let mut line = |name: &str, available: &str, version: &str, language: &str, last: &str| {
        let _ = writeln!(
            out,
            "{name:<width$} {available:<9} {version:<version_width$} {language:<10} {last}"
        );
    };
    line("name", "available", "version", "language", "capabilities");
    let mut other_fixes = Vec::new();
    for (info, availability) in rows {
        let (available, words) = match availability {
            Availability::Available => ("yes", capabilities(info)),
            Availability::Unavailable { why, fix } => {
                if !fix.starts_with(SETUP) {
                    other_fixes.push(format!("{}: {fix}", info.name));
                }
                ("no", format!("- ({why})"))
            }
        };
        line(&info.name, available, &info.version, &info.language, &words);
    }
    let missing = rows
        .iter()
        .filter(|(_, a)| matches!(a, Availability::Unavailable { .. }))
        .count();
    if missing > 0 {
        let _ = writeln!(
            out,
            "\n{missing} of {} unavailable; to install the external ones: {SETUP}",
            rows.len()
        );
        for fix in other_fixes {
            let _ = writeln!(out, "  {fix}");
        }
    }
    out
}

/// An available implementation's capabilities as words: `urls` or `paths`, then
/// `fetch-outcomes`, `crawler` or `fetches`, `lines`.
fn capabilities(info: &ImplInfo) -> String {
    let caps = &info.capabilities;
    let mut words = vec![if caps.full_urls { "urls" } else { "paths" }];
    if caps.fetch_outcomes {
        words.push("fetch-outcomes");
    }
    if info.kind == ImplKind::Crawler {
        words.push("crawler");
    } else if caps.fetches {
        words.push("fetches");
    }
    if caps.reports_line {
        words.push("lines");
    }
    words.join(",")
}

/// The JSON array: one object per implementation with its availability (and why not,
/// and the fix), version, language, kind and capabilities; pretty-printed, no final line
/// break.
pub fn json(rows: &[(&ImplInfo, &Availability)]) -> String {
    let list: Vec<_> = rows
        .iter()
        .map(|(info, availability)| {
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
                    "crawler": info.kind == ImplKind::Crawler,
                },
                "why": why, "fix": fix,
            })
        })
        .collect();
    // A `Value` always serializes.
    serde_json::to_string_pretty(&list).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(name: &str, kind: ImplKind) -> ImplInfo {
        ImplInfo {
            name: name.into(),
            version: "1.2.3".into(),
            language: "Rust".into(),
            capabilities: Default::default(),
            kind,
        }
    }

    #[test]
    fn the_table_aligns_and_says_what_is_missing() {
        let (crawler, missing) = (
            info("wget", ImplKind::Crawler),
            info("p", ImplKind::Process),
        );
        let gone = Availability::Unavailable {
            why: "no python".into(),
            fix: "pip install p".into(),
        };
        let text = table(&[(&crawler, &Availability::Available), (&missing, &gone)]);
        assert_eq!(
            text,
            "name available version language   capabilities\n\
             wget yes       1.2.3   Rust       paths,crawler\n\
             p    no        1.2.3   Rust       - (no python)\n\
             \n1 of 2 unavailable; to install the external ones: bash harness/external/setup\n\
             \x20 p: pip install p\n"
        );
        let list: serde_json::Value = serde_json::from_str(&json(&[(&missing, &gone)])).unwrap();
        assert_eq!(list[0]["available"], false);
        assert_eq!(list[0]["fix"], "pip install p");
        assert_eq!(list[0]["capabilities"]["crawler"], false);
    }
}
