//! Survey inputs: a directory, a tar archive or WARC files, read as a stream of
//! [`SurveyFile`]s.
//!
//! [`open`] picks the reader from the path ([`Format::of_path`]); [`Files::tar`] and
//! [`Files::warc`] read from any reader (standard input, a pipe, a test's buffer). Every
//! reader is an iterator that holds one body at a time (at most [`crate::BODY_LIMIT`]
//! octets of it), so an archive of any size streams through in bounded memory.
//!
//! No input makes a reader panic: a truncated archive, a garbage WARC stream or a binary
//! body gives an [`Error`] or a skipped record. An error that concerns one file or record
//! ([`Error::is_fatal`] is `false`) is yielded in its place and the iteration goes on; a
//! fatal one (the stream cannot be followed any further) is yielded last. An input that
//! ends before yielding anything (no file, no skipped entry) yields one fatal "empty
//! input" error ([`Files`] adds it, whatever the format).

mod counting;
mod dir;
mod gzip;
mod http;
mod tar;
mod warc;

use std::fs;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::error::{Error, Kind};
use crate::file::SurveyFile;
pub(crate) use gzip::GzError;

/// What kind of input a path is (see [`Format::of_path`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// A directory: one file per host, the file name being the host.
    Dir,
    /// A `.tar` archive: one regular member per host, the member's file name being the
    /// host.
    Tar,
    /// A gzip-compressed tar archive, `.tar.gz` or `.tgz`.
    TarGz,
    /// A WARC file (`.warc`): response records whose payload is an HTTP response.
    Warc,
    /// A gzip-compressed WARC file (`.warc.gz`), usually one gzip member per record, as
    /// Common Crawl writes them.
    WarcGz,
}

impl Format {
    /// The format of `path`: [`Format::Dir`] if it is a directory (following symbolic
    /// links), otherwise by its name's ending, compared without regard to case, whether
    /// or not the file exists; `None` for any other name. The name only chooses between
    /// tar and WARC: the readers tell a gzip-compressed stream by its first two octets,
    /// so `Tar` and `TarGz` (and `Warc` and `WarcGz`) read alike.
    ///
    /// ```
    /// use reptest_survey::Format;
    ///
    /// assert_eq!(Format::of_path("CC-MAIN-20240612-00000.warc.gz"), Some(Format::WarcGz));
    /// assert_eq!(Format::of_path("robots.TGZ"), Some(Format::TarGz));
    /// assert_eq!(Format::of_path("robots.zip"), None);
    /// ```
    pub fn of_path(path: impl AsRef<Path>) -> Option<Format> {
        let path = path.as_ref();
        if path.is_dir() {
            return Some(Format::Dir);
        }
        let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
        [
            (".tar.gz", Format::TarGz),
            (".tgz", Format::TarGz),
            (".tar", Format::Tar),
            (".warc.gz", Format::WarcGz),
            (".warc", Format::Warc),
        ]
        .into_iter()
        .find(|(ending, _)| name.ends_with(ending) && name.len() > ending.len())
        .map(|(_, format)| format)
    }
}

/// The files of one survey input, in input order: sorted by name for a directory, archive
/// order for a tar or WARC file.
///
/// ```
/// # fn main() -> Result<(), reptest_survey::Error> {
/// let dir = tempfile::tempdir().unwrap();
/// std::fs::write(dir.path().join("example.com"), "User-agent: *\nDisallow: /x\n").unwrap();
/// std::fs::write(dir.path().join("example.org"), "").unwrap();
///
/// let files = reptest_survey::open(dir.path())?.collect::<Result<Vec<_>, _>>()?;
/// let hosts: Vec<&str> = files.iter().map(|f| f.host.as_str()).collect();
/// assert_eq!(hosts, ["example.com", "example.org"]);
/// # Ok(())
/// # }
/// ```
pub struct Files {
    inner: Inner,
    /// The input's name, for the error of an empty input.
    name: String,
    /// Whether anything (a file or an error) was yielded yet: an input that ends before
    /// yielding anything is an error ([`Files::empty`]).
    yielded: bool,
}

enum Inner {
    Dir(dir::DirFiles),
    Tar(tar::TarFiles),
    Warc(warc::WarcFiles),
    /// Failed before the first file: the error, then nothing.
    Failed(Option<Error>),
}

impl Files {
    fn new(inner: Inner, name: &str) -> Files {
        Files {
            inner,
            name: name.to_owned(),
            yielded: false,
        }
    }

    /// The fatal error that ends an input in which nothing was found: an empty
    /// directory, tar or WARC stream says so (exit 2), rather than giving a survey of no
    /// file as if it were a result.
    fn empty(&self) -> Option<Error> {
        let what = match &self.inner {
            Inner::Dir(_) => "the directory holds no regular file",
            Inner::Tar(_) => "the archive holds no regular member",
            Inner::Warc(_) => "the WARC stream holds no response record",
            Inner::Failed(_) => return None,
        };
        Some(Error::new(self.name.clone(), Kind::Empty(what)))
    }

    /// The files of directory `path` (see [`Format::Dir`]): its regular files (following
    /// symbolic links), sorted by name, each one a host. Subdirectories are skipped, not
    /// searched, and so are hidden files (a name starting with `.`).
    pub fn dir(path: impl AsRef<Path>) -> Result<Files, Error> {
        let path = path.as_ref();
        let inner = Inner::Dir(dir::DirFiles::open(path)?);
        Ok(Files::new(inner, &path.display().to_string()))
    }

    /// The regular members of the tar archive read from `reader`, each one a host named
    /// by the last component of its path. The archive may be gzip-compressed: that is
    /// told by its first two octets. Directories, links, special files and hidden files
    /// are skipped. `name` is the input's name in [`SurveyFile::source`] and in errors.
    pub fn tar(reader: impl Read + Send + 'static, name: &str) -> Files {
        let inner = match sniff_gzip(reader) {
            Ok((true, stream)) => Inner::Tar(tar::TarFiles::new(
                Box::new(gzip::GzStream::new(stream)),
                name,
            )),
            Ok((false, stream)) => Inner::Tar(tar::TarFiles::new(Box::new(stream), name)),
            Err(err) => Inner::Failed(Some(Error::io(name, err))),
        };
        Files::new(inner, name)
    }

    /// The response records of the WARC stream read from `reader`, as the crate
    /// documentation's *WARC* section describes. The stream may be gzip-compressed, one
    /// member per record or not: that is told by its first two octets. `name` is the
    /// input's name in [`SurveyFile::source`] and in errors.
    pub fn warc(reader: impl Read + Send + 'static, name: &str) -> Files {
        let inner = match sniff_gzip(reader) {
            Ok((gzipped, stream)) => Inner::Warc(warc::WarcFiles::new(stream, gzipped, name)),
            Err(err) => Inner::Failed(Some(Error::io(name, err))),
        };
        Files::new(inner, name)
    }
}

/// Reads the first two octets of `reader` to tell whether it is gzip-compressed, and
/// gives them back in front of the rest.
fn sniff_gzip(reader: impl Read + Send + 'static) -> io::Result<(bool, Box<dyn BufRead + Send>)> {
    let mut reader = BufReader::with_capacity(1 << 16, reader);
    let mut magic = Vec::with_capacity(2);
    (&mut reader).take(2).read_to_end(&mut magic)?;
    let gzipped = magic == [0x1f, 0x8b];
    Ok((gzipped, Box::new(io::Cursor::new(magic).chain(reader))))
}

impl Iterator for Files {
    type Item = Result<SurveyFile, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        let next = match &mut self.inner {
            Inner::Dir(files) => files.next(),
            Inner::Tar(files) => files.next(),
            Inner::Warc(files) => files.next(),
            Inner::Failed(err) => err.take().map(Err),
        };
        match next {
            Some(item) => {
                self.yielded = true;
                Some(item)
            }
            None if !self.yielded => {
                self.yielded = true;
                self.empty().map(Err)
            }
            None => None,
        }
    }
}

impl std::fmt::Debug for Files {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match &self.inner {
            Inner::Dir(_) => "dir",
            Inner::Tar(_) => "tar",
            Inner::Warc(_) => "warc",
            Inner::Failed(_) => "failed",
        };
        f.debug_struct("Files").field("kind", &kind).finish()
    }
}

/// Opens the survey input at `path`, choosing the reader by [`Format::of_path`].
///
/// # Errors
///
/// A path that does not exist, cannot be opened, or is not one of the formats of
/// [`Format`] gives an error at once; errors inside the input come from the iterator.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let zip = dir.path().join("robots.zip");
/// std::fs::write(&zip, b"PK").unwrap();
/// let err = reptest_survey::open(&zip).unwrap_err();
/// assert!(err.to_string().contains("expected a directory, .tar, .tar.gz, .tgz, .warc or .warc.gz"));
/// assert!(reptest_survey::open(dir.path().join("missing.warc.gz")).is_err());
/// ```
pub fn open(path: impl AsRef<Path>) -> Result<Files, Error> {
    open_reading(path.as_ref(), |file| Box::new(file))
}

/// [`open`], adding to `read` every octet read from the file of a tar or WARC input, as
/// stored (compressed, if it is): how far a survey is through a stream whose size is
/// known. A directory's files are not counted.
///
/// # Errors
///
/// As [`open`].
///
/// ```
/// use std::sync::{atomic::{AtomicU64, Ordering}, Arc};
/// let dir = tempfile::tempdir().unwrap();
/// let warc = dir.path().join("robots.warc");
/// std::fs::write(&warc, b"not a WARC record").unwrap();
/// let read = Arc::new(AtomicU64::new(0));
/// let _ = reptest_survey::open_counted(&warc, Arc::clone(&read))?.count();
/// assert_eq!(read.load(Ordering::Relaxed), 17);
/// # Ok::<(), reptest_survey::Error>(())
/// ```
pub fn open_counted(path: impl AsRef<Path>, read: Arc<AtomicU64>) -> Result<Files, Error> {
    open_reading(path.as_ref(), move |file| {
        Box::new(Counted {
            inner: file,
            read: Arc::clone(&read),
        })
    })
}

/// A reader that adds the octets read through it to a shared counter.
struct Counted<R> {
    inner: R,
    read: Arc<AtomicU64>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// [`open`], reading a tar or WARC file through `reader(file)`.
fn open_reading(
    path: &Path,
    reader: impl FnOnce(fs::File) -> Box<dyn Read + Send>,
) -> Result<Files, Error> {
    let name = path.display().to_string();
    let format = match Format::of_path(path) {
        Some(format) => format,
        None => {
            // Say "no such file" rather than "unknown format" for a missing path.
            return Err(match fs::metadata(path) {
                Err(err) => Error::io(name, err),
                Ok(_) => Error::new(name, Kind::UnknownFormat),
            });
        }
    };
    let open_file = || fs::File::open(path).map_err(|err| Error::io(name.clone(), err));
    match format {
        Format::Dir => Files::dir(path),
        Format::Tar | Format::TarGz => Ok(Files::tar(reader(open_file()?), &name)),
        Format::Warc | Format::WarcGz => Ok(Files::warc(reader(open_file()?), &name)),
    }
}
