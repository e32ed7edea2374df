//! Why partials were not read or not merged.

use std::fmt;

use crate::tally::TallyError;
use crate::Shard;

/// Why a partial was refused, or partials did not merge: each names the file(s) and
/// says what is wrong or what differs.
#[derive(Debug)]
#[non_exhaustive]
pub enum PartialError {
    /// No partial was given.
    NoPartials,
    /// The file is not JSON.
    NotJson {
        /// The file.
        file: String,
        /// The parser's error.
        error: serde_json::Error,
    },
    /// The file is JSON but not a survey partial (no `"kind"`).
    NotPartial {
        /// The file.
        file: String,
    },
    /// A partial of another format version ([`crate::engine::FORMAT`]).
    Format {
        /// The file.
        file: String,
        /// Its format, if it says one.
        found: Option<u64>,
    },
    /// A partial of this format whose fields are missing or malformed.
    Invalid {
        /// The file.
        file: String,
        /// What is wrong.
        why: String,
    },
    /// What a partial records does not match its checksum: it was edited.
    Edited {
        /// The file.
        file: String,
        /// `settings` or `counts`.
        part: &'static str,
        /// The checksum the partial records.
        recorded: String,
        /// The checksum of what it holds.
        computed: String,
    },
    /// Counts no survey gives: a count larger than its total, or a sum that does not
    /// add up.
    Inconsistent {
        /// The file.
        file: String,
        /// The count, as a path in the partial's `tally`.
        field: String,
        /// What is wrong with it.
        detail: String,
    },
    /// Two partials of different surveys.
    Differ {
        /// The partial that differs.
        file: String,
        /// The first partial given, which it is compared with.
        first: String,
        /// What differs: `input`, `seed`, `--timeout`, ...
        what: &'static str,
        /// Its value in `file`.
        theirs: String,
        /// Its value in `first`.
        ours: String,
    },
    /// A shard given twice.
    Twice {
        /// The shard.
        shard: Shard,
        /// The file given first.
        first: String,
        /// The file given again.
        second: String,
        /// Whether the two hold the same settings and counts.
        identical: bool,
    },
    /// A sum of counts does not fit in 64 bits.
    Overflow {
        /// The partial whose counts overflow the sum of those before it.
        file: String,
        /// Which count.
        error: TallyError,
    },
    /// Shards missing.
    Missing {
        /// The shard count.
        count: u32,
        /// The missing shards' indexes.
        missing: Vec<u32>,
    },
}

impl fmt::Display for PartialError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PartialError::*;
        match self {
            NoPartials => f.write_str("no partials given"),
            NotJson { file, error } => write!(f, "{file}: not JSON: {error}"),
            NotPartial { file } => write!(
                f,
                "{file}: not a survey partial (no \"kind\": \"{}\"); partials are the partial-I-of-N.json files of `reptest survey --shard I/N`",
                super::PARTIAL_KIND
            ),
            Format { file, found } => write!(
                f,
                "{file}: partial format {} is not {}, the format this reptest reads; it was written by another version of reptest: survey the shard again with this one",
                found.map_or("missing".to_string(), |n| n.to_string()),
                crate::engine::FORMAT
            ),
            Invalid { file, why } => write!(f, "{file}: not a valid partial: {why}"),
            Edited {
                file,
                part,
                recorded,
                computed,
            } => write!(
                f,
                "{file}: its {part} were changed after reptest wrote it: their checksum is {computed}, the partial records {recorded}; survey the shard again"
            ),
            Inconsistent {
                file,
                field,
                detail,
            } => write!(
                f,
                "{file}: tally.{field} {detail}: no survey counts that; the partial is damaged or was edited, survey the shard again"
            ),
            Differ {
                file,
                first,
                what,
                theirs,
                ours,
            } => write!(
                f,
                "{file} and {first} are not shards of one survey: {what} {theirs} vs {ours}"
            ),
            Twice {
                shard,
                first,
                second,
                identical,
            } => write!(
                f,
                "shard {shard} is given twice: {first} and {second} ({})",
                if *identical {
                    "the same partial"
                } else {
                    "two runs of it with different counts"
                }
            ),
            Overflow { file, error } => write!(
                f,
                "{file}: its counts cannot be added to those before it: tally.{error}"
            ),
            Missing { count, missing } => {
                let list = |f: &dyn Fn(u32) -> String| {
                    missing.iter().map(|&i| f(i)).collect::<Vec<_>>().join(", ")
                };
                write!(
                    f,
                    "{} of {count} shard(s) missing: {} (their files are {})",
                    missing.len(),
                    list(&|i| format!("{i}/{count}")),
                    list(&|i| format!("partial-{i}-of-{count}.json"))
                )
            }
        }
    }
}

impl std::error::Error for PartialError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PartialError::NotJson { error, .. } => Some(error),
            PartialError::Overflow { error, .. } => Some(error),
            _ => None,
        }
    }
}
