//! Atomic file output: every file reptest writes (reports, baselines, JUnit, matrices,
//! findings) is first written whole to a temporary file in the same folder, then renamed
//! over the old one, so a failed write (disk full, a file-size limit, a signal) leaves
//! the previous file as it was, never a truncated one.
//!
//! [`write_all`] stages a set of files together and renames them only once every one is
//! written, so a report folder never ends up with a mix of old and new files.
//! [`write_with`] streams one file of any size into place (a generated archive), never
//! holding it in memory.
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

/// An I/O error of the same kind, saying which file: for a [`write_with`] whose `fill`
/// returns `io::Result`.
impl From<Error> for io::Error {
    fn from(error: Error) -> io::Error {
        io::Error::new(error.source.kind(), error)
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

/// Writes one file atomically as `fill` streams it: `fill` writes into a buffered writer
/// on a temporary file beside `path`, which is flushed, synced and renamed over `path`
/// only when `fill` returns `Ok`. When `fill` fails (its error is returned as it is) or
/// the file cannot be written (an [`Error`] naming `path`, converted into `E`), the
/// temporary file is removed and `path` is left as it was. The file's mode is that of
/// [`write`]'s files.
///
/// ```
/// use std::io::Write;
///
/// let dir = tempfile::tempdir().unwrap();
/// let path = dir.path().join("big.txt");
/// reptest_core::atomic::write_with(&path, |out| -> Result<(), reptest_core::atomic::Error> {
///     for i in 0..3 {
///         writeln!(out, "line {i}").unwrap();
///     }
///     Ok(())
/// })
/// .unwrap();
/// assert_eq!(std::fs::read_to_string(&path).unwrap(), "line 0\nline 1\nline 2\n");
/// ```
pub fn write_with<T, E: From<Error>>(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> Result<T, E>,
) -> Result<T, E> {
    let temp = create_staged(path).map_err(|e| Error::new(path, e))?;
    let mut staged = Staged(vec![(temp, path.to_path_buf())]);
    let temp = &mut staged.0[0].0;
    let mut out = io::BufWriter::with_capacity(1 << 16, &mut *temp);
    let value = fill(&mut out)?;
    out.flush().map_err(|e| Error::new(path, e))?;
    drop(out);
    temp.as_file().sync_all().map_err(|e| Error::new(path, e))?;
    staged.commit()?;
    Ok(value)
}

/// Writes `bytes` into a new temporary file beside `path` ([`create_staged`]) and syncs
/// it.
fn stage(path: &Path, bytes: &[u8]) -> io::Result<NamedTempFile> {
    let mut temp = create_staged(path)?;
    temp.write_all(bytes)?;
    temp.as_file().sync_all()?;
    Ok(temp)
}

/// A new, empty temporary file beside `path`, registered with [`shutdown`] so a signal
/// removes it. The file gets the mode a newly created file gets (0666 less the umask), or
/// the mode of the file at `path` it replaces.
fn create_staged(path: &Path) -> io::Result<NamedTempFile> {
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
    fn a_failed_stream_leaves_the_old_file_and_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.txt");
        std::fs::write(&a, "old a").unwrap();
        let err = write_with(&a, |out| -> Result<(), io::Error> {
            out.write_all(b"half of the new a")?;
            Err(io::Error::other("the input ended"))
        })
        .unwrap_err();
        assert_eq!(err.to_string(), "the input ended");
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "old a");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file is left: {left:?}");
        write_with(&a, |out| out.write_all(b"new a")).unwrap();
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "new a");
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
