//! A directory of robots.txt files, one per host, the file name being the host.
//!
//! The names are listed once (names only, not bodies) and sorted by their octets, so the
//! order never depends on the file system. Each step opens one file and reads at most
//! [`crate::BODY_LIMIT`] octets of it. Skipped, not errors: subdirectories (not searched),
//! special files, hidden files (a name starting with `.`), and entries that vanish
//! between the listing and the read. A name that is not UTF-8 is a non-fatal error.

use std::fs;
use std::path::{Path, PathBuf};
use std::vec;

use crate::error::{Error, Kind};
use crate::file::{is_hidden, read_capped_sized, Cut, SurveyFile};

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

impl Iterator for DirFiles {
    type Item = Result<SurveyFile, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let (name, path, regular) = self.names.next()?;
            let source = path.display().to_string();
            // Follows symbolic links: a link to a file is that file.
            if !regular {
                match fs::metadata(&path) {
                    Ok(meta) if meta.is_file() => {}
                    Ok(_) => continue,
                    Err(err) if err.kind() == std::io::ErrorKind::NotFound => continue,
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
            let read = fs::File::open(&path).and_then(|mut file| {
                let size = file.metadata().map_or(0, |meta| meta.len());
                read_capped_sized(&mut file, size)
            });
            return Some(match read {
                Ok((body, cut)) => Ok(SurveyFile {
                    host: host.to_owned(),
                    status: None,
                    body,
                    source,
                    cut: cut.then_some(Cut::Limit),
                }),
                // Vanished since the listing: skipped, as above.
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => continue,
                // A read error is one file's problem: go on with the next.
                Err(err) => Err(Error::new(source, Kind::Unreadable(err))),
            });
        }
    }
}
