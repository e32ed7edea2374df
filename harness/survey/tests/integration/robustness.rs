//! No input makes a reader panic or loop: random and mutated archives give files,
//! skipped records or errors, and nothing after a fatal error.

use std::io::Cursor;

use proptest::prelude::*;
use reptest_survey::Files;

use crate::common;
use common::{gzip, warc_record};

fn valid_warc() -> Vec<u8> {
    [
        warc_record(
            "https://a.example/robots.txt",
            b"HTTP/1.1 200 OK\r\n\r\nUser-agent: *\nDisallow: /a\n",
        ),
        warc_record(
            "https://b.example/robots.txt",
            b"HTTP/1.1 503 x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
        ),
        warc_record("https://c.example/robots.txt", b"HTTP/1.1 404 x\r\n\r\n"),
    ]
    .concat()
}

fn valid_tar() -> Vec<u8> {
    let mut builder = tar::Builder::new(Vec::new());
    for (name, body) in [
        ("d/a.example", &b"User-agent: *\n"[..]),
        ("b.example", b"x"),
    ] {
        let mut header = tar::Header::new_gnu();
        header.set_size(body.len() as u64);
        header.set_mode(0o644);
        builder.append_data(&mut header, name, body).unwrap();
    }
    builder.into_inner().unwrap()
}

/// Reads everything, checking that a fatal error is the last item.
fn drain(files: Files) -> usize {
    let mut count = 0;
    let mut fatal = false;
    for item in files {
        assert!(!fatal, "an item after a fatal error");
        if let Err(err) = &item {
            fatal = err.is_fatal();
            let _ = err.to_string();
        }
        count += 1;
        assert!(count < 10_000, "the iterator does not end");
    }
    count
}

fn mutate(mut data: Vec<u8>, edits: &[(usize, u8)], cut: Option<usize>) -> Vec<u8> {
    if data.is_empty() {
        return data;
    }
    for &(at, byte) in edits {
        let at = at % data.len();
        data[at] = byte;
    }
    if let Some(cut) = cut {
        data.truncate(cut % (data.len() + 1));
    }
    data
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes(data in prop::collection::vec(any::<u8>(), 0..4096)) {
        drain(Files::warc(Cursor::new(data.clone()), "r.warc"));
        drain(Files::warc(Cursor::new(gzip(&data)), "r.warc.gz"));
        drain(Files::tar(Cursor::new(data.clone()), "r.tar"));
        drain(Files::tar(Cursor::new(gzip(&data)), "r.tgz"));
        let warcish = [&b"WARC/1.0\r\n"[..], &data].concat();
        drain(Files::warc(Cursor::new(warcish), "w.warc"));
    }

    #[test]
    fn mutated_archives(
        edits in prop::collection::vec((any::<usize>(), any::<u8>()), 0..8),
        cut in prop::option::of(any::<usize>()),
    ) {
        let warc = mutate(valid_warc(), &edits, cut);
        drain(Files::warc(Cursor::new(warc.clone()), "m.warc"));
        drain(Files::warc(Cursor::new(gzip(&warc)), "m.warc.gz"));
        let per_record = mutate(
            [gzip(&valid_warc()[..100]), gzip(&valid_warc()[100..])].concat(),
            &edits,
            cut,
        );
        drain(Files::warc(Cursor::new(per_record), "p.warc.gz"));
        let tar = mutate(valid_tar(), &edits, cut);
        drain(Files::tar(Cursor::new(tar.clone()), "m.tar"));
        drain(Files::tar(Cursor::new(gzip(&tar)), "m.tgz"));
    }
}

#[test]
fn the_valid_inputs_read() {
    assert_eq!(drain(Files::warc(Cursor::new(valid_warc()), "v.warc")), 3);
    assert_eq!(drain(Files::tar(Cursor::new(valid_tar()), "v.tar")), 2);
}
