//! `reptest run`: the corpus through implementations, pass rates and failures grouped by
//! root cause (the summary and the matrix are rendered by `reptest::report::run`).

use super::{CommandResult, CorpusArg};
use reptest::report::run::{matrix, summary, FailureView};
use reptest::score;
use reptest_corpus::Profile;
use std::path::PathBuf;
use std::process::ExitCode;

/// Run the corpus through implementations (default: every available one) and print pass
/// rates, speed and failures.
///
/// Every corpus query goes to each implementation, one implementation after another; the
/// summary gives the pass rate per level (MUST / SHOULD / MAY) over the decided queries
/// (a query where the profile permits either verdict is a choice, counted under
/// `either`, never as passed), the queries/s and wall time of each, its timeouts,
/// crashes and slowest cases, and the queries that did not pass, grouped by root cause:
/// one line per question of the catalogue (or plain requirement) with the count and one
/// example, the queries with no root cause last (--list: every query on its own line).
/// On a terminal, stderr shows which implementation is running (n of N), its queries/s
/// and the time left for it (--quiet: nothing).
///
/// Exits 1 if an implementation named with --impl did not pass a query; with the default
/// (every available implementation, also `--impl all`) or a set (`--impl parsers`,
/// `--impl crawlers`), only the reference counts, and the failures of the others are
/// counted, not listed.
///
/// `reptest impls` lists the implementations; `bash harness/external/setup` installs
/// the external ones.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    corpus: CorpusArg,
    /// Implementations to run, comma-separated (see `reptest impls`). Default: every
    /// available one (`all`); `parsers` names every available one that parses a body,
    /// `crawlers` every available crawler (the crawlers start first and run beside the
    /// parsers, together, four crawls per core at a time, at least four; most crawl the
    /// loopback sites of many cases in one process).
    #[arg(long = "impl", value_name = "NAMES", value_delimiter = ',')]
    implementations: Vec<String>,
    /// Judge against this profile's expectations.
    #[arg(long, default_value = "rfc9309", value_parser = super::profile_parser())]
    profile: Profile,
    /// Print the result as JSON instead: the report model of `reptest report` (its
    /// report.json), with every outcome, score and implementation, judged under every
    /// profile (--profile only sets the exit code).
    ///
    /// Per implementation, `scores[i]` holds: `profiles` (profile, then level, to `pass`,
    /// `fail`, `no_verdict`, `unsupported`, `choices`, `pass_rate`; pass, fail, no
    /// verdict and the rate count decided queries only, `choices` the queries where the
    /// profile permits either verdict), `totals` (the same over every level),
    /// `not_passed` (profile to the decided queries failed or without a verdict, as
    /// row indexes: `cases[].queries[].index`), and `causes` (profile to the same
    /// queries grouped by root cause: `non_passing`, the count, unsupported and either
    /// queries left out; `with_question`, how many name a question; `share`, that in
    /// percent; `groups`, the largest first and the queries without a root cause last,
    /// each with `kind` (question, requirement, none), `id`, `text`, `count` and
    /// `queries`, row indexes whose first is the example).
    #[arg(long)]
    json: bool,
    /// List every query not passed on its own line, in corpus order, instead of one line
    /// per root cause.
    #[arg(long)]
    list: bool,
    /// Also write the outcome matrix as TSV: query id, expected verdict, one column per
    /// implementation with its outcome word.
    #[arg(long, value_name = "FILE")]
    matrix: Option<PathBuf>,
    #[command(flatten)]
    quiet: super::QuietArg,
}

pub fn run(args: Args) -> CommandResult {
    let corpus = args.corpus.load()?;
    // A set name (`all`, `parsers`, `crawlers`) names no implementation in particular.
    let explicit = !args.implementations.is_empty()
        && !args
            .implementations
            .iter()
            .any(|name| matches!(name.as_str(), "all" | "parsers" | "crawlers"));
    let implementations = super::selected(&args.implementations)?;
    let started = std::time::Instant::now();
    let run = super::run_corpus_quiet(&corpus, &implementations, args.quiet.quiet);
    let wall = started.elapsed();
    // The implementations whose failures make the exit code 1.
    let gating: Vec<bool> = run
        .implementations
        .iter()
        .map(|name| explicit || name == "reference")
        .collect();
    let summaries = score::summarize(&corpus, &run, args.profile);
    if let Some(path) = &args.matrix {
        reptest::atomic::write(path, matrix(&corpus, &run, args.profile).as_bytes())
            .map_err(|e| e.to_string())?;
    }
    if args.json {
        // One model for every machine-readable result: the report's (`reptest report`
        // writes the same as report.json).
        let infos: Vec<_> = implementations.iter().map(|i| i.info().clone()).collect();
        let report = reptest::report::Report::build(
            &corpus,
            &args.corpus.dir(),
            &run,
            &infos,
            &super::report::now_rfc3339(),
        );
        outln!(
            "{}",
            serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?
        );
    } else {
        out!(
            "{}",
            summary(
                &corpus,
                &run,
                &summaries,
                &gating,
                args.profile,
                if args.list {
                    FailureView::List
                } else {
                    FailureView::ByCause
                }
            )
        );
        outln!(
            "wall time of the run: {:.1} s (the parsers one after another; beside them \
             the crawlers together, at most {} crawls at a time)",
            wall.as_secs_f64(),
            reptest::runner::crawls_at_once()
        );
    }
    let failed = summaries
        .iter()
        .zip(&gating)
        .any(|(s, gating)| *gating && !s.failures.is_empty());
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
