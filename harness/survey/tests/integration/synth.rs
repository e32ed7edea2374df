//! The synthetic WARC generator (`reptest_survey::synth`): deterministic, read back by the
//! survey's own WARC reader with the status mix, renamed hosts and varied bodies it
//! promises, written atomically.

use std::collections::BTreeMap;
use std::fs;
use std::io::Read;
use std::path::Path;

use reptest_survey::synth::{self, Options, SynthError};
use reptest_survey::{Files, SurveyFile};

/// Real-looking files of three hosts, one of which names itself in a `Sitemap` line.
const FILES: [(&str, &str); 3] = [
    (
        "www.realsite.com",
        "User-agent: *\nDisallow: /private/\nSitemap: https://www.realsite.com/sitemap.xml\n",
    ),
    (
        "shop.realsite.org",
        "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
    ),
    (
        "news.realsite.net",
        "User-agent: *\nDisallow: /*.pdf$\nDisallow: /search",
    ),
];

/// A directory holding [`FILES`] (and a hidden file, which inputs pass over).
fn input() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (host, body) in FILES {
        fs::write(dir.path().join(host), body).unwrap();
    }
    fs::write(dir.path().join(".hidden"), "User-agent: *\n").unwrap();
    dir
}

fn generate(input: &Path, records: u64, seed: u64) -> Vec<u8> {
    let mut out = Vec::new();
    let summary = synth::write_to(input, &mut out, &Options { records, seed }).unwrap();
    assert_eq!(summary.records, records);
    assert_eq!(summary.bytes, out.len() as u64);
    out
}

/// The files the survey's reader finds in `warc`.
fn read_back(warc: Vec<u8>) -> Vec<SurveyFile> {
    Files::warc(std::io::Cursor::new(warc), "synth.warc.gz")
        .collect::<Result<Vec<_>, _>>()
        .expect("the survey reads every record")
}

#[test]
fn the_same_seed_gives_the_same_octets_and_another_seed_others() {
    let dir = input();
    let a = generate(dir.path(), 250, 7);
    assert_eq!(a, generate(dir.path(), 250, 7));
    assert_ne!(a, generate(dir.path(), 250, 8));
}

#[test]
fn the_reader_finds_every_record_with_the_status_mix() {
    let dir = input();
    let n = 2_000;
    let files = read_back(generate(dir.path(), n, 1));
    assert_eq!(files.len() as u64, n);
    let mut statuses: BTreeMap<u16, u64> = BTreeMap::new();
    for file in &files {
        *statuses.entry(file.status.unwrap()).or_default() += 1;
    }
    let count = |codes: &[u16]| {
        codes
            .iter()
            .map(|c| statuses.get(c).unwrap_or(&0))
            .sum::<u64>()
    };
    // Every block of 100 holds the mix exactly, so 2,000 records hold it 20 times.
    assert_eq!(count(&[200]), 1_700, "{statuses:?}");
    assert_eq!(count(&[404]), 260, "{statuses:?}");
    assert_eq!(count(&[500, 503]), 20, "{statuses:?}");
    assert_eq!(count(&[301, 302]), 20, "{statuses:?}");
    assert_eq!(
        statuses.len(),
        6,
        "both codes of each pair occur: {statuses:?}"
    );
}

#[test]
fn hosts_are_renamed_and_the_real_ones_never_written() {
    let dir = input();
    let warc = generate(dir.path(), 500, 3);
    let mut text = Vec::new();
    flate2::read::MultiGzDecoder::new(&warc[..])
        .read_to_end(&mut text)
        .unwrap();
    let text = String::from_utf8(text).unwrap();
    assert!(!text.contains("realsite"), "a real host is written");
    let files = read_back(warc);
    for (index, file) in files.iter().enumerate() {
        assert!(
            file.host.starts_with(&format!("s{index}.")) && file.host.ends_with(".example"),
            "{}",
            file.host
        );
    }
    let hosts: std::collections::BTreeSet<_> = files.iter().map(|f| &f.host).collect();
    assert_eq!(hosts.len(), files.len(), "one host per record");
    assert!(
        text.contains("Location: https://www.s"),
        "redirects say where"
    );
}

/// The record's body without what every record adds: its last line, and CRLF.
fn unvaried(body: &[u8], index: usize) -> String {
    let text = String::from_utf8(body.to_vec())
        .unwrap()
        .replace("\r\n", "\n");
    let last = format!("# reptest synth record {index}\n");
    text.strip_suffix(&last)
        .unwrap_or_else(|| panic!("record {index} lacks its last line: {text:?}"))
        .to_owned()
}

#[test]
fn bodies_are_the_real_files_in_turn_varied_and_never_all_alike() {
    let dir = input();
    let files = read_back(generate(dir.path(), 1_000, 1));
    let real: Vec<&str> = {
        let mut hosts: Vec<_> = FILES.iter().collect();
        hosts.sort();
        hosts.iter().map(|(_, body)| *body).collect()
    };
    let mut next = 0;
    let (mut same, mut varied, mut crlf) = (0, 0, 0);
    for (index, file) in files.iter().enumerate() {
        if file.status != Some(200) {
            assert!(file.body.starts_with(b"<html>"), "{index}");
            continue;
        }
        crlf += usize::from(file.body.windows(2).any(|w| w == b"\r\n"));
        let body = unvaried(&file.body, index);
        // The real files in name order, over and over; the one without a final line end
        // gets one.
        let original = real[next % real.len()];
        let original = original.replace("www.realsite.com", &file.host);
        let ended = if original.ends_with('\n') {
            original
        } else {
            original + "\n"
        };
        if body == ended {
            same += 1;
        } else {
            varied += 1;
            // A key's case, a path's letter more, a blank line more: nothing else.
            let squeeze = |s: &str| s.to_ascii_lowercase().replace("\n\n", "\n");
            let (a, b) = (squeeze(&body), squeeze(&ended));
            let letter_more = (0..a.len())
                .any(|i| a.is_char_boundary(i) && format!("{}{}", &a[..i], &a[i + 1..]) == b);
            assert!(a == b || letter_more, "{index}: {body:?} from {ended:?}");
        }
        next += 1;
    }
    assert_eq!(same + varied, 850);
    assert!(
        varied > 100 && same > 500,
        "varied {varied}, unchanged {same}"
    );
    assert!(crlf > 40 && crlf < 140, "CRLF in {crlf} of 850");
}

#[test]
fn one_record_and_a_file_written_atomically() {
    let dir = input();
    let out_dir = tempfile::tempdir().unwrap();
    let out = out_dir.path().join("one.warc.gz");
    let summary = synth::generate(
        dir.path(),
        &out,
        &Options {
            records: 1,
            seed: 1,
        },
    )
    .unwrap();
    assert_eq!(summary.records, 1);
    assert_eq!(summary.bytes, fs::metadata(&out).unwrap().len());
    let files: Vec<_> = reptest_survey::open(&out)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(files.len(), 1);
    assert_eq!(
        files[0].status,
        Some(reptest_survey::synth::status_of(1, 0))
    );
    let names: Vec<_> = fs::read_dir(out_dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["one.warc.gz"], "no temporary file is left");
}

#[test]
fn an_input_without_a_usable_file_writes_nothing() {
    let empty = tempfile::tempdir().unwrap();
    fs::write(empty.path().join(".only-hidden"), "User-agent: *\n").unwrap();
    let out_dir = tempfile::tempdir().unwrap();
    let out = out_dir.path().join("none.warc.gz");
    fs::write(&out, "old").unwrap();
    let err = synth::generate(
        empty.path(),
        &out,
        &Options {
            records: 10,
            seed: 1,
        },
    )
    .unwrap_err();
    assert!(matches!(err, SynthError::Input(_)), "{err}");
    assert_eq!(
        fs::read_to_string(&out).unwrap(),
        "old",
        "the old file stays"
    );
    assert_eq!(fs::read_dir(out_dir.path()).unwrap().count(), 1);

    // A WARC of a 404 only: read, but nothing in it can be copied.
    let only_404 = out_dir.path().join("404.warc");
    let record = crate::common::warc_record(
        "https://a.example/robots.txt",
        b"HTTP/1.1 404 Not Found\r\n\r\nnot here",
    );
    fs::write(&only_404, record).unwrap();
    let err = synth::generate(
        &only_404,
        &out,
        &Options {
            records: 10,
            seed: 1,
        },
    )
    .unwrap_err();
    assert!(matches!(err, SynthError::NoFiles(_)), "{err}");
    assert!(
        err.to_string().contains("no usable robots.txt file"),
        "{err}"
    );
    assert_eq!(
        fs::read_to_string(&out).unwrap(),
        "old",
        "the old file stays"
    );
}
