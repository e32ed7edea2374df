//! The counts of one slice of the queries: a stratum of origins, or a class of agents.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{add, Agreement, Counts, Decided, PairTally, QuestionTally, TallyError};

/// What the queries of one slice showed (a stratum: `natural`, `probe`; an agent class:
/// `generic`, `search`, `ai`, `other`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slice {
    /// Queries asked in the slice.
    pub queries: u64,
    /// Whether the implementations that answered agree.
    pub agreement: Agreement,
    /// Per implementation, against the decided verdict.
    pub decided: Vec<Decided>,
    /// Implementations compared pairwise, as [`super::Tally::pairwise`].
    pub pairwise: Vec<Vec<PairTally>>,
    /// Split queries attributed to a question, by question id.
    pub per_question: BTreeMap<String, QuestionTally>,
}

impl Slice {
    /// An empty slice for `n` implementations.
    pub fn new(n: usize) -> Slice {
        Slice {
            decided: vec![Decided::default(); n],
            pairwise: vec![vec![PairTally::default(); n]; n],
            ..Slice::default()
        }
    }

    /// Adds `other`'s counts (slice `key`).
    pub(super) fn add(&mut self, other: Slice, key: &str) -> Result<(), TallyError> {
        let n = self.decided.len();
        if other.decided.len() != n || other.pairwise.len() != self.pairwise.len() {
            return Err(TallyError::Shape {
                ours: n,
                theirs: other.decided.len(),
            });
        }
        add(&mut self.queries, other.queries, || {
            format!("{key}.queries")
        })?;
        self.agreement
            .add(&other.agreement, &|| format!("{key}.agreement"))?;
        for (i, (mine, theirs)) in self.decided.iter_mut().zip(&other.decided).enumerate() {
            mine.add(theirs, &|| format!("{key}.decided[{i}]"))?;
        }
        for (i, (mine, theirs)) in self.pairwise.iter_mut().zip(&other.pairwise).enumerate() {
            for (j, (a, b)) in mine.iter_mut().zip(theirs).enumerate() {
                a.add(b, &|| format!("{key}.pairwise[{i}][{j}]"))?;
            }
        }
        for (id, theirs) in other.per_question {
            let mine = self.per_question.entry(id.clone()).or_default();
            mine.add(theirs, &format!("{key}.{id}"))?;
        }
        Ok(())
    }
}

/// Adds the slices of `other` to `mine`, key by key.
pub(super) fn merge_slices(
    mine: &mut BTreeMap<String, Slice>,
    other: BTreeMap<String, Slice>,
    at: &str,
) -> Result<(), TallyError> {
    for (key, theirs) in other {
        match mine.get_mut(&key) {
            None => {
                mine.insert(key, theirs);
            }
            Some(slice) => slice.add(theirs, &format!("{at}.{key}"))?,
        }
    }
    Ok(())
}
