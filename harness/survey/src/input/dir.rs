//! A directory of robots.txt files, one per host, the file name being the host.
//!
//! The names are listed once (names only, not bodies) and sorted by their octets, so the
//! order never depends on the file system. Each step opens one file and reads at most
//! [`crate::BODY_LIMIT`] octets of it. Skipped, not errors: subdirectories (not searched),
//! special files and hidden files (a name starting with `.`). Skipped with a non-fatal
//! error (warned about and counted): a name that is not UTF-8, an entry that vanishes
//! between the listing and the read, or that is no longer a regular file when it is
//! opened.
//!
//! A file is opened without blocking (`O_NONBLOCK` on Unix: a FIFO put in a file's place
//! after the listing would block `open` until a writer comes) and read only if the open
//! file is regular (`fstat`), so no entry can hang the survey. Names in sources and
//! messages are in visible notation ([`crate::printable::printable`]).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::vec;

use crate::error::{Error, Kind};
use crate::file::{is_hidden, read_capped_sized, Cut, SurveyFile};
use crate::printable::printable;

/// Why an entry listed as a file was not read, when that is not an I/O error.
const VANISHED: &str = "it vanished between the directory listing and the read";
const NOT_REGULAR: &str = "it is no longer a regular file (replaced after the listing)";

/// Opens `path` for reading without blocking, and checks on the open file that it is
/// regular: `Ok(None)` when it is not.
fn open_regular(path: &Path) -> io::Result<Option<(fs::File, u64)>> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options.open(path)?;
    let meta = file.metadata()?;
    Ok(meta.is_file().then_some((file, meta.len())))
}

pub(crate) struct DirFiles {
    /// Each entry's name, path, and whether the listing already says it is a regular
    /// file (then no `stat` is needed before the read; a symbolic link is `stat`ed).
    names: vec::IntoIter<(std::ffi::OsString, PathBuf, bool)>,
}

impl DirFiles {
    pub(crate) fn open(path: &Path) -> Result<DirFiles, Error> {
        let location = path.display().to_string();
        let mut names = Vec::new();
        for entry in fs::read_dir(path).map_err(|err| Error::io(location.clone(), err))? {
            let entry = entry.map_err(|err| Error::io(location.clone(), err))?;
            let regular = entry.file_type().is_ok_and(|t| t.is_file());
            names.push((entry.file_name(), entry.path(), regular));
        }
        names.sort();
        Ok(DirFiles {
            names: names.into_iter(),
        })
    }
}

/// The source of an entry: its path, in visible notation.
fn source_of(path: &Path) -> String {
    printable(path.as_os_str().as_encoded_bytes())
}

impl Iterator for DirFiles {
    type Item = Result<SurveyFile, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let (name, path, regular) = self.names.next()?;
            let source = source_of(&path);
            let skipped =
                |why: &str| Some(Err(Error::new(source.clone(), Kind::Skipped(why.into()))));
            // Follows symbolic links: a link to a file is that file.
            if !regular {
                match fs::metadata(&path) {
                    Ok(meta) if meta.is_file() => {}
                    Ok(_) => continue,
                    // A dangling symbolic link is a link to no file: skipped silently.
                    Err(err) if err.kind() == io::ErrorKind::NotFound => {
                        if fs::symlink_metadata(&path).is_ok() {
                            continue;
                        }
                        return skipped(VANISHED);
                    }
                    Err(err) => return Some(Err(Error::new(source, Kind::Unreadable(err)))),
                }
            }
            let Some(host) = name.to_str() else {
                return Some(Err(Error::new(source, Kind::NonUtf8Name)));
            };
            if is_hidden(host) {
                continue;
            }
            // The size from the open file (no path lookup) sizes the buffer.
            let read = open_regular(&path).and_then(|file| {
                file.map(|(mut file, size)| read_capped_sized(&mut file, size))
                    .transpose()
            });
            return match read {
                Ok(Some((body, cut))) => Some(Ok(SurveyFile {
                    host: host.to_owned(),
                    status: None,
                    body,
                    source,
                    cut: cut.then_some(Cut::Limit),
                })),
                Ok(None) => skipped(NOT_REGULAR),
                Err(err) if err.kind() == io::ErrorKind::NotFound => skipped(VANISHED),
                // A read error is one file's problem: go on with the next.
                Err(err) => Some(Err(Error::new(source, Kind::Unreadable(err)))),
            };
        }
    }
}
