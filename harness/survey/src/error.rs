//! The one error type of the crate: opaque, with a private kind.

use std::fmt;
use std::io;

use crate::input::GzError;
use crate::printable::printable;

/// Why an input, or one file or record in it, could not be read.
///
/// Opaque on purpose: its [`Display`](fmt::Display) names where (the input's path, an
/// archive member, a WARC record's offset) and what went wrong; [`std::error::Error::source`]
/// gives the underlying I/O error when there is one. [`Error::is_fatal`] tells whether the
/// iterator that yielded it goes on.
///
/// ```
/// let err = reptest_survey::open("no/such/input.zip").unwrap_err();
/// assert!(err.to_string().contains("no/such/input.zip"));
/// ```
#[derive(Debug)]
pub struct Error {
    location: String,
    kind: Kind,
}

#[derive(Debug)]
pub(crate) enum Kind {
    /// The path is none of a directory, `.tar`, `.tar.gz`, `.tgz`, `.warc`, `.warc.gz`.
    UnknownFormat,
    /// Reading failed below the format (open, read, a gzip stream, a tar header...).
    Io(io::Error),
    /// One file of a directory that could not be read (the others still can).
    Unreadable(io::Error),
    /// A directory entry or archive member whose name is not UTF-8.
    NonUtf8Name,
    /// An archive that ends inside a member or record.
    Truncated(&'static str),
    /// A WARC stream that is not a sequence of well-formed records.
    WarcFraming(String),
    /// A WARC response record whose payload is not a usable HTTP response, or whose
    /// target URI names no host.
    Record(String),
    /// One entry left out, and why: a tar hard link or GNU sparse member, a directory
    /// entry that vanished or stopped being a regular file after the listing.
    Skipped(String),
    /// A stream that is not of the format it should be: `format` is "gzip" or "tar",
    /// `what` says what was found (already in visible notation, see
    /// [`crate::printable::printable`]).
    NotArchive { format: &'static str, what: String },
    /// An input with no file in it at all; `what` says what it lacks.
    Empty(&'static str),
    /// An input refused before it costs what it asks: `what` says what it asked (an
    /// archive header declaring gigabytes).
    Refused(String),
}

impl Error {
    /// An error of `kind` at `location` ([`Kind::Io`] as [`Error::io`] tells it).
    pub(crate) fn new(location: impl Into<String>, kind: Kind) -> Error {
        match kind {
            Kind::Io(err) => Error::io(location, err),
            kind => Error {
                location: location.into(),
                kind,
            },
        }
    }

    /// An error reading `location`; a gzip stream that fails to decompress (an error
    /// from [`crate::input::gzip`], which names the compressed offset) is "not a gzip
    /// archive" there, and one that ends early is truncated.
    pub(crate) fn io(location: impl Into<String>, err: io::Error) -> Error {
        let kind = match err.get_ref().and_then(|e| e.downcast_ref::<GzError>()) {
            None => Kind::Io(err),
            Some(_) if err.kind() == io::ErrorKind::UnexpectedEof => {
                Kind::Truncated("the gzip stream")
            }
            Some(gz) => Kind::NotArchive {
                format: "gzip",
                what: gz.to_string(),
            },
        };
        Error {
            location: location.into(),
            kind,
        }
    }

    /// Where the error happened: the input's path, followed by `:member` for an archive
    /// member or `@offset` for a WARC record (see [`crate::SurveyFile::source`]).
    pub fn location(&self) -> &str {
        &self.location
    }

    /// Whether the input cannot be read any further: the iterator that yielded this
    /// error yields nothing after it. A non-fatal error concerns one file or record only
    /// (a file of a directory that cannot be read, a name that is not UTF-8, a record
    /// whose HTTP payload is unusable); the iterator
    /// goes on with the next one.
    ///
    /// ```
    /// let err = reptest_survey::open("input.rar").unwrap_err();
    /// assert!(err.is_fatal());
    /// ```
    pub fn is_fatal(&self) -> bool {
        !matches!(
            self.kind,
            Kind::Unreadable(_) | Kind::NonUtf8Name | Kind::Record(_) | Kind::Skipped(_)
        )
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.location)?;
        match &self.kind {
            Kind::UnknownFormat => f.write_str(
                "not a survey input: expected a directory, .tar, .tar.gz, .tgz, .warc or .warc.gz",
            ),
            Kind::Io(err) => f.write_str(&printable(err.to_string().as_bytes())),
            Kind::Unreadable(err) => {
                write!(f, "file skipped: {}", printable(err.to_string().as_bytes()))
            }
            Kind::NonUtf8Name => f.write_str("the name is not UTF-8, so it cannot be a host"),
            Kind::Truncated(what) => write!(f, "truncated: the input ends inside {what}"),
            Kind::WarcFraming(what) => write!(f, "not a WARC record: {what}"),
            Kind::Record(what) => write!(f, "record skipped: {what}"),
            Kind::Skipped(what) => write!(f, "skipped: {what}"),
            Kind::NotArchive { format, what } => write!(f, "not a {format} archive: {what}"),
            Kind::Refused(what) => write!(f, "input refused: {what}"),
            Kind::Empty(what) => write!(f, "empty input: {what}, so there is nothing to survey"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            Kind::Io(err) | Kind::Unreadable(err) => Some(err),
            _ => None,
        }
    }
}
