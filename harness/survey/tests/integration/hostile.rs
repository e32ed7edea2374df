//! Hostile inputs (issue 19): no input costs gigabytes, hangs the survey, or is read
//! wrongly without a word, and no raw octet of an input reaches a message.

use std::fs;
use std::io::Cursor;
use std::path::Path;

use reptest_survey::{open, Error, Files, SurveyFile};

use crate::common;
use common::{gzip, warc_record};

fn tar_items(data: Vec<u8>) -> Vec<Result<SurveyFile, Error>> {
    Files::tar(Cursor::new(data), "t.tar").collect()
}

fn warc_items(data: Vec<u8>) -> Vec<Result<SurveyFile, Error>> {
    Files::warc(Cursor::new(data), "w.warc").collect()
}

/// The messages of the errors among `items`.
fn errors(items: &[Result<SurveyFile, Error>]) -> Vec<String> {
    items
        .iter()
        .filter_map(|i| i.as_ref().err().map(ToString::to_string))
        .collect()
}

/// Asserts that no item is a fatal error: the input was read to its end.
#[track_caller]
fn assert_none_fatal(items: &[Result<SurveyFile, Error>]) {
    assert!(items
        .iter()
        .all(|i| i.as_ref().map_or_else(|e| !e.is_fatal(), |_| true)));
}

fn hosts(items: &[Result<SurveyFile, Error>]) -> Vec<&str> {
    items
        .iter()
        .filter_map(|i| i.as_ref().ok().map(|f| f.host.as_str()))
        .collect()
}

/// A tar header block of `kind` for `name` with `size` octets of data, checksummed.
fn header_block(name: &[u8], size: u64, kind: u8) -> Vec<u8> {
    let mut header = tar::Header::new_gnu();
    header.as_mut_bytes()[..name.len()].copy_from_slice(name);
    header.set_size(size);
    header.set_mode(0o644);
    header.set_entry_type(tar::EntryType::new(kind));
    header.set_cksum();
    header.as_bytes().to_vec()
}

/// A regular member `name` holding `body`, padded.
fn member(name: &str, body: &[u8]) -> Vec<u8> {
    let mut m = header_block(name.as_bytes(), body.len() as u64, b'0');
    m.extend_from_slice(body);
    m.resize(m.len().div_ceil(512) * 512, 0);
    m
}

const END: [u8; 1024] = [0; 1024];

#[test]
fn a_long_name_header_over_64_kib_is_refused_with_its_offset() {
    // A GNU long name of 1 MiB, stored whole: the tar crate would read it into memory.
    let before = member("a.example", b"a");
    let mut tar = before.clone();
    tar.extend(header_block(b"././@LongLink", 1 << 20, b'L'));
    tar.extend(vec![b'n'; 1 << 20]);
    tar.extend(header_block(b"x", 1, b'0'));
    tar.extend([b'x'; 512]);
    tar.extend(END);
    for data in [tar.clone(), gzip(&tar)] {
        let items = tar_items(data);
        // Not assert_eq: a failure would print the 1 MiB name.
        assert!(
            hosts(&items) == ["a.example"],
            "{} files",
            hosts(&items).len()
        );
        let err = items.last().unwrap().as_ref().unwrap_err();
        assert!(err.is_fatal(), "{err}");
        let text = err.to_string();
        assert!(
            text.contains("long-name header declaring 1048576 octets"),
            "{text}"
        );
        assert_eq!(err.location(), format!("t.tar@{}", before.len()));
    }
    // One declaring 3 GiB that the stream does not hold: refused before it is read.
    let mut tar = header_block(b"././@LongLink", 3 << 30, b'L');
    tar.extend(vec![b'n'; 4096]);
    let items = tar_items(tar);
    assert_eq!(items.len(), 1);
    assert!(errors(&items)[0].contains("declaring 3221225472 octets"));
    // A long name whose member is missing: the archive is cut.
    let mut tar = header_block(b"././@LongLink", 5, b'L');
    tar.extend([b'n'; 512]);
    let errs = errors(&tar_items(tar));
    assert!(
        errs[0].contains("truncated: the input ends inside a member's header"),
        "{errs:?}"
    );
    // So is a PAX header; a long name under the limit is read.
    let mut tar = header_block(b"././@PaxHeader", 100_000, b'x');
    tar.extend(vec![b'p'; 100_352]);
    assert!(errors(&tar_items(tar))[0].contains("a PAX extended header declaring 100000"));
    let long = format!("{}/long.example", "d".repeat(60_000));
    let mut builder = tar::Builder::new(Vec::new());
    let mut header = tar::Header::new_gnu();
    header.set_size(1);
    builder.append_data(&mut header, &long, &b"y"[..]).unwrap();
    assert_eq!(
        hosts(&tar_items(builder.into_inner().unwrap())),
        ["long.example"]
    );
}

/// A response whose body is `text` gzip-compressed `layers` times, each listed.
fn layered(text: &[u8], layers: usize) -> Vec<u8> {
    let mut body = text.to_vec();
    for _ in 0..layers {
        body = gzip(&body);
    }
    let codings = vec!["gzip"; layers].join(", ");
    [
        format!("HTTP/1.1 200 OK\r\nContent-Encoding: {codings}\r\n\r\n").as_bytes(),
        &body,
    ]
    .concat()
}

#[test]
fn more_than_8_content_codings_make_the_record_skipped_and_say_why() {
    let text = b"User-agent: *\nDisallow: /\n";
    let warc = [
        warc_record("http://eight.example/robots.txt", &layered(text, 8)),
        warc_record("http://nine.example/robots.txt", &layered(text, 9)),
        warc_record("http://many.example/robots.txt", &layered(text, 400)),
        warc_record("http://after.example/robots.txt", &layered(text, 1)),
    ]
    .concat();
    let items = warc_items(warc);
    assert_eq!(hosts(&items), ["eight.example", "after.example"]);
    assert_eq!(items[0].as_ref().unwrap().body, text);
    let errs = errors(&items);
    assert_eq!(errs.len(), 2);
    assert!(
        errs[0].contains("lists 9 codings; at most 8 are decoded"),
        "{}",
        errs[0]
    );
    assert!(errs[1].contains("lists 400 codings"), "{}", errs[1]);
    assert_none_fatal(&items);
}

/// Reads the directory's files on another thread, failing (not hanging) after a minute.
#[cfg(unix)]
fn read_without_hanging(files: Files, fifo: &Path) -> Vec<Result<SurveyFile, Error>> {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || send.send(files.collect::<Vec<_>>()));
    match receive.recv_timeout(std::time::Duration::from_secs(60)) {
        Ok(items) => items,
        Err(_) => {
            // Unblock the reader's open() before failing.
            let _ = fs::OpenOptions::new().write(true).open(fifo);
            panic!("reading the directory hangs on the FIFO");
        }
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_or_a_vanished_file_after_the_listing_is_skipped_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    for host in ["a.example", "b.example", "c.example"] {
        fs::write(dir.path().join(host), "User-agent: *\n").unwrap();
    }
    let files = Files::dir(dir.path()).unwrap();
    // After the listing: a.example becomes a FIFO, b.example vanishes.
    let fifo = dir.path().join("a.example");
    fs::remove_file(&fifo).unwrap();
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo is needed");
    fs::remove_file(dir.path().join("b.example")).unwrap();
    let items = read_without_hanging(files, &fifo);
    assert_eq!(hosts(&items), ["c.example"]);
    let errs = errors(&items);
    assert_eq!(errs.len(), 2, "{errs:?}");
    assert!(
        errs[0].contains("a.example: skipped: it is no longer a regular file"),
        "{errs:?}"
    );
    assert!(
        errs[1].contains("b.example: skipped: it vanished"),
        "{errs:?}"
    );
    assert_none_fatal(&items);
}

fn assert_empty(items: &[Result<SurveyFile, Error>], what: &str) {
    assert_eq!(items.len(), 1, "{what}: one error");
    let err = items[0].as_ref().unwrap_err();
    assert!(err.is_fatal(), "{what}: {err}");
    assert!(err.to_string().contains("empty input"), "{what}: {err}");
}

#[test]
fn an_empty_input_is_a_fatal_error_for_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    fs::create_dir(&empty).unwrap();
    assert_empty(
        &open(&empty).unwrap().collect::<Vec<_>>(),
        "empty directory",
    );
    fs::write(empty.join(".hidden"), "x").unwrap();
    fs::create_dir(empty.join("sub")).unwrap();
    assert_empty(
        &open(&empty).unwrap().collect::<Vec<_>>(),
        "nothing to read",
    );
    for (name, data) in [
        ("empty.tar", Vec::new()),
        ("zeros.tar", END.to_vec()),
        ("empty.tar.gz", gzip(b"")),
        ("empty.warc", Vec::new()),
        ("empty.warc.gz", gzip(b"")),
    ] {
        let path = dir.path().join(name);
        fs::write(&path, data).unwrap();
        assert_empty(&open(&path).unwrap().collect::<Vec<_>>(), name);
    }
    let info = b"WARC/1.0\r\nWARC-Type: warcinfo\r\nContent-Length: 2\r\n\r\nhi\r\n\r\n";
    assert_empty(&warc_items(info.to_vec()), "warcinfo only");
    // One skipped entry is not an empty input: it is counted.
    let items = tar_items([header_block(b"\xff.example", 0, b'0'), END.to_vec()].concat());
    assert!(!items[0].as_ref().unwrap_err().is_fatal());
}

#[test]
fn hard_links_and_sparse_members_are_skipped_with_the_reason() {
    let mut tar = member("a.example", b"User-agent: *\n");
    let mut link = tar::Header::new_gnu();
    link.set_entry_type(tar::EntryType::Link);
    link.set_size(0);
    link.set_link_name("a.example").unwrap();
    link.set_path("b.example").unwrap();
    link.set_cksum();
    tar.extend(link.as_bytes());
    let mut sparse = tar::Header::new_gnu();
    sparse.set_entry_type(tar::EntryType::GNUSparse);
    sparse.set_path("c.example").unwrap();
    sparse.set_size(512);
    let gnu = sparse.as_gnu_mut().unwrap();
    gnu.sparse[0].offset = *b"00000000000\0";
    gnu.sparse[0].numbytes = *b"00000001000\0";
    gnu.realsize = *b"00000001000\0";
    sparse.set_cksum();
    tar.extend(sparse.as_bytes());
    tar.extend([b's'; 512]);
    // A sparse member whose map goes on in an extension block after its header.
    let gnu = sparse.as_gnu_mut().unwrap();
    gnu.isextended[0] = 1;
    gnu.name[0] = b'e';
    sparse.set_cksum();
    tar.extend(sparse.as_bytes());
    tar.extend([0; 512]);
    tar.extend([b's'; 512]);
    tar.extend(member("d.example", b"d"));
    tar.extend(END);
    let items = tar_items(tar);
    assert_eq!(hosts(&items), ["a.example", "d.example"]);
    let errs = errors(&items);
    assert_eq!(errs.len(), 3, "{errs:?}");
    assert!(
        errs[0].starts_with("t.tar:b.example: skipped: a hard link to \"a.example\""),
        "{errs:?}"
    );
    assert!(
        errs[1].starts_with("t.tar:c.example: skipped: a GNU sparse member"),
        "{errs:?}"
    );
    assert_none_fatal(&items);
    assert!(
        errs[2].starts_with("t.tar:e.example: skipped: a GNU sparse member"),
        "{errs:?}"
    );
    // Extension blocks without end are refused, not kept in memory.
    let mut endless = sparse.as_bytes().to_vec();
    let mut block = [0u8; 512];
    block[504] = 1;
    for _ in 0..1000 {
        endless.extend(block);
    }
    let errs = errors(&tar_items(endless));
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].contains("more than 128 extension blocks"),
        "{errs:?}"
    );
}

#[test]
fn archive_octets_never_reach_a_message_raw() {
    // A member name with an escape sequence and an invalid octet.
    let tar = [member("x", b""), END.to_vec()].concat();
    let mut evil = tar.clone();
    evil[..9].copy_from_slice(b"\x1b[2J\xff.com");
    let sum = evil[..148]
        .iter()
        .chain(&evil[156..512])
        .map(|&b| u32::from(b))
        .sum::<u32>()
        + 256;
    evil[148..156].copy_from_slice(format!("{sum:06o}\0 ").as_bytes());
    let errs = errors(&tar_items(evil));
    assert_eq!(
        errs,
        ["t.tar:\\u{1b}[2J\\xff.com: the name is not UTF-8, so it cannot be a host"]
    );
    // A header whose checksum field holds an escape sequence: not a tar archive.
    let mut garbage = header_block(b"\x1b]0;title\x07", 0, b'0');
    garbage[148..156].copy_from_slice(b"\x1b[31m!!!");
    let errs = errors(&tar_items([garbage, END.to_vec()].concat()));
    assert_eq!(errs.len(), 1);
    assert!(
        errs[0] == "t.tar@0: not a tar archive: a header that does not parse (numeric field was not a number)",
        "{errs:?}"
    );
    assert!(
        !errs[0].contains('\x1b') && !errs[0].contains('\x07'),
        "{errs:?}"
    );
    // A gzip stream that does not decompress.
    let errs = errors(&tar_items(vec![0x1f, 0x8b, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8]));
    assert_eq!(errs.len(), 1);
    assert!(errs[0].contains("not a gzip archive: "), "{errs:?}");
    assert!(errs[0].contains("at compressed octet"), "{errs:?}");
}

#[test]
fn a_warc_field_name_that_is_not_a_token_is_reported_as_such() {
    let http = b"HTTP/1.1 200 OK\r\n\r\nUser-agent: *\n";
    for (field_at, head) in [
        (10, "WARC/1.0\r\n\x1b[31mEvil: x\r\nWARC-Type: response\r\n"),
        // After Content-Length, the crate's parser stops at the bad line and drops the
        // fields after it (WARC-Type here): read as a non-response record, silently.
        (
            30,
            "WARC/1.0\r\nContent-Length: {len}\r\nBad Name: x\r\nWARC-Type: response\r\n",
        ),
    ] {
        let head = head.replace("{len}", &http.len().to_string());
        let record = [
            head.as_bytes(),
            b"WARC-Target-URI: http://a.example/\r\n",
            format!("Content-Length: {}\r\n\r\n", http.len()).as_bytes(),
            http,
            b"\r\n\r\n",
        ]
        .concat();
        let items = warc_items(record);
        let errs = errors(&items);
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert!(
            errs[0].contains("a WARC header field name that is not a token, "),
            "{errs:?}"
        );
        assert!(
            errs[0].contains(&format!("at octet {field_at} of the record")),
            "{errs:?}"
        );
        assert!(!errs[0].contains('\x1b'), "{errs:?}");
    }
    let errs = errors(&warc_items(
        b"WARC/1.0\r\n\x1b[31mEvil: x\r\nContent-Length: 0\r\n\r\n\r\n\r\n".to_vec(),
    ));
    assert!(errs[0].contains("\"\\u{1b}[31mEvil\""), "{errs:?}");
}
