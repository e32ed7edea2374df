//! One real robots.txt file as read from an input.

use std::io::{self, Read};

use reptest_reference::access::Fetch;

/// The most octets of one body that are kept: 1 MiB (1,048,576 octets).
///
/// Twice the 500 KiB that RFC 9309 §2.5 requires a parser to read at least
/// ([`reptest_reference::MIN_PARSE_LIMIT`], 512,000 octets), so that a file longer than that
/// minimum still reaches the implementations whole and their parse limits can disagree. A
/// longer body is cut here and marked [`Cut::Limit`]; the rest is skipped unread into
/// memory (an archive is streamed, never held whole).
///
/// ```
/// assert!(reptest_survey::BODY_LIMIT > 2 * reptest_reference::MIN_PARSE_LIMIT);
/// ```
pub const BODY_LIMIT: usize = 1 << 20;

/// Why a [`SurveyFile`]'s body is shorter than the file was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cut {
    /// The body was longer than [`BODY_LIMIT`]: its first `BODY_LIMIT` octets are kept.
    Limit,
    /// The archive itself holds less than the server sent: a WARC record with a
    /// `WARC-Truncated` header, or a stored chunked or gzip entity that ends early.
    Archive,
}

/// One robots.txt file read from a survey input: a directory entry, an archive member or
/// a WARC response record.
///
/// ```
/// use reptest_survey::SurveyFile;
///
/// let file = SurveyFile::new("example.com", b"User-agent: *\nDisallow: /private/\n".to_vec());
/// assert_eq!(file.status, None);
/// assert!(!reptest_reference::check_fetch(
///     &file.fetch(),
///     &reptest_reference::Config::default(),
///     "examplebot",
///     "/private/x",
/// )
/// .is_allowed());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SurveyFile {
    /// The host the file is for: a directory entry's or archive member's file name as
    /// written, or the host of a WARC record's `WARC-Target-URI` (lowercased, with a port
    /// if one other than the scheme's default was given).
    pub host: String,
    /// The HTTP status of the fetch, from a WARC response record; `None` for files from a
    /// directory or tar archive, which the access method treats as a 200
    /// ([`reptest_reference::access`]).
    pub status: Option<u16>,
    /// The body, at most [`BODY_LIMIT`] octets: for a WARC record the HTTP entity body
    /// (de-chunked and decompressed if the stored response says so), even for a status
    /// other than 2xx.
    pub body: Vec<u8>,
    /// Where the file came from: a path; `archive:member/path` for a tar member;
    /// `file.warc@offset` for a WARC record, the octet offset of the record in the file,
    /// or for a `.warc.gz` the offset of the gzip member the record starts in (the offset a
    /// Common Crawl index gives), followed by `+n` if the record starts `n` decompressed
    /// octets into that member.
    pub source: String,
    /// Whether, and why, the body is shorter than the file was; `None` when it is whole.
    pub cut: Option<Cut>,
}

impl SurveyFile {
    /// A file for `host` with `body`, no status, `source` equal to `host`, not cut (for
    /// tests and for callers with bodies of their own).
    pub fn new(host: impl Into<String>, body: Vec<u8>) -> SurveyFile {
        let host = host.into();
        SurveyFile {
            source: host.clone(),
            host,
            status: None,
            body,
            cut: None,
        }
    }

    /// The fetch this file records, for the reference's access method
    /// ([`reptest_reference::check_fetch`], [`reptest_reference::access::rules_in_force`]).
    pub fn fetch(&self) -> Fetch<'_> {
        Fetch {
            status: self.status,
            body: &self.body,
            ..Fetch::default()
        }
    }
}

/// Reads at most [`BODY_LIMIT`] octets of `reader`, and one more to tell whether it was
/// longer. The reader is left after what was read.
pub(crate) fn read_capped(reader: &mut impl Read) -> io::Result<(Vec<u8>, bool)> {
    read_capped_sized(reader, 0)
}

/// [`read_capped`] into room for `expected` octets (and the one that tells a longer
/// body), so that a body of the expected size is read without growing the buffer or
/// probing for its end in small reads; a wrong guess only costs those.
pub(crate) fn read_capped_sized(
    reader: &mut impl Read,
    expected: u64,
) -> io::Result<(Vec<u8>, bool)> {
    let room = usize::try_from(expected).map_or(BODY_LIMIT, |n| n.min(BODY_LIMIT)) + 1;
    let mut body = Vec::with_capacity(if expected == 0 { 0 } else { room });
    reader.take(BODY_LIMIT as u64 + 1).read_to_end(&mut body)?;
    let cut = body.len() > BODY_LIMIT;
    body.truncate(BODY_LIMIT);
    Ok((body, cut))
}

/// Whether a directory entry or member name is hidden (`.DS_Store`, AppleDouble `._name`
/// files): such names are skipped, as no host starts with `.`.
pub(crate) fn is_hidden(name: &str) -> bool {
    name.starts_with('.')
}
