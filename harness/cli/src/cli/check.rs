//! `reptest check`: one verdict from the reference matcher, explained.

use super::Outcome;
use reptest_corpus::Profile;
use reptest_reference::{AccessReason, Config, Reason, Robots, RuleKind};
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

/// Check one URL against one robots.txt with the reference matcher and explain the
/// verdict: the deciding rule and its line, or why no rule applied.
#[derive(clap::Args)]
pub struct Args {
    /// The robots.txt file, read as bytes (`-` reads stdin).
    #[arg(long, value_name = "FILE")]
    robots: PathBuf,
    /// The crawler's product token, e.g. `examplebot` (letters, `-` and `_`).
    #[arg(long, value_name = "TOKEN")]
    agent: String,
    /// The URL to check: absolute (https://example.com/a?b) or a path (/a?b).
    #[arg(long)]
    url: String,
    /// The reference configuration: `rfc9309` (strict defaults) or `google` (the choices
    /// google/robotstxt makes where the RFC allows one).
    #[arg(long, default_value = "rfc9309", value_parser = super::profile_parser())]
    profile: Profile,
    /// Also print the lint warnings found while parsing (unknown records, typos, ...).
    #[arg(long)]
    warnings: bool,
}

pub fn run(args: Args) -> Outcome {
    let body = read_body(&args.robots)?;
    let config = if args.profile == Profile::Google {
        Config::google()
    } else {
        Config::rfc9309()
    };
    let mut warnings = Vec::new();
    let robots = Robots::parse_with_warnings(&body, &config, &mut |w| warnings.push(w.to_string()));
    let verdict = robots.check(&args.agent, &args.url);
    outln!(
        "{}",
        if verdict.is_allowed() {
            "allowed"
        } else {
            "disallowed"
        }
    );
    outln!("  {}", explain(verdict.reason(), &body));
    if args.warnings {
        for warning in &warnings {
            outln!("  warning: {warning}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn read_body(path: &PathBuf) -> Result<Vec<u8>, String> {
    if path.as_os_str() == "-" {
        let mut body = Vec::new();
        std::io::stdin()
            .read_to_end(&mut body)
            .map_err(|e| format!("reading stdin: {e}"))?;
        return Ok(body);
    }
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn groups(lines: &[usize]) -> String {
    let list: Vec<String> = lines.iter().map(usize::to_string).collect();
    match list.len() {
        1 => format!("the group at line {}", list[0]),
        _ => format!("the groups at lines {}", list.join(", ")),
    }
}

fn explain(reason: &Reason, body: &[u8]) -> String {
    match reason {
        Reason::RobotsTxtPath => "/robots.txt is always allowed (RFC 9309 §2.2.2)".into(),
        Reason::NoGroup => {
            "no group matches the product token and there is no `*` group (RFC 9309 §2.2.1)".into()
        }
        Reason::NoMatchingRule { groups: g } => format!(
            "no rule of {} matches the path (RFC 9309 §2.2.2)",
            groups(g)
        ),
        Reason::Rule { rule, groups: g } => {
            let kind = match rule.kind {
                RuleKind::Allow => "allow",
                RuleKind::Disallow => "disallow",
            };
            let text = line_text(body, rule.line).unwrap_or_default();
            format!(
                "{kind} rule at line {}: {} (the longest match in {}; RFC 9309 §2.2.2)",
                rule.line,
                reptest::visible::render(&text).trim_end_matches(['↵', '\n']),
                groups(g)
            )
        }
        Reason::Access(access) => access_text(access),
        other => format!("{other:?}"),
    }
}

fn access_text(reason: &AccessReason) -> String {
    match reason {
        AccessReason::Unavailable { status } => {
            format!("HTTP {status}: the file is unavailable, so access is unrestricted (RFC 9309 §2.3.1.3)")
        }
        AccessReason::Unreachable { status: Some(status) } => {
            format!("HTTP {status}: the file is unreachable, so everything is disallowed (RFC 9309 §2.3.1.4)")
        }
        AccessReason::Unreachable { status: None } => {
            "network error: the file is unreachable, so everything is disallowed (RFC 9309 §2.3.1.4)".into()
        }
        AccessReason::TooManyRedirects { redirects } => {
            format!("{redirects} redirects: treated as unavailable (RFC 9309 §2.3.1.2)")
        }
        AccessReason::StaleCache => {
            "the cached copy is older than 24 hours and was not refetched (RFC 9309 §2.4)".into()
        }
        AccessReason::UnexpectedStatus { status } => {
            format!("HTTP {status}: neither success nor a client or server error, so everything is disallowed")
        }
        other => format!("access method: {other:?}"),
    }
}

/// The bytes of 1-based line `number`, counting CR, LF and CRLF each as one line end.
fn line_text(body: &[u8], number: usize) -> Option<Vec<u8>> {
    let mut line = 1;
    let mut start = 0;
    let mut i = 0;
    while i < body.len() {
        if body[i] == b'\r' || body[i] == b'\n' {
            if line == number {
                return Some(body[start..i].to_vec());
            }
            if body[i] == b'\r' && body.get(i + 1) == Some(&b'\n') {
                i += 1;
            }
            line += 1;
            start = i + 1;
        }
        i += 1;
    }
    (line == number).then(|| body[start..].to_vec())
}
