//! Input builders shared by the survey tests (not every module uses each).
#![allow(dead_code)]

use std::io::Write;

use flate2::write::GzEncoder;
use flate2::Compression;

/// `data` as one gzip member.
pub fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// A WARC/1.0 response record for `uri` holding the HTTP message `http`.
pub fn warc_record(uri: &str, http: &[u8]) -> Vec<u8> {
    [
        format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\nContent-Length: {}\r\n\r\n",
            http.len()
        )
        .as_bytes(),
        http,
        b"\r\n\r\n",
    ]
    .concat()
}
