//! WARC input on files written by the `warc` crate's writer (a Rust-only run covers WARC;
//! the `warcio` module checks files of a second, independent writer).

use std::io::Cursor;

use reptest_survey::{Cut, Files, SurveyFile};
use warc::{RawRecordHeader, WarcHeader, WarcWriter};

use crate::common;
use common::gzip;

/// One record as the `warc` crate writes it.
fn record(kind: &str, uri: &[u8], content: &[u8], extra: &[(WarcHeader, &[u8])]) -> Vec<u8> {
    let mut headers = vec![
        (WarcHeader::WarcType, kind.as_bytes().to_vec()),
        (
            WarcHeader::RecordID,
            format!(
                "<urn:uuid:{:08x}-0000-4000-8000-000000000000>",
                content.len()
            )
            .into_bytes(),
        ),
        (WarcHeader::Date, b"2024-06-12T14:04:24Z".to_vec()),
        (WarcHeader::TargetURI, uri.to_vec()),
        (
            WarcHeader::ContentLength,
            content.len().to_string().into_bytes(),
        ),
    ];
    if kind == "response" || kind == "request" {
        let msgtype = format!("application/http; msgtype={kind}");
        headers.push((WarcHeader::ContentType, msgtype.into_bytes()));
    }
    headers.extend(extra.iter().map(|(h, v)| (h.clone(), v.to_vec())));
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

const ROBOTS: &[u8] = b"User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n";

/// What a response record must give: host, status, body, cut.
type Expected = (String, u16, Vec<u8>, Option<Cut>);

/// (record, expected file) pairs; `None` for records that are skipped.
fn records() -> Vec<(Vec<u8>, Option<Expected>)> {
    let http = |status: &str, fields: &str, body: &[u8]| {
        [
            format!("HTTP/1.1 {status}\r\n{fields}\r\n").as_bytes(),
            body,
        ]
        .concat()
    };
    let gz_entity = http("200 OK", "Content-Encoding: gzip\r\n", &gzip(ROBOTS));
    let mut chunked =
        b"HTTP/1.1 503 Service Unavailable\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
    for piece in b"<html>busy</html>".chunks(5) {
        chunked.extend_from_slice(format!("{:X}\r\n", piece.len()).as_bytes());
        chunked.extend_from_slice(piece);
        chunked.extend_from_slice(b"\r\n");
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    let file =
        |host: &str, status, body: &[u8], cut| Some((host.to_owned(), status, body.to_vec(), cut));
    vec![
        (
            record(
                "warcinfo",
                b"",
                b"software: test\r\nformat: WARC File Format 1.0\r\n",
                &[],
            ),
            None,
        ),
        (
            record(
                "request",
                b"https://www.example.com/robots.txt",
                b"GET /robots.txt HTTP/1.1\r\nHost: www.example.com\r\n\r\n",
                &[],
            ),
            None,
        ),
        (
            record(
                "response",
                b"https://www.Example.com/robots.txt",
                &http("200 OK", "Content-Type: text/plain\r\n", ROBOTS),
                &[],
            ),
            file("www.example.com", 200, ROBOTS, None),
        ),
        (
            record(
                "response",
                b"http://moved.example/robots.txt",
                &http(
                    "301 Moved Permanently",
                    "Location: https://moved.example/robots.txt\r\n",
                    b"",
                ),
                &[],
            ),
            file("moved.example", 301, b"", None),
        ),
        (
            record(
                "response",
                b"https://missing.example:443/robots.txt",
                &http(
                    "404 Not Found",
                    "Content-Type: text/html\r\n",
                    b"<h1>Not Found</h1>",
                ),
                &[],
            ),
            file("missing.example", 404, b"<h1>Not Found</h1>", None),
        ),
        (
            record(
                "metadata",
                b"https://missing.example/robots.txt",
                b"fetchTimeMs: 12\r\n",
                &[],
            ),
            None,
        ),
        (
            record(
                "response",
                b"http://broken.example:8080/robots.txt",
                &http("500 Internal Server Error", "", b"\x00\x01\xffbinary"),
                &[],
            ),
            file("broken.example:8080", 500, b"\x00\x01\xffbinary", None),
        ),
        (
            record(
                "response",
                b"https://busy.example/robots.txt",
                &chunked,
                &[],
            ),
            file("busy.example", 503, b"<html>busy</html>", None),
        ),
        (
            record(
                "response",
                b"https://gz.example/robots.txt",
                &gz_entity,
                &[],
            ),
            file("gz.example", 200, ROBOTS, None),
        ),
        (
            record(
                "response",
                b"https://cut.example/robots.txt",
                &http("200 OK", "", &ROBOTS[..20]),
                &[(WarcHeader::Truncated, b"length")],
            ),
            file("cut.example", 200, &ROBOTS[..20], Some(Cut::Archive)),
        ),
        (
            record(
                "response",
                b"https://\xffodd.example/robots.txt",
                &http("200 OK", "", b"x"),
                &[],
            ),
            file("\u{fffd}odd.example", 200, b"x", None),
        ),
        (
            record(
                "revisit",
                b"https://www.example.com/robots.txt",
                b"HTTP/1.1 200 OK\r\n\r\n",
                &[],
            ),
            None,
        ),
        (
            record(
                "response",
                b"https://last.example/robots.txt",
                &http("200 OK", "", b"User-agent: *\nAllow: /\n"),
                &[],
            ),
            file("last.example", 200, b"User-agent: *\nAllow: /\n", None),
        ),
    ]
}

fn read(data: Vec<u8>) -> Vec<SurveyFile> {
    Files::warc(Cursor::new(data), "t.warc")
        .collect::<Result<Vec<_>, _>>()
        .unwrap_or_else(|e| panic!("{e}"))
}

fn expected_files() -> Vec<Expected> {
    records().into_iter().filter_map(|(_, f)| f).collect()
}

fn check(files: &[SurveyFile]) {
    let got: Vec<Expected> = files
        .iter()
        .map(|f| (f.host.clone(), f.status.unwrap(), f.body.clone(), f.cut))
        .collect();
    assert_eq!(got, expected_files());
}

#[test]
fn plain_warc_with_offsets() {
    let records = records();
    let data: Vec<u8> = records.iter().flat_map(|(r, _)| r.clone()).collect();
    let files = read(data);
    check(&files);
    let mut offset = 0;
    let mut offsets = Vec::new();
    for (bytes, file) in &records {
        if file.is_some() {
            offsets.push(format!("t.warc@{offset}"));
        }
        offset += bytes.len();
    }
    let sources: Vec<&str> = files.iter().map(|f| f.source.as_str()).collect();
    assert_eq!(sources, offsets);
}

#[test]
fn warc_gz_one_member_per_record_gives_member_offsets() {
    let records = records();
    let mut data = Vec::new();
    let mut offsets = Vec::new();
    for (bytes, file) in &records {
        if file.is_some() {
            offsets.push(format!("t.warc@{}", data.len()));
        }
        data.extend(gzip(bytes));
    }
    let files = read(data);
    check(&files);
    let sources: Vec<&str> = files.iter().map(|f| f.source.as_str()).collect();
    assert_eq!(sources, offsets);
}

#[test]
fn warc_gz_as_one_member_gives_offsets_into_it() {
    let records = records();
    let plain: Vec<u8> = records.iter().flat_map(|(r, _)| r.clone()).collect();
    let files = read(gzip(&plain));
    check(&files);
    assert_eq!(
        files[0].source,
        format!("t.warc@0+{}", records[0].0.len() + records[1].0.len())
    );
}

#[test]
fn record_errors_are_skipped_and_the_rest_is_read() {
    let http_less = record(
        "response",
        b"https://a.example/robots.txt",
        b"not an HTTP response",
        &[],
    );
    let no_host = record(
        "response",
        b"dns:a.example",
        b"HTTP/1.1 200 OK\r\n\r\nx",
        &[],
    );
    let good = record(
        "response",
        b"https://b.example/robots.txt",
        b"HTTP/1.1 200 OK\r\n\r\nok",
        &[],
    );
    let data = [http_less, no_host, good].concat();
    let all: Vec<_> = Files::warc(Cursor::new(data), "t.warc").collect();
    assert_eq!(all.len(), 3);
    for err in all[..2].iter().map(|r| r.as_ref().unwrap_err()) {
        assert!(!err.is_fatal(), "{err}");
        assert!(err.location().starts_with("t.warc@"));
    }
    assert_eq!(all[2].as_ref().unwrap().body, b"ok");
}

#[test]
fn truncated_and_garbage_warc_end_with_one_fatal_error() {
    let records = records();
    let plain: Vec<u8> = records.iter().flat_map(|(r, _)| r.clone()).collect();
    let per_member: Vec<u8> = records.iter().flat_map(|(r, _)| gzip(r)).collect();
    for data in [&plain, &per_member] {
        for cut in [10, 200, data.len() / 3, data.len() / 2, data.len() - 6] {
            let all: Vec<_> = Files::warc(Cursor::new(data[..cut].to_vec()), "cut").collect();
            let (last, before) = all.split_last().expect("the cut is reported");
            let err = last.as_ref().expect_err("the cut is an error");
            assert!(err.is_fatal(), "{err}");
            assert!(before.iter().all(Result::is_ok));
        }
    }
    let garbage: [&[u8]; 5] = [
        b"GET / HTTP/1.1\r\n\r\n",
        b"WARC/1.0\r\nno colon here\r\n\r\n",
        b"WARC/1.0\r\nWARC-Type: response\r\n\r\n",
        b"WARC/1.0\r\nContent-Length: 99999999999999999999999\r\n\r\n",
        &[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3],
    ];
    for data in garbage {
        let all: Vec<_> = Files::warc(Cursor::new(data.to_vec()), "g").collect();
        assert_eq!(all.len(), 1, "{:?}", String::from_utf8_lossy(data));
        assert!(all[0].as_ref().unwrap_err().is_fatal());
    }
    // A header block with no end is bounded, not read whole into memory.
    let endless = [
        &b"WARC/1.0\r\n"[..],
        &b"X-Field: yyyyyyyyyyyyyyyy\r\n".repeat(20_000),
    ]
    .concat();
    let all: Vec<_> = Files::warc(Cursor::new(endless), "long").collect();
    assert_eq!(all.len(), 1);
    assert!(all[0]
        .as_ref()
        .unwrap_err()
        .to_string()
        .contains("header block longer"));
    // An empty stream is an empty input: an error, not a survey of nothing.
    let all: Vec<_> = Files::warc(Cursor::new(Vec::new()), "empty").collect();
    assert_eq!(all.len(), 1);
    let err = all[0].as_ref().unwrap_err();
    assert!(
        err.is_fatal() && err.to_string().contains("empty input"),
        "{err}"
    );
}

#[test]
fn a_long_body_is_cut_and_the_next_record_read() {
    let big = [
        &b"HTTP/1.1 200 OK\r\n\r\n"[..],
        &vec![b'#'; reptest_survey::BODY_LIMIT + 5000],
    ]
    .concat();
    let data = [
        record("response", b"https://big.example/robots.txt", &big, &[]),
        record(
            "response",
            b"https://next.example/robots.txt",
            b"HTTP/1.1 200 OK\r\n\r\nnext",
            &[],
        ),
    ]
    .concat();
    let files = read(data);
    assert_eq!(files[0].body.len(), reptest_survey::BODY_LIMIT);
    assert_eq!(files[0].cut, Some(Cut::Limit));
    assert_eq!(
        (files[1].host.as_str(), &files[1].body[..]),
        ("next.example", &b"next"[..])
    );
}

#[test]
fn open_reads_warc_files_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let records = records();
    let plain: Vec<u8> = records.iter().flat_map(|(r, _)| r.clone()).collect();
    let per_member: Vec<u8> = records.iter().flat_map(|(r, _)| gzip(r)).collect();
    for (name, data) in [
        ("a.warc", &plain),
        ("b.warc.gz", &per_member),
        ("misnamed.warc", &per_member),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, data).unwrap();
        let files: Vec<SurveyFile> = reptest_survey::open(&path)
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        check(&files);
        assert!(files[0].source.starts_with(&path.display().to_string()));
    }
}
