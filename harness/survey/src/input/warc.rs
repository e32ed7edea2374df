//! WARC files in the format of Common Crawl's robots.txt subset: `response` records whose
//! payload is an HTTP response.
//!
//! # What is read
//!
//! A WARC file is a sequence of records, each a header block (`WARC/1.0` or `WARC/1.1`,
//! header fields, an empty line), `Content-Length` octets of content and two line ends.
//! A `.warc.gz` file is the same stream gzip-compressed, usually one gzip member per
//! record (Common Crawl, warcio); the stream is read member after member, however the
//! members are cut. Whether a stream is compressed is told by its first two octets, not
//! by its name.
//!
//! Only `WARC-Type: response` records become [`SurveyFile`]s; `warcinfo`, `request`,
//! `metadata`, `revisit`, `resource` and any other records are skipped unread. From a
//! response record: the host of `WARC-Target-URI` (lowercased, userinfo and the scheme's
//! default port removed), the HTTP status of the stored response and its entity body
//! (see [`crate::input::http`]'s rules: chunked and gzip entities are decoded). A
//! `WARC-Truncated` field marks the body [`Cut::Archive`]. The record's source is its
//! offset: in the file for `.warc`, or the offset of the gzip member the record starts
//! in for `.warc.gz` (plus `+n` when the record starts `n` decompressed octets into the
//! member), which is the offset that Common Crawl's CDX and columnar indexes give.
//!
//! Errors: a response record whose payload is not a usable HTTP response or whose target
//! URI names no host is a non-fatal error, and the next record follows. A stream that is
//! not WARC where a record should start, a header block that does not parse, lacks
//! `Content-Length` or exceeds [`HEADER_LIMIT`], and a stream that ends inside a record or
//! fails to decompress are fatal: nothing can be read after them.
//!
//! # Why the record framing is written here
//!
//! The `warc` crate (jedireza/warc, 0.4.0) parses the header block here:
//! [`warc::parser::headers`] is its grammar of the version line and header fields. Its
//! record iterators are not used, because on untrusted input they fall short of this
//! crate's rule that no input panics or exhausts memory:
//!
//! * `Record::header` unwraps `String::from_utf8` of the field's value, so a record whose
//!   `WARC-Target-URI` holds a non-UTF-8 octet panics (reading it is the only way to get
//!   that field from a streamed record);
//! * the header block is read line by line with no limit, so a garbage stream without an
//!   empty line is read into memory whole;
//! * a stream that ends inside a header block ends the iteration as if it were complete;
//! * after an error at the end of the stream, the streaming iterator returns the same
//!   error forever;
//! * records do not carry their offset, which is how Common Crawl locates them.
//!
//! What this module adds is the framing around the crate's parser: the limits, the
//! offsets, reading the content as a bounded stream and skipping the rest. The crate's
//! writer (`warc::WarcWriter`) makes the WARC files of this crate's Rust-only tests; files
//! made by Python's warcio test it against a second, independent writer.

use std::io::{self, BufRead, BufReader, Read};

use crate::error::{Error, Kind};
use crate::file::{Cut, SurveyFile};
use crate::input::counting::Counting;
use crate::input::gzip::{GzMembers, READ_AHEAD};
use crate::input::http;
use crate::printable::printable;

/// The longest WARC header block read: 256 KiB.
pub(crate) const HEADER_LIMIT: u64 = 256 * 1024;

type Stream = Box<dyn BufRead + Send>;

enum Source {
    Plain(Counting<Stream>),
    Gz(Box<Counting<BufReader<GzMembers<Stream>>>>),
}

impl Source {
    fn reader(&mut self) -> &mut dyn BufRead {
        match self {
            Source::Plain(r) => r,
            Source::Gz(r) => r,
        }
    }

    fn position(&self) -> u64 {
        match self {
            Source::Plain(r) => r.position(),
            Source::Gz(r) => r.position(),
        }
    }

    /// The location of a record starting at decompressed offset `offset`.
    fn locate(&mut self, name: &str, offset: u64) -> String {
        match self {
            Source::Plain(_) => format!("{name}@{offset}"),
            Source::Gz(r) => match r.get_mut().get_mut().member_of(offset) {
                Some(m) if m.decompressed == offset => format!("{name}@{}", m.compressed),
                Some(m) => format!("{name}@{}+{}", m.compressed, offset - m.decompressed),
                None => format!("{name}@+{offset}"),
            },
        }
    }
}

pub(crate) struct WarcFiles {
    /// `None` once the stream ended or failed.
    source: Option<Source>,
    name: String,
}

impl WarcFiles {
    /// Reads the WARC stream `stream`, gzip-compressed if `gzipped`.
    pub(crate) fn new(stream: Stream, gzipped: bool, name: &str) -> WarcFiles {
        let source = if gzipped {
            Source::Gz(Box::new(Counting::new(BufReader::with_capacity(
                READ_AHEAD,
                GzMembers::new(stream),
            ))))
        } else {
            Source::Plain(Counting::new(stream))
        };
        WarcFiles {
            source: Some(source),
            name: name.to_owned(),
        }
    }
}

/// The fields of one record's header block that matter here.
struct RecordHead {
    content_length: u64,
    is_response: bool,
    target_uri: Option<String>,
    truncated: bool,
}

enum Step {
    File(SurveyFile),
    Skipped,
    End,
}

impl Iterator for WarcFiles {
    type Item = Result<SurveyFile, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let source = self.source.as_mut()?;
            match next_record(source, &self.name) {
                Ok(Step::File(file)) => return Some(Ok(file)),
                Ok(Step::Skipped) => {}
                Ok(Step::End) => {
                    self.source = None;
                    return None;
                }
                Err(err) => {
                    if err.is_fatal() {
                        self.source = None;
                    }
                    return Some(Err(err));
                }
            }
        }
    }
}

/// Reads one record.
fn next_record(source: &mut Source, name: &str) -> Result<Step, Error> {
    let at_start = skip_blank_lines(source.reader());
    let offset = source.position();
    let location = source.locate(name, offset);
    match at_start {
        Ok(true) => {}
        Ok(false) => return Ok(Step::End),
        Err(err) => return Err(Error::io(location, err)),
    }
    let head = read_head(source.reader(), &location)?;
    let reader = source.reader();
    let mut content = reader.take(head.content_length);
    let response = if head.is_response {
        Some(http::read_response(&mut content))
    } else {
        None
    };
    // Skip what was not read: the rest of a long body, or a record not wanted.
    match http::drain(&mut content) {
        Err(err) => return Err(Error::io(location, err)),
        Ok(_) if content.limit() > 0 => {
            return Err(Error::new(location, Kind::Truncated("a record's content")))
        }
        Ok(_) => {}
    }
    let Some(response) = response else {
        return Ok(Step::Skipped);
    };
    let response = response.map_err(|what| Error::new(location.clone(), Kind::Record(what)))?;
    let host = head
        .target_uri
        .as_deref()
        .and_then(host_of)
        .ok_or_else(|| {
            let uri = head.target_uri.as_deref().unwrap_or("(none)");
            Error::new(
                location.clone(),
                Kind::Record(format!("WARC-Target-URI {uri:?} names no host")),
            )
        })?;
    let cut = match response.cut {
        Some(cut) => Some(cut),
        None if head.truncated => Some(Cut::Archive),
        None => None,
    };
    Ok(Step::File(SurveyFile {
        host,
        status: Some(response.status),
        body: response.body,
        source: location,
        cut,
    }))
}

/// Skips line ends between records. `Ok(false)` at the end of the stream.
fn skip_blank_lines(reader: &mut dyn BufRead) -> io::Result<bool> {
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(false);
        }
        let blank = buf
            .iter()
            .take_while(|&&b| b == b'\r' || b == b'\n')
            .count();
        if blank == 0 {
            return Ok(true);
        }
        reader.consume(blank);
    }
}

/// Reads and parses a header block.
fn read_head(reader: &mut dyn BufRead, location: &str) -> Result<RecordHead, Error> {
    let mut block = Vec::new();
    let mut limited = reader.take(HEADER_LIMIT);
    let mut first = true;
    loop {
        let start = block.len();
        let n = limited
            .read_until(b'\n', &mut block)
            .map_err(|err| Error::io(location, err))?;
        let line = &block[start..];
        if first {
            first = false;
            if !line.starts_with(b"WARC/") {
                let shown = String::from_utf8_lossy(&line[..line.len().min(40)]).into_owned();
                return Err(Error::new(
                    location,
                    Kind::WarcFraming(format!("expected a `WARC/` version line, found {shown:?}")),
                ));
            }
        }
        if n == 0 || !line.ends_with(b"\n") {
            if limited.limit() == 0 {
                return Err(Error::new(
                    location,
                    Kind::WarcFraming(format!("a header block longer than {HEADER_LIMIT} octets")),
                ));
            }
            return Err(Error::new(
                location,
                Kind::Truncated("a record's header block"),
            ));
        }
        if line == b"\r\n" || line == b"\n" {
            break;
        }
    }
    parse_head(&block).map_err(|what| Error::new(location, Kind::WarcFraming(what)))
}

fn parse_head(block: &[u8]) -> Result<RecordHead, String> {
    let parsed = warc::parser::headers(block);
    // The crate's parser stops at the first line that is not a field and gives back the
    // rest: anything but the empty line there is a field it did not read.
    let (_version, fields, content_length) = match parsed {
        Ok((rest, head)) if rest == b"\r\n" || rest == b"\n" => head,
        _ => return Err(diagnose(block)),
    };
    let field = |name: &str| {
        fields
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| *value)
    };
    if field("Content-Length").is_none() {
        return Err("the header block has no Content-Length".to_owned());
    }
    let is_response =
        field("WARC-Type").is_some_and(|t| t.trim_ascii().eq_ignore_ascii_case(b"response"));
    Ok(RecordHead {
        content_length: content_length as u64,
        is_response,
        target_uri: field("WARC-Target-URI").map(|v| String::from_utf8_lossy(v).into_owned()),
        truncated: field("WARC-Truncated").is_some(),
    })
}

/// Whether `b` is a `tchar` of a field name (RFC 9110 §5.6.2, which WARC 1.1 §4 uses):
/// a visible ASCII character other than a delimiter.
fn is_token(b: u8) -> bool {
    b.is_ascii_graphic() && !b"\"(),/:;<=>?@[\\]{}".contains(&b)
}

/// Why a header block that [`warc::parser::headers`] does not read is not a header
/// block: the first field line that is not `token: value`, in visible notation, with its
/// octet offset in the record.
fn diagnose(block: &[u8]) -> String {
    let mut at = 0;
    for (i, line) in block.split_inclusive(|&b| b == b'\n').enumerate() {
        let start = at;
        at += line.len();
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if i == 0 {
            continue;
        }
        if line.is_empty() {
            break;
        }
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            let shown = printable(&line[..line.len().min(60)]);
            return format!(
                "a WARC header line without a colon, \"{shown}\", at octet {start} of the record"
            );
        };
        let name = line[..colon].trim_ascii_end();
        if name.is_empty() || !name.iter().all(|&b| is_token(b)) {
            let shown = printable(&line[..colon]);
            return format!(
                "a WARC header field name that is not a token, \"{shown}\", at octet {start} of the record"
            );
        }
        let value = line[colon + 1..].trim_ascii();
        if name.eq_ignore_ascii_case(b"Content-Length")
            && std::str::from_utf8(value).map_or(true, |v| v.parse::<usize>().is_err())
        {
            let shown = printable(value);
            return format!(
                "Content-Length \"{shown}\" is not a number, at octet {start} of the record"
            );
        }
    }
    "the header block does not parse".to_owned()
}

/// The host of an absolute URI: lowercased, without userinfo, and without the port when
/// it is the scheme's default (`http` 80, `https` 443). `None` when there is no host.
/// WARC 1.0 wrote the URI in angle brackets by mistake; they are removed.
pub(crate) fn host_of(uri: &str) -> Option<String> {
    let uri = uri.trim();
    let uri = uri
        .strip_prefix('<')
        .and_then(|u| u.strip_suffix('>'))
        .unwrap_or(uri);
    let (scheme, rest) = uri.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let authority = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host);
    let authority = authority.to_ascii_lowercase();
    // The port follows the last colon after any IPv6 literal's closing bracket.
    let port_colon = match authority.rfind(']') {
        Some(bracket) => authority[bracket..].find(':').map(|i| bracket + i),
        None => authority.rfind(':'),
    };
    let (host, port) = match port_colon {
        Some(i) => (&authority[..i], &authority[i + 1..]),
        None => (&authority[..], ""),
    };
    if host.is_empty() {
        return None;
    }
    let default = match scheme.to_ascii_lowercase().as_str() {
        "http" => "80",
        "https" => "443",
        _ => "",
    };
    Some(if port.is_empty() || port == default {
        host.to_owned()
    } else {
        format!("{host}:{port}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts() {
        for (uri, host) in [
            (
                "https://www.Example.com/robots.txt",
                Some("www.example.com"),
            ),
            ("<http://example.com/robots.txt>", Some("example.com")),
            ("http://example.com:80/robots.txt", Some("example.com")),
            ("https://example.com:443/robots.txt", Some("example.com")),
            (
                "http://example.com:8080/robots.txt",
                Some("example.com:8080"),
            ),
            (
                "https://user:pw@example.com/robots.txt",
                Some("example.com"),
            ),
            (
                "http://[2001:db8::1]:8080/robots.txt",
                Some("[2001:db8::1]:8080"),
            ),
            ("http://[2001:db8::1]/robots.txt", Some("[2001:db8::1]")),
            ("http://example.com?x", Some("example.com")),
            ("dns:example.com", None),
            ("http:///robots.txt", None),
            ("", None),
        ] {
            assert_eq!(host_of(uri).as_deref(), host, "{uri}");
        }
    }

    #[test]
    fn header_blocks() {
        let head = parse_head(
            b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://a.example/robots.txt\r\nContent-Length: 12\r\n\r\n",
        )
        .unwrap();
        assert!(head.is_response);
        assert_eq!(head.content_length, 12);
        assert_eq!(
            head.target_uri.as_deref(),
            Some("http://a.example/robots.txt")
        );
        assert!(parse_head(b"WARC/1.0\r\nWARC-Type: response\r\n\r\n").is_err());
        assert!(parse_head(b"WARC/1.0\r\nContent-Length: x\r\n\r\n").is_err());
        assert!(parse_head(b"WARC/1.0\r\n\xff: x\r\nContent-Length: 1\r\n\r\n").is_err());
        // A non-UTF-8 value is kept (lossily), never a panic.
        let head = parse_head(
            b"WARC/1.0\r\nWARC-Target-URI: http://\xff.example/\r\nContent-Length: 0\r\n\r\n",
        )
        .unwrap();
        assert_eq!(head.target_uri.as_deref(), Some("http://\u{fffd}.example/"));
    }
}
