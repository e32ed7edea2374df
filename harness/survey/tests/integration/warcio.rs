//! WARC input on files written by Python's warcio (tests/make_warc.py), a WARC writer
//! independent of this crate and of the Rust `warc` crate.
//!
//! The interpreter is `$REPTEST_WARCIO_PYTHON`, else the project's venv
//! (`harness/external/.state/venv/bin/python`) if it exists, else `python3`. Without
//! warcio this test FAILS, naming the install command, unless `REPTEST_SKIP_WARCIO=1`.
//! The WARC is made from real robots.txt files: protego's test data where the setup
//! fetched it (`bash harness/external/setup survey-data`), or the files of
//! `REPTEST_SURVEY_BODIES=DIR`; without either, from the script's built-in bodies; at
//! most `REPTEST_SURVEY_MAX` of them (default 25).

use std::path::{Path, PathBuf};
use std::process::Command;

use reptest_survey::{Cut, Files, SurveyFile};

/// The warcio version the script is tested with.
const WARCIO: &str = "1.8.1";

fn python() -> PathBuf {
    if let Some(python) = std::env::var_os("REPTEST_WARCIO_PYTHON") {
        return PathBuf::from(python);
    }
    let harness = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let venv = harness.join("external/.state/venv/bin/python");
    if venv.exists() {
        venv
    } else {
        PathBuf::from("python3")
    }
}

/// The interpreter, if it has warcio; `None` if the test is to be skipped.
fn python_with_warcio() -> Option<PathBuf> {
    let python = python();
    let has = Command::new(&python)
        .args(["-c", "import warcio"])
        .output()
        .is_ok_and(|o| o.status.success());
    if has {
        return Some(python);
    }
    if std::env::var("REPTEST_SKIP_WARCIO").as_deref() == Ok("1") {
        eprintln!(
            "skipped: {} has no warcio and REPTEST_SKIP_WARCIO=1",
            python.display()
        );
        return None;
    }
    panic!(
        "Python's warcio is needed to test WARC input, and {python} has none: install it with \
         `bash harness/external/setup python` (or `{python} -m pip install warcio=={WARCIO}`), or point REPTEST_WARCIO_PYTHON at an interpreter \
         that has it; REPTEST_SKIP_WARCIO=1 skips this test",
        python = python.display()
    );
}

fn unhex(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect()
}

/// Writes a WARC with the script and checks that every response record is read as the
/// manifest says, at the offset warcio itself reports.
fn check(plain: bool) {
    let Some(python) = python_with_warcio() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let name = if plain { "t.warc" } else { "t.warc.gz" };
    let warc = dir.path().join(name);
    let manifest = dir.path().join("manifest.json");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/make_warc.py");
    let mut command = Command::new(&python);
    command.arg(&script).arg(&warc).arg(&manifest);
    if plain {
        command.arg("--plain");
    }
    // Real files where the setup fetched them (protego's test data), else the script's own.
    let protego = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../external/.state/survey/protego-0.7.0/test_data");
    let bodies = std::env::var_os("REPTEST_SURVEY_BODIES")
        .map(std::path::PathBuf::from)
        .or_else(|| protego.is_dir().then_some(protego));
    if let Some(bodies) = bodies {
        command.arg("--bodies").arg(bodies);
    }
    if let Some(max) = std::env::var_os("REPTEST_SURVEY_MAX") {
        command.arg("--max").arg(max);
    }
    let out = command.output().expect("runs the script");
    assert!(
        out.status.success(),
        "make_warc.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&manifest).unwrap()).unwrap();
    let expected = manifest["responses"].as_array().unwrap();
    assert!(
        expected.len() >= 9,
        "the script writes at least 9 responses"
    );

    let files: Vec<SurveyFile> = reptest_survey::open(&warc)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        files.len(),
        expected.len(),
        "warcinfo, request, metadata, revisit skipped"
    );
    let mut statuses = std::collections::BTreeSet::new();
    for (file, want) in files.iter().zip(expected) {
        let host = want["host"].as_str().unwrap();
        assert_eq!(file.host, host);
        assert_eq!(
            file.status,
            Some(want["status"].as_u64().unwrap() as u16),
            "{host}"
        );
        assert_eq!(
            file.body,
            unhex(want["body_hex"].as_str().unwrap()),
            "{host}"
        );
        let cut = want["cut"].as_bool().unwrap().then_some(Cut::Archive);
        assert_eq!(file.cut, cut, "{host}");
        let offset = want["offset"].as_u64().unwrap();
        assert_eq!(
            file.source,
            format!("{}@{offset}", warc.display()),
            "{host}"
        );
        statuses.insert(file.status.unwrap());
    }
    for status in [200, 301, 404, 500, 503] {
        assert!(statuses.contains(&status), "status {status} is covered");
    }
    // The same bytes through a reader, not a path.
    let again: Vec<SurveyFile> = Files::warc(std::fs::File::open(&warc).unwrap(), "r")
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(again.len(), files.len());
}

#[test]
fn warcio_warc_gz() {
    check(false);
}

#[test]
fn warcio_plain_warc() {
    check(true);
}
