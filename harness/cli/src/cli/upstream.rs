//! `reptest upstream`: the bug reports of one implementation, to file upstream.

use super::{CommandResult, CorpusArg};
use reptest::report::upstream::{self, BugReport, SurveyFiles};
use reptest::report::Report;
use std::path::PathBuf;
use std::process::ExitCode;

/// Print the bug reports of one implementation: per question of the catalogue it gets
/// wrong, the smallest corpus query that shows it, the robots.txt as exact bytes, the
/// RFC 9309 sentence that decides it, the library's answer and version, how much of the
/// corpus the question touches for it, the known upstream threads, and a reproducer in
/// the library's own language (its public API, its one-line install) that prints the
/// actual answer next to the expected one.
///
/// `reptest report` writes the same reports for every implementation into
/// `DIR/upstream/NAME/QUESTION.md`, each reproducer beside its report.
///
/// Runs the corpus through the implementation and the reference (or reads a report
/// folder's report.json with --report). Exits 0 when reports were printed, 1 when the
/// implementation gets no question wrong (or not the one --question names), 2 on an
/// unknown implementation or question.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  reptest upstream --impl python-protego\n  reptest upstream --impl python-protego --question Q-AGENT-PARTIAL-VALUE\n  reptest upstream --impl node-robots-parser --question Q-AGENT-CASE --reproducer > repro.js\n  reptest upstream --impl python-protego --report reptest-report/report.json"
)]
pub struct Args {
    #[command(flatten)]
    corpus: CorpusArg,
    /// The implementation (see `reptest impls`). Without it, every implementation of
    /// the --report (which it then needs).
    #[arg(long = "impl", value_name = "NAME", required_unless_present = "report")]
    implementation: Option<String>,
    /// Only the report of this question (`Q-…`, see corpus/questions.toml).
    #[arg(long, value_name = "Q")]
    question: Option<String>,
    /// Print only the reproducer's source (needs --question).
    #[arg(long, requires = "question")]
    reproducer: bool,
    /// Read the run from this report.json (`reptest report`) instead of running; the
    /// corpus must be the one it ran.
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// A survey's survey.json (`reptest survey --out DIR`), whose per-question counts of
    /// real files the reports quote.
    #[arg(long, value_name = "FILE")]
    survey: Option<PathBuf>,
    /// Write the bug reports as files into this folder (NAME/QUESTION.md, each
    /// reproducer beside its report, README.md, reproducers.json), as `reptest report`
    /// does into its upstream/ folder, instead of printing them.
    #[arg(long, value_name = "DIR", conflicts_with = "reproducer")]
    out: Option<PathBuf>,
    #[command(flatten)]
    quiet: super::QuietArg,
}

pub fn run(args: Args) -> CommandResult {
    let corpus = args.corpus.load()?;
    if let Some(q) = &args.question {
        if !corpus.questions().iter().any(|known| &known.id == q) {
            return Err(format!(
                "unknown question `{q}` (corpus/questions.toml lists them)"
            ));
        }
    }
    let report = match (&args.report, &args.implementation) {
        (Some(path), name) => read_report(path, name.as_deref())?,
        (None, Some(name)) => fresh_report(&args, name, &corpus)?,
        (None, None) => return Err("--impl NAME or --report FILE is needed".into()),
    };
    let survey = survey_files(args.survey.as_deref())?;
    let bugs: Vec<BugReport<'_>> = upstream::bug_reports(&report, &corpus, survey.as_ref())
        .into_iter()
        .filter(|b| {
            args.implementation
                .as_ref()
                .is_none_or(|n| &b.implementation.name == n)
        })
        .filter(|b| args.question.as_ref().is_none_or(|q| &b.question.id == q))
        .collect();
    if let Some(out) = &args.out {
        return write(&bugs, out);
    }
    if bugs.is_empty() {
        eprintln!(
            "reptest upstream: {} gets {} wrong in this run: no bug report",
            args.implementation
                .as_deref()
                .unwrap_or("no implementation"),
            args.question
                .as_deref()
                .unwrap_or("no question of the catalogue")
        );
        return Ok(ExitCode::from(1));
    }
    if args.reproducer {
        let Some(r) = &bugs[0].reproducer else {
            return Err(format!(
                "{}'s report on {} has no reproducer (see the report for why)",
                bugs[0].implementation.name, bugs[0].question.id
            ));
        };
        out!("{}", r.source);
        return Ok(ExitCode::SUCCESS);
    }
    let pages: Vec<String> = bugs.iter().map(upstream::render).collect();
    out!("{}", pages.join("\n"));
    Ok(ExitCode::SUCCESS)
}

/// Writes `bugs` into `out`, all files together.
fn write(bugs: &[BugReport<'_>], out: &std::path::Path) -> CommandResult {
    let files = super::report::upstream_files(bugs, out, std::path::Path::new(""))?;
    reptest::atomic::write_all(&files).map_err(|e| e.to_string())?;
    out!("{}", upstream::written(bugs, out));
    Ok(ExitCode::SUCCESS)
}

/// The survey counts in `path` (a survey.json), when given.
pub fn survey_files(path: Option<&std::path::Path>) -> Result<Option<SurveyFiles>, String> {
    let Some(path) = path else {
        return Ok(None);
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    SurveyFiles::from_json(&text)
        .map(Some)
        .map_err(|e| format!("{} is not a reptest survey.json: {e}", path.display()))
}

/// The run of `name` and the reference over `corpus`, as a report.
fn fresh_report(
    args: &Args,
    name: &str,
    corpus: &reptest_corpus::Corpus,
) -> Result<Report, String> {
    let mut names = vec![name.to_string()];
    if name != "reference" {
        names.insert(0, "reference".into());
    }
    let implementations = super::selected(&names)?;
    let run = super::run_corpus_quiet(corpus, &implementations, args.quiet.quiet);
    let infos: Vec<_> = implementations.iter().map(|i| i.info().clone()).collect();
    Ok(Report::build(
        corpus,
        &args.corpus.dir(),
        &run,
        &infos,
        &super::report::now_rfc3339(),
    ))
}

/// The report in `path`, which must hold implementation `name` when one is named.
fn read_report(path: &std::path::Path, name: Option<&str>) -> Result<Report, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let report: Report = serde_json::from_str(&text)
        .map_err(|e| format!("{} is not a reptest report.json: {e}", path.display()))?;
    if let Some(name) = name.filter(|n| report.implementation(n).is_none()) {
        return Err(format!(
            "{} holds no run of {name} (it has: {})",
            path.display(),
            report
                .implementations
                .iter()
                .map(|i| i.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok(report)
}
