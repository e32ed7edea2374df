//! The gate's three output formats: human, JUnit XML, GitHub Actions commands.

use super::baseline::*;
use super::compare::*;
use crate::github::{Annotation, Level};
use crate::junit::{self, Suite, TestCase, Verdict};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub(super) fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// What the renderers need beyond the result.
#[derive(Debug, Clone, Default)]
pub struct Context {
    /// The baseline file, as the user named it.
    pub baseline: PathBuf,
    /// The command that re-records the baseline (`reptest gate ... --write-baseline`).
    pub rerecord: String,
    /// Case files are shown relative to this folder when below it (e.g. the parent of
    /// the corpus folder, giving `corpus/rfc/x.toml`).
    pub root: Option<PathBuf>,
    /// How long the run took (JUnit `time`).
    pub elapsed: Duration,
}

impl Context {
    /// `file` relative to [`Context::root`] when below it, else as it is.
    pub fn show(&self, file: &Path) -> String {
        self.root
            .as_deref()
            .and_then(|root| file.strip_prefix(root).ok())
            .unwrap_or(file)
            .display()
            .to_string()
    }
}

/// One line about a query: `id (file:line) agent=.. url=..: expected X, got Y`.
pub(super) fn describe(entry: &Entry, context: &Context) -> String {
    let q = &entry.query;
    format!(
        "{} ({}:{}) agent={} url={}: expected {}, got {}",
        q.id,
        context.show(&q.file),
        q.line,
        q.agent,
        q.url,
        q.expected,
        q.detail
    )
}

/// What a reader needs to understand a failing query without the corpus at hand: the
/// body in visible notation, why the expectation holds, the requirement's text, and the
/// command that shows the whole case.
pub fn explain(entry: &Entry) -> Vec<String> {
    let q = &entry.query;
    // The body as a block: one line of the file per line, each ending in its visible
    // line end (↵, ←, ⇒), indented under the title.
    let mut lines = vec!["body (visible notation):".to_string()];
    lines.extend(q.body.lines().map(|line| format!("  {line}")));
    if !q.why.is_empty() {
        lines.push(format!("why: {}", q.why));
    }
    if let Some(requirement) = &q.requirement_text {
        lines.push(format!("requirement {requirement}"));
    }
    lines.push(format!("the whole case: reptest corpus show {}", q.case));
    lines
}

/// The human report: the counts, the two titled lists (regressions, stale known
/// failures), new failures and missing ids when there are any, a corpus note, the
/// one-line verdict and the command that fixes the baseline.
pub fn human(result: &GateResult, context: &Context) -> String {
    let c = &result.counts;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "reptest gate: {}, profile {}, baseline {}",
        result.implementation,
        result.profile,
        context.baseline.display()
    );
    let _ = writeln!(
        out,
        "{} queries: {} passed, {} known failures still failing, {} new failures, {} unsupported, {} either (not gated)",
        c.queries, c.passed, c.known_failures, c.new_failures, c.unsupported, c.choices
    );
    section(
        &mut out,
        "Regressions (passed in the baseline, fail now)",
        &result.regressions,
        context,
    );
    section(
        &mut out,
        "Stale known failures (pass now: remove them from the baseline)",
        &result.stale,
        context,
    );
    if !result.new_failures.is_empty() {
        let title = if result.strict {
            "New failures (not in the baseline; fatal with --strict)"
        } else {
            "New failures (not in the baseline; add them with --write-baseline)"
        };
        section(&mut out, title, &result.new_failures, context);
    }
    if !result.missing.is_empty() {
        let _ = writeln!(
            out,
            "\nMissing from the corpus (in the baseline, no longer in the corpus): {}",
            result.missing.len()
        );
        for id in &result.missing {
            let _ = writeln!(out, "  {id}");
        }
    }
    if result.corpus_changed() {
        let _ = writeln!(
            out,
            "\nnote: the corpus changed since the baseline was recorded (fingerprint {} then, {} now); re-record to follow it",
            result.baseline_corpus, result.corpus
        );
    }
    let _ = writeln!(out, "\n{}", result.verdict());
    if !result.is_ok() {
        fixes(&mut out, result, context);
    }
    out
}

/// One titled list of the human report: its count, then each query explained.
fn section(out: &mut String, title: &str, entries: &[Entry], context: &Context) {
    let _ = writeln!(out, "\n{title}: {}", entries.len());
    if entries.is_empty() {
        out.push_str("  none\n");
    }
    for entry in entries {
        let _ = writeln!(out, "  {}", describe(entry, context));
        for line in explain(entry) {
            let _ = writeln!(out, "      {line}");
        }
    }
}

/// What fixes a failed gate, each cause its line, then the command that re-records.
fn fixes(out: &mut String, result: &GateResult, context: &Context) {
    if !result.regressions.is_empty() {
        out.push_str(
            "fix: make the regressed queries pass again; to accept them as known failures instead, re-record the baseline\n",
        );
    }
    if !result.stale.is_empty() {
        let _ = writeln!(
            out,
            "fix: delete the stale [[known_failure]] entries from {} (or re-record it; reasons are kept)",
            context.baseline.display()
        );
    }
    if result.strict && !result.new_failures.is_empty() {
        out.push_str("fix: make the new failures pass, or record them with --write-baseline\n");
    }
    let _ = writeln!(out, "re-record: {}", context.rerecord);
}

/// The JUnit class name of a query: `reptest.` and its first requirement with dots as
/// underscores (`reptest.2_2_3-STAR`, so report viewers do not split it into packages),
/// or its case file's stem when it names none.
pub(super) fn classname(query: &Judged) -> String {
    let group = match &query.requirement {
        Some(requirement) => requirement.replace('.', "_"),
        None => query
            .file
            .file_stem()
            .map(|s| s.to_string_lossy().replace('.', "_"))
            .unwrap_or_else(|| "corpus".into()),
    };
    format!("reptest.{group}")
}

/// The JUnit XML report (the Jenkins / Surefire schema most CI systems read, written
/// with [`crate::junit`]): one `<testsuites>` holding one `<testsuite name="reptest gate:
/// IMPL">`, one `<testcase>` per corpus query. Regressions and stale entries (and new
/// failures with strict) are `<failure type="regression|stale|new-failure">`; known
/// failures, non-fatal new failures, unsupported queries and those where either verdict
/// conforms (not gated) are `<skipped>`; everything else passes.
pub fn junit(result: &GateResult, context: &Context) -> String {
    let cases: Vec<TestCase> = result
        .entries
        .iter()
        .map(|entry| testcase(entry, result.strict, context))
        .collect();
    let count = |failed: bool| {
        cases
            .iter()
            .filter(|case| match case.verdict {
                Verdict::Failure { .. } => failed,
                Verdict::Skipped { .. } => !failed,
                Verdict::Passed => false,
            })
            .count()
    };
    let mut out = String::new();
    junit::open(
        &mut out,
        &Suite {
            name: &format!("reptest gate: {}", result.implementation),
            tests: cases.len(),
            failures: count(true),
            skipped_and_time: Some((count(false), context.elapsed)),
            name_on_testsuites: true,
        },
    );
    junit::properties(&mut out, &junit_properties(result, context));
    for case in &cases {
        case.write(&mut out);
    }
    junit::system_out(&mut out, &junit_notes(result).join("\n"));
    junit::close(&mut out);
    out
}

/// The suite's properties: what was gated, against what, and the verdict.
fn junit_properties(result: &GateResult, context: &Context) -> Vec<(&'static str, String)> {
    vec![
        ("implementation", result.implementation.clone()),
        ("profile", result.profile.as_str().to_string()),
        ("baseline", context.baseline.display().to_string()),
        ("corpus", result.corpus.clone()),
        ("baseline_corpus", result.baseline_corpus.clone()),
        ("verdict", result.verdict()),
    ]
}

/// The suite's notes: missing ids, a changed corpus, the verdict.
fn junit_notes(result: &GateResult) -> Vec<String> {
    let mut notes = Vec::new();
    if !result.missing.is_empty() {
        notes.push(format!(
            "baseline ids no longer in the corpus: {}",
            result.missing.join(", ")
        ));
    }
    if result.corpus_changed() {
        notes.push(format!(
            "the corpus changed since the baseline was recorded ({} then, {} now)",
            result.baseline_corpus, result.corpus
        ));
    }
    notes.push(result.verdict());
    notes
}

/// One query as a `<testcase>`, at its case file and line.
fn testcase(entry: &Entry, strict: bool, context: &Context) -> TestCase {
    let q = &entry.query;
    TestCase {
        classname: classname(q),
        name: q.id.clone(),
        location: Some((context.show(&q.file), q.line)),
        verdict: junit_verdict(entry, strict, context),
        system_out: None,
    }
}

/// How a query's `<testcase>` ends, by its status (see [`junit`]).
fn junit_verdict(entry: &Entry, strict: bool, context: &Context) -> Verdict {
    let q = &entry.query;
    let expected_got = format!("expected {}, got {}", q.expected, q.detail);
    let failure = |kind, message, extra: &str| Verdict::Failure {
        message,
        kind: Some(kind),
        detail: format!("{}{extra}", failure_detail(entry, context)),
    };
    let skip = |message| Verdict::Skipped { message };
    match entry.status {
        Status::Passed | Status::NewPass => Verdict::Passed,
        Status::Regression => failure(
            "regression",
            format!("regression: passed in the baseline, now {expected_got}"),
            "",
        ),
        Status::Stale => failure(
            "stale",
            format!(
                "stale known failure: passes now; remove its [[known_failure]] entry from {}",
                context.baseline.display()
            ),
            &format!(
                "\nfix: delete the [[known_failure]] entry with id = \"{}\" from {}",
                q.id,
                context.baseline.display()
            ),
        ),
        Status::NewFailure if strict => failure(
            "new-failure",
            format!("new failure (not in the baseline): {expected_got}"),
            "",
        ),
        Status::NewFailure => skip(format!("new failure, not in the baseline: {expected_got}")),
        Status::KnownFailure => {
            let reason = entry
                .reason
                .as_deref()
                .map(|r| format!(" ({r})"))
                .unwrap_or_default();
            skip(format!("known failure: {expected_got}{reason}"))
        }
        Status::Unsupported => skip(q.detail.clone()),
        Status::Choice => skip(format!(
            "either verdict conforms, not gated: the implementation chose {}",
            q.detail
        )),
    }
}

/// A failure's text: the query in one line, each of its fields, and [`explain`].
fn failure_detail(entry: &Entry, context: &Context) -> String {
    let q = &entry.query;
    format!(
        "{}\nagent: {}\nurl: {}\nexpected: {}\ngot: {}\n{}",
        describe(entry, context),
        q.agent,
        q.url,
        q.expected,
        q.detail,
        explain(entry).join("\n")
    )
}

/// GitHub Actions workflow commands (written with [`crate::github`]): `::error` for each
/// regression and stale entry (and new failure with strict), `::warning` for new failures
/// and missing ids, then a `::notice` with the verdict. Annotations carry the query's case
/// file and line.
pub fn github(result: &GateResult, context: &Context) -> String {
    let mut out = String::new();
    let mut annotate = |level, entry: &Entry, title: &str, message: String| {
        annotate_query(&mut out, level, entry, title, &message, context);
    };
    for entry in &result.regressions {
        let q = &entry.query;
        let message = format!(
            "expected {}, got {} (agent={} url={}; passed in the baseline)",
            q.expected, q.detail, q.agent, q.url
        );
        annotate(Level::Error, entry, "reptest regression", message);
    }
    for entry in &result.stale {
        let q = &entry.query;
        let message = format!(
            "passes now (expected {}, got {}): delete its [[known_failure]] entry from {}",
            q.expected,
            q.detail,
            context.baseline.display()
        );
        annotate(Level::Error, entry, "reptest stale known failure", message);
    }
    let level = if result.strict {
        Level::Error
    } else {
        Level::Warning
    };
    for entry in &result.new_failures {
        let q = &entry.query;
        let message = format!(
            "expected {}, got {} (agent={} url={}; not in the baseline)",
            q.expected, q.detail, q.agent, q.url
        );
        annotate(level, entry, "reptest new failure", message);
    }
    for id in &result.missing {
        Annotation {
            level: Level::Warning,
            file: Some(&context.baseline.display().to_string()),
            line: None,
            title: &format!("reptest missing query {id}"),
            message: &format!(
                "{id} is in the baseline but no longer in the corpus; re-record the baseline"
            ),
        }
        .write(&mut out);
    }
    Annotation {
        level: Level::Notice,
        file: None,
        line: None,
        title: "reptest gate",
        message: &github_summary(result, context),
    }
    .write(&mut out);
    out
}

/// An annotation on a query's case file and line: `title` and the query's id, the
/// message and [`explain`].
fn annotate_query(
    out: &mut String,
    level: Level,
    entry: &Entry,
    title: &str,
    message: &str,
    context: &Context,
) {
    let q = &entry.query;
    Annotation {
        level,
        file: Some(&context.show(&q.file)),
        line: Some(q.line),
        title: &format!("{title} {}", q.id),
        message: &format!("{message}\n{}", explain(entry).join("\n")),
    }
    .write(out);
}

/// The closing notice of [`github`]: the verdict and the counts.
fn github_summary(result: &GateResult, context: &Context) -> String {
    let mut summary = format!(
        "{}: {} ({} queries, {} passed, {} known failures, {} new failures, {} unsupported, {} either (not gated))",
        result.implementation,
        result.verdict(),
        result.counts.queries,
        result.counts.passed,
        result.counts.known_failures,
        result.counts.new_failures,
        result.counts.unsupported,
        result.counts.choices
    );
    if result.corpus_changed() {
        summary.push_str("; the corpus changed since the baseline was recorded");
    }
    if !result.is_ok() {
        summary.push_str(&format!("; re-record: {}", context.rerecord));
    }
    summary
}
