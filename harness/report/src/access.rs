//! The access-method view of a [`Report`]: for each case that describes how the robots.txt
//! was fetched (a status family, a redirect depth, a network fault, the size, the
//! encoding, a cached copy; RFC 9309 §2.3.1–§2.5), what each implementation that answers
//! such cases did. The Markdown summary and the HTML page both render this model.

use super::{CaseEntry, QueryEntry, Report};
use reptest_corpus::Profile;

/// The view: its columns (implementations) and one row per fetch case.
#[derive(Debug, Clone, PartialEq)]
pub struct AccessView<'r> {
    /// The implementations shown, as [`Report::implementations`] indexes, in the order
    /// asked for: those that gave a verdict on at least one fetch query.
    pub columns: Vec<usize>,
    /// One row per case with a fetch outcome, in corpus order.
    pub rows: Vec<AccessRow<'r>>,
}

/// One fetch case and what each column did on it.
#[derive(Debug, Clone, PartialEq)]
pub struct AccessRow<'r> {
    /// The case.
    pub case: &'r CaseEntry,
    /// The fetch outcome in words ([`CaseEntry::fetch`]).
    pub fetch: &'r str,
    /// One cell per column of [`AccessView::columns`].
    pub cells: Vec<AccessCell>,
}

/// What one implementation did on one fetch case's queries, judged under `rfc9309`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccessCell {
    /// Per query in case order: `Some(true)` allowed, `Some(false)` disallowed, `None`
    /// no verdict (unsupported, error, timeout, crash).
    pub verdicts: Vec<Option<bool>>,
    /// Queries with a verdict that meets the `rfc9309` expectation.
    pub passed: usize,
    /// Queries with a verdict.
    pub answered: usize,
}

impl AccessCell {
    /// Whether some verdict missed its expectation.
    pub fn failed(&self) -> bool {
        self.passed < self.answered
    }

    /// The verdicts as letters in query order: `A` allowed, `D` disallowed, `·` none.
    pub fn letters(&self) -> String {
        self.verdicts
            .iter()
            .map(|v| match v {
                Some(true) => 'A',
                Some(false) => 'D',
                None => '·',
            })
            .collect()
    }

    /// `passed/answered LETTERS`, or `—` when nothing was answered.
    pub fn text(&self) -> String {
        if self.answered == 0 {
            "—".to_string()
        } else {
            format!("{}/{} {}", self.passed, self.answered, self.letters())
        }
    }
}

/// Whether `allowed` meets `query`'s `rfc9309` expectation (`either` when the report
/// lacks it).
pub(crate) fn meets(query: &QueryEntry, allowed: bool) -> bool {
    match query.expect.get(&Profile::Rfc9309).map(String::as_str) {
        Some("allowed") => allowed,
        Some("disallowed") => !allowed,
        _ => true,
    }
}

impl Report {
    /// The access-method view with its columns in `order` (indexes of
    /// [`Report::implementations`]), keeping those that answer some fetch query; `None`
    /// when the corpus has no fetch case or no implementation answers one.
    pub fn access_view(&self, order: &[usize]) -> Option<AccessView<'_>> {
        let fetch_cases: Vec<(&CaseEntry, &str)> = self
            .cases
            .iter()
            .filter_map(|case| case.fetch.as_deref().map(|fetch| (case, fetch)))
            .collect();
        let verdict = |i: usize, q: &QueryEntry| {
            self.outcomes
                .get(i)
                .and_then(|column| column.get(q.index))
                .and_then(|cell| cell.word.verdict())
        };
        let columns: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&i| {
                fetch_cases
                    .iter()
                    .any(|(case, _)| case.queries.iter().any(|q| verdict(i, q).is_some()))
            })
            .collect();
        if fetch_cases.is_empty() || columns.is_empty() {
            return None;
        }
        let rows = fetch_cases
            .into_iter()
            .map(|(case, fetch)| AccessRow {
                case,
                fetch,
                cells: columns
                    .iter()
                    .map(|&i| {
                        let verdicts: Vec<Option<bool>> =
                            case.queries.iter().map(|q| verdict(i, q)).collect();
                        let answered = verdicts.iter().flatten().count();
                        let passed = case
                            .queries
                            .iter()
                            .zip(&verdicts)
                            .filter(|(q, v)| v.is_some_and(|allowed| meets(q, allowed)))
                            .count();
                        AccessCell {
                            verdicts,
                            passed,
                            answered,
                        }
                    })
                    .collect(),
            })
            .collect();
        Some(AccessView { columns, rows })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Cell;
    use reptest_corpus::OutcomeWord;
    use std::collections::BTreeMap;

    fn query(index: usize, expect: &str) -> QueryEntry {
        QueryEntry {
            id: format!("c/{}", index + 1),
            index,
            agent: "a".into(),
            url: "/".into(),
            level: "MUST".into(),
            requirements: vec![],
            expect: BTreeMap::from([(Profile::Rfc9309, expect.to_string())]),
            why: String::new(),
            triage: None,
            question: None,
            finding: false,
            line: 1,
        }
    }

    fn cell(word: OutcomeWord) -> Cell {
        Cell {
            word,
            line: None,
            detail: None,
        }
    }

    fn empty_report() -> Report {
        Report {
            format: crate::FORMAT_VERSION,
            meta: crate::Meta {
                reptest_version: String::new(),
                corpus_fingerprint: String::new(),
                corpus_version: None,
                cases: 2,
                queries: 3,
                profiles: vec![Profile::Rfc9309],
                generated_at: String::new(),
                seeds: vec![],
            },
            implementations: vec![],
            requirements: vec![],
            cases: vec![],
            outcomes: vec![],
            scores: vec![],
            per_requirement: vec![],
            agreement: crate::Agreement {
                same: vec![],
                both: vec![],
            },
            questions: vec![],
        }
    }

    #[test]
    fn cells_count_passes_of_the_answered_queries_and_columns_need_an_answer() {
        let mut report = empty_report();
        report.cases = vec![
            CaseEntry {
                id: "plain".into(),
                title: String::new(),
                file: String::new(),
                line: 1,
                dimensions: vec![],
                body: String::new(),
                fetch: None,
                access: None,
                queries: vec![query(0, "allowed")],
            },
            CaseEntry {
                id: "fetched".into(),
                title: String::new(),
                file: String::new(),
                line: 2,
                dimensions: vec![],
                body: String::new(),
                fetch: Some("HTTP 503".into()),
                access: Some(crate::AccessTopic::ServerError),
                queries: vec![query(1, "disallowed"), query(2, "either")],
            },
        ];
        use OutcomeWord::*;
        report.outcomes = vec![
            vec![cell(Allowed), cell(Disallowed), cell(Allowed)],
            vec![cell(Allowed), cell(Allowed), cell(Timeout)],
            vec![cell(Allowed), cell(Unsupported), cell(Unsupported)],
        ];
        let view = report.access_view(&[1, 0, 2]).expect("a fetch case");
        assert_eq!(
            view.columns,
            [1, 0],
            "the column with no fetch verdict is left out"
        );
        assert_eq!(view.rows.len(), 1);
        let row = &view.rows[0];
        assert_eq!((row.case.id.as_str(), row.fetch), ("fetched", "HTTP 503"));
        assert_eq!(row.cells[0].text(), "0/1 A·");
        assert!(row.cells[0].failed());
        assert_eq!(row.cells[1].text(), "2/2 DA");
        assert!(!row.cells[1].failed());
        report.outcomes[0] = vec![cell(Allowed), cell(Error), cell(Crash)];
        report.outcomes[1] = vec![cell(Allowed), cell(Unsupported), cell(Timeout)];
        assert!(report.access_view(&[0, 1, 2]).is_none(), "nobody answers");
    }
}
