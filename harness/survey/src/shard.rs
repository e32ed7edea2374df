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
    pub fn new(index: u32, count: u32) -> Result<Shard, String> {
        if count == 0 {
            return Err("the shard count must be at least 1".into());
        }
        if count > MAX_SHARDS {
            return Err(format!("at most {MAX_SHARDS} shards"));
        }
        if index >= count {
            return Err(format!(
                "shard {index} of {count} does not exist: shards are numbered from 0 to {} (0-based)",
                count - 1
            ));
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
    ) -> Result<Option<Shard>, String> {
        let number = |name: &str, value: String| {
            value
                .trim()
                .parse::<u32>()
                .map_err(|_| format!("{name}={value:?} is not a non-negative whole number"))
        };
        if let Some(id) = var("SLURM_ARRAY_TASK_ID") {
            let index = number("SLURM_ARRAY_TASK_ID", id)?;
            let count = match (count, var("SLURM_ARRAY_TASK_COUNT")) {
                (Some(count), _) => count,
                (None, Some(n)) => number("SLURM_ARRAY_TASK_COUNT", n)?,
                (None, None) => {
                    return Err("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not: give --shard-count N".into())
                }
            };
            return Shard::new(index, count)
                .map(Some)
                .map_err(|e| format!("from SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT: {e} (use an array numbered from 0, e.g. --array=0-3)"));
        }
        if let Some(id) = var("JOB_COMPLETION_INDEX") {
            let index = number("JOB_COMPLETION_INDEX", id)?;
            let count = match (count, var(SHARD_COUNT_VAR)) {
                (Some(count), _) => count,
                (None, Some(n)) => number(SHARD_COUNT_VAR, n)?,
                (None, None) => {
                    return Err(format!("JOB_COMPLETION_INDEX is set but the shard count is not: set {SHARD_COUNT_VAR} (the Job's completions) or give --shard-count N"))
                }
            };
            return Shard::new(index, count)
                .map(Some)
                .map_err(|e| format!("from JOB_COMPLETION_INDEX/{SHARD_COUNT_VAR}: {e}"));
        }
        Ok(None)
    }
}

/// The most shards a survey may be split in.
pub const MAX_SHARDS: u32 = 1 << 20;

/// The environment variable that gives the shard count alongside Kubernetes'
/// `JOB_COMPLETION_INDEX` (set it to the Indexed Job's `completions`).
pub const SHARD_COUNT_VAR: &str = "REPTEST_SHARD_COUNT";

/// The shard, of `count`, that `file` from the input named `input` belongs to.
pub fn shard_of(file: &SurveyFile, input: &str, count: u32) -> u32 {
    let locator = file.source.strip_prefix(input).unwrap_or(&file.source);
    let mut key = Vec::with_capacity(file.host.len() + 1 + locator.len());
    key.extend_from_slice(file.host.as_bytes());
    key.push(0);
    key.extend_from_slice(locator.as_bytes());
    // FNV-1a's low bits depend only on the inputs' low bits: mixed, every bit counts.
    (mix(fnv1a64(&key)) % u64::from(count.max(1))) as u32
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let usage = || {
            format!("--shard {text:?}: expected I/N with 0 <= I < N, shards numbered from 0 (e.g. 0/4 ... 3/4)")
        };
        let (index, count) = text.split_once('/').ok_or_else(usage)?;
        let index = index.trim().parse().map_err(|_| usage())?;
        let count = count.trim().parse().map_err(|_| usage())?;
        Shard::new(index, count).map_err(|e| format!("--shard {text}: {e}"))
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
            let err = bad.parse::<Shard>().unwrap_err();
            assert!(err.contains("--shard"), "{bad}: {err}");
        }
        let env = |name: &str| (name == "SLURM_ARRAY_TASK_ID").then(|| "4".to_string());
        assert!(Shard::from_env(env, Some(4)).unwrap_err().contains("0-3"));
        let env = |name: &str| (name == "SLURM_ARRAY_TASK_ID").then(|| "x".to_string());
        assert!(Shard::from_env(env, Some(4)).is_err());
    }
}
