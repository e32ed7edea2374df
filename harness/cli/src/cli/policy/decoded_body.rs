//! A response body, its content coding removed, read up to a size limit.
//!
//! RFC 9110 §8.4: a content coding is a property of the transfer, not of the file; the
//! representation is what remains once the codings are removed. So a body sent with
//! `Content-Encoding: gzip` is decoded before it is parsed, and the limit applies to the
//! decoded bytes: a small compressed body that decodes to gigabytes (a "gzip bomb") costs
//! no more than the limit, as decoding stops there.

use flate2::read::{MultiGzDecoder, ZlibDecoder};
use std::io::Read;

/// A body read up to the limit.
pub(super) struct Body {
    /// The decoded bytes, at most the limit.
    pub bytes: Vec<u8>,
    /// The body went on past the limit; the rest was not read.
    pub cut: bool,
}

/// Why a body could not be read.
pub(super) enum BodyError {
    /// A content coding this reader cannot remove (only `gzip`, `x-gzip`, `deflate` and
    /// `identity` are known).
    Unsupported(String),
    /// The body broke off (a reset, a timeout, a connection closed early, a corrupt
    /// coding) after `read` decoded bytes.
    Broken {
        /// The error.
        error: std::io::Error,
        /// How many decoded bytes had arrived.
        read: usize,
    },
}

/// Reads `reader`, decoded by `coding` (a `Content-Encoding` value, or none), up to
/// `limit` decoded bytes.
pub(super) fn read(reader: impl Read, coding: Option<&str>, limit: u64) -> Result<Body, BodyError> {
    let coding = coding.map(|c| c.trim().to_ascii_lowercase());
    match coding.as_deref() {
        None | Some("" | "identity") => bounded(reader, limit),
        Some("gzip" | "x-gzip") => bounded(MultiGzDecoder::new(reader), limit),
        Some("deflate") => bounded(ZlibDecoder::new(reader), limit),
        Some(other) => Err(BodyError::Unsupported(other.to_string())),
    }
}

/// The first `limit` bytes of `reader`, and whether there were more.
fn bounded(reader: impl Read, limit: u64) -> Result<Body, BodyError> {
    let mut bytes = Vec::new();
    match reader.take(limit + 1).read_to_end(&mut bytes) {
        Ok(_) => {
            let cut = bytes.len() as u64 > limit;
            bytes.truncate(limit as usize);
            Ok(Body { bytes, cut })
        }
        Err(error) => Err(BodyError::Broken {
            error,
            read: bytes.len(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::write::GzEncoder;
    use std::io::Write;

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut encoder = GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(bytes).unwrap();
        encoder.finish().unwrap()
    }

    #[test]
    fn gzip_is_decoded_and_the_limit_applies_to_the_decoded_bytes() {
        let body = read(&gzip(b"User-agent: *\n")[..], Some("GZIP"), 100)
            .ok()
            .unwrap();
        assert_eq!(body.bytes, b"User-agent: *\n");
        assert!(!body.cut);
        let bomb = gzip(&vec![b'#'; 1 << 20]);
        let body = read(&bomb[..], Some("gzip"), 1000).ok().unwrap();
        assert_eq!((body.bytes.len(), body.cut), (1000, true));
    }

    #[test]
    fn a_body_at_the_limit_is_not_cut_and_one_byte_more_is() {
        let body = read(&b"abc"[..], None, 3).ok().unwrap();
        assert!(!body.cut);
        let body = read(&b"abcd"[..], Some("identity"), 3).ok().unwrap();
        assert_eq!((&body.bytes[..], body.cut), (&b"abc"[..], true));
    }

    #[test]
    fn unknown_codings_and_corrupt_bodies_are_errors() {
        assert!(matches!(
            read(&b"x"[..], Some("br"), 10),
            Err(BodyError::Unsupported(c)) if c == "br"
        ));
        assert!(matches!(
            read(&b"not gzip"[..], Some("gzip"), 10),
            Err(BodyError::Broken { .. })
        ));
    }
}
