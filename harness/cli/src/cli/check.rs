//! `reptest check`: one verdict from the reference matcher, explained.

use super::CommandResult;
use reptest_corpus::Profile;
use reptest_reference::{AccessReason, Config, Reason, Robots, RuleKind, WarningKind};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Check one URL against one robots.txt with the reference matcher and explain the
/// verdict: the deciding rule and its line, or why no rule applied.
#[derive(clap::Args)]
pub struct Args {
    /// The robots.txt file, read as bytes (`-` reads stdin).
    #[arg(long, value_name = "FILE")]
    robots: PathBuf,
    /// The crawler's product token, e.g. `examplebot`: letters, `-` and `_` only (RFC
    /// 9309 §2.2.1); anything else is refused, with the token it most likely meant.
    #[arg(long, value_name = "TOKEN")]
    agent: std::ffi::OsString,
    /// The URL to check: absolute (https://example.com/a?b) or a path (/a?b). A URL that
    /// is neither is checked by its path, and the output says what was assumed.
    #[arg(long)]
    url: std::ffi::OsString,
    /// The reference configuration: `rfc9309` (strict defaults) or `google` (the choices
    /// google/robotstxt makes where the RFC allows one).
    #[arg(long, default_value = "rfc9309", value_parser = super::profile_parser())]
    profile: Profile,
    /// Also print the lint warnings found while parsing (unknown records, typos, ...).
    #[arg(long)]
    warnings: bool,
}

pub fn run(args: Args) -> CommandResult {
    let agent = utf8_arg("--agent", &args.agent)?;
    let url = utf8_arg("--url", &args.url)?;
    check_product_token(agent)?;
    let body = read_body(&args.robots)?;
    let config = if args.profile == Profile::Google {
        Config::google()
    } else {
        Config::rfc9309()
    };
    let mut warnings = Vec::new();
    let robots = Robots::parse_with_warnings(&body, &config, &mut |w| warnings.push(w.clone()));
    let verdict = robots.check(agent, url);
    outln!(
        "{}",
        if verdict.is_allowed() {
            "allowed"
        } else {
            "disallowed"
        }
    );
    let choices = super::google_choices::deciding(&config, &body, agent, url, &verdict);
    outln!("  {}", explain_citing(verdict.reason(), &body, &choices));
    for note in url_notes(url) {
        outln!("  assumed: {note}");
    }
    // A cut body changes what the file says, so it is always told (RFC 9309 §2.5).
    if let Some(cut) = warnings
        .iter()
        .find(|w| matches!(w.kind, WarningKind::BeyondParseLimit))
    {
        outln!(
            "  note: the body is longer than the parse limit of {} bytes: line {} and the rest were ignored (RFC 9309 §2.5)",
            config.effective_parse_limit(),
            cut.line
        );
    }
    if super::warnings::none_is_record(&warnings, &body, config.accept_typos) {
        outln!("  note: no line of the file is a record (`User-agent:`, `Allow:`, `Disallow:`, `Sitemap:`...): is it a robots.txt file?");
    }
    if args.warnings {
        for text in super::warnings::by_line(&warnings, &body) {
            outln!("  warning: {text}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The text of argument `name`, or an error naming it when it is not UTF-8.
fn utf8_arg<'a>(name: &str, value: &'a std::ffi::OsStr) -> Result<&'a str, String> {
    value.to_str().ok_or_else(|| {
        format!(
            "{name} is not valid UTF-8: {} (give the URL percent-encoded, e.g. %FF)",
            reptest::visible_notation::render(value.as_encoded_bytes())
        )
    })
}

/// Refuses an agent that is not an RFC 9309 product token (§2.2.1: `1*(ALPHA / "_" /
/// "-")`), naming the token it most likely meant (in a whole User-Agent header, the
/// crawler's): no group could name such a value, so only `*` groups would apply, silently.
fn check_product_token(agent: &str) -> Result<(), String> {
    if is_product_token(agent) {
        return Ok(());
    }
    let shown = reptest::visible_notation::render(agent.as_bytes());
    let fix = match super::user_agent::crawler_token(agent) {
        None => "give a token such as `examplebot`".to_string(),
        Some(meant) => format!("give the token alone: --agent {meant}"),
    };
    Err(format!(
        "--agent `{shown}` is not a product token (RFC 9309 §2.2.1: letters, `_` and `-` only, as in the `User-agent:` lines it is matched against); {fix}"
    ))
}

/// Whether `agent` is an RFC 9309 product token: `1*(ALPHA / "_" / "-")` (§2.2.1).
pub(super) fn is_product_token(agent: &str) -> bool {
    !agent.is_empty()
        && agent
            .chars()
            .all(|c| c.is_ascii_alphabetic() || c == '_' || c == '-')
}

/// What was assumed to check `url`: nothing for an absolute http(s) URL or a path.
fn url_notes(url: &str) -> Vec<String> {
    let query = reptest::url::QueryUrl::new(url);
    let path = query.path();
    let mut notes = Vec::new();
    if url.is_empty() {
        notes.push("the URL is empty: checked as the path `/`".to_string());
        return notes;
    }
    match query.authority() {
        Some(authority) => {
            let scheme = authority.split(':').next().unwrap_or_default();
            if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
                notes.push(format!(
                    "the scheme `{scheme}` is not HTTP(S) (RFC 9309 §2.3): only the path `{path}` was checked"
                ));
            }
            let host = authority.split_once("://").map_or("", |(_, h)| h);
            if host.starts_with('[') && !host.contains(']') {
                notes.push(format!(
                    "the host `{host}` has an unclosed `[` (not a valid IPv6 literal): only the path `{path}` was checked"
                ));
            } else if host.is_empty() {
                notes.push(format!(
                    "the URL has no host: only the path `{path}` was checked"
                ));
            }
        }
        None if url.starts_with("//") => notes.push(format!(
            "`{}` is a protocol-relative URL (a network-path reference, RFC 3986 §4.2): what follows `//` up to the next `/` is its host, not part of its path; checked as the path `{path}`",
            reptest::visible_notation::render(url.as_bytes())
        )),
        None if url.starts_with('/') => {}
        None => notes.push(format!(
            "`{}` has no `scheme://host`: checked as the path `{path}`",
            reptest::visible_notation::render(url.as_bytes())
        )),
    }
    let raw_path = url.split(['?', '#']).next().unwrap_or_default();
    if raw_path
        .split('/')
        .any(|segment| segment == "." || segment == "..")
    {
        notes.push(format!(
            "the `.` and `..` segments were resolved as a client resolves them before fetching (RFC 3986 §5.2.4): checked as the path `{path}`"
        ));
    }
    notes
}

/// The robots.txt body from a file or stdin (`-`), at most
/// [`reptest::lines::MAX_TEXT_FILE`] bytes: an endless input is refused in bounded memory.
pub(crate) fn read_body(path: &Path) -> Result<Vec<u8>, String> {
    use reptest::lines::{read_bytes, MAX_TEXT_FILE};
    if path.as_os_str() == "-" {
        return read_bytes(std::io::stdin().lock(), MAX_TEXT_FILE)
            .map_err(|e| format!("reading stdin: {e}"));
    }
    std::fs::File::open(path)
        .and_then(|file| read_bytes(file, MAX_TEXT_FILE))
        .map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn groups(lines: &[usize]) -> String {
    let list: Vec<String> = lines.iter().map(usize::to_string).collect();
    match list.len() {
        1 => format!("the group at line {}", list[0]),
        _ => format!("the groups at lines {}", list.join(", ")),
    }
}

/// The reference's reason in one line: the deciding rule with its line and text, or why
/// no rule applied, or what the access method decided.
pub(super) fn explain(reason: &Reason, body: &[u8]) -> String {
    explain_citing(reason, body, &[])
}

/// [`explain`], citing `google_choices` (the profile's departures from RFC 9309 that
/// decided) instead of the RFC section when there are any.
fn explain_citing(reason: &Reason, body: &[u8], google_choices: &[&str]) -> String {
    let cite = |section: &str| match google_choices {
        [] => format!("RFC 9309 {section}"),
        choices => format!("Google's choice: {}", choices.join("; ")),
    };
    match reason {
        Reason::RobotsTxtPath => "/robots.txt is always allowed (RFC 9309 §2.2.2)".into(),
        Reason::NoGroup => format!(
            "no group matches the product token and there is no `*` group ({})",
            cite("§2.2.1")
        ),
        Reason::NoMatchingRule { groups: g } => format!(
            "no rule of {} matches the path ({})",
            groups(g),
            cite("§2.2.2")
        ),
        Reason::Rule { rule, groups: g } => {
            let kind = match rule.kind {
                RuleKind::Allow => "allow",
                RuleKind::Disallow => "disallow",
            };
            let text = line_text(body, rule.line).unwrap_or_default();
            format!(
                "{kind} rule at line {}: {} (the longest match in {}; {})",
                rule.line,
                reptest::visible_notation::render(&text).trim_end_matches(['↵', '\n']),
                groups(g),
                cite("§2.2.2")
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
    let line = super::warnings::lines(body).nth(number.checked_sub(1)?)?;
    Some(line.to_vec())
}
