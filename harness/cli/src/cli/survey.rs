//! `reptest survey`: real robots.txt files through implementations, how often they
//! disagree; `reptest survey merge`: shards' partial results into the whole survey.

use super::Outcome;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use reptest::fuzz::attribution;
use reptest::impls;
use reptest_survey::engine::{self, Observer, Options, Setup, Survey};
use reptest_survey::partial::{self, Partial};
use reptest_survey::{render, Format, Shard};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};

/// What `reptest survey --help` teaches, after the options.
const HELP: &str = "\
Inputs (--input):
  a directory          one file per host, the file name being the host
  a .tar/.tar.gz/.tgz  each regular member a host (its file name)
  a .warc/.warc.gz     HTTP response records, as Common Crawl's robots.txt subset; the
                       status is kept: the status table counts 2xx/3xx/4xx/5xx and only
                       the files whose rules apply (2xx) are surveyed
  Files of a directory or tar are taken as fetched with 200.

Queries: from each file, --queries-per-file (agent, URL) queries, deterministic from
--seed, the host and the body: URLs from the file's own rules (prefixes, wildcard
expansions, $ boundaries, percent-encoded variants) and common paths, for generic agents,
the crawlers sites name most (Googlebot, GPTBot, ClaudeBot, CCBot, ...) and the file's
own. Every implementation answers a file's queries at once; the reference's verdict is
the decided one (RFC 9309 as the corpus decides it).

Outputs in --out DIR: survey.json, README.md (Markdown), survey.html (pairwise heatmap).
Without --out the Markdown goes to standard output; --json prints survey.json instead.

Sharding (I is 0-based): for I in 0..N: reptest survey --input IN --shard I/N --out DIR;
then: reptest survey merge DIR/partial-*-of-N.json --out DIR  (= the unsharded outputs).
--shard defaults to SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT, or JOB_COMPLETION_INDEX
with REPTEST_SHARD_COUNT (or --shard-count).

Examples:
  reptest survey --input robots/ --impl reference,rust-robotxt --out survey/
  reptest survey --input CC-MAIN-robotstxt.warc.gz --limit 10000 --json

Method, outputs, Slurm and Kubernetes recipes: docs/survey.md";

/// Survey real robots.txt files: how often the implementations disagree on the files
/// sites actually serve (see [`HELP`]).
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
#[command(after_help = HELP)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Merge the partial results of every shard (partial-I-of-N.json) into exactly what
    /// one unsharded run writes. The partials must be of one survey: same seed, queries
    /// per file, --limit, implementations and versions, shard count; every shard once.
    Merge(MergeArgs),
}

#[derive(clap::Args)]
struct RunArgs {
    #[command(flatten)]
    corpus: super::CorpusArg,
    /// The files: a directory, a .tar / .tar.gz / .tgz, or a .warc / .warc.gz.
    #[arg(long, value_name = "PATH", required = true)]
    input: Option<PathBuf>,
    /// Implementations, comma-separated (see `reptest impls`). Default: every available
    /// one.
    #[arg(long = "impl", value_name = "NAMES", value_delimiter = ',')]
    implementations: Vec<String>,
    /// Queries derived per file (fewer when a file yields fewer distinct ones).
    #[arg(long, default_value_t = 20, value_name = "N")]
    queries_per_file: usize,
    /// The seed of query derivation: the same seed gives the same queries.
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// Survey only shard I of N (0-based: 0/4 ... 3/4) and write
    /// DIR/partial-I-of-N.json. A file's shard is a hash of its host and place in the
    /// input. Default: from SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT, or
    /// JOB_COMPLETION_INDEX with REPTEST_SHARD_COUNT or --shard-count.
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
    /// The shard count when the index comes from the environment (JOB_COMPLETION_INDEX,
    /// or SLURM_ARRAY_TASK_ID without SLURM_ARRAY_TASK_COUNT).
    #[arg(long, value_name = "N")]
    shard_count: Option<u32>,
    /// Read only the first FILES files of the input (before sharding, so shards of a
    /// limited run still merge into the limited run).
    #[arg(long, value_name = "FILES")]
    limit: Option<u64>,
    /// Write the outputs (survey.json, README.md, survey.html; or a shard's partial) into
    /// DIR, created if missing.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print survey.json (a shard's partial when sharded) on standard output.
    #[arg(long)]
    json: bool,
    /// Per-query timeout, in seconds, of the in-process crate adapters: a library stuck
    /// on one file costs that, its outcome is `timeout` and the survey moves on (the
    /// outputs count each implementation's missing answers). External adapters keep their
    /// own timeouts (harness/external/*/adapters.toml).
    #[arg(long, default_value_t = 1.0, value_name = "SECONDS")]
    timeout: f64,
    /// Minimize each new group's example with the fuzzing minimizer (at most 300
    /// evaluations per group, no deadline, so the result is reproducible). A sharded run
    /// cannot: minimize when merging (`reptest survey merge --minimize`).
    #[arg(long)]
    minimize: bool,
}

#[derive(clap::Args)]
struct MergeArgs {
    /// The partial results, one per shard (partial-I-of-N.json).
    #[arg(value_name = "PARTIAL", required = true)]
    partials: Vec<PathBuf>,
    /// Write survey.json, README.md and survey.html into DIR, created if missing.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print survey.json on standard output.
    #[arg(long)]
    json: bool,
    /// Minimize each new group's example after merging, as `reptest survey --minimize`
    /// does (the implementations named in the partials, at the same versions, must be
    /// available here).
    #[arg(long)]
    minimize: bool,
    /// With --minimize: the per-query timeout, in seconds, of the in-process crates.
    #[arg(long, default_value_t = 1.0, value_name = "SECONDS")]
    timeout: f64,
}

/// A registry whose in-process crates time out after `timeout` seconds per query.
fn registry(timeout: f64) -> Result<impls::Registry, String> {
    let timeout = std::time::Duration::try_from_secs_f64(timeout)
        .ok()
        .filter(|t| !t.is_zero())
        .ok_or_else(|| format!("--timeout {timeout}: give a positive number of seconds"))?;
    Ok(impls::Registry::new(impls::Options {
        crate_limits: impls::Limits {
            timeout,
            max_stuck: 16,
        },
        ..Default::default()
    }))
}

pub fn run(args: Args) -> Outcome {
    match args.command {
        Some(Command::Merge(merge)) => run_merge(merge),
        None => run_survey(args.run),
    }
}

fn run_survey(args: RunArgs) -> Outcome {
    let input = args.input.clone().ok_or("--input PATH is required")?;
    if args.queries_per_file == 0 {
        return Err("--queries-per-file 0: give at least 1".into());
    }
    let registry = registry(args.timeout)?;
    let shard = match args.shard {
        Some(shard) => Some(shard),
        None => Shard::from_env(|name| std::env::var(name).ok(), args.shard_count)?,
    };
    if shard.is_some() && args.out.is_none() && !args.json {
        return Err(
            "a sharded run writes its partial result to --out DIR (or prints it with --json)"
                .into(),
        );
    }
    if Format::of_path(&input).is_none() {
        // The survey crate's error says which formats are known (or that it is missing).
        reptest_survey::open(&input).map_err(|e| e.to_string())?;
    }
    if shard.is_some() && args.minimize {
        return Err("a sharded run cannot --minimize: minimize when merging (reptest survey merge --minimize)".into());
    }
    let implementations = super::selected_for_bodies(&registry, &args.implementations)?;
    if implementations.is_empty() {
        return Err("no implementation is available (see `reptest impls`)".into());
    }
    let decider = registry.one("reference").map_err(|e| e.to_string())?;
    let corpus = args.corpus.load()?;
    let chosen: Vec<&dyn reptest::Implementation> =
        implementations.iter().map(|i| i.as_ref()).collect();
    let attribution = attribution::probe(&attribution::probes_of(&corpus), &chosen);
    let setup = Setup {
        implementations: &chosen,
        decider: decider.as_ref(),
        attribution: &attribution,
        questions: engine::questions_of(&corpus),
    };
    let options = Options {
        seed: args.seed,
        queries_per_file: args.queries_per_file,
        shard: shard.unwrap_or(Shard::WHOLE),
        limit: args.limit,
    };
    let total = match shard {
        Some(_) => None,
        None => expected_files(&input, args.limit),
    };
    let observer = Watch::new(total);
    let started = std::time::Instant::now();
    let mut survey =
        engine::survey(&input, &options, &setup, &observer).map_err(|e| e.to_string())?;
    observer.finish();
    let seconds = started.elapsed().as_secs_f64();
    let files = survey.tally.files;
    eprintln!(
        "reptest survey: {} file(s) read{}, {} surveyed, {} queries, {} implementation(s), in {seconds:.1} s ({:.0} surveyed files/s)",
        files.read,
        shard.map_or(String::new(), |s| format!(" in shard {s}")),
        files.surveyed,
        survey.tally.queries,
        chosen.len(),
        files.surveyed as f64 / seconds.max(1e-9)
    );
    if args.minimize {
        minimize(&mut survey, &chosen);
    }
    match shard {
        Some(shard) => write_partial(shard, survey, args.out.as_deref(), args.json),
        None => emit(&survey, args.out.as_deref(), args.json),
    }
}

fn run_merge(args: MergeArgs) -> Outcome {
    let mut partials = Vec::with_capacity(args.partials.len());
    for path in &args.partials {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {name}: {e}"))?;
        partials.push((name.clone(), Partial::parse(&text, &name)?));
    }
    let mut survey = partial::merge(partials)?;
    if args.minimize && !survey.header.implementations.is_empty() {
        let registry = registry(args.timeout)?;
        let names: Vec<String> = survey
            .header
            .implementations
            .iter()
            .map(|i| i.name.clone())
            .collect();
        let implementations = super::selected_for_bodies(&registry, &names)
            .map_err(|e| format!("--minimize needs the survey's implementations here: {e}"))?;
        for (entry, implementation) in survey.header.implementations.iter().zip(&implementations) {
            let version = &implementation.info().version;
            if *version != entry.version {
                return Err(format!(
                    "--minimize: {} is at version {version} here, {} in the partials",
                    entry.name, entry.version
                ));
            }
        }
        let chosen: Vec<&dyn reptest::Implementation> =
            implementations.iter().map(|i| i.as_ref()).collect();
        minimize(&mut survey, &chosen);
    }
    emit(&survey, args.out.as_deref(), args.json)
}

/// Minimizes the new groups' examples, saying so on stderr.
fn minimize(survey: &mut Survey, implementations: &[&dyn reptest::Implementation]) {
    let started = std::time::Instant::now();
    let groups = survey.tally.new.len();
    reptest_survey::minimize::minimize_new(
        survey,
        implementations,
        reptest_survey::minimize::BUDGET,
    );
    let done = survey
        .tally
        .new
        .values()
        .filter(|g| g.minimized.is_some())
        .count();
    eprintln!(
        "reptest survey: minimized {done} of {groups} new group example(s) in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

/// Writes one shard's partial result (and prints it with --json).
fn write_partial(shard: Shard, survey: Survey, out: Option<&Path>, json: bool) -> Outcome {
    let partial = Partial::new(shard, survey);
    let mut text = serde_json::to_string_pretty(&partial).map_err(|e| e.to_string())?;
    text.push('\n');
    if let Some(dir) = out {
        create(dir)?;
        let path = dir.join(Partial::file_name(shard));
        reptest::atomic::write(&path, text.as_bytes())?;
        eprintln!("wrote {}", path.display());
    }
    if json {
        out!("{text}");
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes survey.json, README.md and survey.html into `out`, and prints the JSON with
/// `json`, else the Markdown when there is no `out`.
fn emit(survey: &Survey, out: Option<&Path>, json: bool) -> Outcome {
    let text = render::json::render(survey);
    let markdown = render::markdown::render(survey);
    if let Some(dir) = out {
        create(dir)?;
        reptest::atomic::write_all(&[
            (dir.join("survey.json"), text.as_bytes()),
            (dir.join("README.md"), markdown.as_bytes()),
            (
                dir.join("survey.html"),
                render::html::render(survey).as_bytes(),
            ),
        ])?;
        let a = &survey.tally.agreement;
        eprintln!(
            "wrote {}/{{survey.json,README.md,survey.html}}: agreement {} of {} queries compared",
            dir.display(),
            render::percent(a.unanimous, a.compared),
            a.compared
        );
    }
    if json {
        out!("{text}");
    } else if out.is_none() {
        out!("{markdown}");
    }
    Ok(ExitCode::SUCCESS)
}

fn create(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))
}

/// How many files an unsharded survey will read, when that is cheap to know: --limit, or
/// the entries of a directory (an archive is not read twice).
fn expected_files(input: &Path, limit: Option<u64>) -> Option<u64> {
    let listed = if input.is_dir() {
        std::fs::read_dir(input).ok().map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
                .filter(|e| e.path().is_file())
                .count() as u64
        })
    } else {
        None
    };
    match (listed, limit) {
        (Some(n), Some(l)) => Some(n.min(l)),
        (Some(n), None) => Some(n),
        (None, l) => l,
    }
}

/// The progress bar over files (on a terminal only) and the warnings for skipped
/// entries (the first few, then a count).
struct Watch {
    bar: Option<ProgressBar>,
    skipped: AtomicU64,
}

/// Skipped entries named on stderr; the rest are counted.
const WARNINGS_SHOWN: u64 = 10;

impl Watch {
    fn new(total: Option<u64>) -> Watch {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::stderr());
            let template = match total {
                Some(_) => "{elapsed:>4} [{bar:40}] {pos}/{len} files {per_sec}",
                None => "{elapsed:>4} {spinner} {pos} files {per_sec}",
            };
            if let Ok(style) = ProgressStyle::with_template(template) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar
        });
        Watch {
            bar,
            skipped: AtomicU64::new(0),
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        let skipped = self.skipped.load(Ordering::Relaxed);
        if skipped > WARNINGS_SHOWN {
            eprintln!(
                "reptest survey: {} more entries skipped ({skipped} in all; counted in files.skipped)",
                skipped - WARNINGS_SHOWN
            );
        }
    }
}

impl Observer for Watch {
    fn tallied(&self, files: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(files);
        }
    }

    fn skipped(&self, error: &reptest_survey::Error) {
        let n = self.skipped.fetch_add(1, Ordering::Relaxed);
        if n < WARNINGS_SHOWN {
            let line = format!("reptest survey: warning: {error}");
            match &self.bar {
                Some(bar) => bar.println(line),
                None => eprintln!("{line}"),
            }
        }
    }
}
