//! What each synthetic record is, decided from the seed and the record's index alone: its
//! HTTP status, its host, its record identifier and its date.

use crate::queries::rng::{fnv1a64, mix, Rng};

/// Records per block of the status mix: each block of 100 consecutive records holds
/// exactly [`MIX`]'s counts, in a seeded order.
pub const BLOCK: u64 = 100;

/// The status mix of each block of [`BLOCK`] records, after the Web Almanac's robots.txt
/// chapter (2022, 2024): 85 `200`, 13 `404`, 1 server error (`500` or `503`), 1 redirect
/// (`301` or `302`). Which of a class's two codes a record gets is chosen per record
/// ([`status_of`]).
pub const MIX: [(Class, u64); 4] = [
    (Class::Ok, 85),
    (Class::NotFound, 13),
    (Class::ServerError, 1),
    (Class::Redirect, 1),
];

/// The kind of response a synthetic record stores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    /// `200 OK` with a real file's body, varied.
    Ok,
    /// `404 Not Found` with a small HTML page.
    NotFound,
    /// `500 Internal Server Error` or `503 Service Unavailable`.
    ServerError,
    /// `301 Moved Permanently` or `302 Found`, with a `Location`.
    Redirect,
}

// Tags that keep the seeded choices apart.
const TAG_BLOCK: u64 = 0x5b10_c4ed;
const TAG_CODE: u64 = 0xc0de;
const TAG_HOST: u64 = 0x4057;
const TAG_ID: u64 = 0x1d;
const TAG_BODY: u64 = 0xb0d1;

/// The seeded random numbers of one record's choice `tag`.
pub(crate) fn rng(seed: u64, tag: u64, index: u64) -> Rng {
    Rng::new(mix(seed ^ mix(tag ^ mix(index))))
}

/// The random numbers that vary record `index`'s body.
pub(crate) fn body_rng(seed: u64, index: u64) -> Rng {
    rng(seed, TAG_BODY, index)
}

/// The classes of one block, in the block's seeded order.
fn block_classes(seed: u64, block: u64) -> [Class; BLOCK as usize] {
    let mut classes = [Class::Ok; BLOCK as usize];
    let mut at = 0;
    for (class, count) in MIX {
        for slot in &mut classes[at..at + count as usize] {
            *slot = class;
        }
        at += count as usize;
    }
    rng(seed, TAG_BLOCK, block).shuffle(&mut classes);
    classes
}

/// The HTTP status of record `index` under `seed`: its class's slot in its block of
/// [`BLOCK`] (a seeded shuffle of [`MIX`]), and, for the classes with two codes, a seeded
/// choice between them. Any 100 records of one block hold exactly the mix, so the first
/// `n` records are off the mix by at most `100 / n` of a share.
///
/// ```
/// use reptest_survey::synth::status_of;
///
/// let statuses: Vec<u16> = (0..100).map(|i| status_of(1, i)).collect();
/// assert_eq!(statuses.iter().filter(|&&s| s == 200).count(), 85);
/// assert_eq!(statuses.iter().filter(|&&s| s == 404).count(), 13);
/// assert_eq!(status_of(1, 42), status_of(1, 42));
/// ```
pub fn status_of(seed: u64, index: u64) -> u16 {
    Statuses::new(seed).of(index)
}

/// [`status_of`] for consecutive indexes, computing each block's order once.
pub(crate) struct Statuses {
    seed: u64,
    /// The last block's number and classes.
    block: (u64, [Class; BLOCK as usize]),
}

impl Statuses {
    pub(crate) fn new(seed: u64) -> Statuses {
        Statuses {
            seed,
            block: (0, block_classes(seed, 0)),
        }
    }

    /// The status of record `index`.
    pub(crate) fn of(&mut self, index: u64) -> u16 {
        let block = index / BLOCK;
        if self.block.0 != block {
            self.block = (block, block_classes(self.seed, block));
        }
        let classes = &self.block.1;
        let either = |a, b| {
            if rng(self.seed, TAG_CODE, index).next_u64() & 1 == 0 {
                a
            } else {
                b
            }
        };
        match classes[(index % BLOCK) as usize] {
            Class::Ok => 200,
            Class::NotFound => 404,
            Class::ServerError => either(500, 503),
            Class::Redirect => either(301, 302),
        }
    }
}

/// The host of record `index`, made from the real file's host `original`:
/// `s<index>.<8 hex digits>.example`, the digits a seeded hash of the real host. The real
/// host is never written; `.example` is reserved (RFC 2606), so no real site is named.
///
/// ```
/// let host = reptest_survey::synth::host_of(1, 7, "www.example.com");
/// assert!(host.starts_with("s7.") && host.ends_with(".example"), "{host}");
/// assert_ne!(host, reptest_survey::synth::host_of(2, 7, "www.example.com"));
/// ```
pub fn host_of(seed: u64, index: u64, original: &str) -> String {
    let hash = mix(seed ^ mix(TAG_HOST ^ fnv1a64(original.as_bytes())));
    format!("s{index}.{:08x}.example", hash >> 32)
}

/// A `<urn:uuid:...>` record identifier (a version 4 UUID's layout) for record `index`;
/// the warcinfo record is `u64::MAX`.
pub(crate) fn record_id(seed: u64, index: u64) -> String {
    let mut rng = rng(seed, TAG_ID, index);
    let (a, b) = (rng.next_u64(), rng.next_u64());
    format!(
        "<urn:uuid:{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}>",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0x0fff,
        0x8000 | ((b >> 48) & 0x3fff),
        b & 0xffff_ffff_ffff
    )
}

/// The `WARC-Date` of record `index`: 2024-06-12, one record a second, wrapping daily.
pub(crate) fn date_of(index: u64) -> String {
    let second = index % 86_400;
    format!(
        "2024-06-12T{:02}:{:02}:{:02}Z",
        second / 3600,
        second / 60 % 60,
        second % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_block_holds_the_mix_exactly() {
        let mut statuses = Statuses::new(9);
        for block in [0u64, 1, 77, 10_000] {
            let codes: Vec<u16> = (block * BLOCK..(block + 1) * BLOCK)
                .map(|i| statuses.of(i))
                .collect();
            let count = |f: fn(u16) -> bool| codes.iter().filter(|&&c| f(c)).count();
            assert_eq!(count(|c| c == 200), 85);
            assert_eq!(count(|c| c == 404), 13);
            assert_eq!(count(|c| c == 500 || c == 503), 1);
            assert_eq!(count(|c| c == 301 || c == 302), 1);
        }
    }

    #[test]
    fn blocks_and_seeds_order_the_mix_differently() {
        let order = |seed, block| block_classes(seed, block);
        assert_ne!(order(1, 0), order(1, 1));
        assert_ne!(order(1, 0), order(2, 0));
    }

    #[test]
    fn both_codes_of_a_class_occur() {
        let codes: std::collections::BTreeSet<u16> =
            (0..100_000).map(|i| status_of(3, i)).collect();
        assert_eq!(
            codes.into_iter().collect::<Vec<_>>(),
            [200, 301, 302, 404, 500, 503]
        );
    }

    #[test]
    fn record_ids_are_uuids_and_distinct() {
        let id = record_id(1, 0);
        assert_eq!(id.len(), "<urn:uuid:>".len() + 36, "{id}");
        assert_eq!(&id[24..25], "4", "{id}");
        assert_ne!(record_id(1, 0), record_id(1, 1));
        assert_ne!(record_id(1, 0), record_id(2, 0));
    }

    #[test]
    fn dates_count_seconds() {
        assert_eq!(date_of(0), "2024-06-12T00:00:00Z");
        assert_eq!(date_of(3_661), "2024-06-12T01:01:01Z");
        assert_eq!(date_of(86_400), "2024-06-12T00:00:00Z");
    }
}
