//! `reptest survey`: real robots.txt files through implementations, how often they
//! disagree; `reptest survey merge`: shards' partial results into the whole survey;
//! `reptest survey synth` (`survey/synth.rs`): a synthetic WARC input to measure it at scale.

mod synth;

mod records;
mod status;
mod watch;

use super::CommandResult;
use records::{Records, WithRecords};
use reptest::impls;
use reptest::report::survey::{self as report_survey, json, markdown, summary};
use reptest::triage::attribution;
use reptest_survey::engine::{self, Options, Setup, Survey};
use reptest_survey::partial::{self, Partial};
use reptest_survey::provenance::{Build, CorpusPrint, Provenance};
use reptest_survey::{Format, Shard};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;
use watch::{Expected, Watch};

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

Slow implementations: --timeout (default 1 s) bounds each query of the crates and the
external adapters (a batch of N queries gets N times it); a query not answered in time is
`timeout`. The circuit breaker then trips for an implementation on a file with a timeout
or over --file-budget (default 5 s); after --trip-after (default 3) tripped files in a row
the implementation is skipped for the rest of the run or shard (`skipped`). The outputs
count each implementation's missing answers by kind (error / timeout / crash /
unsupported / skipped) and what the breaker did; once it trips, results depend on timing.

Outputs in --out DIR: survey.json, README.md (Markdown), survey.html (pairwise heatmap).
Without --out the Markdown goes to standard output; --json prints survey.json instead.
Each records its provenance: reptest's version and git commit, the corpus's version and
fingerprints, the input's fingerprint, the settings, and each implementation's version
and runtime (Python, Node.js, JVM, Go, Perl, Ruby; Google's library).

Progress on stderr: files (or octets) read of those expected, files/s, the time left,
open circuit breakers and missing answers; a bar on a terminal, a line every 10 s
elsewhere, nothing with --quiet.

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
    /// one unsharded run writes. The partials must be of one survey: the same input (by
    /// its fingerprint), seed, queries per file, --limit, --timeout, circuit breaker,
    /// implementations and versions, their runtimes, reptest build (version, commit),
    /// corpus, answers to the catalogue's probes, shard count; every shard once,
    /// unedited (each partial's checksums must match), with counts a survey gives.
    Merge(MergeArgs),
    Synth(synth::Args),
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
    /// Which queries to derive: natural (URLs a crawler meets: rule paths, their
    /// children, wildcards filled in, `$` ends, common paths), probe (URLs made to
    /// provoke a divergence: percent-encoding variants, raw octets, `$` read literally or
    /// passed by one octet), or all.
    #[arg(long, default_value = "all", value_name = "natural|probe|all")]
    origins: reptest_survey::Origins,
    /// Write one JSON line per file and per query (agent, URL, origin, decided verdict
    /// or open, every implementation's outcome, question; each file's status, size,
    /// groups, agents and site-level classes) to FILE; gzipped when FILE ends in .gz.
    #[arg(long, value_name = "FILE")]
    records: Option<PathBuf>,
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
    #[command(flatten)]
    limits: LimitArgs,
    /// Minimize each new group's example with the fuzzing minimizer (at most 300
    /// evaluations per group, no deadline, so the result is reproducible). A sharded run
    /// cannot: minimize when merging (`reptest survey merge --minimize`).
    #[arg(long)]
    minimize: bool,
    #[command(flatten)]
    quiet: super::QuietArg,
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
    /// With --minimize: the per-query timeout, in seconds, of the crates and external
    /// adapters (as `reptest survey --timeout`).
    #[arg(long, default_value_t = 1.0, value_name = "SECONDS")]
    timeout: f64,
    #[command(flatten)]
    corpus: super::CorpusArg,
}

/// How long an implementation may take: per query, and per file before the circuit
/// breaker trips (reptest_survey::breaker).
#[derive(clap::Args)]
struct LimitArgs {
    /// Per-query timeout, in seconds, of every implementation that runs apart: the
    /// in-process crates (each file on a worker thread) and the external adapters (their
    /// per-request timeout, instead of adapters.toml's; a batch of N queries has N times
    /// it). A query not answered in time is `timeout` and the survey moves on; the
    /// outputs count each implementation's missing answers by kind. The reference and
    /// Google's library run on the survey's own threads, untimed.
    #[arg(long, default_value_t = 1.0, value_name = "SECONDS")]
    timeout: f64,
    /// Circuit breaker: a file on which an implementation spends longer than this (all
    /// its queries), or gets a timeout, trips the implementation's breaker.
    #[arg(long, default_value_t = reptest_survey::breaker::FILE_BUDGET.as_secs_f64(), value_name = "SECONDS")]
    file_budget: f64,
    /// Circuit breaker: after K tripped files in a row, the implementation is skipped for
    /// the rest of the run (the shard); the queries it is not asked count as missing
    /// (`skipped`). The reference, which decides, is never skipped. 0: never skip. A
    /// tripped breaker makes the result depend on timing; while none trips, a survey is
    /// the same on any machine, whole or sharded.
    #[arg(long, default_value_t = reptest_survey::breaker::TRIP_AFTER, value_name = "K")]
    trip_after: u32,
}

/// `seconds` as a positive duration, or an error naming `option`.
fn positive(option: &str, seconds: f64) -> Result<Duration, String> {
    Duration::try_from_secs_f64(seconds)
        .ok()
        .filter(|t| !t.is_zero())
        .ok_or_else(|| format!("{option} {seconds}: give a positive number of seconds"))
}

/// A registry whose in-process crates and external adapters time out after `timeout`
/// per query (the adapters' own timeout machinery, `reptest run`'s, with the survey's
/// value).
fn registry(timeout: Duration) -> impls::Registry {
    super::registry(impls::Options {
        crate_limits: impls::Limits {
            timeout,
            max_stuck: 16,
        },
        external_timeout: Some(timeout),
        ..Default::default()
    })
}

pub fn run(args: Args) -> CommandResult {
    match args.command {
        Some(Command::Merge(merge)) => run_merge(merge),
        Some(Command::Synth(synth)) => synth::run(synth),
        None => run_survey(args.run),
    }
}

fn run_survey(args: RunArgs) -> CommandResult {
    let input = args.input.clone().ok_or("--input PATH is required")?;
    if args.queries_per_file == 0 {
        return Err("--queries-per-file 0: give at least 1".into());
    }
    let timeout = positive("--timeout", args.limits.timeout)?;
    let breaker = reptest_survey::breaker::Limits {
        file_budget: positive("--file-budget", args.limits.file_budget)?,
        trip_after: args.limits.trip_after,
    };
    let registry = registry(timeout);
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
    let observer = Watch::new(args.quiet.quiet);
    observer.say("loading the corpus and the implementations");
    let implementations = super::selected_for_bodies(&registry, &args.implementations)?;
    if implementations.is_empty() {
        return Err("no implementation is available (see `reptest impls`)".into());
    }
    let decider = registry.one("reference").map_err(|e| e.to_string())?;
    let corpus = args.corpus.load()?;
    let chosen: Vec<&dyn reptest::Implementation> =
        implementations.iter().map(|i| i.as_ref()).collect();
    observer.say(&format!(
        "starting {} implementation(s), asking each the questions' examples",
        chosen.len()
    ));
    let attribution = attribution::probe(&attribution::probes_of(&corpus), &chosen);
    let names: Vec<&str> = chosen.iter().map(|i| i.name()).collect();
    observer.say("asking the implementations' runtimes their versions");
    let setup = Setup {
        implementations: &chosen,
        decider: decider.as_ref(),
        attribution: &attribution,
        questions: engine::questions_of(&corpus),
        provenance: provenance(&corpus, &registry, &names),
    };
    let options = Options {
        seed: args.seed,
        queries_per_file: args.queries_per_file,
        shard: shard.unwrap_or(Shard::WHOLE),
        limit: args.limit,
        breaker,
        timeout,
        origins: args.origins,
        records: args.records.is_some(),
    };
    let files =
        reptest_survey::open_counted(&input, observer.bytes()).map_err(|e| e.to_string())?;
    observer.files(Expected::of(&input, args.limit, shard.is_some()), &names);
    let started = std::time::Instant::now();
    let entries: Vec<engine::ImplEntry> =
        chosen.iter().map(|i| engine::ImplEntry::of(*i)).collect();
    let per_file = args.queries_per_file as u64;
    let records = args
        .records
        .as_deref()
        .map(|path| Records::create(path, &entries, args.seed, per_file))
        .transpose()?;
    let watching = WithRecords {
        inner: &observer,
        records: records.as_ref(),
    };
    let name = input.display().to_string();
    let surveyed = engine::survey_files(files, &name, &options, &setup, &watching);
    observer.finish();
    let mut survey = surveyed.map_err(|e| e.to_string())?;
    if let Some(records) = records {
        records.finish()?;
    }
    let timing = summary::Timing {
        read: observer.files_read(),
        shard,
        implementations: chosen.len(),
        seconds: started.elapsed().as_secs_f64(),
    };
    eprintln!("{}", summary::finished(&survey, &timing));
    for line in summary::missing(&survey) {
        eprintln!("{line}");
    }
    if args.minimize {
        minimize(&mut survey, &chosen, &attribution);
    }
    match shard {
        Some(shard) => write_partial(shard, survey, args.out.as_deref(), args.json),
        None => emit(&survey, args.out.as_deref(), args.json),
    }
}

fn run_merge(args: MergeArgs) -> CommandResult {
    let mut partials = Vec::with_capacity(args.partials.len());
    for path in &args.partials {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {name}: {e}"))?;
        let partial = Partial::parse(&text, &name).map_err(|e| e.to_string())?;
        partials.push((name, partial));
    }
    let mut survey = partial::merge(partials).map_err(|e| e.to_string())?;
    if args.minimize && !survey.header.implementations.is_empty() {
        let timeout = positive("--timeout", args.timeout)?;
        let registry = registry(timeout);
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
        // The same probes as the survey's (the catalogue of the partials, checked above
        // by their headers), put to the same implementations.
        let corpus = args.corpus.load()?;
        if engine::questions_of(&corpus) != survey.header.questions {
            return Err(
                "--minimize: this corpus's questions are not those of the partials (give the survey's with --corpus)"
                    .into(),
            );
        }
        let attribution = attribution::probe(&attribution::probes_of(&corpus), &chosen);
        if engine::attribution_checksum(&attribution) != survey.header.attribution {
            return Err(
                "--minimize: the implementations here answer the catalogue's probes otherwise than in the partials (another corpus, or a probe that timed out)"
                    .into(),
            );
        }
        minimize(&mut survey, &chosen, &attribution);
    }
    emit(&survey, args.out.as_deref(), args.json)
}

/// How long an external adapter's runtime may take to say its version.
const RUNTIME_TIMEOUT: Duration = Duration::from_secs(10);

/// Which reptest, corpus and runtimes survey with `names` ([`Provenance`]).
fn provenance(
    corpus: &reptest_corpus::Corpus,
    registry: &impls::Registry,
    names: &[&str],
) -> Provenance {
    Provenance {
        reptest: build(),
        corpus: CorpusPrint::of(corpus),
        runtimes: registry.runtimes(names, RUNTIME_TIMEOUT),
    }
}

/// This reptest, as its build script saw it (harness/cli/build.rs).
fn build() -> Build {
    Build {
        version: env!("CARGO_PKG_VERSION").to_string(),
        commit: env!("REPTEST_GIT_COMMIT").to_string(),
        dirty: env!("REPTEST_GIT_DIRTY").parse().ok(),
        rustc: env!("REPTEST_RUSTC").to_string(),
    }
}

/// Minimizes the new groups' examples and attributes them again, saying so on stderr.
fn minimize(
    survey: &mut Survey,
    implementations: &[&dyn reptest::Implementation],
    attribution: &attribution::Attribution,
) {
    let started = std::time::Instant::now();
    let groups = survey.tally.new.len();
    reptest_survey::minimize::minimize_new(
        survey,
        implementations,
        reptest_survey::minimize::BUDGET,
        attribution,
    );
    let seconds = started.elapsed().as_secs_f64();
    eprintln!("{}", summary::minimized(survey, groups, seconds));
}

/// Writes one shard's partial result (and prints it with --json).
fn write_partial(shard: Shard, survey: Survey, out: Option<&Path>, json: bool) -> CommandResult {
    let partial = Partial::new(shard, survey);
    let mut text = serde_json::to_string_pretty(&partial).map_err(|e| e.to_string())?;
    text.push('\n');
    if let Some(dir) = out {
        create(dir)?;
        let path = dir.join(Partial::file_name(shard));
        reptest::atomic::write(&path, text.as_bytes()).map_err(|e| e.to_string())?;
        eprintln!("wrote {}", path.display());
    }
    if json {
        out!("{text}");
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes survey.json, README.md, survey.html, csv/ and figures/ into `out`
/// (`survey::files`), and prints the JSON with `json`, else the Markdown when there is
/// no `out`.
fn emit(survey: &Survey, out: Option<&Path>, json: bool) -> CommandResult {
    let text = json::render(survey);
    let markdown = markdown::render(survey);
    if let Some(dir) = out {
        for folder in std::iter::once("").chain(report_survey::FOLDERS) {
            create(&dir.join(folder))?;
        }
        let files: Vec<(PathBuf, Vec<u8>)> = report_survey::files(survey)
            .into_iter()
            .map(|(path, bytes)| (dir.join(path), bytes))
            .collect();
        reptest::atomic::write_all(&files).map_err(|e| e.to_string())?;
        eprintln!("{}", summary::written(survey, dir));
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
