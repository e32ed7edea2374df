//! The positional ids of corpus 2.1.0 and the ids of the same queries now: the table
//! `corpus/ids-2.1.0.tsv`, embedded at build time, which `reptest gate
//! --migrate-baseline` rewrites old baselines with.
//!
//! Why a committed table and not the loader's positions: a positional id `case/N` names
//! the N-th query of its case *in the corpus it was recorded on*. Mapping it through the
//! current file order would be right only while no query has been inserted, removed or
//! moved in that case since, and corpus 3.0.0 does all three. The table was generated
//! once, from the 2.1.0 corpus itself, when names replaced positions; since then it is
//! edited by hand, like the corpus: a query renamed later gets its new id on the right, a
//! query removed gets `-` and the reason. A test (`positional_table`) checks that every id
//! on the right is a query of the corpus, so a rename or removal that forgets the table
//! fails. Positional ids of 1.0.0 and 2.0.0 are those of 2.1.0 (each only appended cases
//! and queries), so the table serves them too.
//!
//! ```
//! use reptest_corpus::positional::{Mapped, PositionalIds};
//! let table = PositionalIds::embedded().unwrap();
//! assert_eq!(table.len(), 931);
//! assert!(matches!(table.get("wild-star-middle/1"), Mapped::Now(_)));
//! assert!(matches!(table.get("no-such-case/1"), Mapped::Unknown));
//! ```

use std::collections::BTreeMap;
use std::fmt;

/// The corpus version whose positional ids the table records.
pub const VERSION: &str = "2.1.0";

/// The table's text, `corpus/ids-2.1.0.tsv`.
pub const TABLE: &str = include_str!("../../../corpus/ids-2.1.0.tsv");

/// The table: each positional id of corpus 2.1.0 with the id of its query now, or the
/// reason it was removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionalIds {
    rows: BTreeMap<String, Row>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Row {
    Now(String),
    Removed(String),
}

/// What a positional id maps to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mapped<'a> {
    /// The id of the same query now.
    Now(&'a str),
    /// The query was removed since 2.1.0; the table says why.
    Removed(&'a str),
    /// Not a query id of corpus 2.1.0.
    Unknown,
}

/// A line of the table that is not `OLD<TAB>NEW` or `OLD<TAB>-<TAB>REASON`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableError {
    /// The 1-based line.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "corpus/ids-{VERSION}.tsv:{}: {}",
            self.line, self.message
        )
    }
}

impl std::error::Error for TableError {}

impl PositionalIds {
    /// The table embedded in this build.
    pub fn embedded() -> Result<PositionalIds, TableError> {
        PositionalIds::parse(TABLE)
    }

    /// Parses a table: `#` comment lines, then one line per query, the positional id, a
    /// tab and the id now, or `-`, a tab and why it was removed. Old ids must be
    /// positional and unique, new ids unique.
    pub fn parse(text: &str) -> Result<PositionalIds, TableError> {
        let mut rows = BTreeMap::new();
        let mut targets = BTreeMap::new();
        for (n, line) in text.lines().enumerate() {
            let fail = |message: String| TableError {
                line: n + 1,
                message,
            };
            if line.starts_with('#') || line.is_empty() {
                continue;
            }
            let mut fields = line.split('\t');
            let (old, new) = match (fields.next(), fields.next()) {
                (Some(old), Some(new)) => (old, new),
                _ => return Err(fail("expected OLD<TAB>NEW or OLD<TAB>-<TAB>REASON".into())),
            };
            let reason = fields.next();
            if !crate::names::is_positional(old) {
                return Err(fail(format!("`{old}` is not a positional id (case/N)")));
            }
            let row = match (new, reason) {
                ("-", Some(reason)) if !reason.trim().is_empty() => Row::Removed(reason.into()),
                ("-", _) => return Err(fail(format!("`{old}` removed: say why after a tab"))),
                (new, None) if crate::names::split_id(new).is_some() => {
                    if let Some(first) = targets.insert(new.to_string(), n + 1) {
                        return Err(fail(format!("`{new}` is also the id at line {first}")));
                    }
                    Row::Now(new.into())
                }
                (new, _) => return Err(fail(format!("`{new}` is not a query id (case/name)"))),
            };
            if rows.insert(old.to_string(), row).is_some() {
                return Err(fail(format!("`{old}` is listed twice")));
            }
        }
        Ok(PositionalIds { rows })
    }

    /// What the positional id `old` maps to.
    pub fn get(&self, old: &str) -> Mapped<'_> {
        match self.rows.get(old) {
            Some(Row::Now(new)) => Mapped::Now(new),
            Some(Row::Removed(reason)) => Mapped::Removed(reason),
            None => Mapped::Unknown,
        }
    }

    /// How many positional ids the table lists.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether the table lists none.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Every positional id with what it maps to, sorted by the old id.
    pub fn iter(&self) -> impl Iterator<Item = (&str, Mapped<'_>)> {
        self.rows.iter().map(|(old, row)| {
            let mapped = match row {
                Row::Now(new) => Mapped::Now(new),
                Row::Removed(reason) => Mapped::Removed(reason),
            };
            (old.as_str(), mapped)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Corpus;

    /// Every 2.1.0 query id of the table names a query of the corpus, or is marked
    /// removed with a reason; the table covers every query of 2.1.0, case by case from 1.
    #[test]
    fn positional_table() {
        let table = PositionalIds::embedded().unwrap_or_else(|e| panic!("{e}"));
        let corpus = Corpus::load(crate::default_dir()).expect("the corpus loads");
        let ids: std::collections::BTreeSet<&str> =
            corpus.queries().map(|(_, q)| q.id.as_str()).collect();
        let mut per_case: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (old, mapped) in table.iter() {
            let (case, n) = crate::names::split_id(old).expect("checked by parse");
            per_case
                .entry(case)
                .or_default()
                .push(n.parse().expect("digits"));
            if let Mapped::Now(new) = mapped {
                assert!(
                    ids.contains(new),
                    "corpus/ids-{VERSION}.tsv: `{old}` maps to `{new}`, which is not a query of the \
                     corpus: write the query's id now, or `-` and why it was removed"
                );
            }
        }
        // 2.1.0 had 931 queries (corpus/CHANGELOG.md: 912 in 2.0.0, 19 added).
        assert_eq!(table.len(), 931);
        for (case, mut numbers) in per_case {
            numbers.sort_unstable();
            let expected: Vec<usize> = (1..=numbers.len()).collect();
            assert_eq!(numbers, expected, "{case}: positions 1..N, each once");
        }
    }

    #[test]
    fn bad_tables_name_the_line() {
        let bad = [
            ("a/1\n", 1),
            ("# c\na/x\ta/y\n", 2),
            ("a/1\tnot-an-id\n", 1),
            ("a/1\t-\n", 1),
            ("a/1\ta/x\na/2\ta/x\n", 2),
            ("a/1\ta/x\na/1\ta/y\n", 2),
        ];
        for (text, line) in bad {
            let err = PositionalIds::parse(text).unwrap_err();
            assert_eq!(err.line, line, "{text:?}: {err}");
        }
        let table = PositionalIds::parse("a/1\ta/x:/y\na/2\t-\tmerged into a/x:/y\n").unwrap();
        assert_eq!(table.get("a/1"), Mapped::Now("a/x:/y"));
        assert_eq!(table.get("a/2"), Mapped::Removed("merged into a/x:/y"));
        assert_eq!(table.get("a/3"), Mapped::Unknown);
    }
}
