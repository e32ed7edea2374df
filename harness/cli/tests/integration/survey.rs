//! `reptest survey` end to end on inputs made here: a directory of a dozen handmade
//! robots.txt files and a WARC file written with the `warc` crate (statuses 200, 404,
//! 503), through in-process implementations; sharded runs merged and compared byte for
//! byte with the unsharded run; merges that must be refused.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;
use warc::{RawRecordHeader, WarcHeader, WarcWriter};

/// Fast, in process, and split on real-looking files.
const IMPLS: &str = "reference,rust-robotxt,rust-robots-txt";

/// A dozen robots.txt bodies written for this test.
const BODIES: [(&str, &str); 12] = [
    ("a.example", "User-agent: *\nDisallow: /private/\n"),
    (
        "b.example",
        "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
    ),
    (
        "c.example",
        "User-agent: *\nDisallow: /*.pdf$\nAllow: /public/\nDisallow: /search?q=\n",
    ),
    ("d.example", ""),
    (
        "e.example",
        "User-agent: *\nDisallow: /caf%C3%A9/\nDisallow: /%7Euser/\n",
    ),
    (
        "f.example",
        "User-agent: Googlebot\nUser-agent: Bingbot\n\nDisallow: /tmp/\n",
    ),
    (
        "g.example",
        "user-agent: *\r\ndisallow: /admin\r\nallow: /admin/public\r\n",
    ),
    (
        "h.example",
        "\u{feff}User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n",
    ),
    (
        "i.example",
        "User-agent: *\nDisallow: /a$b\nDisallow: /*/print\n",
    ),
    (
        "j.example",
        "# comment only\nUser-agent: Slurp\nCrawl-delay: 3\n\nUser-agent: *\nDisallow: /\n",
    ),
    (
        "k.example",
        "User-agent: ClaudeBot\nDisallow: /\nUser-agent: CCBot\nDisallow: /data\n",
    ),
    (
        "l.example",
        "User-agent: *\nDisalow: /typo\nDisallow: /x*y*z\n",
    ),
];

pub(crate) fn reptest(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_reptest"))
        .args(args)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("SLURM_ARRAY_TASK_COUNT")
        .env_remove("JOB_COMPLETION_INDEX")
        .env_remove("REPTEST_SHARD_COUNT")
        .output()
        .unwrap()
}

pub(crate) fn ok(args: &[&str]) -> Output {
    let out = reptest(args);
    assert!(
        out.status.success(),
        "reptest {args:?}: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn fails(args: &[&str]) -> String {
    let out = reptest(args);
    assert_eq!(
        out.status.code(),
        Some(2),
        "reptest {args:?} should fail with 2"
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn handmade_dir(root: &Path) -> String {
    let dir = root.join("robots");
    std::fs::create_dir_all(&dir).unwrap();
    for (host, body) in BODIES {
        std::fs::write(dir.join(host), body).unwrap();
    }
    dir.display().to_string()
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn n(value: &Value) -> u64 {
    value.as_u64().unwrap()
}

#[test]
fn a_directory_survey_has_its_keys_and_its_counts_add_up() {
    let root = tempfile::tempdir().unwrap();
    let input = handmade_dir(root.path());
    let out = root.path().join("out");
    let printed = ok(&[
        "survey",
        "--input",
        &input,
        "--impl",
        IMPLS,
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    let survey = json(&out.join("survey.json"));
    let stdout: Value = serde_json::from_slice(&printed.stdout).unwrap();
    assert_eq!(stdout, survey, "--json prints survey.json");
    for key in [
        "files",
        "queries",
        "pairwise",
        "per_question",
        "new",
        "status",
        "agreement",
        "implementations",
        "seed",
        "queries_per_file",
    ] {
        assert!(survey.get(key).is_some(), "survey.json has `{key}`");
    }
    let files = &survey["files"];
    assert_eq!(n(&files["read"]), 12);
    assert_eq!(n(&files["surveyed"]), 12);
    let queries = n(&survey["queries"]);
    assert!(queries > 0 && queries <= 12 * 20, "{queries}");
    assert_eq!(survey["status"][0]["family"], "none");
    assert_eq!(n(&survey["status"][0]["files"]), 12);
    let implementations = survey["implementations"].as_array().unwrap();
    assert_eq!(implementations.len(), 3);
    for i in implementations {
        assert_eq!(n(&i["asked"]), queries);
        assert_eq!(n(&i["verdicts"]) + n(&i["missing_total"]), queries);
    }
    assert_eq!(implementations[0]["name"], "reference");
    assert_eq!(n(&implementations[0]["decided"]["queries_disagree"]), 0);
    let pairwise = &survey["pairwise"];
    for matrix in ["queries", "queries_disagree", "files", "files_disagree"] {
        let m = pairwise[matrix].as_array().unwrap();
        for (i, row) in m.iter().enumerate() {
            for (j, cell) in row.as_array().unwrap().iter().enumerate() {
                assert_eq!(cell, &m[j][i], "{matrix} is symmetric");
            }
        }
    }
    for i in 0..3 {
        assert_eq!(n(&pairwise["queries_disagree"][i][i]), 0);
    }
    let agreement = &survey["agreement"];
    assert_eq!(
        n(&agreement["unanimous"]) + n(&agreement["split"]),
        n(&agreement["compared"])
    );
    let new: u64 = survey["new"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| n(&g["queries"]))
        .sum();
    assert_eq!(new + n(&agreement["attributed"]), n(&agreement["split"]));
    let readme = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(readme.contains("decided verdict of a query is the reference's verdict"));
    let html = std::fs::read_to_string(out.join("survey.html")).unwrap();
    assert!(html.starts_with("<!doctype html>") && !html.contains("src="));
}

#[test]
fn shards_merge_into_exactly_the_unsharded_survey() {
    let root = tempfile::tempdir().unwrap();
    let input = handmade_dir(root.path());
    let whole = root.path().join("whole");
    let parts = root.path().join("parts");
    let merged = root.path().join("merged");
    let base = [
        "survey",
        "--input",
        &input,
        "--impl",
        IMPLS,
        "--queries-per-file",
        "7",
    ];
    ok(&[&base[..], &["--out", whole.to_str().unwrap()]].concat());
    for shard in ["0/3", "1/3", "2/3"] {
        ok(&[
            &base[..],
            &["--shard", shard, "--out", parts.to_str().unwrap()],
        ]
        .concat());
    }
    let partial = |i: u32| {
        parts
            .join(format!("partial-{i}-of-3.json"))
            .display()
            .to_string()
    };
    let partial_json = json(Path::new(&partial(1)));
    assert_eq!(partial_json["seed"], 1);
    assert_eq!(partial_json["queries_per_file"], 7);
    assert_eq!(partial_json["shard"]["count"], 3);
    ok(&[
        "survey",
        "merge",
        &partial(2),
        &partial(0),
        &partial(1),
        "--out",
        merged.to_str().unwrap(),
    ]);
    let tables_and_figures = ["csv/pairwise-queries.csv", "figures/pairwise.svg"];
    for name in ["survey.json", "README.md", "survey.html"]
        .into_iter()
        .chain(tables_and_figures)
    {
        assert_eq!(
            std::fs::read(whole.join(name)).unwrap(),
            std::fs::read(merged.join(name)).unwrap(),
            "{name} of the merge is the unsharded run's"
        );
    }

    let missing = fails(&[
        "survey",
        "merge",
        &partial(0),
        &partial(2),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert!(missing.contains("missing: 1/3"), "{missing}");
    let twice = fails(&["survey", "merge", &partial(0), &partial(0)]);
    assert!(twice.contains("twice"), "{twice}");

    let other = root.path().join("other-seed");
    ok(&[
        &base[..],
        &[
            "--seed",
            "2",
            "--shard",
            "1/3",
            "--out",
            other.to_str().unwrap(),
        ],
    ]
    .concat());
    let other = other.join("partial-1-of-3.json").display().to_string();
    let seeds = fails(&["survey", "merge", &partial(0), &other, &partial(2)]);
    assert!(seeds.contains("seed"), "{seeds}");
}

#[test]
fn shards_come_from_the_scheduler_environment() {
    let root = tempfile::tempdir().unwrap();
    let input = handmade_dir(root.path());
    let out = root.path().join("out");
    let status = Command::new(env!("CARGO_BIN_EXE_reptest"))
        .args([
            "survey",
            "--input",
            &input,
            "--impl",
            "reference",
            "--out",
            out.to_str().unwrap(),
        ])
        .env("JOB_COMPLETION_INDEX", "1")
        .env("REPTEST_SHARD_COUNT", "2")
        .env_remove("SLURM_ARRAY_TASK_ID")
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    assert!(out.join("partial-1-of-2.json").is_file());
    let err = Command::new(env!("CARGO_BIN_EXE_reptest"))
        .args([
            "survey",
            "--input",
            &input,
            "--impl",
            "reference",
            "--out",
            out.to_str().unwrap(),
        ])
        .env("SLURM_ARRAY_TASK_ID", "4")
        .env("SLURM_ARRAY_TASK_COUNT", "4")
        .output()
        .unwrap();
    assert_eq!(err.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&err.stderr).contains("--array=0-3"));
}

/// One WARC response record, written with the `warc` crate.
fn record(uri: &str, status: &str, body: &str) -> Vec<u8> {
    let content = format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes();
    let headers = vec![
        (WarcHeader::WarcType, b"response".to_vec()),
        (
            WarcHeader::RecordID,
            format!("<urn:uuid:{:08x}-0000-4000-8000-000000000000>", uri.len()).into_bytes(),
        ),
        (WarcHeader::Date, b"2024-06-12T14:04:24Z".to_vec()),
        (WarcHeader::TargetURI, uri.as_bytes().to_vec()),
        (
            WarcHeader::ContentType,
            b"application/http; msgtype=response".to_vec(),
        ),
        (
            WarcHeader::ContentLength,
            content.len().to_string().into_bytes(),
        ),
    ];
    let header = RawRecordHeader {
        version: "1.0".to_owned(),
        headers: headers.into_iter().collect(),
    };
    let mut out = Vec::new();
    WarcWriter::new(&mut out)
        .write_raw(header, &content)
        .unwrap();
    out
}

#[test]
fn a_warc_survey_counts_statuses_and_surveys_only_the_2xx() {
    let root = tempfile::tempdir().unwrap();
    let path = root.path().join("robots.warc.gz");
    let mut file = std::fs::File::create(&path).unwrap();
    let records = [
        record("https://ok.example/robots.txt", "200 OK", BODIES[2].1),
        record("https://ok2.example/robots.txt", "200 OK", BODIES[4].1),
        record(
            "https://gone.example/robots.txt",
            "404 Not Found",
            "<html>no</html>",
        ),
        record(
            "https://busy.example/robots.txt",
            "503 Service Unavailable",
            "User-agent: *\nAllow: /\n",
        ),
    ];
    for r in records {
        // One gzip member per record, as Common Crawl writes them.
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(&r).unwrap();
        file.write_all(&gz.finish().unwrap()).unwrap();
    }
    drop(file);
    let out = root.path().join("out");
    ok(&[
        "survey",
        "--input",
        path.to_str().unwrap(),
        "--impl",
        IMPLS,
        "--out",
        out.to_str().unwrap(),
    ]);
    let survey = json(&out.join("survey.json"));
    assert_eq!(n(&survey["files"]["read"]), 4);
    assert_eq!(n(&survey["files"]["surveyed"]), 2);
    let status: Vec<(String, u64, u64)> = survey["status"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            (
                row["family"].as_str().unwrap().to_string(),
                n(&row["files"]),
                n(&row["queries"]),
            )
        })
        .collect();
    assert_eq!(status.len(), 3, "{status:?}");
    assert_eq!((status[0].0.as_str(), status[0].1), ("2xx", 2));
    assert_eq!(status[0].2, n(&survey["queries"]));
    assert_eq!(&status[1..], &[("4xx".into(), 1, 0), ("5xx".into(), 1, 0)]);
    let readme = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(
        readme.contains(
            "| 5xx | 1 | 25.0 % | unreachable: MUST assume complete disallow (§2.3.1.4) | 0 |"
        ),
        "{readme}"
    );
}

#[test]
fn bad_usage_and_bad_inputs_exit_2_with_a_clear_error() {
    let root = tempfile::tempdir().unwrap();
    let input = handmade_dir(root.path());
    let zip = root.path().join("robots.zip");
    std::fs::write(&zip, b"PK").unwrap();
    assert!(fails(&["survey", "--input", zip.to_str().unwrap()]).contains(".warc.gz"));
    assert!(fails(&["survey", "--input", "/no/such/input.tar"]).contains("No such file"));
    assert!(fails(&["survey", "--input", &input, "--shard", "3/3"]).contains("0-based"));
    assert!(fails(&[
        "survey",
        "--input",
        &input,
        "--shard",
        "0/3",
        "--impl",
        "reference"
    ])
    .contains("--out"));
    assert!(
        fails(&["survey", "--input", &input, "--impl", "no-such-impl"])
            .contains("unknown implementation")
    );
    assert!(
        fails(&["survey", "--input", &input, "--queries-per-file", "0"]).contains("at least 1")
    );
    let junk = root.path().join("junk.json");
    std::fs::write(&junk, "{\"a\": 1}").unwrap();
    assert!(fails(&["survey", "merge", junk.to_str().unwrap()]).contains("not a survey partial"));
    // A truncated archive is an input error, not a panic.
    let tgz = root.path().join("cut.tar.gz");
    std::fs::write(&tgz, [0x1f, 0x8b, 8, 0, 0, 0]).unwrap();
    let err = fails(&[
        "survey",
        "--input",
        tgz.to_str().unwrap(),
        "--impl",
        "reference",
    ]);
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn an_empty_input_exits_2_for_every_format() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("empty");
    std::fs::create_dir(&dir).unwrap();
    let tar = root.path().join("empty.tar");
    std::fs::write(&tar, [0u8; 10240]).unwrap();
    let warc = root.path().join("empty.warc");
    std::fs::write(&warc, b"").unwrap();
    for input in [&dir, &tar, &warc] {
        let input = input.to_str().unwrap();
        let err = fails(&["survey", "--input", input, "--impl", "reference"]);
        assert!(err.contains("empty input: "), "{input}: {err}");
        assert!(err.contains("nothing to survey"), "{input}: {err}");
    }
}

#[test]
fn a_shard_says_how_many_files_it_read_and_how_many_are_its_own() {
    let root = tempfile::tempdir().unwrap();
    let input = handmade_dir(root.path());
    let mut own = 0;
    for i in 0..3 {
        let shard = format!("{i}/3");
        let args = ["survey", "--input", &input, "--impl", "reference"];
        let out = ok(&[&args[..], &["--shard", &shard, "--json"]].concat());
        let err = String::from_utf8_lossy(&out.stderr);
        let read = format!("{} file(s) read, ", BODIES.len());
        assert!(err.contains(&read), "shard {shard}: {err}");
        let tail = err.split(&read).nth(1).unwrap();
        own += tail.split(' ').next().unwrap().parse::<usize>().unwrap();
        assert!(tail.contains(&format!(" in shard {shard}, ")), "{err}");
    }
    assert_eq!(own, BODIES.len(), "every file is in one shard");
}

/// A ustar header block of `kind` for `name` (`link` its link target), checksummed.
fn tar_header(name: &[u8], size: u64, kind: u8, link: &[u8]) -> Vec<u8> {
    let mut h = vec![0u8; 512];
    h[..name.len()].copy_from_slice(name);
    h[100..108].copy_from_slice(b"0000644\0");
    h[124..136].copy_from_slice(format!("{size:011o}\0").as_bytes());
    h[156] = kind;
    h[157..157 + link.len()].copy_from_slice(link);
    h[257..265].copy_from_slice(b"ustar\x0000");
    h[148..156].copy_from_slice(b"        ");
    let sum: u32 = h.iter().map(|&b| u32::from(b)).sum();
    h[148..156].copy_from_slice(format!("{sum:06o}\0 ").as_bytes());
    h
}

#[test]
fn skipped_tar_members_are_warned_about_without_raw_octets() {
    let root = tempfile::tempdir().unwrap();
    let body = b"User-agent: *\n";
    let mut tar = tar_header(b"a.example", body.len() as u64, b'0', b"");
    tar.extend(body);
    tar.resize(1024, 0);
    tar.extend(tar_header(b"\x1b[2Jb.test", 0, b'1', b"a.example"));
    tar.extend([0u8; 1024]);
    let path = root.path().join("links.tar");
    std::fs::write(&path, tar).unwrap();
    let out = ok(&[
        "survey",
        "--input",
        path.to_str().unwrap(),
        "--impl",
        "reference",
        "--json",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(":\\u{1b}[2Jb.test: skipped: a hard link"),
        "{err}"
    );
    assert!(!err.contains('\x1b'), "{err}");
    let survey: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(n(&survey["files"]["skipped"]), 1, "{survey}");
    assert_eq!(n(&survey["files"]["read"]), 1, "{survey}");
}

#[test]
fn minimizing_after_the_merge_gives_the_unsharded_minimized_survey() {
    let root = tempfile::tempdir().unwrap();
    let input = handmade_dir(root.path());
    let whole = root.path().join("whole");
    let parts = root.path().join("parts");
    let merged = root.path().join("merged");
    let base = ["survey", "--input", &input, "--impl", IMPLS];
    ok(&[&base[..], &["--minimize", "--out", whole.to_str().unwrap()]].concat());
    for shard in ["0/2", "1/2"] {
        ok(&[
            &base[..],
            &["--shard", shard, "--out", parts.to_str().unwrap()],
        ]
        .concat());
    }
    let refused = fails(&[&base[..], &["--shard", "0/2", "--minimize", "--json"]].concat());
    assert!(refused.contains("minimize when merging"), "{refused}");
    let partial = |i: u32| {
        parts
            .join(format!("partial-{i}-of-2.json"))
            .display()
            .to_string()
    };
    ok(&[
        "survey",
        "merge",
        &partial(0),
        &partial(1),
        "--minimize",
        "--out",
        merged.to_str().unwrap(),
    ]);
    let survey = json(&whole.join("survey.json"));
    assert_eq!(survey["new_minimized"], true);
    let new = survey["new"].as_array().unwrap();
    assert!(!new.is_empty(), "the handmade files split in a new way");
    assert!(new.iter().any(|g| g.get("minimized").is_some()), "{new:?}");
    for name in ["survey.json", "README.md", "survey.html"] {
        assert_eq!(
            std::fs::read(whole.join(name)).unwrap(),
            std::fs::read(merged.join(name)).unwrap(),
            "{name} of the minimized merge is the minimized unsharded run's"
        );
    }
}

/// Runs shards `0/2` and `1/2` of `input` with `extra` options into `dir`; returns the
/// two partials' paths.
fn two_shards(input: &str, dir: &Path, extra: [&[&str]; 2]) -> [String; 2] {
    [0, 1].map(|i| {
        let shard = format!("{i}/2");
        let base = ["survey", "--input", input, "--impl", IMPLS];
        let run = [
            &base[..],
            &["--shard", &shard, "--out", dir.to_str().unwrap()],
        ];
        ok(&[&run.concat()[..], extra[i]].concat());
        dir.join(format!("partial-{i}-of-2.json"))
            .display()
            .to_string()
    })
}

/// Rewrites the partial at `path` through the survey library, so that what it records
/// about itself (its checksums) matches the change: only the merge's own checks can
/// refuse it.
fn rewrite(path: &str, to: &Path, change: impl FnOnce(&mut reptest_survey::engine::Survey)) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut partial = reptest_survey::partial::Partial::parse(&text, path).unwrap();
    change(&mut partial.survey);
    let partial = reptest_survey::partial::Partial::new(partial.shard, partial.survey);
    std::fs::write(to, serde_json::to_string_pretty(&partial).unwrap()).unwrap();
}

/// `survey merge` checks what it merges (issue 19): partials of another input, counts
/// edited by hand, counts larger than their totals or whose sum overflows, an older
/// format and other timeouts are refused, naming the file and what differs.
#[test]
fn merge_refuses_partials_that_are_not_one_surveys() {
    let root = tempfile::tempdir().unwrap();
    let input = handmade_dir(root.path());
    let parts = root.path().join("parts");
    let [p0, p1] = two_shards(&input, &parts, [&[], &[]]);
    ok(&["survey", "merge", &p0, &p1]);
    let bad = |name: &str| root.path().join(name).display().to_string();

    // Another input: one file differs (its shard is still 1/2 of 2, same settings).
    let other = root.path().join("other");
    std::fs::create_dir_all(&other).unwrap();
    for (host, body) in BODIES {
        std::fs::write(other.join(host), body).unwrap();
    }
    std::fs::write(other.join("d.example"), "User-agent: *\nDisallow: /d\n").unwrap();
    let [_, q1] = two_shards(other.to_str().unwrap(), &root.path().join("q"), [&[], &[]]);
    let err = fails(&["survey", "merge", &p0, &q1]);
    assert!(err.contains("input") && err.contains(&q1), "{err}");

    // files.read edited by hand.
    let text = std::fs::read_to_string(&p1).unwrap();
    let mut value: Value = serde_json::from_str(&text).unwrap();
    let read = n(&value["tally"]["files"]["read"]);
    value["tally"]["files"]["read"] = (read + 1).into();
    let edited = bad("edited.json");
    std::fs::write(&edited, serde_json::to_string_pretty(&value).unwrap()).unwrap();
    let err = fails(&["survey", "merge", &p0, &edited]);
    assert!(
        err.contains("edited.json") && err.contains("checksum"),
        "{err}"
    );

    // A count larger than its total (today: "agreement 16666733.9 %").
    let huge = bad("huge.json");
    rewrite(&p1, Path::new(&huge), |s| {
        s.tally.agreement.unanimous = 1_000_000_000
    });
    let err = fails(&["survey", "merge", &p0, &huge]);
    assert!(
        err.contains("huge.json") && err.contains("agreement.unanimous"),
        "{err}"
    );

    // A sum that overflows (today: a wrap-around, or a panic in a debug build).
    let max = bad("max.json");
    rewrite(&p1, Path::new(&max), |s| s.tally.files.skipped = u64::MAX);
    let one = bad("one.json");
    rewrite(&p0, Path::new(&one), |s| s.tally.files.skipped = 1);
    let err = fails(&["survey", "merge", &one, &max]);
    assert!(
        err.contains("files.skipped") && err.contains("overflow") && err.contains("max.json"),
        "{err}"
    );

    // The same shard twice, under two names.
    let copy = bad("copy.json");
    std::fs::copy(&p0, &copy).unwrap();
    let err = fails(&["survey", "merge", &p0, &copy, &p1]);
    assert!(err.contains("twice") && err.contains("copy.json"), "{err}");

    // Another per-query timeout.
    let [_, t1] = two_shards(&input, &root.path().join("t"), [&[], &["--timeout", "2"]]);
    let err = fails(&["survey", "merge", &p0, &t1]);
    assert!(err.contains("--timeout"), "{err}");

    // A partial of an older format is refused with a sentence saying what to do.
    let mut old: Value = serde_json::from_str(&text).unwrap();
    old["format"] = 1.into();
    let old_path = bad("old.json");
    std::fs::write(&old_path, serde_json::to_string_pretty(&old).unwrap()).unwrap();
    let err = fails(&["survey", "merge", &p0, &old_path]);
    assert!(
        err.contains("old.json") && err.contains("format 1") && err.contains("again"),
        "{err}"
    );
}

/// Every survey records its provenance: this reptest's version and commit (as its build
/// script captured them), the corpus's version, and the runtime of an external adapter
/// (here reptest itself serving the reference, a native program); partials that differ
/// in any of it are refused, naming what differs with both values (issue 22).
#[test]
fn the_provenance_is_recorded_and_merge_refuses_another() {
    let root = tempfile::tempdir().unwrap();
    let input = handmade_dir(root.path());
    let adapters = root.path().join("adapters");
    std::fs::create_dir_all(&adapters).unwrap();
    let toml = format!(
        "[[adapter]]\nname = \"served-reference\"\nlanguage = \"Rust\"\ncommand = [{:?}, \"serve\", \"--impl\", \"reference\"]\n",
        env!("CARGO_BIN_EXE_reptest")
    );
    std::fs::write(adapters.join("adapters.toml"), toml).unwrap();
    let parts = root.path().join("parts");
    let partials = [0, 1].map(|i| {
        let shard = format!("{i}/2");
        let out = Command::new(env!("CARGO_BIN_EXE_reptest"))
            .args(["survey", "--input", &input, "--shard", &shard, "--out"])
            .arg(&parts)
            .args(["--impl", "reference,served-reference"])
            .env("REPTEST_ADAPTERS", &adapters)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        parts
            .join(format!("partial-{i}-of-2.json"))
            .display()
            .to_string()
    });
    let provenance = json(Path::new(&partials[0]))["provenance"].clone();
    let reptest = &provenance["reptest"];
    assert_eq!(reptest["version"], env!("CARGO_PKG_VERSION"));
    let commit = reptest["commit"].as_str().unwrap();
    assert_eq!(commit, env!("REPTEST_GIT_COMMIT"));
    assert!(
        commit == "unknown"
            || (commit.len() == 40 && commit.bytes().all(|b| b.is_ascii_hexdigit())),
        "{commit}"
    );
    let version =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus/VERSION"))
            .unwrap();
    assert_eq!(provenance["corpus"]["version"], version.trim());
    assert_eq!(
        provenance["runtimes"],
        serde_json::json!({"served-reference": "Rust, native code"})
    );
    let merged = root.path().join("merged");
    ok(&[
        "survey",
        "merge",
        &partials[0],
        &partials[1],
        "--out",
        merged.to_str().unwrap(),
    ]);
    let mut shown = json(&merged.join("survey.json"))["provenance"].clone();
    let keys = shown.as_object_mut().unwrap().remove("top_level_keys");
    assert_eq!(
        shown, provenance,
        "survey.json shows what the partials record"
    );
    assert!(keys.unwrap().as_array().unwrap().contains(&"seed".into()));
    let readme = std::fs::read_to_string(merged.join("README.md")).unwrap();
    assert!(
        readme.contains("| runtimes | Rust, native code: served-reference; in reptest's process (its rustc): reference |"),
        "{readme}"
    );

    type Change = fn(&mut reptest_survey::provenance::Provenance);
    let changes: [(&str, Change, &str); 3] = [
        (
            "runtime served-reference: Rust 2 vs served-reference: Rust, native code",
            |p| {
                p.runtimes
                    .insert("served-reference".into(), "Rust 2".into());
            },
            "runtime.json",
        ),
        (
            "commit ffff",
            |p| p.reptest.commit = "f".repeat(40),
            "commit.json",
        ),
        (
            "corpus (version 9.9.9,",
            |p| p.corpus.version = "9.9.9".into(),
            "corpus.json",
        ),
    ];
    for (named, change, file) in changes {
        let other = root.path().join(file);
        rewrite(&partials[1], &other, |s| change(&mut s.header.provenance));
        let err = fails(&["survey", "merge", &partials[0], other.to_str().unwrap()]);
        assert!(err.contains(named) && err.contains(file), "{err}");
    }
}

/// `--origins natural --records DIR/q.jsonl.gz`: only natural queries are derived; the
/// records hold a header line, a line per file and one per query; survey.json has the
/// strata, agent classes, site-level classes with `/`'s split count, intervals and
/// provenance; the CSV tables and the three figures are written (issue 22).
#[test]
fn records_strata_sites_csv_and_figures() {
    let dir = tempfile::tempdir().unwrap();
    let input = handmade_dir(dir.path());
    let out = dir.path().join("out");
    let records = out.join("q.jsonl.gz");
    ok(&[
        "survey",
        "--input",
        &input,
        "--impl",
        IMPLS,
        "--origins",
        "natural",
        "--out",
        out.to_str().unwrap(),
        "--records",
        records.to_str().unwrap(),
    ]);
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::GzDecoder::new(std::fs::File::open(&records).unwrap()),
        &mut text,
    )
    .unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["type"], "survey");
    assert_eq!(lines[0]["implementations"].as_array().unwrap().len(), 3);
    let of = |kind: &str| lines.iter().filter(|l| l["type"] == kind).count();
    assert_eq!(of("file"), BODIES.len());
    let j = json(&out.join("survey.json"));
    assert_eq!(of("query") as u64, n(&j["queries"]));
    assert!(lines
        .iter()
        .filter(|l| l["type"] == "query")
        .all(|l| l["stratum"] == "natural" && l["outcomes"].as_array().unwrap().len() == 3));
    assert_eq!(j["origins"], "natural");
    assert!(j["strata"].get("probe").is_none());
    assert_eq!(n(&j["strata"]["natural"]["queries"]), n(&j["queries"]));
    let gpt = &j["sites"]["crawlers"][0];
    assert_eq!(gpt["crawler"], "GPTBot");
    assert!(gpt["root_split"].is_u64(), "{gpt}");
    assert_eq!(n(&gpt["files"]), BODIES.len() as u64);
    assert!(j["intervals"]["natural/unanimous"]["low"].is_f64());
    assert!(j["provenance"].is_object());
    for csv in [
        "sites-headline",
        "sites-classes",
        "strata",
        "natural-implementations",
    ] {
        assert!(
            out.join("csv").join(format!("{csv}.csv")).is_file(),
            "{csv}"
        );
    }
    for svg in ["pairwise", "questions", "sites"] {
        let figure = std::fs::read_to_string(out.join("figures").join(format!("{svg}.svg")));
        assert!(figure.is_ok_and(|f| f.starts_with("<svg")), "{svg}");
    }
}
