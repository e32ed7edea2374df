//! Rewriting a baseline of corpus 1.x or 2.x, whose query ids were positional (`case/N`),
//! to the ids of corpus 3.0.0 on (`case/name`): `reptest gate --migrate-baseline FILE`.
//!
//! The old ids are looked up in the table of 2.1.0's positional ids
//! ([`reptest_corpus::positional`]; its doc says why a committed table and not the
//! loader's current order): each becomes the id of the same query now. An id whose query
//! was removed since, or that no 2.1.0 query had, is dropped and listed. Nothing else
//! changes: passes stay passes, known failures keep their `reason`, and the corpus
//! fingerprint stays the one recorded, so the gate notes that the corpus changed and
//! judges the migrated lists against today's expectations (a query whose verdict changed
//! in 3.0.0 shows as a regression or a stale known failure, as it should).

use super::baseline::Baseline;
use reptest_corpus::names;
use reptest_corpus::positional::{Mapped, PositionalIds, TableError};
use reptest_corpus::Corpus;
use std::collections::BTreeSet;

/// A baseline rewritten to today's ids, with what could not be carried over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Migration {
    /// The baseline with today's ids, `corpus_version` set to the corpus's.
    pub baseline: Baseline,
    /// The corpus version the old baseline was recorded against.
    pub from: String,
    /// Ids rewritten.
    pub renamed: usize,
    /// Old ids dropped because their query is no longer in the corpus, each with why.
    pub removed: Vec<(String, String)>,
    /// Old ids dropped because no query of corpus 2.1.0 had them.
    pub unknown: Vec<String>,
}

/// Why a baseline cannot be migrated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MigrateError {
    /// The baseline lists no positional id: its ids are names already.
    #[error("the baseline lists no positional id (case/N): its ids are names already, nothing to migrate")]
    AlreadyNamed,
    /// The baseline records no corpus version: it predates corpus 1.0.0, whose queries
    /// the table does not know.
    #[error("the baseline records no corpus version (it predates corpus 1.0.0): re-record it")]
    NoVersion,
    /// The baseline says it was recorded against corpus 3.0.0 or later, whose ids are
    /// names: its positional ids were not written by reptest.
    #[error("the baseline says corpus {0}, whose ids are names, yet lists positional ids (case/N): re-record it")]
    NotPositional(String),
    /// The embedded table does not parse (a build from a broken source tree).
    #[error("{0}")]
    Table(#[from] TableError),
}

/// The ids of a 1.x or 2.x `baseline` rewritten for `corpus` through `table` (usually
/// [`PositionalIds::embedded`]).
pub fn migrate(
    baseline: &Baseline,
    corpus: &Corpus,
    table: &PositionalIds,
) -> Result<Migration, MigrateError> {
    if baseline.positional_ids().is_empty() {
        return Err(MigrateError::AlreadyNamed);
    }
    let from = baseline
        .corpus_version
        .clone()
        .ok_or(MigrateError::NoVersion)?;
    if !matches!(reptest_corpus::major_of(&from), Some(1 | 2)) {
        return Err(MigrateError::NotPositional(from));
    }
    let in_corpus: BTreeSet<&str> = corpus.queries().map(|(_, q)| q.id.as_str()).collect();
    let mut migration = Migration {
        baseline: baseline.clone(),
        from,
        renamed: 0,
        removed: Vec::new(),
        unknown: Vec::new(),
    };
    let mut rename = |old: &str| -> Option<String> {
        if !names::is_positional(old) && in_corpus.contains(old) {
            return Some(old.to_string()); // a name already (edited in by hand)
        }
        match table.get(old) {
            Mapped::Now(new) if in_corpus.contains(new) => {
                migration.renamed += 1;
                Some(new.to_string())
            }
            Mapped::Now(new) => {
                let why = format!("its query `{new}` is not in this corpus");
                migration.removed.push((old.to_string(), why));
                None
            }
            Mapped::Removed(why) => {
                migration.removed.push((old.to_string(), why.to_string()));
                None
            }
            Mapped::Unknown => {
                migration.unknown.push(old.to_string());
                None
            }
        }
    };
    let mut out = baseline.clone();
    out.passed = baseline.passed.iter().filter_map(|id| rename(id)).collect();
    out.unsupported = baseline
        .unsupported
        .iter()
        .filter_map(|id| rename(id))
        .collect();
    out.known_failures = baseline
        .known_failures
        .iter()
        .filter_map(|k| {
            let mut k = k.clone();
            k.id = rename(&k.id)?;
            Some(k)
        })
        .collect();
    out.corpus_version = corpus.version().map(str::to_string);
    out.normalize();
    migration.baseline = out;
    Ok(migration)
}

impl Baseline {
    /// The ids of the positional form of corpus 1.x and 2.x (`case/N`) this baseline
    /// lists: a baseline with any needs `reptest gate --migrate-baseline`.
    pub fn positional_ids(&self) -> Vec<&str> {
        self.passed
            .iter()
            .chain(&self.unsupported)
            .chain(self.known_failures.iter().map(|k| &k.id))
            .map(String::as_str)
            .filter(|id| names::is_positional(id))
            .collect()
    }
}

impl Migration {
    /// What the migration did, for a person: counts, then every dropped id and why.
    pub fn summary(&self) -> String {
        let mut out = format!(
            "{} positional ids of corpus {} rewritten to today's ids (corpus {})",
            self.renamed,
            self.from,
            self.baseline
                .corpus_version
                .as_deref()
                .unwrap_or("(unversioned)")
        );
        if self.removed.is_empty() && self.unknown.is_empty() {
            out.push_str("; none dropped");
        }
        for (old, why) in &self.removed {
            out.push_str(&format!(
                "\n  dropped {old}: removed from the corpus ({why})"
            ));
        }
        for old in &self.unknown {
            out.push_str(&format!(
                "\n  dropped {old}: no query of corpus {} had this id",
                reptest_corpus::positional::VERSION
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gate::KnownFailure;
    use reptest_corpus::{OutcomeWord, Profile};

    fn corpus() -> Corpus {
        Corpus::load(reptest_corpus::default_dir()).expect("the corpus loads")
    }

    fn old(version: Option<&str>) -> Baseline {
        Baseline {
            implementation: "x".into(),
            profile: Profile::Rfc9309,
            corpus: "c39b2828cd49f4bc".into(),
            corpus_version: version.map(str::to_string),
            passed: vec!["wild-star-middle/1".into(), "gone/7".into()],
            unsupported: vec![],
            known_failures: vec![KnownFailure {
                id: "wild-star-middle/2".into(),
                expected: "allowed".into(),
                got: OutcomeWord::Disallowed,
                reason: Some("upstream #1".into()),
            }],
        }
    }

    #[test]
    fn positional_ids_become_names_and_unknown_ones_are_listed() {
        let corpus = corpus();
        let table = PositionalIds::parse(
            "wild-star-middle/1\twild-star-middle/examplebot:/shop/books/cart\nwild-star-middle/2\t-\tmerged\n",
        )
        .unwrap();
        let baseline = old(Some("2.1.0"));
        assert_eq!(baseline.positional_ids().len(), 3);
        let m = migrate(&baseline, &corpus, &table).unwrap();
        assert_eq!(m.renamed, 1);
        assert_eq!(
            m.baseline.passed,
            ["wild-star-middle/examplebot:/shop/books/cart"]
        );
        assert!(m.baseline.known_failures.is_empty());
        assert_eq!(m.removed, [("wild-star-middle/2".into(), "merged".into())]);
        assert_eq!(m.unknown, ["gone/7"]);
        assert_eq!(
            m.baseline.corpus, baseline.corpus,
            "the recorded fingerprint stays"
        );
        assert_eq!(m.baseline.corpus_version.as_deref(), corpus.version());
        assert!(m.baseline.positional_ids().is_empty());
        let summary = m.summary();
        assert!(summary.contains("dropped gone/7"), "{summary}");
    }

    #[test]
    fn reasons_are_kept_and_other_versions_refused() {
        let corpus = corpus();
        let table = PositionalIds::embedded().unwrap();
        let m = migrate(&old(Some("1.0.0")), &corpus, &table).unwrap();
        assert_eq!(m.baseline.known_failures.len(), 1);
        assert_eq!(
            m.baseline.known_failures[0].reason.as_deref(),
            Some("upstream #1")
        );
        assert!(names::split_id(&m.baseline.known_failures[0].id).is_some());
        assert_eq!(
            migrate(&old(None), &corpus, &table),
            Err(MigrateError::NoVersion)
        );
        assert!(matches!(
            migrate(&old(Some("3.0.0")), &corpus, &table),
            Err(MigrateError::NotPositional(_))
        ));
        // Once migrated, nothing is left to migrate, whatever the version says.
        assert_eq!(
            migrate(&m.baseline, &corpus, &table),
            Err(MigrateError::AlreadyNamed)
        );
    }
}
