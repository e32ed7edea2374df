//! `reptest report`: the corpus through implementations, written as a report folder
//! (JSON, HTML, Markdown summary, one Markdown page per implementation).

use super::{CommandResult, CorpusArg};
use reptest::report::markdown::WriteUp;
use reptest::report::{folder, upstream, Report};
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

/// What `reptest report --help` says after the options: the files and who reads them.
const AFTER_HELP: &str = r#"Files written in the folder (--out, default ./reptest-report):

  report.json     the whole run: implementations and versions, every case with its
                  body, every outcome, scores per profile, level and requirement,
                  pairwise agreement. For tools and dashboards; stable format
                  (`format` field).

  report.html     one self-contained page (no network) to browse the matrix: for
                  people comparing implementations.

  README.md       the conformance summary: per profile (rfc9309, google) one row per
                  implementation, then per requirement, same verdicts with another
                  deciding line, pairwise agreement, and links to the fuzzing
                  write-ups (reports/findings/). For readers of the repository.

  impl/NAME.md    one page per implementation: its scores, its choices where the RFC
                  allows either verdict, and every query it did not pass with the body,
                  the expectation and what it answered. For that library's maintainers.

  upstream/NAME/QUESTION.md  one bug report per implementation and question it gets
                  wrong, to file upstream: the smallest query that shows it, the body as
                  exact bytes, the RFC sentence, the answer, the reach in the corpus
                  (and with --survey in real files), the known threads; beside it a
                  reproducer in the library's own language (QUESTION.py, .js, .go,
                  .java, .pl, .rb, .rs). upstream/README.md is the index,
                  upstream/reproducers.json what harness/external/reproducers/check.py
                  runs. `reptest upstream` prints them (docs/upstream.md).

The Markdown is deterministic (sorted, no timings or dates); the same pages for every
implementation but google are committed under reports/snapshots/ and checked by
`cargo test -p reptest --test integration report::`. Both profiles are always judged, so
there is no --profile option. Exits 0 once the files are written (use `reptest run` or
`reptest gate` to gate on results), 2 on a corpus, implementation or I/O error."#;

/// Run the corpus through implementations (default: every available one) and write a
/// report folder for people and tools ([`AFTER_HELP`] lists the files).
#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    #[command(flatten)]
    corpus: CorpusArg,
    /// Implementations to run, comma-separated (see `reptest impls`). Default: every
    /// available one (`all`); `parsers` or `crawlers` name the two sets.
    #[arg(long = "impl", value_name = "NAMES", value_delimiter = ',')]
    implementations: Vec<String>,
    /// The folder to write into (created if missing; files in it are replaced).
    #[arg(long, value_name = "DIR", default_value = "reptest-report")]
    out: PathBuf,
    /// A survey's survey.json (`reptest survey --out DIR`): the bug reports quote, per
    /// question, the real files on which the implementation answered against the
    /// decided verdict.
    #[arg(long, value_name = "FILE")]
    survey: Option<PathBuf>,
    #[command(flatten)]
    quiet: super::QuietArg,
}

pub fn run(args: Args) -> CommandResult {
    let corpus_dir = args.corpus.dir();
    let corpus = args.corpus.load()?;
    let survey = super::upstream::survey_files(args.survey.as_deref())?;
    let implementations = super::selected(&args.implementations)?;
    let run = super::run_corpus_quiet(&corpus, &implementations, args.quiet.quiet);
    let infos: Vec<_> = implementations.iter().map(|i| i.info().clone()).collect();
    let report = Report::build(&corpus, &corpus_dir, &run, &infos, &now_rfc3339());

    let out = &args.out;
    let impl_dir = out.join(folder::IMPL_DIR);
    std::fs::create_dir_all(&impl_dir)
        .map_err(|e| format!("cannot create {}: {e}", impl_dir.display()))?;
    let findings_dir = corpus_dir
        .parent()
        .unwrap_or(&corpus_dir)
        .join("reports")
        .join("findings");
    let write_ups = write_ups(&findings_dir, out);

    // Every file is rendered first, then all are written together (reptest::atomic): a
    // failed write leaves the previous report whole, never a mix of old and new files.
    let files: Vec<(PathBuf, Vec<u8>)> = folder::files(&report, &write_ups)
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(|(path, bytes)| (out.join(path), bytes))
        .collect();
    let bugs = upstream::bug_reports(&report, &corpus, survey.as_ref());
    let upstream_files = upstream_files(&bugs, out, Path::new(upstream::UPSTREAM_DIR))?;
    let paths: Vec<PathBuf> = files.iter().map(|(path, _)| path.clone()).collect();
    let all: Vec<(PathBuf, Vec<u8>)> = files.into_iter().chain(upstream_files).collect();
    reptest::atomic::write_all(&all).map_err(|e| e.to_string())?;
    prune_upstream(&out.join(upstream::UPSTREAM_DIR), &all);
    out!("{}", folder::written(&report, out, &paths));
    out!(
        "{}",
        upstream::written(&bugs, &out.join(upstream::UPSTREAM_DIR))
    );
    Ok(ExitCode::SUCCESS)
}

/// The bug reports' files under `out` (their `upstream/` prefix replaced by `folder`),
/// their folders created.
pub fn upstream_files(
    bugs: &[upstream::BugReport<'_>],
    out: &Path,
    folder: &Path,
) -> Result<Vec<(PathBuf, Vec<u8>)>, String> {
    let files: Vec<(PathBuf, Vec<u8>)> = upstream::files(bugs)
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(|(path, bytes)| {
            let inner = path.strip_prefix(upstream::UPSTREAM_DIR).unwrap_or(&path);
            (out.join(folder).join(inner), bytes)
        })
        .collect();
    for dir in files.iter().filter_map(|(p, _)| p.parent()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    Ok(files)
}

/// Removes the files of an earlier report's `upstream` folder that this one did not
/// write (a question since answered right), and folders left empty. Best effort.
fn prune_upstream(dir: &Path, written: &[(PathBuf, Vec<u8>)]) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for sub in entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()) {
        for file in std::fs::read_dir(&sub).into_iter().flatten().flatten() {
            let path = file.path();
            if !written.iter().any(|(p, _)| *p == path) {
                let _ = std::fs::remove_file(&path);
            }
        }
        let _ = std::fs::remove_dir(&sub); // only when empty
    }
}

/// The fuzzing write-ups in `findings_dir` (`*.md`), linked relative to `out`.
fn write_ups(findings_dir: &Path, out: &Path) -> Vec<WriteUp> {
    let Ok(entries) = std::fs::read_dir(findings_dir) else {
        return Vec::new();
    };
    let mut list: Vec<WriteUp> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .filter_map(|path| {
            let name = path.file_stem()?.to_string_lossy().into_owned();
            let link = relative(out, &path).unwrap_or_else(|| path.clone());
            Some(WriteUp {
                name,
                link: link.to_string_lossy().replace('\\', "/"),
            })
        })
        .collect();
    list.sort();
    list
}

/// `to` relative to the folder `from` (both must exist), e.g. `../reports/findings/x.md`.
fn relative(from: &Path, to: &Path) -> Option<PathBuf> {
    let from = from.canonicalize().ok()?;
    let to = to.canonicalize().ok()?;
    let from: Vec<Component> = from.components().collect();
    let to: Vec<Component> = to.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return None;
    }
    let mut path = PathBuf::new();
    for _ in common..from.len() {
        path.push("..");
    }
    for c in &to[common..] {
        path.push(c);
    }
    Some(path)
}

/// The current UTC time in RFC 3339 (`2026-11-29T08:15:00Z`).
pub fn now_rfc3339() -> String {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    rfc3339(seconds)
}

/// `seconds` since the Unix epoch in RFC 3339, UTC (days to civil date after Howard
/// Hinnant's `civil_from_days`).
fn rfc3339(seconds: u64) -> String {
    let days = (seconds / 86_400) as i64;
    let rest = seconds % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3_600,
        rest % 3_600 / 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_764_404_100), "2025-11-29T08:15:00Z");
        assert_eq!(rfc3339(4_102_444_799), "2099-12-31T23:59:59Z");
    }
}
