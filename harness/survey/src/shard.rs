//! Shards: which slice of a survey input one run takes.
//!
//! A shard is written `I/N` with `I` **0-based**: `0/4`, `1/4`, `2/4` and `3/4` are the
//! four shards of a survey split in four, as Slurm's `SLURM_ARRAY_TASK_ID` (with
//! `--array=0-3`) and Kubernetes' `JOB_COMPLETION_INDEX` number them.
//!
//! A file belongs to shard `mix(fnv1a64(host, 0x00, locator)) mod N` (64-bit FNV-1a,
//! then SplitMix64's output function, as in query derivation), where `locator` is the
//! file's [`SurveyFile::source`] with the input's own name removed from its front
//! (`/example.com` for a directory entry, `:member/path` for a tar member, `@offset` for
//! a WARC record), so the assignment does not depend on where the input lies, on the
//! order files are read in, or on the machine. Every shard reads the whole input and
//! keeps its own files.

use std::fmt;
use std::str::FromStr;

use crate::queries::rng::{fnv1a64, mix};
use crate::SurveyFile;

/// One shard of a survey: `index` of `count`, `index` from 0.
///
/// ```
/// use reptest_survey::Shard;
///
/// let shard: Shard = "1/4".parse().unwrap();
/// assert_eq!((shard.index, shard.count), (1, 4));
/// assert_eq!(shard.to_string(), "1/4");
/// assert!("4/4".parse::<Shard>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    /// Which shard, from 0 to `count - 1`.
    pub index: u32,
    /// How many shards the survey has (at least 1).
    pub count: u32,
}

impl Shard {
    /// The whole input as one shard, `0/1`.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// `index/count`, checked.
    ///
    /// # Errors
    ///
    /// A count of 0 or above [`MAX_SHARDS`], or an index not below the count.
    pub fn new(index: u32, count: u32) -> Result<Shard, ShardError> {
        if count == 0 {
            return Err(ShardError::ZeroCount);
        }
        if count > MAX_SHARDS {
            return Err(ShardError::TooMany { count });
        }
        if index >= count {
            return Err(ShardError::NoSuchShard { index, count });
        }
        Ok(Shard { index, count })
    }

    /// Whether `file`, read from the input named `input` (the name
    /// [`open`](crate::open) gives it, the path as displayed), belongs to this shard.
    pub fn holds(&self, file: &SurveyFile, input: &str) -> bool {
        self.count <= 1 || shard_of(file, input, self.count) == self.index
    }

    /// The shard from the environment of a batch scheduler, when `--shard` is not
    /// given: Slurm's `SLURM_ARRAY_TASK_ID` with `SLURM_ARRAY_TASK_COUNT`, else
    /// Kubernetes' `JOB_COMPLETION_INDEX` with `REPTEST_SHARD_COUNT` (or `count`, the
    /// `--shard-count` option). `Ok(None)` when no index is set; an error when one is set
    /// but its count is missing or a value is not a number.
    ///
    /// ```
    /// use reptest_survey::Shard;
    ///
    /// let env = |name: &str| match name {
    ///     "JOB_COMPLETION_INDEX" => Some("2".to_string()),
    ///     _ => None,
    /// };
    /// assert_eq!(Shard::from_env(env, Some(3)).unwrap(), Some(Shard { index: 2, count: 3 }));
    /// assert!(Shard::from_env(env, None).is_err());
    /// assert_eq!(Shard::from_env(|_| None, None).unwrap(), None);
    /// ```
    pub fn from_env(
        var: impl Fn(&str) -> Option<String>,
        count: Option<u32>,
    ) -> Result<Option<Shard>, ShardError> {
        let number = |name: &'static str, value: String| {
            value
                .trim()
                .parse::<u32>()
                .map_err(|_| ShardError::NotNumber { name, value })
        };
        let schedulers = [
            ("SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT"),
            ("JOB_COMPLETION_INDEX", SHARD_COUNT_VAR),
        ];
        for (index_var, count_var) in schedulers {
            let Some(id) = var(index_var) else { continue };
            let index = number(index_var, id)?;
            let count = match (count, var(count_var)) {
                (Some(count), _) => count,
                (None, Some(n)) => number(count_var, n)?,
                (None, None) => return Err(ShardError::NoCount { index_var }),
            };
            return Shard::new(index, count)
                .map(Some)
                .map_err(|error| ShardError::FromEnv {
                    index_var,
                    count_var,
                    error: Box::new(error),
                });
        }
        Ok(None)
    }
}

/// Why a shard was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ShardError {
    /// A shard count of 0.
    ZeroCount,
    /// More than [`MAX_SHARDS`] shards.
    TooMany {
        /// The count asked for.
        count: u32,
    },
    /// An index not below the count (shards are numbered from 0).
    NoSuchShard {
        /// The index.
        index: u32,
        /// The count.
        count: u32,
    },
    /// `--shard` not written `I/N`.
    Syntax {
        /// What was given.
        text: String,
    },
    /// `--shard I/N` with a shard that does not exist.
    Option {
        /// What was given.
        text: String,
        /// Why it does not exist.
        error: Box<ShardError>,
    },
    /// A scheduler's variable that is not a number.
    NotNumber {
        /// The variable.
        name: &'static str,
        /// Its value.
        value: String,
    },
    /// A scheduler's index variable set without a shard count.
    NoCount {
        /// The index variable (`SLURM_ARRAY_TASK_ID` or `JOB_COMPLETION_INDEX`).
        index_var: &'static str,
    },
    /// A scheduler's variables naming a shard that does not exist.
    FromEnv {
        /// The index variable.
        index_var: &'static str,
        /// The count variable.
        count_var: &'static str,
        /// Why the shard does not exist.
        error: Box<ShardError>,
    },
}

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShardError::ZeroCount => f.write_str("the shard count must be at least 1"),
            ShardError::TooMany { .. } => write!(f, "at most {MAX_SHARDS} shards"),
            ShardError::NoSuchShard { index, count } => write!(
                f,
                "shard {index} of {count} does not exist: shards are numbered from 0 to {} (0-based)",
                count - 1
            ),
            ShardError::Syntax { text } => write!(
                f,
                "--shard {text:?}: expected I/N with 0 <= I < N, shards numbered from 0 (e.g. 0/4 ... 3/4)"
            ),
            ShardError::Option { text, error } => write!(f, "--shard {text}: {error}"),
            ShardError::NotNumber { name, value } => {
                write!(f, "{name}={value:?} is not a non-negative whole number")
            }
            ShardError::NoCount { index_var } if *index_var == "SLURM_ARRAY_TASK_ID" => f.write_str(
                "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not: give --shard-count N",
            ),
            ShardError::NoCount { index_var } => write!(
                f,
                "{index_var} is set but the shard count is not: set {SHARD_COUNT_VAR} (the Job's completions) or give --shard-count N"
            ),
            ShardError::FromEnv {
                index_var,
                count_var,
                error,
            } => {
                write!(f, "from {index_var}/{count_var}: {error}")?;
                if *index_var == "SLURM_ARRAY_TASK_ID" {
                    f.write_str(" (use an array numbered from 0, e.g. --array=0-3)")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for ShardError {}

/// For callers whose errors are messages (the command line's).
impl From<ShardError> for String {
    fn from(error: ShardError) -> String {
        error.to_string()
    }
}

/// The most shards a survey may be split in.
pub const MAX_SHARDS: u32 = 1 << 20;

/// The environment variable that gives the shard count alongside Kubernetes'
/// `JOB_COMPLETION_INDEX` (set it to the Indexed Job's `completions`).
pub const SHARD_COUNT_VAR: &str = "REPTEST_SHARD_COUNT";

/// The shard, of `count`, that `file` from the input named `input` belongs to.
pub fn shard_of(file: &SurveyFile, input: &str, count: u32) -> u32 {
    let locator = locator(&file.source, input);
    let mut key = Vec::with_capacity(file.host.len() + 1 + locator.len());
    key.extend_from_slice(file.host.as_bytes());
    key.push(0);
    key.extend_from_slice(locator.as_bytes());
    // FNV-1a's low bits depend only on the inputs' low bits: mixed, every bit counts.
    (mix(fnv1a64(&key)) % u64::from(count.max(1))) as u32
}

/// `source` without the input's own name in front: what places an entry within its
/// input (`/name`, `:member/path`, `@offset`), so that the same input read under another
/// name shards (and fingerprints, [`crate::fingerprint`]) the same.
pub(crate) fn locator<'a>(source: &'a str, input: &str) -> &'a str {
    source.strip_prefix(input).unwrap_or(source)
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let usage = || ShardError::Syntax {
            text: text.to_string(),
        };
        let (index, count) = text.split_once('/').ok_or_else(usage)?;
        let index = index.trim().parse().map_err(|_| usage())?;
        let count = count.trim().parse().map_err(|_| usage())?;
        Shard::new(index, count).map_err(|error| ShardError::Option {
            text: text.to_string(),
            error: Box::new(error),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_has_exactly_one_shard_and_the_input_path_does_not_matter() {
        for n in 1..6 {
            let file = SurveyFile {
                source: "/data/a/example.com".into(),
                ..SurveyFile::new("example.com", Vec::new())
            };
            let moved = SurveyFile {
                source: "/elsewhere/example.com".into(),
                ..file.clone()
            };
            let held: Vec<u32> = (0..n)
                .filter(|&i| Shard::new(i, n).unwrap().holds(&file, "/data/a"))
                .collect();
            assert_eq!(held.len(), 1);
            assert_eq!(
                shard_of(&file, "/data/a", n),
                shard_of(&moved, "/elsewhere", n)
            );
        }
    }

    #[test]
    fn shards_are_balanced() {
        let mut counts = [0u32; 4];
        for i in 0..4000 {
            let host = format!("host{i}.example");
            let file = SurveyFile {
                source: format!("in/{host}"),
                ..SurveyFile::new(host, Vec::new())
            };
            counts[shard_of(&file, "in", 4) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&n| (900..1100).contains(&n)),
            "{counts:?}"
        );
    }

    #[test]
    fn bad_shards_are_refused_clearly() {
        for bad in ["", "1", "a/b", "3/3", "0/0", "-1/2", "1/2/3"] {
            let err = bad.parse::<Shard>().unwrap_err().to_string();
            assert!(err.contains("--shard"), "{bad}: {err}");
        }
        let env = |name: &str| (name == "SLURM_ARRAY_TASK_ID").then(|| "4".to_string());
        let err = Shard::from_env(env, Some(4)).unwrap_err().to_string();
        assert!(err.contains("0-3"), "{err}");
        let env = |name: &str| (name == "SLURM_ARRAY_TASK_ID").then(|| "x".to_string());
        assert!(Shard::from_env(env, Some(4)).is_err());
    }
}
