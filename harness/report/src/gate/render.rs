//! The gate's three output formats: human, JUnit XML, GitHub Actions commands.

use super::baseline::*;
use super::compare::*;
use reptest_core::markup::escape as xml_escape;
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
        "{} queries: {} passed, {} known failures still failing, {} new failures, {} unsupported",
        c.queries, c.passed, c.known_failures, c.new_failures, c.unsupported
    );
    let mut section = |title: &str, entries: &[Entry]| {
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
    };
    section(
        "Regressions (passed in the baseline, fail now)",
        &result.regressions,
    );
    section(
        "Stale known failures (pass now: remove them from the baseline)",
        &result.stale,
    );
    if !result.new_failures.is_empty() {
        let title = if result.strict {
            "New failures (not in the baseline; fatal with --strict)"
        } else {
            "New failures (not in the baseline; add them with --write-baseline)"
        };
        section(title, &result.new_failures);
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
    out
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

/// The JUnit XML report (the Jenkins / Surefire schema most CI systems read): one
/// `<testsuites>` holding one `<testsuite name="reptest gate: IMPL">`, one `<testcase>`
/// per corpus query. Regressions and stale entries (and new failures with strict) are
/// `<failure type="regression|stale|new-failure">`; known failures, non-fatal new
/// failures and unsupported queries are `<skipped>`; everything else passes.
pub fn junit(result: &GateResult, context: &Context) -> String {
    let mut cases = String::new();
    let (mut failures, mut skipped) = (0usize, 0usize);
    for entry in &result.entries {
        let q = &entry.query;
        let _ = write!(
            cases,
            "    <testcase classname=\"{}\" name=\"{}\" file=\"{}\" line=\"{}\"",
            xml_escape(&classname(q)),
            xml_escape(&q.id),
            xml_escape(&context.show(&q.file)),
            q.line
        );
        let expected_got = format!("expected {}, got {}", q.expected, q.detail);
        let detail = format!(
            "{}\nagent: {}\nurl: {}\nexpected: {}\ngot: {}\n{}",
            describe(entry, context),
            q.agent,
            q.url,
            q.expected,
            q.detail,
            explain(entry).join("\n")
        );
        let failure = |kind: &str, message: String, extra: &str| {
            format!(
                ">\n      <failure message=\"{}\" type=\"{kind}\">{}</failure>\n    </testcase>\n",
                xml_escape(&message),
                xml_escape(&format!("{detail}{extra}"))
            )
        };
        let skip = |message: String| {
            format!(
                ">\n      <skipped message=\"{}\"/>\n    </testcase>\n",
                xml_escape(&message)
            )
        };
        let body = match entry.status {
            Status::Passed | Status::NewPass => "/>\n".to_string(),
            Status::Regression => {
                failures += 1;
                failure(
                    "regression",
                    format!("regression: passed in the baseline, now {expected_got}"),
                    "",
                )
            }
            Status::Stale => {
                failures += 1;
                failure(
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
                )
            }
            Status::NewFailure if result.strict => {
                failures += 1;
                failure(
                    "new-failure",
                    format!("new failure (not in the baseline): {expected_got}"),
                    "",
                )
            }
            Status::NewFailure => {
                skipped += 1;
                skip(format!("new failure, not in the baseline: {expected_got}"))
            }
            Status::KnownFailure => {
                skipped += 1;
                let reason = entry
                    .reason
                    .as_deref()
                    .map(|r| format!(" ({r})"))
                    .unwrap_or_default();
                skip(format!("known failure: {expected_got}{reason}"))
            }
            Status::Unsupported => {
                skipped += 1;
                skip(q.detail.clone())
            }
        };
        cases.push_str(&body);
    }
    let tests = result.entries.len();
    let time = format!("{:.3}", context.elapsed.as_secs_f64());
    let name = xml_escape(&format!("reptest gate: {}", result.implementation));
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"{name}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\" time=\"{time}\">"
    );
    let _ = writeln!(
        out,
        "  <testsuite name=\"{name}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\" time=\"{time}\">"
    );
    out.push_str("    <properties>\n");
    let properties = [
        ("implementation", result.implementation.as_str()),
        ("profile", result.profile.as_str()),
        ("baseline", &context.baseline.display().to_string()),
        ("corpus", result.corpus.as_str()),
        ("baseline_corpus", result.baseline_corpus.as_str()),
        ("verdict", &result.verdict()),
    ]
    .map(|(k, v)| (k, v.to_string()));
    for (key, value) in &properties {
        let _ = writeln!(
            out,
            "      <property name=\"{}\" value=\"{}\"/>",
            xml_escape(key),
            xml_escape(value)
        );
    }
    out.push_str("    </properties>\n");
    out.push_str(&cases);
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
    let _ = writeln!(
        out,
        "    <system-out>{}</system-out>",
        xml_escape(&notes.join("\n"))
    );
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

/// Escapes the message of a GitHub Actions workflow command: `%`, CR and LF.
pub fn github_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value of a GitHub Actions workflow command (`file=`, `title=`):
/// as [`github_data`], plus `:` and `,`.
pub fn github_property(text: &str) -> String {
    github_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// GitHub Actions workflow commands: `::error` for each regression and stale entry (and
/// new failure with strict), `::warning` for new failures and missing ids, then a
/// `::notice` with the verdict. Annotations carry the query's case file and line.
pub fn github(result: &GateResult, context: &Context) -> String {
    let mut out = String::new();
    let mut annotate = |level: &str, entry: &Entry, title: &str, message: String| {
        let q = &entry.query;
        let message = format!("{message}\n{}", explain(entry).join("\n"));
        let _ = writeln!(
            out,
            "::{level} file={},line={},title={}::{}",
            github_property(&context.show(&q.file)),
            q.line,
            github_property(&format!("{title} {}", q.id)),
            github_data(&message)
        );
    };
    for entry in &result.regressions {
        let q = &entry.query;
        let message = format!(
            "expected {}, got {} (agent={} url={}; passed in the baseline)",
            q.expected, q.detail, q.agent, q.url
        );
        annotate("error", entry, "reptest regression", message);
    }
    for entry in &result.stale {
        let q = &entry.query;
        let message = format!(
            "passes now (expected {}, got {}): delete its [[known_failure]] entry from {}",
            q.expected,
            q.detail,
            context.baseline.display()
        );
        annotate("error", entry, "reptest stale known failure", message);
    }
    let level = if result.strict { "error" } else { "warning" };
    for entry in &result.new_failures {
        let q = &entry.query;
        let message = format!(
            "expected {}, got {} (agent={} url={}; not in the baseline)",
            q.expected, q.detail, q.agent, q.url
        );
        annotate(level, entry, "reptest new failure", message);
    }
    for id in &result.missing {
        let _ = writeln!(
            out,
            "::warning file={},title={}::{}",
            github_property(&context.baseline.display().to_string()),
            github_property(&format!("reptest missing query {id}")),
            github_data(&format!(
                "{id} is in the baseline but no longer in the corpus; re-record the baseline"
            ))
        );
    }
    let mut summary = format!(
        "{}: {} ({} queries, {} passed, {} known failures, {} new failures, {} unsupported)",
        result.implementation,
        result.verdict(),
        result.counts.queries,
        result.counts.passed,
        result.counts.known_failures,
        result.counts.new_failures,
        result.counts.unsupported
    );
    if result.corpus_changed() {
        summary.push_str("; the corpus changed since the baseline was recorded");
    }
    if !result.is_ok() {
        summary.push_str(&format!("; re-record: {}", context.rerecord));
    }
    let _ = writeln!(
        out,
        "::notice title={}::{}",
        github_property("reptest gate"),
        github_data(&summary)
    );
    out
}
