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
//! Before the tar crate sees a member's headers, [`read_headers`] reads them (a GNU
//! long name `L`, long link `K` or PAX `x` header, then the member's own header) and
//! refuses an extension header longer than [`EXTENSION_LIMIT`]: the tar crate reads such
//! a header's data into memory whole, whatever size it declares.
//!
//! Skipped silently: directories, symbolic links, special files, hidden files (a last
//! component starting with `.`). Skipped with a non-fatal error (counted): a name that
//! is not UTF-8, a hard link (its data is another member's), a GNU sparse member (its
//! data is not the file's). Fatal: a header that does not parse (a checksum mismatch:
//! garbage) is "not a tar archive", an extension header over the limit, a gzip stream
//! that does not decompress, and a stream that ends inside a member, its padding, or
//! before the end-of-archive block (a stream that ends where a header should start,
//! which the tar crate reads as the end, is a cut archive too). An empty stream is an
//! empty input. Member names in messages and sources are in visible notation
//! ([`crate::printable::printable`]).

use std::io::{self, Read};

use crate::error::{Error, Kind};
use crate::file::{is_hidden, read_capped, Cut, SurveyFile};
use crate::input::counting::Counting;
use crate::printable::printable;

const BLOCK: u64 = 512;

/// The longest GNU long name, long link or PAX extended header read: 64 KiB (a path is
/// at most a few KiB on any system).
pub(crate) const EXTENSION_LIMIT: u64 = 64 * 1024;

/// Extension headers that one member may have: a long name, a long link, a PAX header
/// (the tar crate refuses a second one of a kind).
const EXTENSIONS_PER_MEMBER: usize = 3;

type Stream = Counting<Box<dyn Read + Send>>;

pub(crate) struct TarFiles {
    /// `None` once the archive ended or failed.
    reader: Option<Stream>,
    name: String,
}

/// What is kept of an entry's header once its `Archive` is gone.
struct Header {
    path: Vec<u8>,
    kind: tar::EntryType,
    /// A hard link's target.
    link: Option<Vec<u8>>,
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
}

/// Reads the header blocks of the next member, with the data of its extension headers
/// (at most [`EXTENSION_LIMIT`] octets each), up to and including the member's own
/// header block (and a sparse member's extension blocks), a zero block or the end of the
/// stream, for the tar crate to parse.
fn read_headers(reader: &mut Stream) -> Result<Vec<u8>, Kind> {
    let mut blocks = Vec::new();
    for _ in 0..=EXTENSIONS_PER_MEMBER {
        let start = blocks.len();
        if !read_header_block(reader, &mut blocks)? {
            if start > 0 {
                // Extension headers, then the end: their member is missing.
                return Err(Kind::Truncated("a member's header"));
            }
            break;
        }
        let header = tar::Header::from_byte_slice(&blocks[start..]);
        let kind = header.entry_type();
        if header.as_gnu().is_some_and(|gnu| gnu.is_extended()) && kind.is_gnu_sparse() {
            read_sparse_blocks(reader, &mut blocks)?;
            break;
        }
        let extension =
            kind.is_gnu_longname() || kind.is_gnu_longlink() || kind.is_pax_local_extensions();
        // A size that does not parse is the tar crate's error to give.
        let Some(size) = header.entry_size().ok().filter(|_| extension) else {
            break;
        };
        if size > EXTENSION_LIMIT {
            return Err(Kind::Refused(format!(
                "{} header declaring {size} octets (at most {EXTENSION_LIMIT} are read)",
                extension_name(kind)
            )));
        }
        let stored = size.div_ceil(BLOCK) * BLOCK;
        let before = blocks.len() as u64;
        (&mut *reader)
            .take(stored)
            .read_to_end(&mut blocks)
            .map_err(Kind::Io)?;
        if (blocks.len() as u64) < before + stored {
            return Err(Kind::Truncated("a member's extension header"));
        }
    }
    Ok(blocks)
}

/// Reads one header block onto `blocks`: `false` at the end of the stream, an error
/// when the stream ends inside the block.
fn read_header_block(reader: &mut Stream, blocks: &mut Vec<u8>) -> Result<bool, Kind> {
    let before = blocks.len();
    reader.take(BLOCK).read_to_end(blocks).map_err(Kind::Io)?;
    match blocks.len() - before {
        0 => Ok(false),
        n if n < BLOCK as usize => Err(Kind::Truncated("a member's header")),
        _ => Ok(true),
    }
}

/// The most extension blocks of a GNU sparse member read (the tar crate keeps each one's
/// map in memory): 128, 64 KiB.
const SPARSE_BLOCKS_LIMIT: usize = 128;

/// Reads the extension blocks that follow an extended GNU sparse header: each says
/// whether another follows (its octet 504).
fn read_sparse_blocks(reader: &mut Stream, blocks: &mut Vec<u8>) -> Result<(), Kind> {
    for _ in 0..SPARSE_BLOCKS_LIMIT {
        if !read_header_block(reader, blocks)? {
            return Err(Kind::Truncated("a sparse member's extension blocks"));
        }
        if blocks[blocks.len() - 8] != 1 {
            return Ok(());
        }
    }
    Err(Kind::Refused(format!(
        "a GNU sparse member with more than {SPARSE_BLOCKS_LIMIT} extension blocks"
    )))
}

fn extension_name(kind: tar::EntryType) -> &'static str {
    if kind.is_gnu_longname() {
        "a GNU long-name"
    } else if kind.is_gnu_longlink() {
        "a GNU long-link"
    } else {
        "a PAX extended"
    }
}

/// Reads the next entry's header; `Ok(None)` at the end of the archive.
fn next_header(reader: &mut Stream) -> Result<Option<Header>, Kind> {
    let blocks = read_headers(reader)?;
    // The blocks are in memory: every error is the tar crate's, about what they hold.
    // Its messages may quote the header's octets after a colon: only the part before
    // one is kept ("numeric field was not a number", "archive header checksum mismatch").
    let mut archive = tar::Archive::new(io::Cursor::new(blocks));
    let not_tar = |err: io::Error| {
        let message = err.to_string();
        let reason = message.split(':').next().unwrap_or_default();
        Kind::NotArchive {
            format: "tar",
            what: format!(
                "a header that does not parse ({})",
                printable(reason.as_bytes())
            ),
        }
    };
    let mut entries = archive.entries().map_err(not_tar)?;
    let Some(entry) = entries.next() else {
        return Ok(None);
    };
    let entry = entry.map_err(not_tar)?;
    let kind = entry.header().entry_type();
    let data_len = if kind.is_gnu_sparse() {
        entry.header().entry_size().map_err(not_tar)?
    } else {
        entry.size()
    };
    Ok(Some(Header {
        path: entry.path_bytes().into_owned(),
        kind,
        link: entry.link_name_bytes().map(|l| l.into_owned()),
        data_len,
        data_offset: entry.raw_file_position(),
    }))
}

/// Skips `len` octets; how many were skipped (fewer at the end of the stream).
fn skip(reader: &mut impl Read, len: u64) -> io::Result<u64> {
    io::copy(&mut reader.take(len), &mut io::sink())
}

/// Why a member that is not a regular file is counted as skipped; `None` for those
/// skipped silently (directories, symbolic links, special files).
fn skip_reason(header: &Header) -> Option<String> {
    if header.kind.is_hard_link() {
        let target = printable(header.link.as_deref().unwrap_or_default());
        Some(format!(
            "a hard link to {target:?}: its data is another member's, so it is not read"
        ))
    } else if header.kind.is_gnu_sparse() {
        Some("a GNU sparse member: its stored data is not the file's, so it is not read".into())
    } else {
        None
    }
}

/// Reads (when `wanted`) and skips one member's data and padding: the body, and whether
/// it was cut at the body limit.
fn read_data(
    reader: &mut Stream,
    header: &Header,
    wanted: bool,
) -> Result<Option<(Vec<u8>, bool)>, Kind> {
    let mut data = (&mut *reader).take(header.data_len);
    let body = if wanted {
        Some(read_capped(&mut data).map_err(Kind::Io)?)
    } else {
        None
    };
    skip(&mut data, header.data_len).map_err(Kind::Io)?;
    if data.limit() > 0 {
        return Err(Kind::Truncated("a member's data"));
    }
    let padding = (BLOCK - header.data_len % BLOCK) % BLOCK;
    if skip(reader, padding).map_err(Kind::Io)? < padding {
        return Err(Kind::Truncated("a member's padding"));
    }
    Ok(body)
}

/// What one step through the archive gave.
enum Step {
    File(SurveyFile),
    /// A member skipped silently.
    Skipped,
    End,
}

impl TarFiles {
    /// The next member.
    fn member(&mut self) -> Result<Step, Error> {
        let Some(reader) = self.reader.as_mut() else {
            return Ok(Step::End);
        };
        let start = reader.position();
        let at_start = |kind| Error::new(format!("{}@{start}", self.name), kind);
        let header = match next_header(reader) {
            Ok(Some(header)) => header,
            // The tar crate also ends at the end of the stream; without the
            // end-of-archive block (a zero block, which it reads) that is a cut.
            Ok(None) if reader.position() == start => {
                let kind = match start {
                    0 => Kind::Empty("the archive holds no member"),
                    _ => Kind::Truncated("the archive (no end-of-archive block)"),
                };
                return Err(at_start(kind));
            }
            Ok(None) => return Ok(Step::End),
            Err(kind) => return Err(at_start(kind)),
        };
        let location = format!("{}:{}", self.name, printable(&header.path));
        // A sparse member's data follows its extension blocks, which the tar crate read
        // after it noted where the data starts.
        if reader.position() - start != header.data_offset && !header.kind.is_gnu_sparse() {
            let what = "the tar reader is not at the member's data".to_owned();
            return Err(Error::new(
                location,
                Kind::NotArchive {
                    format: "tar",
                    what,
                },
            ));
        }
        let last = header.path.rsplit(|&b| b == b'/').next().unwrap_or(&[]);
        let host = std::str::from_utf8(last).ok().map(str::to_owned);
        let regular = header.kind.is_file();
        let wanted = regular
            && host
                .as_deref()
                .is_some_and(|h| !h.is_empty() && !is_hidden(h));
        let body = read_data(reader, &header, wanted)
            .map_err(|kind| Error::new(location.clone(), kind))?;
        if !regular {
            return match skip_reason(&header) {
                Some(why) => Err(Error::new(location, Kind::Skipped(why))),
                None => Ok(Step::Skipped),
            };
        }
        let Some(host) = host else {
            return Err(Error::new(location, Kind::NonUtf8Name));
        };
        Ok(match body {
            Some((body, cut)) => Step::File(SurveyFile {
                host,
                status: None,
                body,
                source: location,
                cut: cut.then_some(Cut::Limit),
            }),
            None => Step::Skipped,
        })
    }
}

impl Iterator for TarFiles {
    type Item = Result<SurveyFile, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            match self.member() {
                Ok(Step::File(file)) => return Some(Ok(file)),
                Ok(Step::Skipped) => {}
                Ok(Step::End) => {
                    self.reader = None;
                    return None;
                }
                Err(err) => {
                    if err.is_fatal() {
                        self.reader = None;
                    }
                    return Some(Err(err));
                }
            }
        }
    }
}
