//! `reptest check`: the reference's verdict on one URL, explained ([`render`]): the
//! deciding rule and its line, or why no rule applied, what was assumed of the URL, and
//! the parser's lint warnings ([`warnings`]). [`explain`] is the one-line reason
//! `reptest policy` gives too.

pub mod warnings;

use reptest_reference::{AccessReason, Config, Reason, RuleKind, Verdict, Warning, WarningKind};
use std::fmt::Write as _;

/// One `reptest check`: what was asked and what the reference answered.
pub struct Check<'a> {
    /// The robots.txt body, as read.
    pub body: &'a [u8],
    /// The URL checked, as given.
    pub url: &'a str,
    /// The reference's configuration (its parse limit, whether it accepts typos).
    pub config: &'a Config,
    /// The verdict.
    pub verdict: &'a Verdict,
    /// The lint warnings of the parse.
    pub warnings: &'a [Warning],
    /// Google's choices that decided the verdict (empty under RFC 9309).
    pub google_choices: &'a [&'a str],
    /// Whether every warning is listed (`--warnings`), not only the notes.
    pub show_warnings: bool,
}

/// The output of `reptest check`: the verdict, then indented, the reason, what was
/// assumed of the URL, the notes (a body cut at the parse limit, a file of no records)
/// and, when asked, the warnings. Every line ends with a line break.
pub fn render(check: &Check<'_>) -> String {
    let mut out = String::new();
    let verdict = if check.verdict.is_allowed() {
        "allowed"
    } else {
        "disallowed"
    };
    let _ = writeln!(out, "{verdict}");
    let reason = explain_citing(check.verdict.reason(), check.body, check.google_choices);
    let _ = writeln!(out, "  {reason}");
    for note in url_notes(check.url) {
        let _ = writeln!(out, "  assumed: {note}");
    }
    // A cut body changes what the file says, so it is always told (RFC 9309 §2.5).
    if let Some(cut) = check
        .warnings
        .iter()
        .find(|w| matches!(w.kind, WarningKind::BeyondParseLimit))
    {
        let _ = writeln!(
            out,
            "  note: the body is longer than the parse limit of {} bytes: line {} and the rest were ignored (RFC 9309 §2.5)",
            check.config.effective_parse_limit(),
            cut.line
        );
    }
    if warnings::none_is_record(check.warnings, check.body, check.config.accept_typos) {
        let _ = writeln!(out, "  note: no line of the file is a record (`User-agent:`, `Allow:`, `Disallow:`, `Sitemap:`...): is it a robots.txt file?");
    }
    if check.show_warnings {
        for text in warnings::by_line(check.warnings, check.body) {
            let _ = writeln!(out, "  warning: {text}");
        }
    }
    out
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
pub fn explain(reason: &Reason, body: &[u8]) -> String {
    explain_citing(reason, body, &[])
}

/// [`explain`], citing `google_choices` (the profile's departures from RFC 9309 that
/// decided) instead of the RFC section when there are any.
pub fn explain_citing(reason: &Reason, body: &[u8], google_choices: &[&str]) -> String {
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
                reptest_core::visible_notation::render(&text).trim_end_matches(['↵', '\n']),
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
    let line = warnings::lines(body).nth(number.checked_sub(1)?)?;
    Some(line.to_vec())
}

/// What was assumed to check `url`: nothing for an absolute http(s) URL or a path.
pub fn url_notes(url: &str) -> Vec<String> {
    let query = reptest_core::url::QueryUrl::new(url);
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
            reptest_core::visible_notation::render(url.as_bytes())
        )),
        None if url.starts_with('/') => {}
        None => notes.push(format!(
            "`{}` has no `scheme://host`: checked as the path `{path}`",
            reptest_core::visible_notation::render(url.as_bytes())
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
