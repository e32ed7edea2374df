//! `reptest gate`: a CI gate for one implementation against a recorded baseline.

use super::{CommandResult, CorpusArg};
use reptest::gate::{self, Baseline, BaselineError, Context, GateResult};
use reptest_corpus::positional::PositionalIds;
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
  # a baseline of corpus 1.x or 2.x (positional ids, case/N): rewrite it to today's ids
  reptest gate --migrate-baseline reptest-baseline.toml

Your own parser is an external adapter (harness/PROTOCOL.md) listed in an adapters.toml
in a folder named by REPTEST_ADAPTERS; `reptest impls` lists the implementations.
docs/gate.md has the baseline format and a GitHub Actions workflow to copy.")]
pub struct Args {
    #[command(flatten)]
    corpus: CorpusArg,
    /// The one implementation to gate (see `reptest impls`).
    #[arg(
        long = "impl",
        value_name = "NAME",
        required_unless_present = "migrate_baseline"
    )]
    implementation: Option<String>,
    /// The baseline file (TOML; record it with --write-baseline and commit it).
    #[arg(
        long,
        value_name = "FILE",
        required_unless_present = "migrate_baseline"
    )]
    baseline: Option<PathBuf>,
    /// Rewrite FILE, a baseline recorded against corpus 1.x or 2.x (positional query ids,
    /// `case/N`), to today's ids (`case/name`), in place; runs nothing. Queries removed
    /// since are dropped and listed.
    #[arg(long, value_name = "FILE", conflicts_with_all = [
        "implementation", "baseline", "profile", "format", "output", "reports", "strict",
        "write_baseline",
    ])]
    migrate_baseline: Option<PathBuf>,
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

pub fn run(args: Args) -> CommandResult {
    if let Some(file) = &args.migrate_baseline {
        return migrate(file, &args.corpus);
    }
    // clap requires both without --migrate-baseline.
    let (Some(implementation), Some(baseline_file)) = (&args.implementation, &args.baseline) else {
        return Err("give --impl NAME and --baseline FILE (or --migrate-baseline FILE)".into());
    };
    let name = implementation.trim();
    if name.is_empty() || name == "all" || name.contains(',') {
        return Err(format!(
            "--impl names exactly one implementation, not `{implementation}` (the gate compares one implementation with its baseline; see `reptest impls`)"
        ));
    }
    // The name first: every command suggested below names it.
    super::check_known(name)?;
    let rerecord = rerecord(&args, name, baseline_file);
    // Read the baseline before running anything: its errors need no run.
    let previous = read_previous(baseline_file, args.write_baseline, &rerecord)?;
    if let (Some(baseline), false) = (&previous, args.write_baseline) {
        check_matches(baseline, &args, name, baseline_file, &rerecord)?;
        check_names(baseline, baseline_file)?;
    }
    let profile = match (&args.profile, &previous) {
        (Some(profile), _) => *profile,
        (None, Some(baseline)) if !args.write_baseline => baseline.profile,
        (None, _) => Profile::Rfc9309,
    };
    let corpus = args.corpus.load()?;
    if let (Some(baseline), false) = (&previous, args.write_baseline) {
        check_version(baseline, &corpus, baseline_file, &rerecord)?;
    }
    // Re-recording over an old baseline keeps its reasons: under today's ids.
    let previous = previous.map(|old| under_todays_ids(old, &corpus));
    let implementation = super::registry(Default::default())
        .one(name)
        .map_err(|e| e.to_string())?;
    let run = super::run_corpus(&corpus, &[implementation]);

    if args.write_baseline {
        let mut baseline = Baseline::from_run(&corpus, name, &run, profile);
        if let Some(previous) = previous.as_ref().filter(|p| p.implementation == name) {
            baseline.keep_reasons(previous);
        }
        write(baseline_file, &baseline.to_toml())?;
        let either = gate::judge_all(&corpus, &run, name, profile)
            .iter()
            .filter(|judged| !judged.gated())
            .count();
        outln!(
            "wrote {}: {name}, profile {profile}, {} queries: {} passed, {} known failures, {} unsupported; {either} either, not gated (corpus {})",
            baseline_file.display(),
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
        return Err(format!("no baseline at {}", baseline_file.display()));
    };
    baseline.profile = profile;
    let result = GateResult::compare(&baseline, &corpus, &run, args.strict);
    let context = Context {
        baseline: baseline_file.clone(),
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
    reptest::atomic::write_all(&files).map_err(|e| e.to_string())?;
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

/// The baseline at `file`, read before anything runs. When recording (`write`), a
/// missing or broken file is no error: it is overwritten.
fn read_previous(file: &Path, write: bool, rerecord: &str) -> Result<Option<Baseline>, String> {
    match Baseline::load(file) {
        Ok(baseline) => Ok(Some(baseline)),
        Err(BaselineError::Missing(_) | BaselineError::Invalid(_)) if write => Ok(None),
        Err(BaselineError::Missing(path)) => Err(format!(
            "no baseline at {}: record one first (and commit it) with\n  {rerecord}",
            path.display()
        )),
        Err(e) => Err(format!(
            "{e}\n  fix: correct the file, or re-record it with\n  {rerecord}"
        )),
    }
}

/// `old` with today's ids when it lists the positional ids of corpus 1.x or 2.x (so
/// re-recording keeps its reasons), else as it is.
fn under_todays_ids(old: Baseline, corpus: &reptest_corpus::Corpus) -> Baseline {
    if old.positional_ids().is_empty() {
        return old;
    }
    match PositionalIds::embedded() {
        Ok(table) => gate::migrate(&old, corpus, &table).map_or(old, |m| m.baseline),
        Err(_) => old,
    }
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
fn rerecord(args: &Args, name: &str, baseline: &Path) -> String {
    let mut command = format!(
        "reptest gate --impl {name} --baseline {}",
        shell_word(&baseline.display().to_string())
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
    file: &Path,
    rerecord: &str,
) -> Result<(), String> {
    let file = file.display();
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

/// A baseline with the positional ids of corpus 1.x and 2.x (`case/N`) is refused with
/// the command that migrates it: gated as it is, none of its ids would be found.
fn check_names(baseline: &Baseline, file: &Path) -> Result<(), String> {
    let positional = baseline.positional_ids();
    let Some(first) = positional.first() else {
        return Ok(());
    };
    Err(format!(
        "{} lists {} positional query ids (case/N, e.g. `{first}`) of corpus {}: since corpus 3.0.0 a query id is case/name\n  fix: rewrite it to today's ids, then gate again: reptest gate --migrate-baseline {}",
        file.display(),
        positional.len(),
        baseline.corpus_version.as_deref().unwrap_or("1.x or 2.x"),
        shell_word(&file.display().to_string())
    ))
}

/// `--migrate-baseline FILE`: rewrites FILE's positional ids to today's, atomically, and
/// says what it dropped (`reptest::gate::migrate`).
fn migrate(file: &Path, corpus: &CorpusArg) -> CommandResult {
    let old = Baseline::load(file).map_err(|e| e.to_string())?;
    let corpus = corpus.load()?;
    let table = PositionalIds::embedded().map_err(|e| e.to_string())?;
    let migration = gate::migrate(&old, &corpus, &table)
        .map_err(|e| format!("{}: cannot migrate: {e}", file.display()))?;
    write(file, &migration.baseline.to_toml())?;
    outln!("migrated {}: {}", file.display(), migration.summary());
    outln!(
        "next: review the diff, then gate: reptest gate --impl {} --baseline {}",
        shell_word(&migration.baseline.implementation),
        shell_word(&file.display().to_string())
    );
    Ok(ExitCode::SUCCESS)
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
    reptest::atomic::write(path, text.as_bytes()).map_err(|e| e.to_string())
}
