//! A large synthetic WARC file made from real robots.txt files, to measure the survey at
//! Internet scale (`reptest survey synth`).
//!
//! [`generate`] (or [`write_to`], to any writer) reads the files of a survey input ([`crate::open`]: a directory of real
//! files, usually) and writes a `.warc.gz` of one `warcinfo` record and `records`
//! `response` records, one gzip member per record, as Common Crawl's robots.txt subset
//! stores them (`WARC-Target-URI: https://HOST/robots.txt`, an HTTP/1.1 response head,
//! the body), which the survey's WARC reader reads back. Record `index`:
//!
//! * **status**: [`status_of`]: in every block of 100 records, exactly 85 `200`, 13
//!   `404`, 1 `500` or `503` and 1 `301` or `302` (with a `Location`), in a seeded order,
//!   after the Web Almanac's robots.txt chapter;
//! * **host**: [`host_of`]: `s<index>.<hash>.example`, never the real host;
//! * **body**: for a `200`, the next real file (the input's files in order, over and over;
//!   input files with a status other than 2xx are passed over), varied as [`body`]
//!   describes (the real host renamed, a key's case, a path, a blank line, CRLF, and a
//!   last comment line naming the record); for the others a small HTML page.
//!
//! Everything is decided by the seed and the record's index: the same input and seed
//! give the same octets. One body is held at a time, so memory does not grow with
//! `records`. [`generate`] writes its file atomically (a temporary file beside it, renamed
//! when whole; see [`reptest_core::atomic::Streamed`]).
//!
//! ```
//! # fn main() -> Result<(), reptest_survey::synth::SynthError> {
//! let dir = tempfile::tempdir().unwrap();
//! let real = dir.path().join("real");
//! std::fs::create_dir(&real).unwrap();
//! std::fs::write(real.join("example.com"), "User-agent: *\nDisallow: /private/\n").unwrap();
//! let out = dir.path().join("synth.warc.gz");
//! let options = reptest_survey::synth::Options { records: 300, seed: 1 };
//! let summary = reptest_survey::synth::generate(&real, &out, &options)?;
//! assert_eq!(summary.records, 300);
//! assert_eq!(summary.count(200), 255);
//!
//! let files = reptest_survey::open(&out)?.collect::<Result<Vec<_>, _>>()?;
//! assert_eq!(files.len(), 300);
//! assert!(files.iter().all(|f| f.host.ends_with(".example")));
//! # Ok(())
//! # }
//! ```

pub mod body;
mod mix;
mod record;

use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

pub use mix::{host_of, status_of, Class, BLOCK, MIX};

use crate::{AccessBranch, Files, SurveyFile};
use record::Response;

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// The number of `response` records (the `warcinfo` record is not counted).
    pub records: u64,
    /// The seed of every choice: statuses, hosts, variations, record identifiers.
    pub seed: u64,
}

/// What was generated.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// `response` records written.
    pub records: u64,
    /// Records per HTTP status.
    pub statuses: BTreeMap<u16, u64>,
    /// The input's usable files (2xx or no status) read in its first pass: all of them
    /// when the `200` records outnumber them.
    pub input_files: u64,
    /// Entries of the input skipped as unreadable in its first pass, and files passed
    /// over for their status.
    pub input_skipped: u64,
    /// Octets written (compressed).
    pub bytes: u64,
}

impl Summary {
    /// The records written with `status`.
    pub fn count(&self, status: u16) -> u64 {
        self.statuses.get(&status).copied().unwrap_or(0)
    }
}

/// Why no synthetic file was written.
#[derive(Debug)]
pub enum SynthError {
    /// The input could not be opened or read on.
    Input(crate::Error),
    /// The input holds no usable file (none with a 2xx status or none).
    NoFiles(PathBuf),
    /// The output could not be written.
    Write(reptest_core::atomic::Error),
    /// Writing to the output stream failed.
    Io(io::Error),
}

impl fmt::Display for SynthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SynthError::Input(err) => write!(f, "{err}"),
            SynthError::NoFiles(path) => write!(
                f,
                "{}: no usable robots.txt file (a file with a 2xx status or none) to copy",
                path.display()
            ),
            SynthError::Write(err) => write!(f, "{err}"),
            SynthError::Io(err) => write!(f, "writing the WARC file: {err}"),
        }
    }
}

impl std::error::Error for SynthError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SynthError::Input(err) => Some(err),
            SynthError::NoFiles(_) => None,
            SynthError::Write(err) => Some(err),
            SynthError::Io(err) => Some(err),
        }
    }
}

impl From<crate::Error> for SynthError {
    fn from(err: crate::Error) -> SynthError {
        SynthError::Input(err)
    }
}

impl From<reptest_core::atomic::Error> for SynthError {
    fn from(err: reptest_core::atomic::Error) -> SynthError {
        SynthError::Write(err)
    }
}

impl From<io::Error> for SynthError {
    fn from(err: io::Error) -> SynthError {
        SynthError::Io(err)
    }
}

/// Generates the file `out` from the files of `input` (see the module's documentation),
/// atomically: on an error nothing is left at `out` (or what was there stays).
pub fn generate(input: &Path, out: &Path, options: &Options) -> Result<Summary, SynthError> {
    let mut cycle = Cycle::open(input)?;
    let file = reptest_core::atomic::Streamed::create(out)?;
    let mut stream = io::BufWriter::with_capacity(1 << 16, file);
    let summary = write(&mut cycle, &mut stream, options)?;
    let file = stream
        .into_inner()
        .map_err(|e| SynthError::Io(e.into_error()))?;
    file.commit()?;
    Ok(summary)
}

/// Writes the WARC stream to `out` from the files of `input`: what [`generate`] writes
/// into its file.
pub fn write_to(
    input: &Path,
    out: &mut dyn Write,
    options: &Options,
) -> Result<Summary, SynthError> {
    write(&mut Cycle::open(input)?, out, options)
}

/// Writes the warcinfo record and `options.records` response records.
fn write(cycle: &mut Cycle, out: &mut dyn Write, options: &Options) -> Result<Summary, SynthError> {
    let mut out = Counted {
        inner: out,
        bytes: 0,
    };
    record::write_warcinfo(&mut out, options.seed, options.records)?;
    let mut statuses = mix::Statuses::new(options.seed);
    let mut summary = Summary::default();
    for index in 0..options.records {
        let status = statuses.of(index);
        if status == 200 {
            let file = cycle.next()?;
            let host = host_of(options.seed, index, &file.host);
            let mut rng = mix::body_rng(options.seed, index);
            let body = body::vary(&file.body, &file.host, &host, index, &mut rng);
            let response = Response {
                status,
                fields: &[],
                content_type: "text/plain",
                body: &body,
            };
            record::write_response(&mut out, options.seed, index, &host, &response)?;
        } else {
            let host = host_of(options.seed, index, "");
            let (body, fields) = record::error_page(status, &host);
            let response = Response {
                status,
                fields: &fields,
                content_type: "text/html",
                body: &body,
            };
            record::write_response(&mut out, options.seed, index, &host, &response)?;
        }
        *summary.statuses.entry(status).or_default() += 1;
        summary.records += 1;
    }
    summary.input_files = cycle.files;
    summary.input_skipped = cycle.skipped;
    summary.bytes = out.bytes;
    Ok(summary)
}

/// A writer that counts the octets written through it.
struct Counted<'a> {
    inner: &'a mut dyn Write,
    bytes: u64,
}

impl Write for Counted<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// The usable files of an input, over and over: opened again when it ends.
struct Cycle {
    path: PathBuf,
    iter: Files,
    /// Usable files read in the first pass.
    files: u64,
    /// Entries skipped (unreadable, or not 2xx) in the first pass.
    skipped: u64,
    /// Usable files read in this pass.
    in_pass: u64,
    /// Whether the first pass is over.
    cycled: bool,
}

impl Cycle {
    fn open(path: &Path) -> Result<Cycle, SynthError> {
        Ok(Cycle {
            path: path.to_path_buf(),
            iter: crate::open(path)?,
            files: 0,
            skipped: 0,
            in_pass: 0,
            cycled: false,
        })
    }

    /// The next usable file: one with a 2xx status or none. A non-fatal error (an entry
    /// that cannot be read) passes the entry over; a fatal one ends the generation.
    fn next(&mut self) -> Result<SurveyFile, SynthError> {
        loop {
            match self.iter.next() {
                Some(Ok(file)) if AccessBranch::of(file.status).rules_apply() => {
                    self.in_pass += 1;
                    self.files += u64::from(!self.cycled);
                    return Ok(file);
                }
                Some(Err(err)) if err.is_fatal() => return Err(err.into()),
                Some(_) => self.skipped += u64::from(!self.cycled),
                None if self.in_pass == 0 => return Err(SynthError::NoFiles(self.path.clone())),
                None => {
                    self.iter = crate::open(&self.path)?;
                    self.in_pass = 0;
                    self.cycled = true;
                }
            }
        }
    }
}
