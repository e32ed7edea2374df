//! `reptest survey synth` end to end: a synthetic WARC made from a few files, surveyed by
//! `reptest survey`, whose status table holds the generator's mix; refused arguments.

use super::survey::{ok, reptest};

use serde_json::Value;

#[test]
fn a_synthetic_warc_is_surveyed_with_its_status_mix() {
    let root = tempfile::tempdir().unwrap();
    let input = root.path().join("real");
    std::fs::create_dir(&input).unwrap();
    std::fs::write(
        input.join("a.example"),
        "User-agent: *\nDisallow: /private/\n",
    )
    .unwrap();
    std::fs::write(input.join("b.example"), "User-agent: GPTBot\nDisallow: /\n").unwrap();
    let warc = root.path().join("synth.warc.gz");
    let (input, warc_s) = (input.to_str().unwrap(), warc.to_str().unwrap());
    let out = ok(&[
        "survey",
        "synth",
        "--input",
        input,
        "--out",
        warc_s,
        "--records",
        "400",
    ]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("400 response records (200: 340, "), "{said}");
    assert!(said.contains("from 2 real files"), "{said}");

    let dir = root.path().join("survey");
    let dir_s = dir.to_str().unwrap();
    ok(&[
        "survey",
        "--input",
        warc_s,
        "--impl",
        "reference",
        "--out",
        dir_s,
        "-q",
    ]);
    let survey: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("survey.json")).unwrap()).unwrap();
    assert_eq!(survey["files"]["read"], 400, "{}", survey["files"]);
    assert_eq!(survey["files"]["surveyed"], 340, "{}", survey["files"]);
    let families: Vec<(String, u64)> = survey["status"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            (
                row["family"].as_str().unwrap().to_owned(),
                row["files"].as_u64().unwrap(),
            )
        })
        .collect();
    let expected = [("2xx", 340), ("3xx", 4), ("4xx", 52), ("5xx", 4)];
    let expected: Vec<(String, u64)> = expected.iter().map(|(f, n)| (f.to_string(), *n)).collect();
    assert_eq!(families, expected);
}

#[test]
fn what_synth_refuses() {
    let root = tempfile::tempdir().unwrap();
    let input = root.path().to_str().unwrap();
    for (records, out, says) in [
        ("0", "x.warc.gz", "--records 0: give at least 1"),
        ("10", "x.warc", "name the file .warc.gz"),
        ("10", "x.warc.gz", "the directory holds no regular file"),
    ] {
        let out = root.path().join(out);
        let run = reptest(&[
            "survey",
            "synth",
            "--input",
            input,
            "--out",
            out.to_str().unwrap(),
            "--records",
            records,
        ]);
        assert_eq!(run.status.code(), Some(2), "{says}");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(stderr.contains(says), "{stderr}");
        assert!(!out.exists(), "{}", out.display());
    }
}
