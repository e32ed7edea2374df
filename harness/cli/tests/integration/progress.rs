//! Progress of `reptest run`, `reptest report` and `reptest survey` on stderr: drawn on
//! a terminal (a pty, through util-linux's `script`), naming the implementation running
//! and its place (a survey: files, files/s, the time left); nothing with `--quiet`, and
//! when stderr is not a terminal nothing (a survey: a status line every 10 s at most).
//! And the wall time of each implementation in what `run` and `report` print.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

const REPTEST: &str = env!("CARGO_BIN_EXE_reptest");

fn temp_dir(name: &str) -> PathBuf {
    common::temp_dir("progress", name)
}

/// A corpus of `cases` cases of one query each (an empty group for `nobody`, so every
/// query is allowed).
fn corpus(name: &str, cases: usize) -> PathBuf {
    let ids: Vec<String> = (0..cases).map(|i| format!("c{i}")).collect();
    let cases: Vec<(&str, &[&str])> = ids.iter().map(|id| (id.as_str(), &["a"][..])).collect();
    common::allowed_corpus(temp_dir(name), &cases)
}

/// Adapters registering `slow`: one process per query that takes a second to answer
/// `allowed`, so a run of it outlasts the delay before progress appears (700 ms).
fn slow_adapter(name: &str) -> PathBuf {
    let dir = temp_dir(name);
    std::fs::write(
        dir.join("adapters.toml"),
        "[[adapter]]\nname = \"slow\"\nlanguage = \"sh\"\nmode = \"per-query\"\n\
         command = [\"sh\", \"-c\", \"sleep 1; echo ALLOWED\", \"%robots%\"]\ntimeout_ms = 20000\n",
    )
    .unwrap();
    dir
}

/// What a terminal shows while `reptest ARGS` runs with its stderr on a pty (stdout goes
/// to `stdout`), and its exit code.
fn on_a_terminal(args: &str, adapters: &Path, stdout: &Path) -> (String, Option<i32>) {
    let command = format!("{REPTEST} {args} > {}", stdout.display());
    let out = Command::new("script")
        .args(["--quiet", "--return", "--command", &command, "/dev/null"])
        .env("REPTEST_ADAPTERS", adapters)
        .output()
        .expect("util-linux's `script` runs commands on a pseudo-terminal (bsdutils)");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code(),
    )
}

#[test]
fn a_terminal_sees_which_implementation_runs_its_place_and_its_queries() {
    let corpus = corpus("tty-corpus", 3);
    let adapters = slow_adapter("tty-adapters");
    let stdout = temp_dir("tty-out").join("stdout");
    let args = format!("run --corpus {} --impl reference,slow", corpus.display());
    let (screen, code) = on_a_terminal(&args, &adapters, &stdout);
    assert_eq!(code, Some(0), "{screen}");
    assert!(screen.contains("[2/2] slow ["), "{screen}");
    assert!(screen.contains("/3 queries"), "{screen}");
    assert!(screen.contains("/s ETA "), "{screen}");
    // The summary on stdout is untouched by the bar.
    let summary = std::fs::read_to_string(&stdout).unwrap();
    assert!(!summary.contains("ETA"), "{summary}");
}

/// `files` robots.txt files in a folder, for `reptest survey --input`.
fn robots_files(name: &str, files: usize) -> PathBuf {
    let dir = temp_dir(name);
    for i in 0..files {
        std::fs::write(
            dir.join(format!("host{i}.example")),
            "User-agent: *\nDisallow: /a\n",
        )
        .unwrap();
    }
    dir
}

#[test]
fn a_survey_on_a_terminal_shows_files_rate_and_time_left() {
    let input = robots_files("tty-survey-input", 3);
    let out = temp_dir("tty-survey-out");
    let stdout = out.join("stdout");
    let args = format!(
        "survey --input {} --impl reference --out {}",
        input.display(),
        out.display()
    );
    let (screen, code) = on_a_terminal(&args, &temp_dir("tty-survey-adapters"), &stdout);
    assert_eq!(code, Some(0), "{screen}");
    assert!(screen.contains("3/3 files (100.0 %), "), "{screen}");
    assert!(screen.contains(" files/s, ETA "), "{screen}");
}

/// Off a terminal, a survey writes its status every 10 s, never more often: a quick one
/// writes none, only its summary (the status line's format is tested beside its code,
/// `cli/survey/status.rs`).
#[test]
fn a_quick_survey_off_a_terminal_writes_no_status_line() {
    let input = robots_files("pipe-survey-input", 3);
    let out = temp_dir("pipe-survey-out");
    let run = Command::new(REPTEST)
        .args(["survey", "--impl", "reference", "--input"])
        .arg(&input)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        !stderr.contains("ETA") && !stderr.contains("/3 files"),
        "{stderr}"
    );
    assert!(
        stderr.starts_with("reptest survey: 3 file(s) read"),
        "{stderr}"
    );
}

#[test]
fn quiet_draws_nothing_on_a_terminal() {
    let corpus = corpus("quiet-corpus", 3);
    let adapters = slow_adapter("quiet-adapters");
    let out = temp_dir("quiet-out");
    let stdout = out.join("stdout");
    let input = robots_files("quiet-survey-input", 3);
    let commands = [
        format!("run --corpus {} --impl reference,slow", corpus.display()),
        format!(
            "report --corpus {} --impl reference,slow --out {}",
            corpus.display(),
            out.join("report").display()
        ),
        format!(
            "survey --input {} --impl reference --out {}",
            input.display(),
            out.join("survey").display()
        ),
    ];
    for command in commands {
        let (screen, code) = on_a_terminal(&format!("{command} --quiet"), &adapters, &stdout);
        assert_eq!(code, Some(0), "{command}: {screen}");
        assert!(!screen.contains("ETA"), "{command}: {screen}");
    }
}

/// `reptest COMMAND --impl reference,slow --corpus CORPUS` with the adapters of
/// `adapters`, its output captured (so stderr is not a terminal); more arguments may follow.
fn off_a_terminal(command: &str, corpus: &Path, adapters: &Path) -> Command {
    let mut reptest = Command::new(REPTEST);
    reptest
        .args([command, "--impl", "reference,slow", "--corpus"])
        .arg(corpus)
        .env("REPTEST_ADAPTERS", adapters);
    reptest
}

#[test]
fn stderr_that_is_not_a_terminal_gets_no_progress() {
    let corpus = corpus("pipe-corpus", 3);
    let adapters = slow_adapter("pipe-adapters");
    let out = off_a_terminal("run", &corpus, &adapters).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

/// The last word of `table`'s line for implementation `row` (after its leading spaces).
fn last_word<'t>(table: &'t str, row: &str) -> &'t str {
    table
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("{row} ")))
        .and_then(|l| l.split_whitespace().last())
        .unwrap_or_else(|| panic!("no row {row} in {table}"))
}

#[test]
fn run_and_report_say_how_long_each_implementation_took() {
    let corpus = corpus("seconds-corpus", 2);
    let adapters = slow_adapter("seconds-adapters");
    let run = off_a_terminal("run", &corpus, &adapters).output().unwrap();
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(
        text.lines()
            .any(|l| l.trim_end().ends_with("queries/s seconds")),
        "{text}"
    );
    // Two cases answered in parallel, each query a process that sleeps a second.
    let slow: f64 = last_word(&text, "slow").parse().unwrap();
    assert!(slow >= 1.0, "{text}");
    let reference: f64 = last_word(&text, "reference").parse().unwrap();
    assert!(reference >= 0.0, "{text}");

    let out_dir = temp_dir("seconds-report");
    let report = off_a_terminal("report", &corpus, &adapters)
        .arg("--out")
        .arg(&out_dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&report.stdout);
    assert_eq!(last_word(&text, "slow"), "s", "{text}");
    let line = text.lines().find(|l| l.trim_start().starts_with("slow "));
    let words: Vec<&str> = line.unwrap().split_whitespace().collect();
    let seconds: f64 = words[words.len() - 2].parse().unwrap();
    assert!(seconds >= 1.0, "{text}");
}

/// What a run told its observer: (index, count, name, queries) per start, and the
/// queries answered in all.
#[derive(Default)]
struct Events {
    started: std::sync::Mutex<Vec<(usize, usize, String, usize)>>,
    answered: std::sync::atomic::AtomicUsize,
}

impl reptest::runner::RunObserver for Events {
    fn started(&self, index: usize, count: usize, name: &str, queries: usize) {
        self.started
            .lock()
            .unwrap()
            .push((index, count, name.to_string(), queries));
    }

    fn answered(&self, queries: usize) {
        self.answered
            .fetch_add(queries, std::sync::atomic::Ordering::Relaxed);
    }
}

#[test]
fn the_runner_tells_each_implementation_it_starts_and_every_query_answered() {
    let corpus = reptest_corpus::Corpus::load(reptest_corpus::default_dir()).unwrap();
    let queries = corpus.stats().queries;
    let implementations = [
        reptest::impls::one("reference").unwrap(),
        reptest::impls::one("reference").unwrap(),
    ];
    let events = Events::default();
    let run = reptest::runner::run_observed(&corpus, &implementations, &events);
    assert_eq!(
        *events.started.lock().unwrap(),
        vec![
            (0, 2, "reference".to_string(), queries),
            (1, 2, "reference".to_string(), queries)
        ]
    );
    assert_eq!(
        events.answered.load(std::sync::atomic::Ordering::Relaxed),
        2 * queries
    );
    assert_eq!(run.elapsed.len(), 2);
}
