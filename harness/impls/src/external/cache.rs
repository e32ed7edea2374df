//! Handshake results, cached so listing implementations starts no process twice.
//!
//! A [`Handshakes`] value is shared by the adapters of one registry (never process-wide):
//!
//! - In memory, by command line: asking the registry twice (`select`, then `names` for
//!   an error message) handshakes once.
//! - On disk, `{state}/handshakes.json`: every successful handshake is written there;
//!   it is read only when the registry's options say so (`reptest impls`), and an
//!   entry counts only while its fingerprint holds: size and modification time of the
//!   program, of every argument that is a file, of every file in the adapter's folder
//!   (the adapter script and its pinned lock files), and of the places where the library
//!   itself is installed, which change whenever a package manager installs or upgrades
//!   one (`library_places`, a private function below). A run always handshakes (it needs the process anyway) and
//!   so refreshes the cache.
//!
//! A cached handshake holds the protocol version the adapter said (1 or 2), so a cached
//! adapter is spoken to in the same version as a freshly started one; an adapter script
//! that starts or stops speaking v2 changes its folder's fingerprint, and an entry with a
//! version reptest does not speak is ignored.

use super::config::{state_dir, AdapterSpec};
use super::protocol::{Handshake, MAX_VERSION, VERSION};
use reptest_core::Environment;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::UNIX_EPOCH;

/// The handshakes of one registry's adapters.
#[derive(Debug)]
pub struct Handshakes {
    /// Whether a handshake may be taken from `{state}/handshakes.json` instead of
    /// starting the adapter (`reptest impls`, unless `--recheck`).
    from_disk: bool,
    /// `{state}/handshakes.json`.
    file: PathBuf,
    memory: Mutex<HashMap<Vec<String>, Result<Handshake, String>>>,
}

impl Default for Handshakes {
    /// An empty cache that does not read the disk, under the default [`Environment`].
    fn default() -> Handshakes {
        Handshakes::new(false, &Environment::default())
    }
}

impl Handshakes {
    /// An empty cache in the state folder of `environment` ([`state_dir`]); `from_disk`:
    /// valid entries of `{state}/handshakes.json` are used.
    pub fn new(from_disk: bool, environment: &Environment) -> Handshakes {
        Handshakes {
            from_disk,
            file: state_dir(environment).join("handshakes.json"),
            memory: Mutex::default(),
        }
    }

    /// The handshake of `spec`'s command: from memory, else from disk (when allowed and
    /// still valid), else by calling `start`; a successful result is stored in both.
    pub(crate) fn handshake(
        &self,
        spec: &AdapterSpec,
        start: impl FnOnce() -> Result<Handshake, String>,
    ) -> Result<Handshake, String> {
        let known = self
            .memory
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&spec.command)
            .cloned();
        if let Some(known) = known {
            return known;
        }
        let fingerprint = fingerprint(spec);
        let from_disk = self
            .from_disk
            .then(|| disk_lookup(&self.file, &spec.command, &fingerprint))
            .flatten();
        let result = match from_disk {
            Some(handshake) => Ok(handshake),
            None => {
                let result = start();
                if let Ok(handshake) = &result {
                    disk_store(&self.file, &spec.command, fingerprint, handshake);
                }
                result
            }
        };
        self.memory
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(spec.command.clone(), result.clone());
        result
    }
}

#[derive(Default, Serialize, Deserialize)]
struct DiskCache {
    /// By command line, the arguments joined with NUL.
    entries: BTreeMap<String, Entry>,
}

#[derive(Serialize, Deserialize)]
struct Entry {
    fingerprint: Vec<(PathBuf, u64, u128)>,
    handshake: Handshake,
}

fn key(command: &[String]) -> String {
    command.join("\0")
}

/// Size and modification time (ns) of the files an adapter's behaviour depends on.
fn fingerprint(spec: &AdapterSpec) -> Vec<(PathBuf, u64, u128)> {
    let mut files: Vec<PathBuf> = Vec::new();
    let program = spec.program.clone();
    files.extend(program.clone());
    files.extend(library_places(program.as_deref(), spec.file.parent()));
    files.extend(
        spec.command[1..]
            .iter()
            .map(PathBuf::from)
            .filter(|p| p.is_absolute() && p.is_file()),
    );
    if let Some(dir) = spec.file.parent() {
        let mut in_dir: Vec<PathBuf> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .collect();
        in_dir.sort();
        files.extend(in_dir);
    }
    files
        .into_iter()
        .map(|path| {
            let (len, modified) = stamp(&path);
            (path, len, modified)
        })
        .collect()
}

/// The folders and files a package manager changes when it installs or upgrades a
/// library that the adapter loads (their modification times move; a directory's changes
/// when an entry is added, removed or renamed in it):
///
/// - a program in a `bin/` folder (a virtualenv's `python`, a prefix's interpreter): each
///   `lib/*/site-packages` and `lib/*/dist-packages` of that prefix (`pip install -U`
///   replaces the package's `*.dist-info` folder there);
/// - a program under `/usr`: Debian's package database, `/var/lib/dpkg/status` (`apt-get`);
/// - the adapter's folder: its `node_modules` and `node_modules/.package-lock.json`
///   (`npm install` rewrites it).
fn library_places(program: Option<&Path>, adapter_dir: Option<&Path>) -> Vec<PathBuf> {
    let mut places = Vec::new();
    if let Some(program) = program {
        let bin = program.parent().filter(|dir| dir.ends_with("bin"));
        if let Some(prefix) = bin.and_then(Path::parent) {
            let mut libs: Vec<PathBuf> = std::fs::read_dir(prefix.join("lib"))
                .into_iter()
                .flatten()
                .flatten()
                .map(|entry| entry.path())
                .flat_map(|lib| [lib.join("site-packages"), lib.join("dist-packages")])
                .filter(|dir| dir.is_dir())
                .collect();
            libs.sort();
            places.extend(libs);
        }
        if program.starts_with("/usr") {
            places.push(PathBuf::from("/var/lib/dpkg/status"));
        }
    }
    if let Some(dir) = adapter_dir {
        let modules = dir.join("node_modules");
        places.push(modules.join(".package-lock.json"));
        places.push(modules);
    }
    places
}

fn stamp(path: &Path) -> (u64, u128) {
    let Ok(meta) = std::fs::metadata(path) else {
        return (0, 0);
    };
    let modified = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    (meta.len(), modified)
}

fn read_disk(file: &Path) -> DiskCache {
    std::fs::read(file)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default()
}

fn disk_lookup(
    file: &Path,
    command: &[String],
    fingerprint: &[(PathBuf, u64, u128)],
) -> Option<Handshake> {
    let cache = read_disk(file);
    let entry = cache.entries.get(&key(command))?;
    // The protocol version is part of the entry: one reptest no longer speaks is ignored.
    let speaks = (VERSION..=MAX_VERSION).contains(&entry.handshake.protocol);
    (speaks && entry.fingerprint == fingerprint).then(|| entry.handshake.clone())
}

/// Adds an entry (best effort: a read-only state folder only costs speed). Writers race
/// harmlessly: each writes a whole file and renames it into place.
fn disk_store(
    file: &Path,
    command: &[String],
    fingerprint: Vec<(PathBuf, u64, u128)>,
    handshake: &Handshake,
) {
    static WRITING: Mutex<()> = Mutex::new(());
    let _guard = WRITING.lock().unwrap_or_else(PoisonError::into_inner);
    let Some(dir) = file.parent() else { return };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let mut cache = read_disk(file);
    // Forget adapters whose program is gone (temporary test adapters, old installs).
    cache.entries.retain(|_, entry| {
        entry
            .fingerprint
            .first()
            .is_some_and(|(p, _, _)| p.exists())
    });
    cache.entries.insert(
        key(command),
        Entry {
            fingerprint,
            handshake: handshake.clone(),
        },
    );
    let Ok(bytes) = serde_json::to_vec_pretty(&cache) else {
        return;
    };
    let _ = reptest_core::atomic::write(file, &bytes);
}
