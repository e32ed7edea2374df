//! What a survey counts: additive tallies only, so that the tallies of any split of the
//! files (shards, chunks, single files) [`merge`](Tally::merge) into exactly the tally of
//! the whole.
//!
//! Every count is a sum over files; "distinct files" counts are sums too, as a file is
//! in exactly one shard. The one non-count, each new group's example, is the smallest
//! by [`ExampleKey`] among those merged, so merging is exact in any order.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::bootstrap::Bootstrap;

mod sites;
mod slice;

pub use sites::{CrawlerSites, Headline, SiteExample, SiteImpl, Sites};
pub use slice::Slice;

/// The counts of a survey or of any part of it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Files read and what became of them.
    pub files: FileCounts,
    /// Queries asked: the derived queries of the files whose rules apply.
    pub queries: u64,
    /// Files and queries per status family: `2xx` ... `other`, and `none` for files
    /// without a status (a directory or tar archive).
    pub status: BTreeMap<String, StatusRow>,
    /// Per implementation, in the order of the survey's implementations.
    pub implementations: Vec<ImplTally>,
    /// `pairwise[i][j]`: implementations `i` and `j` compared (symmetric; the diagonal is
    /// an implementation with itself).
    pub pairwise: Vec<Vec<PairTally>>,
    /// Whether the implementations that answered agree.
    pub agreement: Agreement,
    /// Split queries attributed to a question of the catalogue, by question id.
    pub per_question: BTreeMap<String, QuestionTally>,
    /// Split queries attributed to no question, by partition
    /// ([`NewGroup::key`]).
    pub new: BTreeMap<String, NewGroup>,
    /// Whether the new groups' examples went through the minimizer
    /// ([`crate::minimize`]); a merge clears it (minimize after merging).
    #[serde(default)]
    pub new_minimized: bool,
    /// The queries per stratum of origins ([`crate::Stratum`]: `natural`, `probe`).
    #[serde(default)]
    pub strata: BTreeMap<String, Slice>,
    /// The queries per class of agent ([`crate::AgentClass`]: `generic`, `search`,
    /// `ai`, `other`).
    #[serde(default)]
    pub agents: BTreeMap<String, Slice>,
    /// The site-level classes per crawler ([`crate::sites`]).
    #[serde(default)]
    pub sites: Sites,
    /// The bootstrap replicates of the shares ([`crate::bootstrap`]).
    #[serde(default)]
    pub bootstrap: Bootstrap,
}

/// Files read, and what became of them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileCounts {
    /// Files (directory entries, archive members, WARC response records) read.
    pub read: u64,
    /// Files put through the implementations: those whose status means the rules apply
    /// (2xx, or none).
    pub surveyed: u64,
    /// Files read but not put through the implementations (3xx, 4xx, 5xx, other).
    pub not_surveyed: u64,
    /// Files whose body was cut at [`crate::BODY_LIMIT`].
    pub cut_at_limit: u64,
    /// Files whose body the archive stored incomplete.
    pub cut_in_archive: u64,
    /// Entries or records skipped because they could not be read (an unreadable file,
    /// a name that is not UTF-8, a WARC record whose HTTP payload is unusable).
    pub skipped: u64,
}

/// One row of the status table.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusRow {
    /// The branch of the access method (RFC 9309 §2.3.1) the family selects.
    pub branch: String,
    /// Files with a status of this family.
    pub files: u64,
    /// Queries asked on them (none unless the rules apply).
    pub queries: u64,
}

/// What one implementation answered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImplTally {
    /// Queries asked.
    pub asked: u64,
    /// Queries answered with a verdict.
    pub verdicts: u64,
    /// Verdicts that were `allowed`.
    pub allowed: u64,
    /// Queries answered without a verdict, by kind.
    pub missing: Missing,
    /// Compared with the decided verdict.
    pub decided: Decided,
    /// What the circuit breaker did ([`crate::breaker`]).
    #[serde(default)]
    pub breaker: BreakerTally,
}

/// What the circuit breaker did with one implementation ([`crate::breaker`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BreakerTally {
    /// Files that tripped it: a `timeout` among their answers, or over the file budget.
    pub files_tripped: u64,
    /// Files it was not asked about, its breaker being open.
    pub files_skipped: u64,
    /// Shards in which its breaker opened (0 or 1 for an unsharded survey).
    pub opened: u64,
}

/// Answers without a verdict, by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Missing {
    /// The implementation failed on the input.
    pub error: u64,
    /// No answer in time.
    pub timeout: u64,
    /// The implementation's process died.
    pub crash: u64,
    /// The implementation cannot express the query.
    pub unsupported: u64,
    /// Not asked: the implementation's circuit breaker was open ([`crate::breaker`]).
    #[serde(default)]
    pub skipped: u64,
}

impl Missing {
    /// Every answer without a verdict.
    pub fn total(&self) -> u64 {
        [self.timeout, self.crash, self.unsupported, self.skipped]
            .iter()
            .fold(self.error, |sum, n| sum.saturating_add(*n))
    }
}

/// One implementation against the decided verdict (the reference's).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decided {
    /// Queries where both it and the reference gave a verdict.
    pub queries: u64,
    /// Of those, where its verdict differs.
    pub queries_disagree: u64,
    /// Files with at least one such query.
    pub files: u64,
    /// Files with at least one query where its verdict differs.
    pub files_disagree: u64,
    /// Queries where both gave a verdict but the query is open (attributed to a
    /// question the corpus leaves open): neither agreement nor disagreement.
    #[serde(default)]
    pub open: u64,
}

/// Two implementations compared.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairTally {
    /// Queries both answered with a verdict.
    pub queries: u64,
    /// Of those, where their verdicts differ.
    pub queries_disagree: u64,
    /// Files with at least one query both answered with a verdict.
    pub files: u64,
    /// Files with at least one query where their verdicts differ.
    pub files_disagree: u64,
}

/// Whether the implementations agree, query by query.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Agreement {
    /// Queries on which at least two implementations gave a verdict.
    pub compared: u64,
    /// Of those, the queries on which every verdict is the same.
    pub unanimous: u64,
    /// Of those, the queries on which both verdicts occur.
    pub split: u64,
    /// Split queries attributed to a question of the catalogue.
    pub attributed: u64,
    /// Split queries attributed to a question the corpus leaves open (an RFC sentence
    /// permits both verdicts): no verdict is decided on them.
    #[serde(default)]
    pub open: u64,
}

/// The split queries attributed to one question.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuestionTally {
    /// Split queries attributed to it.
    pub queries: u64,
    /// Files with at least one of them.
    pub files: u64,
    /// Per implementation, how many of those queries it was on the minority side of (the
    /// smaller side; on a tie, the side against the decided verdict).
    pub minority: BTreeMap<String, u64>,
    /// Per implementation, the files with at least one of those queries it answered
    /// against the decided verdict (what a bug report says the question reaches).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub against_files: BTreeMap<String, u64>,
}

/// Split queries attributed to no question, with one partition of the implementations.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewGroup {
    /// The implementations that answered `allowed`, sorted.
    pub allowed: Vec<String>,
    /// The implementations that answered `disallowed`, sorted.
    pub disallowed: Vec<String>,
    /// Queries in the group.
    pub queries: u64,
    /// Files with at least one of them.
    pub files: u64,
    /// The group's example: of its queries, the one with the smallest [`ExampleKey`].
    pub example: Example,
    /// The example minimized ([`crate::minimize`]), when it was and the split
    /// reproduced on the example's stored body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimized: Option<Minimized>,
}

/// A new group's example after minimization.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Minimized {
    /// The product token.
    pub agent: String,
    /// The URL, shortened.
    pub url: String,
    /// The body, in visible notation.
    pub body: String,
    /// The body's length in octets.
    pub body_len: u64,
    /// Candidates evaluated.
    pub evaluations: u64,
    /// Why the minimizer stopped: `done` or `budget`.
    pub stop: String,
    /// The question of the catalogue the minimized example matches, attributed again
    /// after minimizing ([`crate::minimize`]); `None` when it is still new.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
}

impl NewGroup {
    /// The key of a partition: `allowed: a, b | disallowed: c`.
    pub fn key(allowed: &[String], disallowed: &[String]) -> String {
        format!(
            "allowed: {} | disallowed: {}",
            allowed.join(", "),
            disallowed.join(", ")
        )
    }
}

/// The order in which examples are chosen: (host, locator, query index).
pub type ExampleKey<'a> = (&'a str, &'a str, u64);

/// One query of a file, as an example.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Example {
    /// The file's host.
    pub host: String,
    /// Where the file is in the input: its source without the input's name
    /// (see [`crate::shard`]).
    pub locator: String,
    /// The query's position among the file's derived queries, from 0.
    pub query: u64,
    /// The product token.
    pub agent: String,
    /// The URL (a path).
    pub url: String,
    /// The method that made the URL (one of [`crate::ORIGINS`]).
    pub origin: String,
    /// The body's first [`EXAMPLE_BODY_LIMIT`] octets, in visible notation
    /// ([`reptest_core::visible_notation`]).
    pub body: String,
    /// The body's length in octets (as read; the example shows at most 4 KiB).
    pub body_len: u64,
    /// The body's first [`EXAMPLE_BODY_LIMIT`] octets, raw, as lower-case hex (what the
    /// minimizer starts from).
    pub body_hex: String,
}

impl Example {
    /// The key examples are ordered by.
    pub fn key(&self) -> ExampleKey<'_> {
        (&self.host, &self.locator, self.query)
    }
}

/// `bytes` as lower-case hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The octets of lower-case or upper-case hex `text`; `None` if it is not hex.
pub fn unhex(text: &str) -> Option<Vec<u8>> {
    let digits = text.as_bytes();
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    digits
        .chunks(2)
        .map(|pair| u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok())
        .collect()
}

/// How much of a body an example keeps: 4 KiB.
pub const EXAMPLE_BODY_LIMIT: usize = 4096;

impl Tally {
    /// An empty tally for `n` implementations.
    pub fn new(n: usize) -> Tally {
        Tally {
            implementations: vec![ImplTally::default(); n],
            pairwise: vec![vec![PairTally::default(); n]; n],
            ..Tally::default()
        }
    }

    /// Adds `other`'s counts to these (both over the same implementations), each sum
    /// checked.
    ///
    /// # Errors
    ///
    /// When the two count different numbers of implementations, or a sum does not fit in
    /// 64 bits ([`TallyError::Overflow`], naming the count). `self` is then partly
    /// merged: discard it.
    pub fn merge(&mut self, other: Tally) -> Result<(), TallyError> {
        let n = self.implementations.len();
        if other.implementations.len() != n
            || self.pairwise.len() != n
            || other.pairwise.len() != n
            || self
                .pairwise
                .iter()
                .chain(&other.pairwise)
                .any(|r| r.len() != n)
        {
            return Err(TallyError::Shape {
                ours: n,
                theirs: other.implementations.len(),
            });
        }
        self.files.add(&other.files, &|| "files".into())?;
        add(&mut self.queries, other.queries, || "queries".into())?;
        for (family, row) in other.status {
            let mine = self.status.entry(family.clone()).or_default();
            mine.add(&row, &|| format!("status.{family}"))?;
            mine.branch = row.branch;
        }
        let pairs = self.implementations.iter_mut().zip(&other.implementations);
        for (i, (mine, theirs)) in pairs.enumerate() {
            mine.add(theirs, &|| format!("implementations[{i}]"))?;
        }
        for (i, row) in self.pairwise.iter_mut().enumerate() {
            for (j, cell) in row.iter_mut().enumerate() {
                cell.add(&other.pairwise[i][j], &|| format!("pairwise[{i}][{j}]"))?;
            }
        }
        self.agreement
            .add(&other.agreement, &|| "agreement".into())?;
        self.new_minimized = false;
        for (id, theirs) in other.per_question {
            let mine = self.per_question.entry(id.clone()).or_default();
            mine.add(theirs, &id)?;
        }
        slice::merge_slices(&mut self.strata, other.strata, "strata")?;
        slice::merge_slices(&mut self.agents, other.agents, "agents")?;
        self.sites.add(other.sites)?;
        self.bootstrap.merge(other.bootstrap);
        for (key, theirs) in other.new {
            match self.new.get_mut(&key) {
                None => {
                    self.new.insert(key, theirs);
                }
                Some(mine) => mine.add(theirs, &key)?,
            }
        }
        Ok(())
    }
}

/// Why two tallies do not add up.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TallyError {
    /// The two count different numbers of implementations (or a pairwise matrix is not
    /// square).
    Shape {
        /// Implementations in the tally merged into.
        ours: usize,
        /// Implementations in the tally merged.
        theirs: usize,
    },
    /// A sum does not fit in 64 bits.
    Overflow {
        /// The count, as a path: `agreement.unanimous`, `implementations[1].asked`, ...
        field: String,
        /// The count merged into.
        ours: u64,
        /// The count added.
        theirs: u64,
    },
}

impl fmt::Display for TallyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TallyError::Shape { ours, theirs } => write!(
                f,
                "the counts are of {theirs} implementation(s), not {ours}"
            ),
            TallyError::Overflow {
                field,
                ours,
                theirs,
            } => write!(
                f,
                "{field}: {ours} + {theirs} overflows (more than 2^64 - 1)"
            ),
        }
    }
}

impl std::error::Error for TallyError {}

/// `*total += more`, or the overflow of `field`.
fn add(total: &mut u64, more: u64, field: impl FnOnce() -> String) -> Result<(), TallyError> {
    *total = total
        .checked_add(more)
        .ok_or_else(|| TallyError::Overflow {
            field: field(),
            ours: *total,
            theirs: more,
        })?;
    Ok(())
}

/// Counts that add field by field, each sum checked.
trait Counts {
    /// Adds `other`'s counts to these; a sum that overflows names its path, the field's
    /// name under `at()` (`implementations[1]` + `.missing.timeout`).
    fn add(&mut self, other: &Self, at: &dyn Fn() -> String) -> Result<(), TallyError>;
}

/// Implements [`Counts`] for a struct from the names of its `u64` fields, then (after
/// `;`) of its fields that are [`Counts`] themselves, added in that order.
macro_rules! counts {
    ($type:ty { $($count:ident),* $(; $($nested:ident),*)? }) => {
        impl Counts for $type {
            fn add(&mut self, other: &Self, at: &dyn Fn() -> String) -> Result<(), TallyError> {
                $(add(&mut self.$count, other.$count, || {
                    format!("{}.{}", at(), stringify!($count))
                })?;)*
                $($(self.$nested.add(&other.$nested, &|| {
                    format!("{}.{}", at(), stringify!($nested))
                })?;)*)?
                Ok(())
            }
        }
    };
}

counts!(FileCounts {
    read,
    surveyed,
    not_surveyed,
    cut_at_limit,
    cut_in_archive,
    skipped
});
// The branch of a status row is no count: `merge` takes the other's.
counts!(StatusRow { files, queries });
counts!(ImplTally { asked, verdicts, allowed; missing, decided, breaker });
counts!(Missing {
    error,
    timeout,
    crash,
    unsupported,
    skipped
});
counts!(Decided {
    queries,
    queries_disagree,
    files,
    files_disagree,
    open
});
counts!(BreakerTally {
    files_tripped,
    files_skipped,
    opened
});
counts!(PairTally {
    queries,
    queries_disagree,
    files,
    files_disagree
});
counts!(Agreement {
    compared,
    unanimous,
    split,
    attributed,
    open
});

impl QuestionTally {
    /// Adds the counts of question `id`.
    pub(crate) fn add(&mut self, o: QuestionTally, id: &str) -> Result<(), TallyError> {
        let at = |what: &str| format!("per_question.{id}.{what}");
        add(&mut self.queries, o.queries, || at("queries"))?;
        add(&mut self.files, o.files, || at("files"))?;
        for (name, n) in o.minority {
            let field = || at(&format!("minority.{name}"));
            add(self.minority.entry(name.clone()).or_default(), n, field)?;
        }
        for (name, n) in o.against_files {
            let field = || at(&format!("against_files.{name}"));
            add(
                self.against_files.entry(name.clone()).or_default(),
                n,
                field,
            )?;
        }
        Ok(())
    }
}

impl NewGroup {
    /// Adds the group `key` of another tally: counts add, the smaller example stays.
    fn add(&mut self, o: NewGroup, key: &str) -> Result<(), TallyError> {
        let at = |what: &str| format!("new[{key}].{what}");
        add(&mut self.queries, o.queries, || at("queries"))?;
        add(&mut self.files, o.files, || at("files"))?;
        if o.example.key() < self.example.key() {
            self.example = o.example;
        }
        self.minimized = None;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example(host: &str, query: u64) -> Example {
        Example {
            host: host.into(),
            locator: format!("/{host}"),
            query,
            agent: "a".into(),
            url: "/".into(),
            origin: "common".into(),
            body: String::new(),
            body_len: 0,
            body_hex: String::new(),
        }
    }

    fn one(host: &str) -> Tally {
        let mut t = Tally::new(2);
        t.files.read = 1;
        t.queries = 3;
        t.pairwise[0][1].queries_disagree = 1;
        t.per_question
            .entry("Q-x".into())
            .or_default()
            .minority
            .insert("b".into(), 1);
        t.new.insert(
            "k".into(),
            NewGroup {
                allowed: vec!["a".into()],
                disallowed: vec!["b".into()],
                queries: 1,
                files: 1,
                example: example(host, 2),
                minimized: None,
            },
        );
        t
    }

    /// Merging is the same in any order: counts add, the smallest example wins.
    #[test]
    fn merging_is_order_independent() {
        let parts = ["c.example", "a.example", "b.example"];
        let mut forward = Tally::new(2);
        for host in parts {
            forward.merge(one(host)).unwrap();
        }
        let mut backward = Tally::new(2);
        for host in parts.iter().rev() {
            backward.merge(one(host)).unwrap();
        }
        assert_eq!(forward, backward);
        assert_eq!(forward.queries, 9);
        assert_eq!(forward.new["k"].example.host, "a.example");
        assert_eq!(forward.per_question["Q-x"].minority["b"], 3);
        assert!(forward.merge(Tally::new(3)).is_err());
    }

    /// A sum that does not fit in 64 bits is refused, naming its count (it used to wrap
    /// around, or panic in a debug build).
    #[test]
    fn a_sum_that_overflows_is_refused_naming_its_count() {
        type Set = fn(&mut Tally, u64);
        let cases: [(&str, Set); 7] = [
            ("agreement.unanimous", |t, n| t.agreement.unanimous = n),
            ("pairwise[0][1].queries_disagree", |t, n| {
                t.pairwise[0][1].queries_disagree = n
            }),
            ("implementations[0].breaker.opened", |t, n| {
                t.implementations[0].breaker.opened = n
            }),
            ("status.2xx.queries", |t, n| {
                t.status.entry("2xx".into()).or_default().queries = n
            }),
            ("files.read", |t, n| t.files.read = n),
            ("implementations[1].missing.timeout", |t, n| {
                t.implementations[1].missing.timeout = n
            }),
            ("per_question.Q-x.minority.b", |t, n| {
                *t.per_question
                    .get_mut("Q-x")
                    .unwrap()
                    .minority
                    .get_mut("b")
                    .unwrap() = n
            }),
        ];
        for (field, set) in cases {
            let (mut a, mut b) = (one("a.example"), one("b.example"));
            set(&mut a, u64::MAX);
            set(&mut b, 1);
            let err = a.merge(b).unwrap_err().to_string();
            assert!(
                err.contains(field) && err.contains("overflow"),
                "{field}: {err}"
            );
        }
    }
}
