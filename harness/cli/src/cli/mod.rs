//! Command-line parsing and dispatch; one module per subcommand.

#[macro_use]
pub mod stdout;

mod check;
mod corpus;
mod eval;
mod fuzz;
mod gate;
mod google_choices;
mod impls;
mod policy;
mod progress;
mod report;
mod run;
mod serve;
mod survey;
mod upstream;
mod user_agent;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// The result of a subcommand: an exit code, or a message for an error exit (2). (Not
/// `reptest::Outcome`, an implementation's answer to one query.)
pub type CommandResult = Result<ExitCode, String>;

/// What reptest takes from its environment (`REPTEST_STATE`, `REPTEST_ADAPTERS`,
/// `REPTEST_PROTOCOL`, `PATH`, the hash seeds adapters keep): read here, the one place
/// that reads it, and handed to the libraries as a value.
pub fn environment() -> reptest::Environment {
    reptest::Environment::from_lookup(|name| std::env::var_os(name))
}

/// The registry of implementations under `options`, in this process's [`environment`].
pub fn registry(options: reptest::impls::Options) -> reptest::impls::Registry {
    reptest::impls::Registry::new(reptest::impls::Options {
        environment: environment(),
        ..options
    })
}

/// reptest: the conformance suite and differential tester for RFC 9309, the Robots
/// Exclusion Protocol (robots.txt).
///
/// Exit codes: 0 success, 1 a check failed (a query did not pass), 2 a usage, input or
/// corpus error or an output that cannot be written, 130 / 143 / 129 interrupted by
/// SIGINT / SIGTERM / SIGHUP (adapters are stopped first), 141 standard output closed by
/// its reader.
#[derive(Parser)]
#[command(name = "reptest", version, propagate_version = true)]
#[command(
    after_help = "Examples:\n  reptest run                      run the corpus through every available implementation\n  reptest check --robots robots.txt --agent examplebot --url https://example.com/private\n  reptest corpus stats --json      coverage of the RFC requirement index\n  echo '{\"robots\":\"User-agent: *\\nDisallow: /\",\"agent\":\"a\",\"url\":\"/x\"}' | reptest eval"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The subcommands. Those whose arguments have a doc comment of their own take their
/// help from it (a doc comment here would hide it: clap applies the variant's last).
#[derive(Subcommand)]
enum Command {
    Check(check::Args),
    Eval(eval::Args),
    /// Inspect the case corpus: coverage statistics, validation, one case, the export for
    /// other languages' tests, the fuzzing write-ups.
    #[command(subcommand)]
    Corpus(corpus::Command),
    Run(run::Args),
    Impls(impls::Args),
    Serve(serve::Args),
    Fuzz(fuzz::Args),
    /// CI gate: compare one implementation with its recorded baseline; fail on
    /// regressions and on known failures that pass now (the ratchet).
    Gate(gate::Args),
    /// Check that a robots.txt keeps the URLs you care about crawlable and the private
    /// ones disallowed, for the crawlers you care about (a CI check for site owners).
    Policy(policy::Args),
    /// Write a report folder: JSON, self-contained HTML, a Markdown summary and one
    /// Markdown page per implementation.
    Report(report::Args),
    /// Survey real robots.txt files (a directory, tar or WARC): how often the
    /// implementations disagree, pairwise, with the decided verdict and per question;
    /// sharded runs and their merge.
    Survey(survey::Args),
    Upstream(upstream::Args),
}

impl Cli {
    /// Runs the chosen subcommand.
    pub fn run(self) -> CommandResult {
        match self.command {
            Command::Check(args) => check::run(args),
            Command::Eval(args) => eval::run(args),
            Command::Corpus(command) => corpus::run(command),
            Command::Run(args) => run::run(args),
            Command::Impls(args) => impls::run(args),
            Command::Serve(args) => serve::run(args),
            Command::Fuzz(args) => fuzz::run(args),
            Command::Report(args) => report::run(args),
            Command::Gate(args) => gate::run(args),
            Command::Policy(args) => policy::run(args),
            Command::Survey(args) => survey::run(args),
            Command::Upstream(args) => upstream::run(args),
        }
    }
}

/// The `--impl NAME` option of the subcommands that serve one implementation.
#[derive(clap::Args)]
pub struct ImplArg {
    /// The implementation that answers (see `reptest impls`).
    #[arg(long = "impl", value_name = "NAME", default_value = "reference")]
    implementation: String,
}

impl ImplArg {
    /// The implementation named, when known and available.
    pub fn one(&self) -> Result<Box<dyn reptest::Implementation>, String> {
        registry(Default::default())
            .one(&self.implementation)
            .map_err(|e| e.to_string())
    }
}

/// The `--profile` values (`rfc9309`, `google`), listed in `--help` and parsed into a
/// [`reptest_corpus::Profile`].
pub fn profile_parser() -> impl clap::builder::TypedValueParser<Value = reptest_corpus::Profile> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(reptest_corpus::Profile::names())
        .map(|name| name.parse().unwrap_or_default())
}

/// The `--corpus` option shared by the subcommands that read the corpus.
#[derive(clap::Args)]
pub struct CorpusArg {
    /// The corpus folder (with requirements.md and *.toml case files), or `builtin` for
    /// the corpus built into this binary. Default: the REPTEST_CORPUS environment
    /// variable, else the corpus/ of the source tree reptest was built from when it is
    /// there, else the built-in copy of it (so an installed reptest runs anywhere).
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
}

/// The `--corpus` value that names the corpus built into the binary.
const BUILTIN: &str = "builtin";

impl CorpusArg {
    /// The corpus folder: --corpus, else REPTEST_CORPUS, else this source tree's corpus/.
    pub fn dir(&self) -> PathBuf {
        self.corpus
            .clone()
            .or_else(|| std::env::var_os("REPTEST_CORPUS").map(PathBuf::from))
            .unwrap_or_else(reptest_corpus::default_dir)
    }

    /// Loads and validates the corpus; the error lists every problem found.
    pub fn load(&self) -> Result<reptest_corpus::Corpus, String> {
        let dir = self.dir();
        let chosen = self.corpus.is_some() || std::env::var_os("REPTEST_CORPUS").is_some();
        let builtin = if chosen {
            dir.as_os_str() == BUILTIN
        } else {
            // The source tree's files win while they are there (edits need no rebuild).
            !dir.join("requirements.md").is_file()
        };
        if builtin {
            return reptest_corpus::Corpus::embedded().map_err(|e| {
                format!(
                    "the built-in corpus is invalid ({} problem(s)):\n{e}",
                    e.count()
                )
            });
        }
        reptest_corpus::Corpus::load(&dir).map_err(|e| {
            format!(
                "the corpus at {} is invalid ({} problem(s)):\n{e}",
                dir.display(),
                e.count()
            )
        })
    }
}

/// Runs `corpus` through `implementations` with its progress on stderr when that is a
/// terminal ([`progress`]).
pub fn run_corpus(
    corpus: &reptest_corpus::Corpus,
    implementations: &[Box<dyn reptest::Implementation>],
) -> reptest::runner::Run {
    run_corpus_quiet(corpus, implementations, false)
}

/// [`run_corpus`], showing no progress when `quiet`.
pub fn run_corpus_quiet(
    corpus: &reptest_corpus::Corpus,
    implementations: &[Box<dyn reptest::Implementation>],
    quiet: bool,
) -> reptest::runner::Run {
    let progress = progress::RunProgress::new(quiet);
    let run = reptest::runner::run_observed(corpus, implementations, &progress);
    progress.finish();
    run
}

/// The `--quiet` option of the long-running subcommands.
#[derive(clap::Args)]
pub struct QuietArg {
    /// Show no progress on stderr (it is shown only when stderr is a terminal: which
    /// implementation is running, n of N, queries/s and the time left).
    #[arg(long, short)]
    quiet: bool,
}

/// The implementations `--impl` names (every available one when none or `all`).
pub fn selected(names: &[String]) -> Result<Vec<Box<dyn reptest::Implementation>>, String> {
    selected_from(&registry(Default::default()), names)
}

/// [`selected`], made by `registry`.
pub fn selected_from(
    registry: &reptest::impls::Registry,
    names: &[String],
) -> Result<Vec<Box<dyn reptest::Implementation>>, String> {
    let chosen = if names.is_empty() {
        registry.select(&["all".to_string()])
    } else {
        registry.select(names)
    };
    chosen.map_err(|e| match e {
        reptest::impls::SelectError::Unknown { .. } => format!("{e}{}", external_hint()),
        _ => e.to_string(),
    })
}

/// [`selected_from`] for the commands that hand implementations robots.txt bodies they
/// make or read (fuzz, survey): crawlers are judged on fetch scenarios only (one crawl
/// per case; `reptest_site::crawl::PLAIN_CASES`), so the default leaves them out, and
/// naming one is an error that says so.
pub fn selected_for_bodies(
    registry: &reptest::impls::Registry,
    names: &[String],
) -> Result<Vec<Box<dyn reptest::Implementation>>, String> {
    let mut chosen = selected_from(registry, names)?;
    let named_all = names.is_empty() || names.iter().any(|n| n == "all");
    if let Some(crawler) = chosen
        .iter()
        .find(|i| i.info().kind == reptest::ImplKind::Crawler)
        .filter(|_| !named_all)
    {
        return Err(format!(
            "`{}` is a crawler: it is judged on the corpus's fetch scenarios over HTTP \
             (`reptest run --impl {}`), a loopback site per case, not on bodies given to it",
            crawler.name(),
            crawler.name()
        ));
    }
    chosen.retain(|i| i.info().kind != reptest::ImplKind::Crawler);
    Ok(chosen)
}

/// An error naming the known implementations, the nearest first, when `name` is none
/// of them (availability is not checked: nothing is started).
pub fn check_known(name: &str) -> Result<(), String> {
    let known = registry(Default::default()).names();
    if known.iter().any(|k| k == name) {
        return Ok(());
    }
    let unknown = reptest::impls::SelectError::Unknown {
        name: name.to_string(),
        known: known.join(", "),
    };
    Err(format!("{unknown}{}", external_hint()))
}

/// A note for when the shipped external adapters are not where this binary was built
/// (an installed reptest run outside its source tree), naming the fix; else empty.
pub fn external_hint() -> String {
    let dir = reptest::impls::external::config::builtin_dir();
    if dir.is_dir() {
        return String::new();
    }
    format!(
        "\n  note: the external adapters (Python, Node, Perl, Ruby, Go, Java) are not installed: {} is missing. In a reptest checkout run `bash harness/external/setup` and use that build, or register adapters of your own in a folder named by REPTEST_ADAPTERS (harness/PROTOCOL.md)",
        dir.display()
    )
}
