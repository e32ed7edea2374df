//! 95 % confidence intervals over files: a bootstrap of random groups of files, whose
//! sums add, so that shards merge exactly.
//!
//! A share the survey gives (unanimous queries among those compared, one
//! implementation's disagreeing queries, the sites a parser classes otherwise) is a ratio
//! of two sums over files. Each file falls, by a hash of the survey's seed and its host
//! and locator, into one of [`GROUPS`] groups, and each share keeps its numerator and
//! denominator per group: sums over files, which add across shards whatever the order,
//! and which are the same whichever shard read a file. The groups are independent
//! random batches of files, so resampling them with replacement (a cluster bootstrap,
//! [`REPLICATES`] replicates drawn from the seed and the share's key) gives the spread of
//! the share over resampled sets of files; the interval is the 2.5th and 97.5th
//! percentile of the replicates' shares (replicates with a zero denominator left out).
//! With fewer files than groups each group holds at most a file or two, and this is the
//! bootstrap over files itself.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::queries::rng::{fnv1a64, mix, Rng};

/// The groups files are hashed into.
pub const GROUPS: u32 = 200;

/// Bootstrap replicates per interval.
pub const REPLICATES: usize = 1000;

/// Every share's sums, per group of files.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bootstrap {
    /// Per share key, per group (only groups with a file counted): `[numerator,
    /// denominator]`; in JSON, a list of `[group, numerator, denominator]`.
    pub sums: BTreeMap<String, GroupSums>,
}

/// One share's sums per group, in JSON a list of `[group, numerator, denominator]`
/// (JSON object keys are strings; a list keeps the groups numbers).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GroupSums(pub BTreeMap<u32, [u64; 2]>);

impl Serialize for GroupSums {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|(g, [n, d])| (g, n, d)))
    }
}

impl<'de> Deserialize<'de> for GroupSums {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let list = Vec::<(u32, u64, u64)>::deserialize(deserializer)?;
        Ok(GroupSums(
            list.into_iter().map(|(g, n, d)| (g, [n, d])).collect(),
        ))
    }
}

/// A share and its 95 % interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Interval {
    /// The share over all files.
    pub share: f64,
    /// The 2.5th percentile of the replicates' shares.
    pub low: f64,
    /// The 97.5th percentile.
    pub high: f64,
}

/// The group of the file at `host` and `locator` under `seed`.
pub fn group_of(seed: u64, host: &str, locator: &str) -> u32 {
    let hash = mix(seed ^ fnv1a64(host.as_bytes()) ^ mix(fnv1a64(locator.as_bytes())));
    (hash % u64::from(GROUPS)) as u32
}

impl Bootstrap {
    /// Adds one file's `numerator` and `denominator` of share `key` to its `group`. A
    /// file that does not count towards the share (`denominator` 0) adds nothing.
    pub fn add(&mut self, key: &str, group: u32, numerator: u64, denominator: u64) {
        if denominator == 0 {
            return;
        }
        let sum = self
            .sums
            .entry(key.to_string())
            .or_default()
            .0
            .entry(group)
            .or_default();
        sum[0] = sum[0].saturating_add(numerator);
        sum[1] = sum[1].saturating_add(denominator);
    }

    /// Adds another's sums (of other files).
    pub fn merge(&mut self, other: Bootstrap) {
        for (key, groups) in other.sums {
            let mine = self.sums.entry(key).or_default();
            for (group, theirs) in groups.0 {
                let sum = mine.0.entry(group).or_default();
                sum[0] = sum[0].saturating_add(theirs[0]);
                sum[1] = sum[1].saturating_add(theirs[1]);
            }
        }
    }

    /// The 95 % interval of share `key` (its replicates drawn from `seed`); `None`
    /// when no file counted towards it.
    pub fn interval(&self, key: &str, seed: u64) -> Option<Interval> {
        let groups = self.sums.get(key)?;
        let mut dense = vec![[0u64; 2]; GROUPS as usize];
        for (group, sum) in &groups.0 {
            if let Some(slot) = dense.get_mut(*group as usize) {
                *slot = *sum;
            }
        }
        let total = dense
            .iter()
            .fold([0u64; 2], |a, s| [a[0] + s[0], a[1] + s[1]]);
        if total[1] == 0 {
            return None;
        }
        let mut rng = Rng::new(mix(seed ^ fnv1a64(key.as_bytes())));
        let mut ratios: Vec<f64> = (0..REPLICATES)
            .filter_map(|_| {
                let mut sum = [0u64; 2];
                for _ in 0..GROUPS {
                    let s = dense[rng.below(GROUPS as usize)];
                    sum = [sum[0] + s[0], sum[1] + s[1]];
                }
                (sum[1] > 0).then(|| sum[0] as f64 / sum[1] as f64)
            })
            .collect();
        ratios.sort_by(f64::total_cmp);
        let at = |q: f64| ratios[((ratios.len() - 1) as f64 * q).round() as usize];
        Some(Interval {
            share: total[0] as f64 / total[1] as f64,
            low: at(0.025),
            high: at(0.975),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_reproducible_and_spread() {
        assert_eq!(
            group_of(1, "a.example", "/a"),
            group_of(1, "a.example", "/a")
        );
        let used: std::collections::BTreeSet<u32> = (0..2000)
            .map(|i| group_of(1, &format!("h{i}"), ""))
            .collect();
        assert!(used.len() > 190, "{}", used.len());
    }

    #[test]
    fn the_interval_holds_the_share_and_merging_is_additive() {
        let mut whole = Bootstrap::default();
        let mut parts = [Bootstrap::default(), Bootstrap::default()];
        for i in 0..2000u64 {
            let g = group_of(7, &format!("h{i}"), "");
            let disagree = u64::from(i % 4 == 0);
            whole.add("k", g, disagree, 1);
            parts[(i % 2) as usize].add("k", g, disagree, 1);
        }
        let [mut a, b] = parts;
        a.merge(b);
        assert_eq!(a, whole);
        let i = whole.interval("k", 1).unwrap();
        assert_eq!(i.share, 0.25);
        assert!(i.low < 0.25 && 0.25 < i.high, "{i:?}");
        // The binomial standard error is 0.0097: the interval is about ±0.019.
        assert!(i.high - i.low > 0.02 && i.high - i.low < 0.06, "{i:?}");
        assert_eq!(whole.interval("k", 1), whole.interval("k", 1));
        assert!(whole.interval("other", 1).is_none());
    }
}
