//! `reptest gate`: a CI gate for one implementation against a recorded baseline.

use super::{CorpusArg, Outcome};
use reptest::gate::{self, Baseline, BaselineError, Context, GateResult};
use reptest::impls;
use reptest_corpus::Profile;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Fail CI when a robots.txt parser gets worse: run the corpus through ONE implementation
/// and compare every query with a baseline file recorded earlier (regressions, and the
/// ratchet on known failures that pass now; the help text below explains them).
#[derive(clap::Args)]
#[command(after_help = "\
How the gate judges (the baseline lists every query as passed, a known failure, or
unsupported):
  regression     passed in the baseline, fails now (wrong verdict, error, timeout,
                 crash): the gate fails
  stale          a [[known_failure]] that passes now: the gate fails until the entry is
                 deleted from the baseline. This is the ratchet: a fixed bug cannot come
                 back unnoticed
  known failure  still failing: fine
  new failure    a query the baseline does not list (added to the corpus since) that
                 fails: reported; fails the gate only with --strict
  missing        a baseline id the corpus no longer has: a warning
  either         a query where the profile permits either verdict: not gated, as any
                 answer conforms (a baseline lists it nowhere; an older one that lists
                 it is not held to it)

Formats:
  human   titled lists of regressions and stale known failures, the verdict, the fix
  junit   JUnit XML (one testsuite, one testcase per query) for test report viewers
  github  GitHub Actions annotations (::error / ::warning / ::notice) at the corpus
          file and line of each query

Exit codes: 0 the gate passes, 1 regressions or stale entries (or new failures with
--strict), 2 a usage, baseline, corpus or I/O error.

Typical use:
  # once, and whenever you accept the current state: record the baseline, commit it
  reptest gate --impl my-parser --baseline reptest-baseline.toml --write-baseline
  # in CI: fail on regressions and stale known failures, annotate the pull request
  reptest gate --impl my-parser --baseline reptest-baseline.toml --format github
  # a JUnit XML report for a test report viewer
  reptest gate --impl my-parser --baseline reptest-baseline.toml --format junit --output reptest-junit.xml
  # both from one run: JUnit to a file, annotations to stdout
  reptest gate --impl my-parser --baseline reptest-baseline.toml --report junit=reptest-junit.xml --report github

Your own parser is an external adapter (harness/PROTOCOL.md) listed in an adapters.toml
in a folder named by REPTEST_ADAPTERS; `reptest impls` lists the implementations.
docs/gate.md has the baseline format and a GitHub Actions workflow to copy.")]
pub struct Args {
    #[command(flatten)]
    corpus: CorpusArg,
    /// The one implementation to gate (see `reptest impls`).
    #[arg(long = "impl", value_name = "NAME")]
    implementation: String,
    /// The baseline file (TOML; record it with --write-baseline and commit it).
    #[arg(long, value_name = "FILE")]
    baseline: PathBuf,
    /// Judge against this profile's expectations. Default: the baseline's profile
    /// (rfc9309 when recording one).
    #[arg(long, value_parser = super::profile_parser())]
    profile: Option<Profile>,
    /// The report format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Write the report to FILE instead of stdout (the verdict still goes to stdout).
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Reports from this one run, in several formats: FORMAT (to stdout) or FORMAT=FILE,
    /// repeatable, e.g. `--report junit=reptest-junit.xml --report github`. Replaces
    /// --format and --output.
    #[arg(long = "report", value_name = "FORMAT[=FILE]", value_parser = parse_report,
          conflicts_with_all = ["format", "output"])]
    reports: Vec<(Format, Option<PathBuf>)>,
    /// New failures (queries the baseline does not list) fail the gate too.
    #[arg(long)]
    strict: bool,
    /// Record the baseline from this run instead of comparing: creates or overwrites
    /// FILE (reasons written in the old file are kept for queries still failing).
    #[arg(long, conflicts_with_all = ["format", "output", "strict", "reports"])]
    write_baseline: bool,
}

/// A report format.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// Titled lists of regressions and stale known failures, the verdict and the fix.
    Human,
    /// JUnit XML: one testsuite, one testcase per corpus query.
    Junit,
    /// GitHub Actions workflow commands (::error, ::warning, ::notice).
    Github,
}

pub fn run(args: Args) -> Outcome {
    let name = args.implementation.trim();
    if name.is_empty() || name == "all" || name.contains(',') {
        return Err(format!(
            "--impl names exactly one implementation, not `{}` (the gate compares one implementation with its baseline; see `reptest impls`)",
            args.implementation
        ));
    }
    // The name first: every command suggested below names it.
    super::check_known(name)?;
    let rerecord = rerecord(&args, name);
    // Read the baseline before running anything: its errors need no run.
    let previous = match Baseline::load(&args.baseline) {
        Ok(baseline) => Some(baseline),
        Err(BaselineError::Missing(_)) if args.write_baseline => None,
        Err(BaselineError::Missing(path)) => {
            return Err(format!(
                "no baseline at {}: record one first (and commit it) with\n  {rerecord}",
                path.display()
            ))
        }
        // A baseline being re-recorded may be broken: it is overwritten.
        Err(BaselineError::Invalid(_)) if args.write_baseline => None,
        Err(e) => {
            return Err(format!(
                "{e}\n  fix: correct the file, or re-record it with\n  {rerecord}"
            ))
        }
    };
    if let (Some(baseline), false) = (&previous, args.write_baseline) {
        check_matches(baseline, &args, name, &rerecord)?;
    }
    let profile = match (&args.profile, &previous) {
        (Some(profile), _) => *profile,
        (None, Some(baseline)) if !args.write_baseline => baseline.profile,
        (None, _) => Profile::Rfc9309,
    };
    let corpus = args.corpus.load()?;
    if let (Some(baseline), false) = (&previous, args.write_baseline) {
        check_version(baseline, &corpus, &args.baseline, &rerecord)?;
    }
    let implementation = impls::one(name).map_err(|e| e.to_string())?;
    let run = super::run_corpus(&corpus, &[implementation]);

    if args.write_baseline {
        let mut baseline = Baseline::from_run(&corpus, name, &run, profile);
        if let Some(previous) = previous.as_ref().filter(|p| p.implementation == name) {
            baseline.keep_reasons(previous);
        }
        write(&args.baseline, &baseline.to_toml())?;
        let either = gate::judge_all(&corpus, &run, name, profile)
            .iter()
            .filter(|judged| !judged.gated())
            .count();
        outln!(
            "wrote {}: {name}, profile {profile}, {} queries: {} passed, {} known failures, {} unsupported; {either} either, not gated (corpus {})",
            args.baseline.display(),
            baseline.passed.len() + baseline.known_failures.len() + baseline.unsupported.len(),
            baseline.passed.len(),
            baseline.known_failures.len(),
            baseline.unsupported.len(),
            baseline.corpus
        );
        return Ok(ExitCode::SUCCESS);
    }

    // `previous` is set here: a missing or invalid baseline returned above.
    let Some(mut baseline) = previous else {
        return Err(format!("no baseline at {}", args.baseline.display()));
    };
    baseline.profile = profile;
    let result = GateResult::compare(&baseline, &corpus, &run, args.strict);
    let context = Context {
        baseline: args.baseline.clone(),
        rerecord,
        root: Some(display_root(&args.corpus)),
        elapsed: run.elapsed.first().copied().unwrap_or_default(),
    };
    let reports = if args.reports.is_empty() {
        vec![(args.format, args.output.clone())]
    } else {
        args.reports.clone()
    };
    let render = |format: Format| match format {
        Format::Human => gate::human(&result, &context),
        Format::Junit => gate::junit(&result, &context),
        Format::Github => gate::github(&result, &context),
    };
    // The files first, all together (a failed write leaves every previous one), then
    // stdout.
    let files: Vec<(PathBuf, Vec<u8>)> = reports
        .iter()
        .filter_map(|(format, path)| Some((path.clone()?, render(*format).into_bytes())))
        .collect();
    reptest::atomic::write_all(&files)?;
    for (format, path) in &reports {
        if path.is_none() {
            out!("{}", render(*format));
        }
    }
    if !files.is_empty() {
        let names: Vec<String> = files.iter().map(|(p, _)| p.display().to_string()).collect();
        outln!(
            "reptest gate: {name}: {} (report: {})",
            result.verdict(),
            names.join(", ")
        );
    }
    Ok(if result.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `FORMAT` or `FORMAT=FILE` of `--report`.
fn parse_report(value: &str) -> Result<(Format, Option<PathBuf>), String> {
    let (format, file) = match value.split_once('=') {
        Some((format, file)) if !file.is_empty() => (format, Some(PathBuf::from(file))),
        Some((format, _)) => return Err(format!("`{format}=`: give a file after `=`")),
        None => (value, None),
    };
    let format = <Format as clap::ValueEnum>::from_str(format, true)
        .map_err(|_| format!("unknown format `{format}` (known: human, junit, github)"))?;
    Ok((format, file))
}

/// The command that (re-)records this baseline, with the options that matter.
fn rerecord(args: &Args, name: &str) -> String {
    let mut command = format!(
        "reptest gate --impl {name} --baseline {}",
        shell_word(&args.baseline.display().to_string())
    );
    if let Some(profile) = &args.profile {
        command.push_str(&format!(" --profile {profile}"));
    }
    if let Some(dir) = &args.corpus.corpus {
        command.push_str(&format!(
            " --corpus {}",
            shell_word(&dir.display().to_string())
        ));
    }
    command.push_str(" --write-baseline");
    command
}

/// `word` quoted for a POSIX shell when it holds anything but safe characters.
fn shell_word(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./:=@%+,".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// A baseline for another implementation or profile is an error with the fix.
fn check_matches(
    baseline: &Baseline,
    args: &Args,
    name: &str,
    rerecord: &str,
) -> Result<(), String> {
    let file = args.baseline.display();
    if baseline.implementation != name {
        return Err(format!(
            "{file} is the baseline of `{}`, not `{name}`\n  fix: gate `{}` with it (--impl {}), or record a baseline for `{name}` in another file: reptest gate --impl {name} --baseline OTHER.toml --write-baseline",
            baseline.implementation, baseline.implementation, baseline.implementation
        ));
    }
    if let Some(profile) = args.profile.as_ref().filter(|p| **p != baseline.profile) {
        return Err(format!(
            "{file} was recorded under profile `{}`, not `{profile}`\n  fix: drop --profile (the baseline's profile is the default), or re-record it under {profile}: {rerecord}",
            baseline.profile
        ));
    }
    Ok(())
}

/// A baseline recorded against another major version of the corpus is refused: its
/// expectations changed, so regressions and stale entries would be meaningless.
fn check_version(
    baseline: &Baseline,
    corpus: &reptest_corpus::Corpus,
    file: &Path,
    rerecord: &str,
) -> Result<(), String> {
    let (Some(recorded), Some(now)) = (baseline.corpus_version.as_deref(), corpus.version()) else {
        return Ok(());
    };
    if reptest_corpus::major_of(recorded) == reptest_corpus::major_of(now) {
        return Ok(());
    }
    Err(format!(
        "{} was recorded against corpus {recorded}, and the corpus is {now}: a new major version changes expectations (corpus/CHANGELOG.md says which)\n  fix: re-record the baseline and review its diff: {rerecord}",
        file.display()
    ))
}

/// The folder case files are shown relative to: the parent of the corpus folder (so
/// `corpus/rfc/x.toml`).
fn display_root(corpus: &CorpusArg) -> PathBuf {
    let dir = corpus
        .corpus
        .clone()
        .or_else(|| std::env::var_os("REPTEST_CORPUS").map(PathBuf::from))
        .unwrap_or_else(reptest_corpus::default_dir);
    let dir = dir.canonicalize().unwrap_or(dir);
    dir.parent().map(Path::to_path_buf).unwrap_or(dir)
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    reptest::atomic::write(path, text.as_bytes())
}
