//! Atomic file output: every file reptest writes (reports, baselines, JUnit, matrices,
//! findings) is first written whole to a temporary file in the same folder, then renamed
//! over the old one, so a failed write (disk full, a file-size limit, a signal) leaves
//! the previous file as it was, never a truncated one.
//!
//! [`write_all`] stages a set of files together and renames them only once every one is
//! written, so a report folder never ends up with a mix of old and new files.
//!
//! A file written here has the mode any program's new file has (0666 less the umask:
//! `-rw-r--r--` under umask 022), or, when it replaces a file, that file's mode.
//!
//! ```
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("out.txt");
//! reptest_core::atomic::write(&path, b"whole\n").unwrap();
//! assert_eq!(std::fs::read(&path).unwrap(), b"whole\n");
//! ```

use crate::shutdown;
use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use tempfile::NamedTempFile;

/// Why a file could not be written: its path and the I/O error. `Display` is
/// `cannot write PATH: ERROR`.
#[derive(Debug)]
pub struct Error {
    path: PathBuf,
    source: io::Error,
}

impl Error {
    fn new(path: &Path, source: io::Error) -> Error {
        Error {
            path: path.to_path_buf(),
            source,
        }
    }

    /// The file that could not be written.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot write {}: {}", self.path.display(), self.source)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// Writes `bytes` to `path` atomically; the error names the file.
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    write_all(&[(path.to_path_buf(), bytes)])
}

/// Writes every `(path, bytes)`: all are staged first, then renamed into place one after
/// another. If any cannot be staged, none is touched; the error names the file.
pub fn write_all<B: AsRef<[u8]>>(files: &[(PathBuf, B)]) -> Result<(), Error> {
    let mut staged = Staged(Vec::with_capacity(files.len()));
    for (path, bytes) in files {
        let temp = stage(path, bytes.as_ref()).map_err(|e| Error::new(path, e))?;
        staged.0.push((temp, path.clone()));
    }
    staged.commit()
}

/// Writes `bytes` into a new temporary file beside `path` (registered with
/// [`shutdown`], so a signal removes it) and syncs it. The file gets the mode a newly
/// created file gets (0666 less the umask), or the mode of the file at `path` it replaces.
fn stage(path: &Path, bytes: &[u8]) -> io::Result<NamedTempFile> {
    let mut temp = create_temp(path)?;
    temp.write_all(bytes)?;
    temp.as_file().sync_all()?;
    Ok(temp)
}

/// A new, empty temporary file beside `path`, registered with [`shutdown`], with the
/// mode of [`stage`].
fn create_temp(path: &Path) -> io::Result<NamedTempFile> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut registry = shutdown::lock();
    if shutdown::ending() {
        return Err(io::Error::other("reptest is ending"));
    }
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    // The mode of any new file (0666 less the umask), not tempfile's private 0600.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let temp = builder.tempfile_in(dir)?;
    registry.staged.insert(temp.path().to_path_buf());
    drop(registry);
    // A file being replaced keeps its mode (0640 stays 0640 whatever the umask).
    if let Ok(old) = std::fs::metadata(path) {
        if old.is_file() {
            temp.as_file().set_permissions(old.permissions())?;
        }
    }
    Ok(temp)
}

/// A file written piece by piece (a long stream of records) into a temporary file
/// beside its path, and renamed into place by [`Streamed::commit`]: until then the
/// path keeps what it held, and a `Streamed` dropped uncommitted (an error, a signal)
/// removes its temporary file.
pub struct Streamed {
    staged: Staged,
}

impl Streamed {
    /// Starts writing `path`.
    pub fn create(path: &Path) -> Result<Streamed, Error> {
        let temp = create_temp(path).map_err(|e| Error::new(path, e))?;
        Ok(Streamed {
            staged: Staged(vec![(temp, path.to_path_buf())]),
        })
    }

    /// Syncs what was written and renames it into place.
    pub fn commit(self) -> Result<(), Error> {
        if let Some((temp, path)) = self.staged.0.first() {
            temp.as_file().sync_all().map_err(|e| Error::new(path, e))?;
        }
        self.staged.commit()
    }
}

impl Write for Streamed {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.staged.0.first_mut() {
            Some((temp, _)) => temp.write(buf),
            None => Err(io::Error::other("already committed")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.staged.0.first_mut() {
            Some((temp, _)) => temp.flush(),
            None => Ok(()),
        }
    }
}

/// Staged temporary files and their destinations; dropped uncommitted, the temporary
/// files are removed.
struct Staged(Vec<(NamedTempFile, PathBuf)>);

impl Staged {
    /// Renames every staged file into place, holding the shutdown lock so that a signal
    /// waits for the renames to finish.
    fn commit(mut self) -> Result<(), Error> {
        let mut registry = shutdown::lock();
        for (temp, path) in self.0.drain(..) {
            registry.staged.remove(temp.path());
            temp.persist(&path)
                .map_err(|e| Error::new(&path, e.error))?;
        }
        Ok(())
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        let mut registry = shutdown::lock();
        for (temp, _) in &self.0 {
            registry.staged.remove(temp.path());
        }
        // The NamedTempFiles remove themselves as the vector drops.
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_cannot_be_staged_leaves_every_file_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.txt");
        std::fs::write(&a, "old a").unwrap();
        let missing = dir.path().join("no-such-folder").join("b.txt");
        let err =
            write_all(&[(a.clone(), b"new a".to_vec()), (missing, b"b".to_vec())]).unwrap_err();
        assert!(err.to_string().contains("b.txt"), "{err}");
        assert!(err.path().ends_with("b.txt"), "{err}");
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "old a");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file is left: {left:?}");
        // None of this write's staged files is still registered for removal on Ctrl-C
        // (the registry is process-wide: other tests running alongside stage their own).
        let registry = shutdown::lock();
        let ours: Vec<_> = registry
            .staged
            .iter()
            .filter(|p| p.starts_with(dir.path()))
            .collect();
        assert!(ours.is_empty(), "still registered: {ours:?}");
    }

    /// The mode bits of `path`.
    #[cfg(unix)]
    fn mode(path: &Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        for old in [0o644, 0o640, 0o600, 0o664] {
            let a = dir.path().join(format!("a-{old:o}.txt"));
            std::fs::write(&a, "old").unwrap();
            std::fs::set_permissions(&a, std::fs::Permissions::from_mode(old)).unwrap();
            write(&a, b"new").unwrap();
            assert_eq!(std::fs::read_to_string(&a).unwrap(), "new");
            assert_eq!(mode(&a), old, "{}", a.display());
        }
    }

    /// A new file gets the mode `File::create` would give it (0666 less the umask,
    /// whatever the umask of the process running the tests).
    #[test]
    fn a_streamed_file_appears_whole_on_commit_and_not_at_all_when_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("records.jsonl");
        let mut kept = Streamed::create(&path).unwrap();
        kept.write_all(b"one\n").unwrap();
        assert!(!path.exists());
        kept.write_all(b"two\n").unwrap();
        kept.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "one\ntwo\n");
        let other = dir.path().join("dropped.jsonl");
        let mut dropped = Streamed::create(&other).unwrap();
        dropped.write_all(b"x").unwrap();
        drop(dropped);
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "only the committed file: {left:?}");
    }

    #[cfg(unix)]
    #[test]
    fn a_new_file_gets_the_mode_of_any_new_file() {
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain.txt");
        std::fs::File::create(&plain).unwrap();
        let ours = dir.path().join("ours.txt");
        write(&ours, b"new").unwrap();
        assert_eq!(mode(&ours), mode(&plain));
    }

    #[test]
    fn writes_replace_whole_files() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.txt");
        std::fs::write(&a, "a much longer old text").unwrap();
        write(&a, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "new");
    }
}
