//! Findings: a campaign's signatures as regression cases in the corpus
//! (`corpus/findings/<name>.toml`) and as a Markdown write-up
//! (`reports/findings/<name>.md`).
//!
//! A finding's expectation is always `either` with a `triage` note: what the RFC requires
//! is decided by a person reading the RFC, never taken from the reference's answer. What
//! each implementation answered is recorded in the query's `observed` table, so a later
//! change of behaviour shows up as a failing test.

use crate::campaign::{CampaignReport, Found};
use reptest_corpus::names;
use reptest_corpus::write::SEGMENT_THRESHOLD;
use reptest_corpus::{Case, Corpus, Dimension, Expect, Level, Query};
use reptest_triage::features::{features, Feature};
use reptest_triage::signature::Signature;
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

/// The given name of a finding's query whose derived name would be too long to read.
pub const LONG_URL: &str = "long-url";

/// The name of a finding's one query: derived from its agent and URL, unless that is too
/// long to read (a minimized input can keep a long path): then [`LONG_URL`], given.
fn query_name(agent: &str, url: &str) -> String {
    Some(names::derived(agent, url))
        .filter(|name| names::fits(name))
        .unwrap_or_else(|| LONG_URL.to_string())
}

/// The case id of a signature: `finding-<short hash>`.
pub fn case_id(signature: &Signature) -> String {
    format!("finding-{}", signature.short_hash())
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

/// One finding as a corpus case (TOML text, ending in a blank line), through the corpus's
/// case writer ([`reptest_corpus::write::case_toml`]).
pub fn case_toml(campaign: &str, seed: u64, found: &Found) -> String {
    reptest_corpus::write::case_toml(&finding_case(campaign, seed, found))
}

/// One finding as a corpus case: expectation `either`, marked for triage, with what each
/// implementation answered.
pub fn finding_case(campaign: &str, seed: u64, found: &Found) -> Case {
    let signature = &found.signature;
    let example = &found.minimized;
    let (mut requirements, mut level) = requirements(signature);
    // The `case` dimension covers three requirements: name the one the input shows.
    if let Some(at) = requirements.iter().position(|r| *r == "2.2.2-CASE") {
        let shown = features(&example.body, &example.agent, &example.url);
        if !shown.contains(&Feature::PathCase) {
            requirements[at] = if shown.contains(&Feature::AgentCase) {
                "2.2.1-CASE"
            } else {
                "2.2-KEY-CASE"
            };
            if at == 0 {
                level = "MUST";
            }
        }
    }
    let id = case_id(signature);
    let why = format!(
        "implementations disagree (fuzzing campaign `{campaign}`, seed {seed}, {} raw hit(s)); the RFC verdict awaits a decision",
        found.hits
    );
    let triage = format!(
        "finding: RFC verdict not yet decided; observed: {}",
        observed_line(found)
    );
    let name = query_name(&example.agent, &example.url);
    Case {
        id: id.clone(),
        title: format!("Fuzzing finding: {signature}"),
        body: example.body.clone(),
        dimensions: signature.dimensions.iter().copied().collect(),
        fetch: None,
        queries: vec![Query {
            id: names::id(&id, &name),
            name,
            agent: example.agent.clone(),
            url: example.url.clone(),
            expect: Expect::Either,
            requirements: requirements.iter().map(|r| r.to_string()).collect(),
            level: Level::parse(level).unwrap_or(Level::May),
            why,
            profiles: Default::default(),
            triage: Some(triage),
            // The attributed question, as a lead for whoever decides the verdict.
            question: found.question.clone(),
            hits: Some(found.hits),
            observed: example.observed.iter().cloned().collect(),
            line: 0,
        }],
        file: Default::default(),
        line: 0,
    }
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
            "# Findings of the fuzzing campaign `{campaign}` (reptest fuzz --seed {} --inputs {}),\n# promoted by `reptest fuzz --write-findings {campaign}`. Each expectation is\n# `either` until a person decides what the RFC requires; `observed` records what each\n# implementation answered, and harness/cli/tests/integration/fuzz.rs checks it still does.\n",
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
            reptest_core::visible_notation::render(head),
            body.len(),
            reptest_core::visible_notation::render(tail)
        )
    } else {
        reptest_core::visible_notation::render(body)
    };
    let text = text.strip_suffix('\n').unwrap_or(&text);
    text.replace("```", "`\u{200b}``")
}

/// The write-up of a campaign's findings as the corpus holds them
/// (`corpus/findings/<campaign>.toml`): a table of the questions they are about, then
/// per question its RFC sentences and decision and each finding with its body, query,
/// expected verdict and which implementations answer it right and wrong (from the
/// `observed` table); findings without a question last, as new. Deterministic: the
/// committed `reports/findings/<campaign>.md` is this rendering
/// (`reptest corpus write-ups` rewrites it; a test compares).
pub fn render_corpus_write_up(corpus: &Corpus, campaign: &str) -> String {
    let findings: Vec<(&Case, &Query)> = corpus
        .queries()
        .filter(|(case, _)| {
            case.file.parent().and_then(Path::file_name) == Some("findings".as_ref())
                && case.file.file_stem().is_some_and(|s| s == campaign)
        })
        .collect();
    let mut out = String::new();
    let _ = writeln!(out, "# Fuzzing findings: `{campaign}`\n");
    let hits: u64 = findings.iter().filter_map(|(_, q)| q.hits).sum();
    let undecided = findings.iter().filter(|(_, q)| q.is_undecided()).count();
    let _ = writeln!(
        out,
        "{} finding(s) promoted from the fuzzing campaign `{campaign}` \
         (`corpus/findings/{campaign}.toml`), {hits} raw hit(s) in all; {} decided from the \
         RFC text, {undecided} awaiting a decision. Each is a minimized input on which \
         implementations disagreed, grouped below by the question it is about \
         (`corpus/questions.toml`). *Right* and *wrong* are judged against the decided \
         verdict, from what each implementation answered when the finding was recorded. \
         Bodies in visible-character notation (`↵` LF, `←` CR, `→` tab, `⇔` BOM, `␣` \
         trailing space).\n",
        findings.len(),
        findings.len() - undecided
    );
    let groups = group_findings(corpus, &findings);
    write_question_table(&mut out, &groups);
    for (question, mine) in &groups {
        write_group_heading(&mut out, *question);
        for (case, query) in mine {
            write_finding(&mut out, case, query);
        }
    }
    out
}

/// The findings by question: the questions in catalogue order (those with findings),
/// then the findings naming none (or an unknown one).
fn group_findings<'a>(corpus: &'a Corpus, findings: &[(&'a Case, &'a Query)]) -> Vec<Group<'a>> {
    let mut groups: Vec<Group<'_>> = corpus
        .questions()
        .iter()
        .map(|q| {
            let mine = findings
                .iter()
                .filter(|(_, query)| query.question.as_deref() == Some(q.id.as_str()))
                .copied()
                .collect();
            (Some(q), mine)
        })
        .filter(|(_, mine): &(_, Vec<_>)| !mine.is_empty())
        .collect();
    let unattributed: Vec<(&Case, &Query)> = findings
        .iter()
        .filter(|(_, q)| {
            q.question
                .as_deref()
                .and_then(|id| corpus.question(id))
                .is_none()
        })
        .copied()
        .collect();
    if !unattributed.is_empty() {
        groups.push((None, unattributed));
    }
    groups
}

/// The table of the groups: question, level, findings, hits, who is wrong on them.
fn write_question_table(out: &mut String, groups: &[Group<'_>]) {
    let _ = writeln!(
        out,
        "| question | level | findings | raw hits | implementations wrong on them |\n| --- | --- | ---: | ---: | --- |"
    );
    for (question, mine) in groups {
        let wrong: BTreeSet<&str> = mine.iter().flat_map(|(_, q)| wrong_on(q)).collect();
        let (id, text, level) = match question {
            Some(q) => (q.id.as_str(), q.question.as_str(), q.level.as_str()),
            None => ("new", "not attributed to a question yet", "—"),
        };
        let _ = writeln!(
            out,
            "| [{id}](#{}) {} | {level} | {} | {} | {} |",
            id.to_ascii_lowercase(),
            text.replace('|', "\\|"),
            mine.len(),
            mine.iter().filter_map(|(_, q)| q.hits).sum::<u64>(),
            names_or_none(&wrong.iter().map(|s| s.to_string()).collect::<Vec<_>>())
        );
    }
    let _ = writeln!(out);
}

/// A group's heading: the question with its RFC sentences and decision, or `new`.
fn write_group_heading(out: &mut String, question: Option<&reptest_corpus::Question>) {
    let Some(q) = question else {
        let _ = writeln!(
            out,
            "## new\n\nNot attributed to a question of the catalogue yet.\n"
        );
        return;
    };
    let _ = writeln!(out, "## {}\n", q.id);
    let _ = writeln!(out, "**{}**\n", q.question);
    for quote in &q.rfc {
        let _ = writeln!(
            out,
            "> {} “{}”\n",
            reptest_corpus::questions::cite(&quote.section),
            quote.text
        );
    }
    let _ = writeln!(out, "Decision ({}): {}\n", q.level, q.decision);
    if let Some(both) = &q.permits_both {
        let _ = writeln!(out, "Either verdict conforms: {both}\n");
    }
}

/// One finding: its query, body and the recorded answers, judged right or wrong.
fn write_finding(out: &mut String, case: &Case, query: &Query) {
    let _ = writeln!(out, "### `{}`\n", case.id);
    let _ = writeln!(out, "{}\n", case.title);
    let _ = writeln!(
        out,
        "- expected: **{}** ({}; {})",
        query.expect,
        query.level,
        query.requirements.join(", ")
    );
    if let Some(hits) = query.hits {
        let _ = writeln!(out, "- raw hits: {hits}");
    }
    let _ = writeln!(out, "- agent: `{}`", query.agent);
    let _ = writeln!(out, "- url: `{}`", query.url);
    let _ = writeln!(out, "- why: {}\n", query.why);
    let _ = writeln!(out, "```text\n{}\n```\n", fenced(&case.body));
    let _ = writeln!(out, "| answer | implementations |\n| --- | --- |");
    let mut by_word: std::collections::BTreeMap<String, Vec<&str>> = Default::default();
    for (name, word) in &query.observed {
        let judged = match word.verdict() {
            Some(allowed) if query.expect.accepts(allowed) && query.expect != Expect::Either => {
                format!("{word} (right)")
            }
            Some(_) if query.expect != Expect::Either => format!("{word} (wrong)"),
            _ => word.to_string(),
        };
        by_word.entry(judged).or_default().push(name);
    }
    for (word, names) in by_word {
        let _ = writeln!(out, "| {word} | {} |", names.join(", "));
    }
    let _ = writeln!(out);
}

/// A question (or none: new) with the findings naming it.
type Group<'a> = (
    Option<&'a reptest_corpus::Question>,
    Vec<(&'a Case, &'a Query)>,
);

/// The implementations whose recorded verdict contradicts a decided expectation.
fn wrong_on(query: &Query) -> Vec<&str> {
    query
        .observed
        .iter()
        .filter(|(_, word)| {
            word.verdict()
                .is_some_and(|allowed| !query.expect.accepts(allowed))
        })
        .map(|(name, _)| name.as_str())
        .collect()
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

/// Why a campaign's findings could not be written: the campaign's name cannot name a
/// file, or a folder or file could not be written.
#[derive(Debug)]
pub struct WriteError {
    kind: WriteErrorKind,
}

#[derive(Debug)]
enum WriteErrorKind {
    /// The campaign name is not lowercase ASCII letters, digits and `-`.
    CampaignName(String),
    /// A folder could not be created.
    CreateDir(PathBuf, std::io::Error),
    /// A file could not be written.
    Write(reptest_core::atomic::Error),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.kind {
            WriteErrorKind::CampaignName(name) => write!(
                f,
                "campaign name `{name}`: use lowercase ASCII letters, digits and `-`"
            ),
            WriteErrorKind::CreateDir(dir, e) => {
                write!(f, "cannot create {}: {e}", dir.display())
            }
            WriteErrorKind::Write(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for WriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            WriteErrorKind::CampaignName(_) => None,
            WriteErrorKind::CreateDir(_, e) => Some(e),
            WriteErrorKind::Write(e) => Some(e),
        }
    }
}

impl From<reptest_core::atomic::Error> for WriteError {
    fn from(e: reptest_core::atomic::Error) -> WriteError {
        WriteError {
            kind: WriteErrorKind::Write(e),
        }
    }
}

/// Writes `corpus/findings/<campaign>.toml` (adding cases for signatures not yet in any
/// findings file) and `reports/findings/<campaign>.md`.
pub fn write(
    corpus_dir: &Path,
    reports_dir: &Path,
    campaign: &str,
    report: &CampaignReport,
) -> Result<Written, WriteError> {
    if campaign.is_empty()
        || !campaign
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return Err(WriteError {
            kind: WriteErrorKind::CampaignName(campaign.to_string()),
        });
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
        std::fs::create_dir_all(dir).map_err(|e| WriteError {
            kind: WriteErrorKind::CreateDir(dir.to_path_buf(), e),
        })?;
    }
    reptest_core::atomic::write(&toml_path, text.as_bytes())?;
    // The write-up from the corpus as it now is (decisions and questions included); the
    // campaign's own rendering when the corpus does not load.
    let write_up = match Corpus::load(corpus_dir) {
        Ok(corpus) => render_corpus_write_up(&corpus, campaign),
        Err(_) => render_markdown(campaign, report),
    };
    reptest_core::atomic::write(&markdown, write_up.as_bytes())?;
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
    fn long_urls_get_a_given_name() {
        assert_eq!(
            query_name("examplebot", "https://example.com/a"),
            "examplebot:/a"
        );
        let long = format!("https://example.com/{}", "l".repeat(200));
        assert_eq!(query_name("examplebot", &long), LONG_URL);
        assert!(names::check_given(LONG_URL).is_ok());
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
