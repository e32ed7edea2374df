//! The HTTP response stored in a WARC response record: status and entity body.
//!
//! The head (status line and header fields, at most [`HEAD_LIMIT`] octets, or the record
//! is unusable) is parsed by
//! `httparse`, leniently: obsolete line folding, spaces before a colon, runs of spaces in
//! the status line and malformed header lines are tolerated, as real servers send them.
//! A status line of HTTP/2 or HTTP/3 (`HTTP/2 200`: some writers record the protocol
//! that was spoken) is read as HTTP/1.1.
//!
//! The body is what the record holds after the head, up to the record's end (the stored
//! `Content-Length` is not trusted: the record's length is). It is decoded as the stored
//! header fields say:
//!
//! * `Transfer-Encoding: chunked` (as the last coding): the chunks are joined; chunk
//!   extensions and trailer fields are dropped;
//! * then `Content-Encoding: gzip` / `x-gzip` (gzip) or `deflate` (zlib, or raw deflate
//!   if the stream has no zlib header), possibly several, undone in reverse order;
//!   `identity` is nothing to undo; any other coding (`br`, `compress`...) makes the
//!   record unusable (a non-fatal error), and so do more than [`CODINGS_LIMIT`] codings
//!   (each decoder holds tens of KiB: thousands listed would cost gigabytes).
//!
//! Common Crawl stores bodies already decoded and renames the original fields to
//! `X-Crawler-Transfer-Encoding` / `X-Crawler-Content-Encoding`; those are ignored, as
//! they should be. A stored chunked or gzip entity that ends early (the crawler cut the
//! download, `WARC-Truncated`) keeps what was decoded and is marked [`Cut::Archive`], and
//! so does a head that ends without its empty line (the status is kept, the body is
//! empty).

use std::io::{self, BufRead, Read};

use flate2::bufread::{DeflateDecoder, GzDecoder, ZlibDecoder};

use crate::file::{Cut, BODY_LIMIT};

/// The longest response head read: 64 KiB.
pub(crate) const HEAD_LIMIT: u64 = 64 * 1024;

/// The most content codings decoded in one body: 8 (a real response has one; a header
/// listing thousands would cost a decoder each).
pub(crate) const CODINGS_LIMIT: usize = 8;

/// The longest chunk-size line read.
const CHUNK_LINE_LIMIT: u64 = 4096;

/// A response read from a record.
#[derive(Debug)]
pub(crate) struct Response {
    pub(crate) status: u16,
    pub(crate) body: Vec<u8>,
    pub(crate) cut: Option<Cut>,
}

/// Why a stored response cannot be used; becomes a non-fatal record error.
pub(crate) type Unusable = String;

/// Reads the response from `payload` (the record's content, limited to its length).
/// Leaves unread whatever follows the first [`BODY_LIMIT`] octets of the body.
pub(crate) fn read_response(payload: &mut dyn BufRead) -> Result<Response, Unusable> {
    let (head, ended) =
        read_head(payload).map_err(|err| format!("reading the HTTP head: {err}"))?;
    let parsed = parse_head(&head, ended)?;
    if !ended {
        return Ok(Response {
            status: parsed.status,
            body: Vec::new(),
            cut: Some(Cut::Archive),
        });
    }
    let codings = parsed.content_codings.len();
    if codings > CODINGS_LIMIT {
        return Err(format!(
            "Content-Encoding lists {codings} codings; at most {CODINGS_LIMIT} are decoded"
        ));
    }
    let mut chunked_cut = false;
    let mut reader: Box<dyn Read + '_> = if parsed.chunked {
        Box::new(Chunked::new(payload, &mut chunked_cut))
    } else {
        Box::new(payload)
    };
    for coding in parsed.content_codings.iter().rev() {
        let buffered = io::BufReader::new(reader);
        reader = match coding.as_str() {
            "gzip" | "x-gzip" => Box::new(GzDecoder::new(buffered)),
            "deflate" => Box::new(Deflate::new(buffered)),
            "identity" => Box::new(buffered),
            other => return Err(format!("unsupported Content-Encoding {other:?}")),
        };
    }
    let (body, limit_cut, early_end) = read_body(&mut reader)?;
    drop(reader);
    let cut = if limit_cut {
        Some(Cut::Limit)
    } else if early_end || chunked_cut {
        Some(Cut::Archive)
    } else {
        None
    };
    Ok(Response {
        status: parsed.status,
        body,
        cut,
    })
}

/// Reads up to [`BODY_LIMIT`] octets; an entity that ends early (`UnexpectedEof` from a
/// decoder) keeps what was read. Returns (body, longer than the limit, ended early).
fn read_body(reader: &mut dyn Read) -> Result<(Vec<u8>, bool, bool), Unusable> {
    let mut body = Vec::new();
    let mut limited = reader.take(BODY_LIMIT as u64 + 1);
    let mut buf = [0u8; 8192];
    loop {
        match limited.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => body.extend_from_slice(&buf[..n]),
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) if err.kind() == io::ErrorKind::UnexpectedEof => {
                return Ok((body, false, true));
            }
            Err(err) => return Err(format!("decoding the HTTP body: {err}")),
        }
    }
    let cut = body.len() > BODY_LIMIT;
    body.truncate(BODY_LIMIT);
    Ok((body, cut, false))
}

/// Reads the head up to and including its empty line. Returns the head and whether the
/// empty line was found (`false`: the payload ended first).
fn read_head(payload: &mut dyn BufRead) -> io::Result<(Vec<u8>, bool)> {
    let mut head = Vec::new();
    let mut limited = payload.take(HEAD_LIMIT);
    loop {
        let start = head.len();
        let n = limited.read_until(b'\n', &mut head)?;
        let line = &head[start..];
        if n == 0 || !line.ends_with(b"\n") {
            if limited.limit() == 0 {
                return Err(io::Error::other(format!(
                    "the head is longer than {HEAD_LIMIT} octets"
                )));
            }
            return Ok((head, false));
        }
        if line == b"\r\n" || line == b"\n" {
            return Ok((head, true));
        }
    }
}

#[derive(Debug)]
struct Head {
    status: u16,
    chunked: bool,
    /// The content codings, in the order they were applied, lowercased.
    content_codings: Vec<String>,
}

fn parse_head(head: &[u8], ended: bool) -> Result<Head, Unusable> {
    if head.is_empty() {
        return Err("the record holds no HTTP response".to_owned());
    }
    let mut head = as_http11(head);
    if !ended {
        // Read what there is: the stored response ends inside its head.
        while head.last().is_some_and(|&b| b != b'\n') {
            head.pop();
        }
        head.extend_from_slice(b"\r\n");
    }
    let mut config = httparse::ParserConfig::default();
    config
        .allow_obsolete_multiline_headers_in_responses(true)
        .allow_spaces_after_header_name_in_responses(true)
        .allow_multiple_spaces_in_response_status_delimiters(true)
        .ignore_invalid_headers_in_responses(true);
    let mut count = 64;
    loop {
        let mut headers = vec![httparse::EMPTY_HEADER; count];
        let mut response = httparse::Response::new(&mut headers);
        match config.parse_response(&mut response, &head) {
            Ok(httparse::Status::Complete(_)) => {
                let status = response
                    .code
                    .ok_or_else(|| "the HTTP status line has no status code".to_owned())?;
                return Ok(fields(status, response.headers));
            }
            Ok(httparse::Status::Partial) => {
                return Err("the stored HTTP head is incomplete".to_owned());
            }
            Err(httparse::Error::TooManyHeaders) if count < 4096 => count *= 4,
            Err(err) => return Err(format!("the stored HTTP head does not parse: {err}")),
        }
    }
}

/// The head with an HTTP/2 or HTTP/3 version in its status line replaced by HTTP/1.1.
fn as_http11(head: &[u8]) -> Vec<u8> {
    let version_end = head.iter().position(|&b| b == b' ').unwrap_or(0);
    let version = &head[..version_end];
    if version.starts_with(b"HTTP/2") || version.starts_with(b"HTTP/3") {
        [&b"HTTP/1.1"[..], &head[version_end..]].concat()
    } else {
        head.to_vec()
    }
}

fn fields(status: u16, headers: &[httparse::Header<'_>]) -> Head {
    let mut transfer = Vec::new();
    let mut content = Vec::new();
    for header in headers {
        let target = if header.name.eq_ignore_ascii_case("transfer-encoding") {
            &mut transfer
        } else if header.name.eq_ignore_ascii_case("content-encoding") {
            &mut content
        } else {
            continue;
        };
        let value = String::from_utf8_lossy(header.value).to_ascii_lowercase();
        target.extend(
            value
                .split(',')
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(str::to_owned),
        );
    }
    Head {
        status,
        chunked: transfer.last().is_some_and(|c| c == "chunked"),
        content_codings: content,
    }
}

/// `deflate` as servers send it: zlib-wrapped as the standard says, or raw deflate as
/// some servers do. Decided by the first two octets (a zlib header is a multiple of 31).
struct Deflate<R: BufRead> {
    state: DeflateState<R>,
}

enum DeflateState<R: BufRead> {
    Undecided(Option<R>),
    Zlib(ZlibDecoder<R>),
    Raw(DeflateDecoder<R>),
}

impl<R: BufRead> Deflate<R> {
    fn new(inner: R) -> Deflate<R> {
        Deflate {
            state: DeflateState::Undecided(Some(inner)),
        }
    }
}

impl<R: BufRead> Read for Deflate<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let DeflateState::Undecided(inner) = &mut self.state {
            let Some(mut inner) = inner.take() else {
                return Ok(0);
            };
            let start = inner.fill_buf()?;
            let zlib = start.len() >= 2
                && start[0] & 0x0f == 8
                && (u16::from(start[0]) << 8 | u16::from(start[1])) % 31 == 0;
            self.state = if zlib {
                DeflateState::Zlib(ZlibDecoder::new(inner))
            } else {
                DeflateState::Raw(DeflateDecoder::new(inner))
            };
        }
        match &mut self.state {
            DeflateState::Undecided(_) => Ok(0),
            DeflateState::Zlib(d) => d.read(buf),
            DeflateState::Raw(d) => d.read(buf),
        }
    }
}

/// A `Transfer-Encoding: chunked` body. The end of the stored payload before the last
/// chunk is an early end (`*cut` set), not an error; a malformed chunk size is an error.
struct Chunked<'a> {
    inner: &'a mut dyn BufRead,
    /// Octets left in the current chunk; `None` before a chunk-size line.
    left: Option<u64>,
    done: bool,
    cut: &'a mut bool,
}

impl<'a> Chunked<'a> {
    fn new(inner: &'a mut dyn BufRead, cut: &'a mut bool) -> Chunked<'a> {
        Chunked {
            inner,
            left: None,
            done: false,
            cut,
        }
    }

    /// Reads a chunk-size line; `Ok(None)` at the end of the payload.
    fn size_line(&mut self) -> io::Result<Option<u64>> {
        let mut line = Vec::new();
        // Skip the CRLF that ends the previous chunk's data (and any stray blank line).
        loop {
            line.clear();
            let n = (&mut *self.inner)
                .take(CHUNK_LINE_LIMIT)
                .read_until(b'\n', &mut line)?;
            if n == 0 {
                return Ok(None);
            }
            if line != b"\r\n" && line != b"\n" {
                break;
            }
        }
        if !line.ends_with(b"\n") {
            line.extend_from_slice(b"\r\n");
        }
        match httparse::parse_chunk_size(&line) {
            Ok(httparse::Status::Complete((_, size))) => Ok(Some(size)),
            _ => Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "invalid chunk size line {:?}",
                    String::from_utf8_lossy(line.trim_ascii_end())
                ),
            )),
        }
    }
}

impl Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() || self.done {
            return Ok(0);
        }
        loop {
            match self.left {
                None | Some(0) => match self.size_line()? {
                    None => {
                        // The stored payload ends before the last chunk.
                        *self.cut = true;
                        self.done = true;
                        return Ok(0);
                    }
                    Some(0) => {
                        // The last chunk; trailer fields are not read.
                        self.done = true;
                        return Ok(0);
                    }
                    Some(size) => self.left = Some(size),
                },
                Some(left) => {
                    let want = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
                    let n = self.inner.read(&mut buf[..want])?;
                    if n == 0 {
                        *self.cut = true;
                        self.done = true;
                        return Ok(0);
                    }
                    self.left = Some(left - n as u64);
                    return Ok(n);
                }
            }
        }
    }
}

/// Skips the rest of `payload`, returning how many octets were skipped.
pub(crate) fn drain(payload: &mut dyn Read) -> io::Result<u64> {
    io::copy(payload, &mut io::sink())
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::write::{DeflateEncoder, GzEncoder, ZlibEncoder};
    use flate2::Compression;
    use std::io::Write;

    fn read(raw: &[u8]) -> Result<Response, Unusable> {
        let mut r = raw;
        read_response(&mut r)
    }

    #[test]
    fn plain_response() {
        let r =
            read(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nUser-agent: *\n").unwrap();
        assert_eq!(r.status, 200);
        assert_eq!(r.body, b"User-agent: *\n");
        assert_eq!(r.cut, None);
    }

    #[test]
    fn lenient_heads() {
        for head in [
            &b"HTTP/1.1 404\r\n\r\nx"[..],
            b"HTTP/1.0 404 Not Found\nServer: x\n\nx",
            b"HTTP/2 404\r\nserver: x\r\n\r\nx",
            b"HTTP/1.1  404  Not Found\r\nBad Header\r\nX : y\r\n\r\nx",
            b"HTTP/1.1 404 Not Found\r\nX-Long: a\r\n  b\r\n\r\nx",
        ] {
            let r =
                read(head).unwrap_or_else(|e| panic!("{:?}: {e}", String::from_utf8_lossy(head)));
            assert_eq!((r.status, &r.body[..]), (404, &b"x"[..]));
        }
    }

    #[test]
    fn many_headers() {
        let mut raw = b"HTTP/1.1 200 OK\r\n".to_vec();
        for i in 0..500 {
            raw.extend_from_slice(format!("X-{i}: v\r\n").as_bytes());
        }
        raw.extend_from_slice(b"\r\nbody");
        assert_eq!(read(&raw).unwrap().body, b"body");
    }

    #[test]
    fn unusable_payloads() {
        assert!(read(b"").is_err());
        assert!(read(b"not http at all\r\n\r\n").is_err());
        assert!(read(b"HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\nxx").is_err());
        assert!(
            read(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nab\r\n").is_err()
        );
        assert!(
            read(b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\nthis is not gzip data")
                .is_err()
        );
    }

    #[test]
    fn head_too_long() {
        let raw = [
            &b"HTTP/1.1 200 OK\r\nX: "[..],
            &vec![b'y'; HEAD_LIMIT as usize],
        ]
        .concat();
        assert!(read(&raw).unwrap_err().contains("longer than"));
    }

    #[test]
    fn head_without_end() {
        let r = read(b"HTTP/1.1 301 Moved\r\nLocation: /x\r\n").unwrap();
        assert_eq!((r.status, r.cut), (301, Some(Cut::Archive)));
        assert!(r.body.is_empty());
    }

    #[test]
    fn chunked_body() {
        let raw = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nUser-\r\n8\r\nagent: *\r\n0\r\nX-Trailer: y\r\n\r\n";
        let r = read(raw).unwrap();
        assert_eq!(r.body, b"User-agent: *");
        assert_eq!(r.cut, None);
        // Cut inside the second chunk.
        let r = read(&raw[..raw.len() - 25]).unwrap();
        assert_eq!(r.body, b"User-agen");
        assert_eq!(r.cut, Some(Cut::Archive));
    }

    #[test]
    fn content_encodings() {
        let text = b"User-agent: *\nDisallow: /gz\n";
        let mut gz = GzEncoder::new(Vec::new(), Compression::default());
        gz.write_all(text).unwrap();
        let gz = gz.finish().unwrap();
        let mut zlib = ZlibEncoder::new(Vec::new(), Compression::default());
        zlib.write_all(text).unwrap();
        let zlib = zlib.finish().unwrap();
        let mut raw = DeflateEncoder::new(Vec::new(), Compression::default());
        raw.write_all(text).unwrap();
        let raw = raw.finish().unwrap();
        for (coding, entity) in [
            ("gzip", &gz),
            ("x-gzip", &gz),
            ("deflate", &zlib),
            ("deflate", &raw),
        ] {
            let stored = [
                format!("HTTP/1.1 200 OK\r\nContent-Encoding: {coding}\r\n\r\n").as_bytes(),
                entity,
            ]
            .concat();
            assert_eq!(read(&stored).unwrap().body, text, "{coding}");
        }
        // gzip inside chunked, and a gzip entity cut short.
        let mut chunked =
            b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n"
                .to_vec();
        for piece in gz.chunks(7) {
            chunked.extend_from_slice(format!("{:x}\r\n", piece.len()).as_bytes());
            chunked.extend_from_slice(piece);
            chunked.extend_from_slice(b"\r\n");
        }
        chunked.extend_from_slice(b"0\r\n\r\n");
        assert_eq!(read(&chunked).unwrap().body, text);
        let stored = [
            &b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n"[..],
            &gz[..gz.len() - 12],
        ]
        .concat();
        let r = read(&stored).unwrap();
        assert_eq!(r.cut, Some(Cut::Archive));
        assert!(text.starts_with(&r.body));
        // Common Crawl's renamed fields are not decoded.
        let stored = b"HTTP/1.1 200 OK\r\nX-Crawler-Content-Encoding: gzip\r\n\r\nplain";
        assert_eq!(read(stored).unwrap().body, b"plain");
    }

    #[test]
    fn body_limit() {
        let mut raw = b"HTTP/1.1 200 OK\r\n\r\n".to_vec();
        raw.resize(raw.len() + BODY_LIMIT + 10, b'a');
        let r = read(&raw).unwrap();
        assert_eq!((r.body.len(), r.cut), (BODY_LIMIT, Some(Cut::Limit)));
    }
}
