//! A tar archive (plain or gzip-compressed) of robots.txt files, one regular member per
//! host, the host being the last component of the member's path.
//!
//! The `tar` crate reads the headers (ustar, GNU long names, PAX extensions). Its
//! `Entries` iterator borrows the `Archive`, which cannot live in the same struct as
//! its borrower without unsafe code, so each step here wraps the stream in a fresh
//! `Archive`, takes one entry's header from it, then takes the stream back and reads or
//! skips the entry's data and padding itself. The tar crate reports the offset of the
//! entry's data; the step checks that the stream is exactly there before reading, so a
//! change in how the crate buffers can only give an error, never a wrong body.
//!
//! Skipped: directories, links, special files, hidden files (a last component starting
//! with `.`). A name that is not UTF-8 is a non-fatal error. Fatal: a header that does
//! not parse (a checksum mismatch: garbage), and a stream that ends inside a member, its
//! padding, or before the end-of-archive block (a stream that ends where a header
//! should start, which the tar crate reads as the end, is a cut archive too; so is an
//! empty stream).

use std::io::{self, Read};

use crate::error::{Error, Kind};
use crate::file::{is_hidden, read_capped, Cut, SurveyFile};
use crate::input::counting::Counting;

const BLOCK: u64 = 512;

pub(crate) struct TarFiles {
    /// `None` once the archive ended or failed.
    reader: Option<Counting<Box<dyn Read + Send>>>,
    name: String,
}

/// What is kept of an entry's header once its `Archive` is gone.
struct Header {
    path: Vec<u8>,
    regular: bool,
    /// Octets of data stored in the archive after the header.
    data_len: u64,
    /// Where the data starts, counted from the start of the `Archive` that read it.
    data_offset: u64,
}

impl TarFiles {
    pub(crate) fn new(reader: Box<dyn Read + Send>, name: &str) -> TarFiles {
        TarFiles {
            reader: Some(Counting::new(reader)),
            name: name.to_owned(),
        }
    }

    fn fatal(&mut self, location: String, kind: Kind) -> Option<Result<SurveyFile, Error>> {
        self.reader = None;
        Some(Err(Error::new(location, kind)))
    }
}

/// Reads the next entry's header; `Ok(None)` at the end of the archive.
fn next_header(
    reader: Counting<Box<dyn Read + Send>>,
) -> (Counting<Box<dyn Read + Send>>, io::Result<Option<Header>>) {
    let mut archive = tar::Archive::new(reader);
    let header = (|| {
        let mut entries = archive.entries()?;
        let Some(entry) = entries.next() else {
            return Ok(None);
        };
        let entry = entry?;
        let kind = entry.header().entry_type();
        let data_len = if kind.is_gnu_sparse() {
            entry.header().entry_size()?
        } else {
            entry.size()
        };
        Ok(Some(Header {
            path: entry.path_bytes().into_owned(),
            regular: kind.is_file(),
            data_len,
            data_offset: entry.raw_file_position(),
        }))
    })();
    (archive.into_inner(), header)
}

/// Skips `len` octets; how many were skipped (fewer at the end of the stream).
fn skip(reader: &mut impl Read, len: u64) -> io::Result<u64> {
    io::copy(&mut reader.take(len), &mut io::sink())
}

impl Iterator for TarFiles {
    type Item = Result<SurveyFile, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let reader = self.reader.take()?;
            let start = reader.position();
            let (mut reader, header) = next_header(reader);
            let header = match header {
                Ok(Some(header)) => header,
                // The tar crate also ends at the end of the stream; without the
                // end-of-archive block (a zero block, which it reads) that is a cut.
                Ok(None) if reader.position() == start => {
                    let location = format!("{}@{start}", self.name);
                    let what = "the archive (no end-of-archive block)";
                    return self.fatal(location, Kind::Truncated(what));
                }
                Ok(None) => return None,
                Err(err) => {
                    let location = format!("{}@{start}", self.name);
                    return self.fatal(location, Kind::Io(err));
                }
            };
            let member = String::from_utf8_lossy(&header.path).into_owned();
            let location = format!("{}:{member}", self.name);
            if reader.position() - start != header.data_offset {
                let what = "the tar reader is not at the member's data".to_owned();
                return self.fatal(location, Kind::Record(what));
            }
            let last = header.path.rsplit(|&b| b == b'/').next().unwrap_or(&[]);
            let host = std::str::from_utf8(last).ok().map(str::to_owned);
            let wanted = header.regular
                && host
                    .as_deref()
                    .is_some_and(|h| !h.is_empty() && !is_hidden(h));
            let mut data = (&mut reader).take(header.data_len);
            let body = if wanted {
                Some(read_capped(&mut data))
            } else {
                None
            };
            let rest = skip(&mut data, header.data_len);
            let padding = (BLOCK - header.data_len % BLOCK) % BLOCK;
            let (body, cut) = match (body.transpose(), rest) {
                (Err(err), _) | (_, Err(err)) => return self.fatal(location, Kind::Io(err)),
                (Ok(body), Ok(_)) if data.limit() > 0 => {
                    drop(body);
                    return self.fatal(location, Kind::Truncated("a member's data"));
                }
                (Ok(body), Ok(_)) => body.unzip(),
            };
            match skip(&mut reader, padding) {
                Err(err) => return self.fatal(location, Kind::Io(err)),
                Ok(skipped) if skipped < padding => {
                    return self.fatal(location, Kind::Truncated("a member's padding"));
                }
                Ok(_) => {}
            }
            self.reader = Some(reader);
            if !header.regular {
                continue;
            }
            let Some(host) = host else {
                return Some(Err(Error::new(location, Kind::NonUtf8Name)));
            };
            let Some(body) = body else { continue };
            return Some(Ok(SurveyFile {
                host,
                status: None,
                body,
                source: location,
                cut: cut.unwrap_or(false).then_some(Cut::Limit),
            }));
        }
    }
}
