//! Fingerprints: what a survey read, and checksums of what a partial records, so that
//! `reptest survey merge` can tell partials of one survey from the rest.
//!
//! The **input fingerprint** is over the entries the survey read, *before* sharding:
//! every shard reads the whole input (up to `--limit`), so every shard of one input
//! records the same fingerprint, and the unsharded run records it too. Each entry counts
//! by what the survey sees of it, nothing else:
//!
//! * a file: its host, its locator (its [`SurveyFile::source`] without the input's own
//!   name, as sharding uses it: `/name` in a directory, `:member/path` in a tar,
//!   `@offset` in a WARC file), its HTTP status (WARC only), whether its body was cut,
//!   and its body;
//! * an entry skipped as unreadable: its location without the input's name.
//!
//! So the same files copied elsewhere, or a tar re-packed with other timestamps, keep
//! their fingerprint (their survey is the same), while one body changed, a file added
//! or removed, or the same files as a tar instead of a directory (other locators, hence
//! other shards) change it. The entries are combined by addition modulo 2^128 of their
//! 128-bit XXH3 hashes: independent of the order they are read in, as the survey's
//! counts are, and a duplicated entry still counts twice. XXH3 is fast (the fingerprint
//! is taken on the reading thread) but not cryptographic: it tells inputs apart by
//! accident, not against someone who crafts a collision.
//!
//! A **checksum** is the 128-bit XXH3 hash of a value's compact JSON, as 32 hex digits:
//! a partial records one of its settings and one of its counts
//! ([`crate::partial::Checksums`]), so that a partial edited by hand is refused.

use std::fmt;

use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::Xxh3;

use crate::shard::locator;
use crate::SurveyFile;

/// What a survey read: the number of entries and their combined hash.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputFingerprint {
    /// Entries read before sharding: files and entries skipped as unreadable.
    pub entries: u64,
    /// The sum modulo 2^128 of the entries' 128-bit XXH3 hashes, as 32 hex digits.
    pub xxh3: String,
}

impl fmt::Display for InputFingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} entries, xxh3 {}", self.entries, self.xxh3)
    }
}

/// Takes an input's fingerprint, entry after entry (in any order).
#[derive(Debug, Clone, Default)]
pub struct InputDigest {
    entries: u64,
    sum: u128,
}

/// The tags that keep a file and a skipped entry apart.
const FILE: u8 = b'F';
const SKIPPED: u8 = b'S';

impl InputDigest {
    /// A digest of no entries.
    pub fn new() -> InputDigest {
        InputDigest::default()
    }

    /// Adds `file`, read from the input named `input`.
    pub fn file(&mut self, file: &SurveyFile, input: &str) {
        let mut h = Xxh3::new();
        h.update(&[FILE]);
        field(&mut h, file.host.as_bytes());
        field(&mut h, locator(&file.source, input).as_bytes());
        let status = file.status.map_or(0u32, |s| 0x1_0000 | u32::from(s));
        h.update(&status.to_le_bytes());
        let cut = match file.cut {
            None => 0u8,
            Some(crate::Cut::Limit) => 1,
            Some(crate::Cut::Archive) => 2,
        };
        h.update(&[cut]);
        field(&mut h, &file.body);
        self.add(h.digest128());
    }

    /// Adds an entry skipped as unreadable, at `location` in the input named `input`.
    pub fn skipped(&mut self, location: &str, input: &str) {
        let mut h = Xxh3::new();
        h.update(&[SKIPPED]);
        field(&mut h, locator(location, input).as_bytes());
        self.add(h.digest128());
    }

    fn add(&mut self, hash: u128) {
        self.entries += 1;
        self.sum = self.sum.wrapping_add(hash);
    }

    /// The fingerprint of the entries added.
    pub fn finish(&self) -> InputFingerprint {
        InputFingerprint {
            entries: self.entries,
            xxh3: format!("{:032x}", self.sum),
        }
    }
}

/// `bytes`, preceded by its length, so that two fields never run into each other.
fn field(h: &mut Xxh3, bytes: &[u8]) {
    h.update(&(bytes.len() as u64).to_le_bytes());
    h.update(bytes);
}

/// The checksum of `value`: the 128-bit XXH3 hash of its compact JSON, as 32 hex digits.
pub fn checksum<T: Serialize>(value: &T) -> String {
    let mut h = Xxh3::new();
    // Serializing these plain structures into memory does not fail; if it ever did, the
    // checksum of the error text would not match a real one and the partial be refused.
    match serde_json::to_vec(value) {
        Ok(json) => h.update(&json),
        Err(err) => h.update(err.to_string().as_bytes()),
    }
    format!("{:032x}", h.digest128())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(source: &str, body: &[u8]) -> SurveyFile {
        SurveyFile {
            source: source.into(),
            ..SurveyFile::new("a.example", body.to_vec())
        }
    }

    fn of(files: &[SurveyFile], input: &str) -> InputFingerprint {
        let mut digest = InputDigest::new();
        for f in files {
            digest.file(f, input);
        }
        digest.finish()
    }

    #[test]
    fn the_same_entries_anywhere_in_any_order_have_one_fingerprint() {
        let here = [file("in/a.example", b"x"), file("in/b.example", b"y")];
        let there = [file("/mnt/b.example", b"y"), file("/mnt/a.example", b"x")];
        assert_eq!(of(&here, "in"), of(&there, "/mnt"));
        assert_eq!(of(&here, "in").entries, 2);
        assert_eq!(of(&here, "in").xxh3.len(), 32);
    }

    #[test]
    fn a_changed_body_locator_status_or_cut_or_a_duplicate_changes_it() {
        let base = [file("in/a.example", b"x")];
        let whole = of(&base, "in");
        let mut variants = vec![
            vec![file("in/a.example", b"y")],
            vec![file("in:a.example", b"x")],
            vec![SurveyFile {
                status: Some(200),
                ..base[0].clone()
            }],
            vec![SurveyFile {
                cut: Some(crate::Cut::Limit),
                ..base[0].clone()
            }],
            vec![base[0].clone(), base[0].clone()],
        ];
        variants.push(Vec::new());
        for files in variants {
            assert_ne!(of(&files, "in"), whole, "{files:?}");
        }
        let mut skipped = InputDigest::new();
        skipped.skipped("in/a.example", "in");
        assert_ne!(skipped.finish(), whole);
    }
}
