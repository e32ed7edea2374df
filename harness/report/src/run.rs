//! The human summary of `reptest run` (and its `--matrix` TSV): pass rates per level over
//! the decided queries, the choices made where either verdict conforms, speed, timeouts
//! and crashes, the slowest cases and the queries that did not pass, grouped by root
//! cause ([`reptest_core::causes`]). The command line runs the corpus and prints what
//! this renders.

use reptest_core::causes::{group_by_cause, CauseGroup, CauseShare};
use reptest_core::runner::Run;
use reptest_core::score::{Summary, Tally};
use reptest_core::Outcome;
use reptest_corpus::{Corpus, Level, OutcomeWord, Profile};
use std::fmt::Write as _;

/// How the summary shows the queries a gating implementation did not pass.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum FailureView {
    /// One line per root cause: the count, the cause and its text, one example query.
    #[default]
    ByCause,
    /// Every query on its own line, in corpus order.
    List,
}

/// The summary: a header, one table row per implementation, the timeouts and crashes,
/// the slowest cases, then the queries each gating implementation did not pass (`gating[i]`
/// for `summaries[i]`: the others' failures are counted, not listed), shown as `view`
/// says, and the verdict.
pub fn summary(
    corpus: &Corpus,
    run: &Run,
    summaries: &[Summary],
    gating: &[bool],
    profile: Profile,
    view: FailureView,
) -> String {
    let mut out = String::new();
    let stats = corpus.stats();
    let _ = writeln!(
        out,
        "reptest run: {} queries in {} cases, {} implementation(s), profile {profile}\n",
        stats.queries,
        stats.cases,
        summaries.len()
    );
    let width = summaries
        .iter()
        .map(|s| s.name.len())
        .max()
        .unwrap_or(0)
        .max("implementation".len());
    table(&mut out, run, summaries, width);
    faults(&mut out, corpus, run);
    slowest(&mut out, run, width);
    failures(&mut out, corpus, summaries, gating, view);
    out
}

/// The table: pass rates per level over the decided queries, unsupported and
/// no-verdict counts, the queries answered where either verdict conforms, speed and
/// time.
fn table(out: &mut String, run: &Run, summaries: &[Summary], width: usize) {
    let _ = writeln!(
        out,
        "{:<width$} {:<18} {:<18} {:<18} {:>11} {:>10} {:>6} {:>9} {:>7}",
        "implementation",
        "MUST",
        "SHOULD",
        "MAY",
        "unsupported",
        "no verdict",
        "either",
        "queries/s",
        "seconds"
    );
    for (i, s) in summaries.iter().enumerate() {
        let total = s.total();
        let _ = writeln!(
            out,
            "{:<width$} {:<18} {:<18} {:<18} {:>11} {:>10} {:>6} {:>9} {:>7}",
            s.name,
            cell(s.per_level.get(&Level::Must)),
            cell(s.per_level.get(&Level::Should)),
            cell(s.per_level.get(&Level::May)),
            total.unsupported,
            total.no_verdict,
            total.choice,
            speed(run, i),
            seconds(run, i)
        );
    }
    let _ = writeln!(
        out,
        "(passed/judged over the decided queries; either: queries where the profile permits \
         both verdicts, answered as a choice and never counted as passed)"
    );
}

/// The queries each gating implementation did not pass, the others' counts, and the
/// verdict line when nothing that gates failed.
fn failures(
    out: &mut String,
    corpus: &Corpus,
    summaries: &[Summary],
    gating: &[bool],
    view: FailureView,
) {
    let mut unlisted = Vec::new();
    for (s, gating) in summaries.iter().zip(gating) {
        if s.failures.is_empty() {
            continue;
        }
        if !gating {
            unlisted.push(format!("{} {}", s.name, s.failures.len()));
            continue;
        }
        match view {
            FailureView::ByCause => by_cause(out, corpus, s),
            FailureView::List => {
                let _ = writeln!(
                    out,
                    "\n{}: {} queries did not pass",
                    s.name,
                    s.failures.len()
                );
                for f in &s.failures {
                    let _ = writeln!(out, "  FAIL {}", f.describe(corpus));
                }
            }
        }
    }
    if !unlisted.is_empty() {
        let _ = writeln!(
            out,
            "\nqueries not passed by the others (list them with --impl NAME): {}",
            unlisted.join(", ")
        );
    }
    if summaries.iter().all(|s| s.failures.is_empty()) {
        let _ = writeln!(out, "\nevery query passed");
    } else if summaries
        .iter()
        .zip(gating)
        .all(|(s, gating)| !gating || s.failures.is_empty())
    {
        let names: Vec<&str> = summaries
            .iter()
            .zip(gating)
            .filter(|(_, gating)| **gating)
            .map(|(s, _)| s.name.as_str())
            .collect();
        if !names.is_empty() {
            let _ = writeln!(out, "\nevery query passed by {}", names.join(", "));
        }
    }
}

/// One implementation's failures grouped by root cause ([`group_by_cause`]): a header
/// with the share that names a question, one line per cause (count, id, text) with one
/// example query under it, then where the details are.
fn by_cause(out: &mut String, corpus: &Corpus, s: &Summary) {
    let groups = group_by_cause(corpus, &s.failures);
    let share = CauseShare::of(&s.failures);
    let _ = writeln!(
        out,
        "\n{}: {} decided queries did not pass, {} cause(s); {} of them ({:.1}%) name a question",
        s.name,
        share.non_passing,
        groups.len(),
        share.with_question,
        share.share()
    );
    let digits = groups
        .first()
        .map_or(1, |g| g.failures.len().to_string().len());
    for group in &groups {
        let _ = writeln!(
            out,
            "  {:>digits$}  {}",
            group.failures.len(),
            cause_line(group)
        );
        if let Some(example) = group.example() {
            let _ = writeln!(
                out,
                "  {:>digits$}  e.g. {}",
                "",
                visible_line(&example.describe(corpus))
            );
        }
    }
    let _ = writeln!(
        out,
        "details: `reptest report --impl {0}` (every query with its body, expectation and \
         why), `reptest run --impl {0} --list` (every query on one line), `reptest gate \
         --impl {0} --baseline FILE` (CI)",
        s.name
    );
}

/// A cause's id and text on one line (`no root cause` for the failures without one).
fn cause_line(group: &CauseGroup) -> String {
    match &group.cause {
        None => "no root cause (the query names no question and tests no single requirement)"
            .to_string(),
        Some(cause) if group.text.is_empty() => cause.id().to_string(),
        Some(cause) => visible_line(&format!("{}  {}", cause.id(), group.text)),
    }
}

/// The outcome matrix as TSV: a header line, then one line per corpus query.
pub fn matrix(corpus: &Corpus, run: &Run, profile: Profile) -> String {
    let mut out = format!("query\texpected\t{}\n", run.implementations.join("\t"));
    let lookup = run.lookup();
    for (_, query) in corpus.queries() {
        out.push_str(&query.id);
        out.push('\t');
        out.push_str(query.expect_for(profile).as_str());
        for i in 0..run.implementations.len() {
            out.push('\t');
            out.push_str(lookup.outcome(i, &query.id).map_or("-", |o| o.word()));
        }
        out.push('\n');
    }
    out
}

/// A level's cell: `passed/judged rate%` over the decided queries, or `-` when none was
/// judged (also README's generated figures).
pub fn cell(tally: Option<&Tally>) -> String {
    match tally {
        Some(t) if t.judged() > 0 => format!("{}/{} {:.1}%", t.pass, t.judged(), t.pass_rate()),
        _ => "-".into(),
    }
}

/// The wall time implementation `i` took for the whole corpus, in seconds.
fn seconds(run: &Run, i: usize) -> String {
    run.elapsed
        .get(i)
        .map_or("-".into(), |t| format!("{:.1}", t.as_secs_f64()))
}

/// Queries per second of implementation `i`.
fn speed(run: &Run, i: usize) -> String {
    let qps = run.queries_per_second(i);
    if qps.is_finite() {
        format!("{qps:.0}")
    } else {
        "-".into()
    }
}

/// Faults listed per implementation, at most this many each (the count says the rest).
const FAULTS_SHOWN: usize = 5;
/// Slowest cases listed per implementation.
const SLOWEST_SHOWN: usize = 3;

/// The queries that got no verdict because the implementation timed out or crashed, per
/// implementation, with what it said (an adapter's stderr included): whatever the
/// implementation's gating, so a slow or dying adapter is never silent.
fn faults(out: &mut String, corpus: &Corpus, run: &Run) {
    let mut first = true;
    let lookup = run.lookup();
    for (i, name) in run.implementations.iter().enumerate() {
        let faults: Vec<(&str, &Outcome)> = corpus
            .queries()
            .filter_map(|(_, query)| Some((query.id.as_str(), lookup.outcome(i, &query.id)?)))
            .filter(|(_, o)| matches!(o, Outcome::Timeout(_) | Outcome::Crash(_)))
            .collect();
        if faults.is_empty() {
            continue;
        }
        if first {
            let _ = writeln!(
                out,
                "\ntimeouts and crashes (each adapter process was restarted after one):"
            );
            first = false;
        }
        let count = |word| faults.iter().filter(|(_, o)| o.kind() == word).count();
        let _ = writeln!(
            out,
            "  {name}: {} timeout, {} crash",
            count(OutcomeWord::Timeout),
            count(OutcomeWord::Crash)
        );
        for (id, outcome) in faults.iter().take(FAULTS_SHOWN) {
            let _ = writeln!(out, "    {id}: {}", visible_line(&outcome.to_string()));
        }
        if faults.len() > FAULTS_SHOWN {
            let _ = writeln!(
                out,
                "    ... and {} more (every outcome: --json or --matrix FILE)",
                faults.len() - FAULTS_SHOWN
            );
        }
    }
}

/// The slowest cases of each implementation, with their wall time.
fn slowest(out: &mut String, run: &Run, width: usize) {
    let _ = writeln!(
        out,
        "\nslowest cases (wall time per case, a timeout's wait included):"
    );
    for (i, name) in run.implementations.iter().enumerate() {
        let cases: Vec<String> = run
            .slowest_cases(i, SLOWEST_SHOWN)
            .into_iter()
            .map(|(case, time)| format!("{case} {:.2} s", time.as_secs_f64()))
            .collect();
        let _ = writeln!(out, "  {name:<width$} {}", cases.join(", "));
    }
}

/// `text` on one line, long messages cut.
fn visible_line(text: &str) -> String {
    let line = text.replace(['\n', '\r'], " ");
    match line.char_indices().nth(400) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line,
    }
}
