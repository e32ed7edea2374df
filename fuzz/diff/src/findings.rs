//! Findings: a campaign's signatures as regression cases in the corpus
//! (`corpus/findings/<name>.toml`) and as a Markdown write-up
//! (`reports/findings/<name>.md`).
//!
//! A finding's expectation is always `either` with a `triage` note: what the RFC requires
//! is decided by a person reading the RFC, never taken from the reference's answer. What
//! each implementation answered is recorded in the query's `observed` table, so a later
//! change of behaviour shows up as a failing test.

use crate::campaign::{CampaignReport, Found};
use crate::signature::Signature;
use reptest_corpus::Dimension;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The requirement a dimension points at, with its level.
fn requirement_of(dimension: Dimension) -> Option<(&'static str, &'static str)> {
    Some(match dimension {
        Dimension::Wildcards => ("2.2.3-STAR", "MUST"),
        Dimension::PercentEncoding => ("2.2.2-ENCODE", "MUST"),
        Dimension::Case => ("2.2.2-CASE", "SHOULD"),
        Dimension::Bom => ("profile-BOM", "MAY"),
        Dimension::SizeLimits => ("2.5-LIMIT", "MUST"),
        Dimension::GroupMerging => ("2.2.1-MERGE", "MUST"),
        Dimension::LineEndings => ("2.2-EOL", "MUST"),
        Dimension::AgentNames => ("2.2.1-UA-VALUE", "MAY"),
        _ => return None,
    })
}

/// The requirement the reference's reason points at, for findings without dimensions.
fn requirement_of_rule(rule_kind: Option<&str>) -> (&'static str, &'static str) {
    match rule_kind {
        Some("rule-allow" | "rule-disallow") => ("2.2.2-LONGEST", "MUST"),
        Some("no-match") => ("2.2.2-NO-MATCH", "MUST"),
        Some("no-group") => ("2.2.1-NO-GROUP", "MUST"),
        Some("robots-txt") => ("2.2.2-ROBOTS-TXT", "MUST"),
        _ => ("2.2.2-PREFIX", "MUST"),
    }
}

/// The requirement IDs of a signature (RFC ones first, `profile-*` last) and the level
/// of the first.
pub fn requirements(signature: &Signature) -> (Vec<&'static str>, &'static str) {
    let mut ids: Vec<(&str, &str)> = signature
        .dimensions
        .iter()
        .filter_map(|d| requirement_of(*d))
        .collect();
    ids.sort_by_key(|(id, _)| id.starts_with("profile-"));
    if ids.iter().all(|(id, _)| id.starts_with("profile-")) {
        ids.insert(0, requirement_of_rule(signature.rule_kind.as_deref()));
    }
    let level = ids.first().map_or("MUST", |(_, level)| level);
    (ids.iter().map(|(id, _)| *id).collect(), level)
}

/// The case id of a signature: `finding-<short hash>`.
pub fn case_id(signature: &Signature) -> String {
    format!("finding-{}", signature.short_hash())
}

/// A body as the inside of a TOML literal multi-line string with `unescape = true`:
/// LF stays a line break, printable ASCII stays (except `'` and `\`), everything else is
/// an escape.
pub fn escape_body(body: &[u8]) -> String {
    let mut out = String::with_capacity(body.len());
    for &b in body {
        match b {
            b'\n' => out.push('\n'),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0 => out.push_str("\\0"),
            b'\\' => out.push_str("\\\\"),
            b'\'' => out.push_str("\\x27"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\x{b:02X}");
            }
        }
    }
    out
}

/// Bodies longer than this are written as `[[case.body]]` segments, runs compressed.
pub const SEGMENT_THRESHOLD: usize = 4096;

/// A part of a long body.
#[derive(Debug, PartialEq, Eq)]
enum Segment<'a> {
    Text(&'a [u8]),
    Repeat(&'a [u8], usize),
}

/// A long body as segments: a line repeated 4 times or more, or a byte repeated 64 times
/// or more within a line, becomes a `repeat`; the rest is text.
fn segments(body: &[u8]) -> Vec<Segment<'_>> {
    let lines = crate::minimize::split_lines(body);
    let mut out = Vec::new();
    let mut text_start = 0;
    let mut offset = 0;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let same = lines[i..].iter().take_while(|l| **l == line).count();
        if same >= 4 {
            if text_start < offset {
                out.push(Segment::Text(&body[text_start..offset]));
            }
            out.push(Segment::Repeat(line, same));
            offset += line.len() * same;
            text_start = offset;
            i += same;
            continue;
        }
        // Runs of one byte inside the line.
        let mut j = 0;
        while j < line.len() {
            let run = line[j..].iter().take_while(|b| **b == line[j]).count();
            if run >= 64 {
                let at = offset + j;
                if text_start < at {
                    out.push(Segment::Text(&body[text_start..at]));
                }
                out.push(Segment::Repeat(&line[j..=j], run));
                text_start = at + run;
            }
            j += run;
        }
        offset += line.len();
        i += 1;
    }
    if text_start < body.len() {
        out.push(Segment::Text(&body[text_start..]));
    }
    out
}

/// [`escape_body`] for a single-line literal string: LF too becomes `\n`.
fn escape_line(bytes: &[u8]) -> String {
    escape_body(bytes).replace('\n', "\\n")
}

fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

/// `a=allowed b=disallowed ...`, sorted by implementation name.
fn observed_line(found: &Found) -> String {
    found
        .minimized
        .observed
        .iter()
        .map(|(name, word)| format!("{name}={word}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One finding as a corpus case (TOML text, ending in a blank line).
pub fn case_toml(campaign: &str, seed: u64, found: &Found) -> String {
    let signature = &found.signature;
    let example = &found.minimized;
    let (requirements, level) = requirements(signature);
    let dimensions: Vec<String> = signature
        .dimensions
        .iter()
        .map(|d| toml_string(d.as_str()))
        .collect();
    let requirements: Vec<String> = requirements.iter().map(|r| toml_string(r)).collect();
    let mut out = String::new();
    let _ = writeln!(out, "[[case]]");
    let _ = writeln!(out, "id = {}", toml_string(&case_id(signature)));
    let _ = writeln!(
        out,
        "title = {}",
        toml_string(&format!("Fuzzing finding: {signature}"))
    );
    let _ = writeln!(out, "dimensions = [{}]", dimensions.join(", "));
    let _ = writeln!(out, "unescape = true");
    if example.body.len() <= SEGMENT_THRESHOLD {
        let _ = writeln!(out, "robots = '''\n{}'''", escape_body(&example.body));
    } else {
        for segment in segments(&example.body) {
            let _ = writeln!(out, "\n[[case.body]]");
            match segment {
                Segment::Text(text) => {
                    let _ = writeln!(out, "text = '{}'", escape_line(text));
                }
                Segment::Repeat(unit, count) => {
                    let _ = writeln!(out, "repeat = '{}'\ncount = {count}", escape_line(unit));
                }
            }
        }
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "[[case.query]]");
    let _ = writeln!(out, "agent = {}", toml_string(&example.agent));
    let _ = writeln!(out, "url = {}", toml_string(&example.url));
    let _ = writeln!(out, "expect = \"either\"");
    let _ = writeln!(out, "requirements = [{}]", requirements.join(", "));
    let _ = writeln!(out, "level = {}", toml_string(level));
    let why = format!(
        "implementations disagree (fuzzing campaign `{campaign}`, seed {seed}, {} raw hit(s)); the RFC verdict awaits a decision",
        found.hits
    );
    let _ = writeln!(out, "why = {}", toml_string(&why));
    let triage = format!(
        "finding: RFC verdict not yet decided; observed: {}",
        observed_line(found)
    );
    let _ = writeln!(out, "triage = {}", toml_string(&triage));
    let _ = writeln!(out);
    let _ = writeln!(out, "[case.query.observed]");
    for (name, word) in &example.observed {
        let bare = !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        let key = if bare {
            name.clone()
        } else {
            toml_string(name)
        };
        let _ = writeln!(out, "{key} = {}", toml_string(word.as_str()));
    }
    let _ = writeln!(out);
    out
}

/// The case ids already in a findings file's text.
fn existing_ids(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|line| line.strip_prefix("id = \""))
        .filter_map(|rest| rest.strip_suffix('"'))
        .map(str::to_string)
        .collect()
}

/// The findings file's new text: `existing` (may be empty) plus one case per signature
/// of `report` whose id is not in `known` nor already in `existing`.
pub fn findings_toml(
    campaign: &str,
    report: &CampaignReport,
    existing: &str,
    known: &BTreeSet<String>,
) -> String {
    let mut out = existing.to_string();
    if out.is_empty() {
        let _ = writeln!(
            out,
            "# Findings of the fuzzing campaign `{campaign}` (reptest fuzz --seed {} --inputs {}),\n# promoted by `reptest fuzz --write-findings {campaign}`. Each expectation is\n# `either` until a person decides what the RFC requires; `observed` records what each\n# implementation answered, and harness/cli/tests/fuzz.rs checks it still does.\n",
            report.seed, report.inputs
        );
    }
    let mut seen = existing_ids(existing);
    for found in &report.signatures {
        let id = case_id(&found.signature);
        if known.contains(&id) || !seen.insert(id) {
            continue;
        }
        out.push_str(&case_toml(campaign, report.seed, found));
    }
    out
}

/// The Markdown write-up of a campaign: deterministic (no times, no speeds), one
/// section per signature.
pub fn render_markdown(campaign: &str, report: &CampaignReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Fuzzing findings: `{campaign}`\n");
    let _ = writeln!(
        out,
        "Seed {}, {} inputs, {} queries; {} signature(s). In process: {}. External (sampled): {}.\n",
        report.seed,
        report.inputs,
        report.queries,
        report.signatures.len(),
        names_or_none(&report.in_process),
        names_or_none(&report.external)
    );
    let _ = writeln!(
        out,
        "Every expectation is `either` until the RFC verdict is decided; the reference's\nanswer is one observation among the others. Bodies in visible-character notation\n(`↵` LF, `←` CR, `→` tab, `⇔` BOM, `␣` trailing space).\n"
    );
    if !report.signatures.is_empty() {
        let _ = writeln!(out, "| case | raw hits | signature |\n| --- | ---: | --- |");
        for found in &report.signatures {
            let _ = writeln!(
                out,
                "| `{}` | {} | {} |",
                case_id(&found.signature),
                found.hits,
                found.signature.to_string().replace('|', "\\|")
            );
        }
        let _ = writeln!(out);
    }
    for found in &report.signatures {
        let signature = &found.signature;
        let example = &found.minimized;
        let (requirements, level) = requirements(signature);
        let _ = writeln!(out, "## `{}`\n", case_id(signature));
        let _ = writeln!(out, "- signature: `{signature}`");
        let _ = writeln!(out, "- requirement: {} ({level})", requirements.join(", "));
        let _ = writeln!(
            out,
            "- raw hits: {} (first at input {})",
            found.hits, example.input
        );
        let _ = writeln!(out, "- agent: `{}`", example.agent);
        let _ = writeln!(out, "- url: `{}`\n", example.url);
        let _ = writeln!(out, "```text\n{}\n```\n", fenced(&example.body));
        let _ = writeln!(out, "| answer | implementations |\n| --- | --- |");
        for (word, names) in &signature.partition {
            let _ = writeln!(out, "| {word} | {} |", names.join(", "));
        }
        let _ = writeln!(out);
    }
    out
}

fn names_or_none(names: &[String]) -> String {
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}

/// The body in visible notation, without a trailing line break, safe inside a fence.
fn fenced(body: &[u8]) -> String {
    let text = if body.len() > SEGMENT_THRESHOLD {
        let (head, tail) = (&body[..1024], &body[body.len() - 512..]);
        format!(
            "{}\n[... {} bytes in all; the corpus case holds every byte ...]\n{}",
            reptest_core::visible::render(head),
            body.len(),
            reptest_core::visible::render(tail)
        )
    } else {
        reptest_core::visible::render(body)
    };
    let text = text.strip_suffix('\n').unwrap_or(&text);
    text.replace("```", "`\u{200b}``")
}

/// Where a campaign's findings go.
#[derive(Debug, Clone)]
pub struct Written {
    /// The corpus file.
    pub toml: PathBuf,
    /// The Markdown write-up.
    pub markdown: PathBuf,
    /// Cases added to the corpus file.
    pub added: usize,
}

/// Writes `corpus/findings/<campaign>.toml` (adding cases for signatures not yet in any
/// findings file) and `reports/findings/<campaign>.md`.
pub fn write(
    corpus_dir: &Path,
    reports_dir: &Path,
    campaign: &str,
    report: &CampaignReport,
) -> Result<Written, String> {
    if campaign.is_empty()
        || !campaign
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return Err(format!(
            "campaign name `{campaign}`: use lowercase ASCII letters, digits and `-`"
        ));
    }
    let findings = corpus_dir.join("findings");
    let toml_path = findings.join(format!("{campaign}.toml"));
    let existing = std::fs::read_to_string(&toml_path).unwrap_or_default();
    let mut known = BTreeSet::new();
    if let Ok(entries) = std::fs::read_dir(&findings) {
        for entry in entries.flatten() {
            let path = entry.path();
            if path != toml_path && path.extension().is_some_and(|e| e == "toml") {
                known.extend(existing_ids(
                    &std::fs::read_to_string(&path).unwrap_or_default(),
                ));
            }
        }
    }
    let text = findings_toml(campaign, report, &existing, &known);
    let added = existing_ids(&text).len() - existing_ids(&existing).len();
    let markdown_dir = reports_dir.join("findings");
    let markdown = markdown_dir.join(format!("{campaign}.md"));
    for dir in [&findings, &markdown_dir] {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    reptest_core::atomic::write_all(&[
        (toml_path.clone(), text.into_bytes()),
        (
            markdown.clone(),
            render_markdown(campaign, report).into_bytes(),
        ),
    ])?;
    Ok(Written {
        toml: toml_path,
        markdown,
        added,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_escape_everything_but_printable_ascii_and_lf() {
        assert_eq!(
            escape_body(b"\xEF\xBB\xBFa\tb\r\n'\\\0\xFF"),
            "\\xEF\\xBB\\xBFa\\tb\\r\n\\x27\\\\\\0\\xFF"
        );
    }

    #[test]
    fn long_bodies_compress_runs() {
        let mut body = b"User-agent: *\nDisallow: /x".to_vec();
        body.extend(std::iter::repeat_n(b'l', 100));
        body.extend_from_slice(b"\n");
        body.extend("#pad\n".repeat(5).bytes());
        body.extend_from_slice(b"Allow: /");
        let segments = segments(&body);
        assert_eq!(
            segments,
            vec![
                Segment::Text(b"User-agent: *\nDisallow: /x"),
                Segment::Repeat(b"l", 100),
                Segment::Text(b"\n"),
                Segment::Repeat(b"#pad\n", 5),
                Segment::Text(b"Allow: /"),
            ]
        );
        let joined: Vec<u8> = segments
            .iter()
            .flat_map(|s| match s {
                Segment::Text(t) => t.to_vec(),
                Segment::Repeat(u, n) => u.repeat(*n),
            })
            .collect();
        assert_eq!(joined, body);
        assert_eq!(escape_line(b"a\nb'"), "a\\nb\\x27");
    }

    #[test]
    fn requirements_put_rfc_ids_first() {
        let signature = Signature {
            partition: Vec::new(),
            dimensions: [Dimension::Bom, Dimension::Wildcards].into(),
            rule_kind: None,
        };
        assert_eq!(
            requirements(&signature),
            (vec!["2.2.3-STAR", "profile-BOM"], "MUST")
        );
        let signature = Signature {
            dimensions: [Dimension::Bom].into(),
            rule_kind: Some("no-match".into()),
            ..signature
        };
        assert_eq!(
            requirements(&signature),
            (vec!["2.2.2-NO-MATCH", "profile-BOM"], "MUST")
        );
    }
}
