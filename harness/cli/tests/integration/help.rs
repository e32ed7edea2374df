//! What `reptest --help` and each subcommand's `--help` say: true of what the command
//! does, and the whole of it (a subcommand's own description is not hidden by the
//! one-line summary of the command list).

use std::process::Command;

const REPTEST: &str = env!("CARGO_BIN_EXE_reptest");

fn help(args: &[&str]) -> String {
    let out = Command::new(REPTEST)
        .args(args)
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn run_is_not_said_to_run_only_the_reference() {
    let top = help(&[]);
    assert!(!top.contains("through the reference matcher"), "{top}");
    assert!(
        top.contains("reptest run                      run the corpus through every available implementation"),
        "{top}"
    );
    let run = help(&["run"]);
    assert!(run.contains("(default: every available one)"), "{run}");
}

/// The descriptions written on the subcommands' arguments reach their `--help`.
#[test]
fn each_subcommand_shows_its_own_description() {
    for (command, says) in [
        (
            "run",
            "Exits 1 if an implementation named with --impl did not pass a query",
        ),
        ("eval", "\"robots_b64\""),
        ("eval", "the exit code is 2 if any line was bad"),
        (
            "serve",
            "command = [\"reptest\", \"serve\", \"--impl\", \"reference\"]",
        ),
        ("fuzz", "Reproducible: the same seed and --inputs"),
        ("check", "the deciding rule and its line"),
    ] {
        let text = help(&[command]);
        assert!(
            text.contains(says),
            "{command} --help lacks {says:?}:\n{text}"
        );
    }
}

/// `survey synth --help` says what a record is, and `survey --help` lists it.
#[test]
fn survey_synth_teaches_its_records() {
    let survey = help(&["survey"]);
    assert!(
        survey
            .lines()
            .any(|l| l.trim_start().starts_with("synth ") && l.contains("synthetic WARC")),
        "{survey}"
    );
    let text = help(&["survey", "synth"]);
    for says in [
        "exactly 85 200, 13 404, 1 500/503 and 1 301/302",
        "s<index>.<hash>.example, never the real host",
        "# reptest synth record <index>",
        "Memory stays flat",
        "harness/survey/scale/measure.sh",
    ] {
        assert!(
            text.contains(says),
            "survey synth --help lacks {says:?}:\n{text}"
        );
    }
}

/// Every signal reptest handles (reptest_core::shutdown) is in the exit codes.
#[test]
fn the_exit_codes_name_every_signal_handled() {
    let top = help(&[]);
    assert!(
        top.contains("130 / 143 / 129 interrupted by SIGINT / SIGTERM / SIGHUP"),
        "{top}"
    );
}

#[test]
fn the_long_commands_take_quiet() {
    for command in ["run", "report", "survey"] {
        let text = help(&[command]);
        assert!(text.contains("-q, --quiet"), "{command}:\n{text}");
    }
}

#[test]
fn corpus_lists_what_it_does() {
    let top = help(&[]);
    let line = top
        .lines()
        .find(|l| l.trim_start().starts_with("corpus "))
        .unwrap();
    for word in [
        "statistics",
        "validation",
        "one case",
        "export",
        "write-ups",
    ] {
        assert!(line.contains(word), "{line}");
    }
}
