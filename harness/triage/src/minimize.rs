//! Greedy minimization of a divergent input: the smallest body and URL found that still
//! split the implementations the same way.
//!
//! Passes, repeated until none makes progress or the evaluation budget is spent:
//!
//! 1. drop lines: every comment-only line at once (padding); in a large body (one that
//!    may need its size, [`LARGE_BODY`]) turn each record line into a comment line of the
//!    same length, keeping every offset; then chunks of lines (ddmin-style, halving the
//!    chunk size), then single lines;
//! 2. simplify line ends: every CRLF to LF, then every lone CR to LF;
//! 3. shorten lines: drop a trailing comment, then bytes from the end (halving, then one
//!    at a time);
//! 4. shorten the URL: drop the query, whole path segments, then bytes from the end of the
//!    path.
//!
//! Every candidate is judged by a predicate ("still has this signature", or for a
//! campaign "this implementation still answers against that one": [`minimize_dissent`]);
//! the predicate calls are bounded, weighted by the candidate's size
//! ([`evaluation_cost`]), and optionally by a deadline ([`Budget`]), so a finding
//! minimizes in bounded time. Whatever the budget, [`MIN_EVALUATIONS`] candidates are
//! tried (before the deadline), so even a 512,000-byte input gets its cheap passes.

use crate::signature::rule_kind;
use crate::signature::{Dissent, Signature};
use crate::Query;
use rayon::prelude::*;
use reptest_core::{CaseInput, Implementation, Outcome, QueryInput};
use reptest_corpus::Dimension;
use std::collections::BTreeSet;
use std::time::Instant;

/// Budget units (predicate calls on bodies up to [`BUDGET_BYTES`]) allowed by
/// [`minimize`] when every implementation runs in process.
pub const DEFAULT_BUDGET: usize = 2_000;

/// Predicate calls a minimization may always make (before its deadline), however large
/// the candidates: the padding pass and a first halving of a 512,000-byte input cost
/// more units than a small budget holds.
pub const MIN_EVALUATIONS: usize = 6;

/// What a minimization may spend: units of [`evaluation_cost`], and a moment after which
/// it tries no further candidate.
///
/// ```
/// use reptest_triage::minimize::Budget;
/// let budget = Budget::from(500).until(std::time::Instant::now());
/// assert_eq!(budget.units, 500);
/// assert!(budget.deadline.is_some());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Units of [`evaluation_cost`].
    pub units: usize,
    /// No candidate is tried after this moment.
    pub deadline: Option<Instant>,
}

impl From<usize> for Budget {
    fn from(units: usize) -> Budget {
        Budget {
            units,
            deadline: None,
        }
    }
}

impl Budget {
    /// The same budget, ending at `deadline` at the latest.
    pub fn until(self, deadline: Instant) -> Budget {
        Budget {
            deadline: Some(self.deadline.map_or(deadline, |d| d.min(deadline))),
            ..self
        }
    }
}

/// Why a minimization stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stop {
    /// No pass made progress: the result is as small as the passes get it.
    Done,
    /// The budget's units were spent.
    Budget,
    /// The budget's deadline passed.
    Deadline,
}

/// The result of a minimization.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Minimized {
    /// The smallest body found.
    pub body: Vec<u8>,
    /// The query, its URL shortened.
    pub query: Query,
    /// Predicate calls made.
    pub evaluations: usize,
    /// Why it stopped.
    pub stop: Stop,
}

/// Shrinks `body` and `query` while `implementations` keep answering with `signature`'s
/// partition and the reference keeps deciding by the same kind of rule (the dimensions
/// may shrink: they are recomputed from the result). At most [`DEFAULT_BUDGET`]
/// evaluations.
pub fn minimize(
    body: &[u8],
    query: &Query,
    implementations: &[&dyn Implementation],
    signature: &Signature,
) -> (Vec<u8>, Query) {
    let m = minimize_with_budget(body, query, implementations, signature, DEFAULT_BUDGET);
    (m.body, m.query)
}

/// [`minimize`] with an explicit evaluation budget, reporting the evaluations made. The
/// implementations are asked one after another, stopping at the first answer that
/// differs from the signature's.
pub fn minimize_with_budget(
    body: &[u8],
    query: &Query,
    implementations: &[&dyn Implementation],
    signature: &Signature,
    budget: impl Into<Budget>,
) -> Minimized {
    let expected = |name: &str| {
        signature
            .partition
            .iter()
            .find(|(_, names)| names.iter().any(|n| n == name))
            .map(|(word, _)| word.as_str())
    };
    let keep = |body: &[u8], query: &Query| {
        same_shape(
            body,
            query,
            signature.rule_kind.as_deref(),
            &signature.dimensions,
        ) && implementations.iter().all(|implementation| {
            let outcome = evaluate_one(&[*implementation], body, query);
            outcome.first().map(Outcome::word) == expected(implementation.name())
        })
    };
    minimize_by(body, query, keep, budget)
}

/// Whether a candidate keeps the reference's rule kind and has no dimension the original
/// lacked (it may lose some: they are recomputed from the result).
fn same_shape(
    body: &[u8],
    query: &Query,
    rule_kind_was: Option<&str>,
    dimensions_were: &BTreeSet<Dimension>,
) -> bool {
    rule_kind(body, &query.agent, &query.url).as_deref() == rule_kind_was
        && crate::dimensions(body, &query.agent, &query.url).is_subset(dimensions_were)
}

/// Shrinks `body` and `query` while `dissenter` keeps answering `dissent.word`, the
/// `witness` keeps answering the other verdict, and the reference keeps deciding by the
/// same kind of rule, within the dissent's dimensions. Two implementations per
/// candidate, whatever the number in the campaign: what one implementation does
/// differently, without the other differences the raw input also tripped.
pub fn minimize_dissent(
    body: &[u8],
    query: &Query,
    dissenter: &dyn Implementation,
    witness: &dyn Implementation,
    dissent: &Dissent,
    budget: impl Into<Budget>,
) -> Minimized {
    let keep = |body: &[u8], query: &Query| {
        if !same_shape(
            body,
            query,
            dissent.rule_kind.as_deref(),
            &dissent.dimensions,
        ) {
            return false;
        }
        let answers = |implementation: &dyn Implementation| {
            evaluate_one(&[implementation], body, query)
                .first()
                .map(|o| o.kind())
        };
        answers(dissenter) == Some(dissent.word)
            && answers(witness) == Some(dissent.majority_word())
    };
    minimize_by(body, query, keep, budget)
}

/// Bytes one unit of the evaluation budget stands for: evaluating a candidate body of up
/// to this size costs one unit, a larger one (a 16,664-octet line, a padded 512,000-byte
/// input) one unit per started [`BUDGET_BYTES`]. Minimizing a large input thus takes
/// about as long as minimizing a small one, and speeds up as the input shrinks; an input
/// that needs its size (a rule beyond the 500 KiB limit) stays large after a few tries.
pub const BUDGET_BYTES: usize = 4_096;

/// The budget units one evaluation of a `len`-byte body costs (see [`BUDGET_BYTES`]).
pub fn evaluation_cost(len: usize) -> usize {
    len.div_ceil(BUDGET_BYTES).max(1)
}

/// Each implementation's outcome for one query.
pub fn evaluate_one(
    implementations: &[&dyn Implementation],
    body: &[u8],
    query: &Query,
) -> Vec<Outcome> {
    let queries = [QueryInput::from(query)];
    let input = CaseInput {
        robots: body,
        fetch: None,
        queries: &queries,
    };
    // In parallel: external adapters wait on pipes, and each has its own process pool.
    implementations
        .par_iter()
        .map(|i| {
            reptest_core::runner::evaluate(*i, &input)
                .into_iter()
                .next()
                .unwrap_or_else(|| Outcome::Error("no answer".into()))
        })
        .collect()
}

/// The minimizer on any predicate: `keep(body, query)` says whether a candidate still
/// shows the behaviour. The input itself is assumed to; at most `budget` units of
/// [`evaluation_cost`] (one call per unit for bodies up to [`BUDGET_BYTES`]), at least
/// [`MIN_EVALUATIONS`] calls, and none after the budget's deadline.
pub fn minimize_by(
    body: &[u8],
    query: &Query,
    keep: impl FnMut(&[u8], &Query) -> bool,
    budget: impl Into<Budget>,
) -> Minimized {
    let mut m = Minimizer {
        body: body.to_vec(),
        query: query.clone(),
        keep,
        budget: budget.into(),
        evaluations: 0,
        cost: 0,
    };
    let stop = loop {
        let before = (m.body.len(), m.query.url.len(), m.records());
        m.drop_comment_lines();
        m.blank_lines_in_place();
        m.drop_lines();
        m.simplify_line_ends();
        m.shorten_lines();
        m.shorten_url();
        if let Some(stop) = m.stopped() {
            break stop;
        }
        if (m.body.len(), m.query.url.len(), m.records()) == before {
            break Stop::Done;
        }
    };
    Minimized {
        body: m.body,
        query: m.query,
        evaluations: m.evaluations,
        stop,
    }
}

struct Minimizer<F> {
    body: Vec<u8>,
    query: Query,
    keep: F,
    budget: Budget,
    evaluations: usize,
    /// In units of [`evaluation_cost`].
    cost: usize,
}

impl<F: FnMut(&[u8], &Query) -> bool> Minimizer<F> {
    /// Why no further candidate may be tried, if so.
    fn stopped(&self) -> Option<Stop> {
        if self
            .budget
            .deadline
            .is_some_and(|deadline| Instant::now() >= deadline)
        {
            Some(Stop::Deadline)
        } else if self.cost >= self.budget.units && self.evaluations >= MIN_EVALUATIONS {
            Some(Stop::Budget)
        } else {
            None
        }
    }

    fn spent(&self) -> bool {
        self.stopped().is_some()
    }

    /// Tries a candidate body; adopts it when the predicate holds.
    fn try_body(&mut self, candidate: Vec<u8>) -> bool {
        if self.spent() || candidate == self.body {
            return false;
        }
        self.evaluations += 1;
        self.cost += evaluation_cost(candidate.len());
        if (self.keep)(&candidate, &self.query) {
            self.body = candidate;
            true
        } else {
            false
        }
    }

    /// Tries a candidate URL; adopts it when the predicate holds.
    fn try_url(&mut self, url: String) -> bool {
        if self.spent() || url == self.query.url {
            return false;
        }
        self.evaluations += 1;
        self.cost += evaluation_cost(self.body.len());
        let candidate = Query {
            agent: self.query.agent.clone(),
            url,
        };
        if (self.keep)(&self.body, &candidate) {
            self.query = candidate;
            true
        } else {
            false
        }
    }

    /// Lines that are not comment-only (a measure of progress when a pass keeps the
    /// size).
    fn records(&self) -> usize {
        split_lines(&self.body)
            .iter()
            .filter(|line| !is_comment_line(line))
            .count()
    }

    /// In a body of [`LARGE_BODY`] bytes or more, each record line in turn (last first)
    /// becomes a comment line of the same length (`#p…p` and its terminator): what
    /// matters at a size limit is where a line ends, so removing a line would move the
    /// rest; this keeps every offset while the records shrink to the ones that matter.
    fn blank_lines_in_place(&mut self) {
        if self.body.len() < LARGE_BODY {
            return;
        }
        // The record lines' content spans: blanking keeps every offset, so they hold.
        let mut spans = Vec::new();
        let mut offset = 0;
        for line in split_lines(&self.body) {
            let (content, _) = split_terminator(line);
            if !content.is_empty() && !is_comment_line(line) {
                spans.push(offset..offset + content.len());
            }
            offset += line.len();
        }
        for span in spans.into_iter().rev() {
            if self.spent() {
                break;
            }
            let mut candidate = self.body.clone();
            candidate[span.clone()].fill(b'p');
            candidate[span.start] = b'#';
            self.try_body(candidate);
        }
    }

    /// Every comment-only line at once: one cheap try that takes a padded input (comment
    /// lines up to the size limit) down to its records, unless the finding needs the size.
    fn drop_comment_lines(&mut self) {
        let lines = split_lines(&self.body);
        if lines.iter().filter(|line| is_comment_line(line)).count() < 2 {
            return;
        }
        let candidate: Vec<u8> = lines
            .into_iter()
            .filter(|line| !is_comment_line(line))
            .flatten()
            .copied()
            .collect();
        self.try_body(candidate);
    }

    fn drop_lines(&mut self) {
        let mut lines = owned_lines(&self.body);
        let mut chunk = lines.len() / 2;
        while chunk >= 1 && !self.spent() {
            let mut start = 0;
            while start < lines.len() && !self.spent() {
                let end = (start + chunk).min(lines.len());
                let candidate: Vec<u8> = lines[..start]
                    .iter()
                    .chain(&lines[end..])
                    .flatten()
                    .copied()
                    .collect();
                if self.try_body(candidate) {
                    lines = owned_lines(&self.body);
                } else {
                    start = end;
                }
            }
            chunk /= 2;
        }
    }

    fn simplify_line_ends(&mut self) {
        if self.body.windows(2).any(|w| w == b"\r\n") {
            let candidate = replace(&self.body, b"\r\n", b"\n");
            self.try_body(candidate);
        }
        if self.body.contains(&b'\r') {
            let candidate: Vec<u8> = self
                .body
                .iter()
                .map(|&b| if b == b'\r' { b'\n' } else { b })
                .collect();
            self.try_body(candidate);
        }
    }

    fn shorten_lines(&mut self) {
        let mut index = 0;
        while index < split_lines(&self.body).len() && !self.spent() {
            let lines = owned_lines(&self.body);
            let Some(line) = lines.get(index) else { break };
            let (content, end) = split_terminator(line);
            // Drop a trailing comment (and the white space before it).
            if let Some(hash) = content.iter().position(|&b| b == b'#') {
                if hash > 0 {
                    let kept = content[..hash].trim_ascii_end();
                    self.try_body(with_line(&lines, index, &[kept, end].concat()));
                }
            }
            // Drop bytes from the end of the content: halving, then one at a time.
            let mut cut = content.len() / 2;
            while cut >= 1 && !self.spent() {
                let lines = owned_lines(&self.body);
                let Some(line) = lines.get(index) else { break };
                let (content, end) = split_terminator(line);
                if cut > content.len() {
                    cut = content.len() / 2;
                    continue;
                }
                let shorter = [&content[..content.len() - cut], end].concat();
                if !self.try_body(with_line(&lines, index, &shorter)) {
                    cut /= 2;
                }
            }
            index += 1;
        }
    }

    fn shorten_url(&mut self) {
        let Some(path_start) = path_start(&self.query.url) else {
            return;
        };
        // The query string, then the fragment.
        for mark in ['?', '#'] {
            if let Some(at) = self.query.url[path_start..].find(mark) {
                let url = self.query.url[..path_start + at].to_string();
                self.try_url(url);
            }
        }
        // Whole segments from the end, then from the front.
        loop {
            let url = &self.query.url;
            let path = &url[path_start..];
            let Some(last) = path.rfind('/') else { break };
            if last == 0 || !self.try_url(url[..path_start + last].to_string()) {
                break;
            }
        }
        loop {
            let url = &self.query.url;
            let path = &url[path_start..];
            let Some(second) = path.get(1..).and_then(|p| p.find('/')) else {
                break;
            };
            let candidate = format!("{}{}", &url[..path_start], &path[second + 1..]);
            if !self.try_url(candidate) {
                break;
            }
        }
        // Characters from the end, halving then one at a time (never below "/").
        let mut cut = (self.query.url.len() - path_start) / 2;
        while cut >= 1 && !self.spent() {
            let url = &self.query.url;
            let mut end = url.len().saturating_sub(cut).max(path_start + 1);
            while !url.is_char_boundary(end) {
                end -= 1;
            }
            if end <= path_start || end >= url.len() {
                cut /= 2;
                continue;
            }
            let candidate = url[..end].to_string();
            if !self.try_url(candidate) {
                cut /= 2;
            }
        }
    }
}

/// A body this large may need its size (the generator pads to the 500 KiB limits):
/// the minimizer's private `blank_lines_in_place` shrinks its records without moving any line.
pub const LARGE_BODY: usize = 64 * 1024;

fn is_comment_line(line: &[u8]) -> bool {
    line.trim_ascii_start().starts_with(b"#")
}

/// Where the path starts in an absolute URL (or 0 for a path): right after its origin
/// ([`reptest_reference::origin`]), when a `/` follows it.
fn path_start(url: &str) -> Option<usize> {
    if url.starts_with('/') {
        return Some(0);
    }
    let at = reptest_reference::origin(url)?.len();
    url[at..].starts_with('/').then_some(at)
}

/// The lines of `body`, each with its line end (LF, CRLF or a lone CR), as the
/// reference's syntax layer splits them ([`reptest_reference::syntax::lines`]).
pub(crate) fn split_lines(body: &[u8]) -> Vec<&[u8]> {
    reptest_reference::syntax::lines(body)
        .keep_bom()
        .map(|line| line.with_line_end(body))
        .collect()
}

fn split_terminator(line: &[u8]) -> (&[u8], &[u8]) {
    let content_len = line
        .iter()
        .rposition(|&b| b != b'\n' && b != b'\r')
        .map_or(0, |at| at + 1);
    line.split_at(content_len)
}

fn owned_lines(body: &[u8]) -> Vec<Vec<u8>> {
    split_lines(body).into_iter().map(<[u8]>::to_vec).collect()
}

fn with_line(lines: &[Vec<u8>], index: usize, replacement: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        out.extend_from_slice(if i == index { replacement } else { line });
    }
    out
}

fn replace(haystack: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(haystack.len());
    let mut i = 0;
    while i < haystack.len() {
        if haystack[i..].starts_with(from) {
            out.extend_from_slice(to);
            i += from.len();
        } else {
            out.push(haystack[i]);
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(url: &str) -> Query {
        Query {
            agent: "bot".into(),
            url: url.into(),
        }
    }

    #[test]
    fn lines_keep_their_terminators() {
        assert_eq!(
            split_lines(b"a\r\nb\rc\nd"),
            vec![&b"a\r\n"[..], b"b\r", b"c\n", b"d"]
        );
        assert!(split_lines(b"").is_empty());
    }

    #[test]
    fn shrinks_to_what_the_predicate_needs() {
        let body =
            b"# intro\r\nUser-agent: *\r\nAllow: /zzz\r\nDisallow: /a*b # why\r\nSitemap: x\r\n";
        let query = q("https://example.com/a/x/yb?q=1");
        let keep = |body: &[u8], query: &Query| {
            let text = String::from_utf8_lossy(body);
            text.contains("Disallow: /a*") && query.url.contains("/a")
        };
        let m = minimize_by(body, &query, keep, 2_000);
        assert_eq!(m.body, b"Disallow: /a*\n");
        assert_eq!(m.query.url, "https://example.com/a");
        assert!(m.evaluations < 200, "{}", m.evaluations);
    }

    #[test]
    fn the_budget_bounds_the_evaluations() {
        // Under BUDGET_BYTES: every candidate costs one unit.
        let body = "Disallow: /x\n".repeat(300);
        let mut calls = 0;
        let m = minimize_by(
            body.as_bytes(),
            &q("/x"),
            |_, _| {
                calls += 1;
                false
            },
            50,
        );
        assert_eq!(m.evaluations, 50);
        assert_eq!(calls, 50);
        assert_eq!(m.body, body.as_bytes());
    }

    #[test]
    fn a_passed_deadline_stops_before_any_candidate() {
        let body = "Disallow: /x\n".repeat(300);
        let mut calls = 0;
        let budget = Budget::from(2_000).until(std::time::Instant::now());
        let m = minimize_by(
            body.as_bytes(),
            &q("/x"),
            |_, _| {
                calls += 1;
                true
            },
            budget,
        );
        assert_eq!((calls, m.evaluations, m.stop), (0, 0, Stop::Deadline));
        assert_eq!(m.body, body.as_bytes());
    }

    #[test]
    fn a_deadline_cuts_a_long_minimization_short() {
        // Every candidate takes 5 ms; a 60-ms deadline allows about a dozen of 2,000.
        let body = "Disallow: /x\n".repeat(300);
        let started = std::time::Instant::now();
        let budget = Budget::from(2_000).until(started + std::time::Duration::from_millis(60));
        let m = minimize_by(
            body.as_bytes(),
            &q("/x"),
            |_, _| {
                std::thread::sleep(std::time::Duration::from_millis(5));
                false
            },
            budget,
        );
        assert_eq!(m.stop, Stop::Deadline);
        assert!(m.evaluations < 20, "{}", m.evaluations);
        assert!(started.elapsed() < std::time::Duration::from_millis(60 + 5 * 4));
    }

    #[test]
    fn a_large_input_that_needs_its_size_keeps_its_offsets_and_loses_its_other_records() {
        // The rule must end at the same offset (as at a size limit): the
        // other records become same-length comments, the padding stays.
        let comment = format!("#{}\n", "p".repeat(998));
        let head = "User-agent: *\nAllow: /keep\nDisallow: /junk1\n";
        let body = format!(
            "{head}{}Disallow: /x\nDisallow: /junk2\n",
            comment.repeat(70)
        );
        let end = body.find("Disallow: /x\n").unwrap() + "Disallow: /x\n".len();
        let keep = |body: &[u8], _: &Query| {
            body.get(end - 13..end) == Some(&b"Disallow: /x\n"[..])
                && String::from_utf8_lossy(body).contains("Allow: /keep\n")
        };
        let m = minimize_by(body.as_bytes(), &q("/x"), keep, 2_000);
        let text = String::from_utf8_lossy(&m.body);
        assert!(
            !text.contains("junk") && !text.contains("User-agent"),
            "{}",
            &text[..80]
        );
        assert!(keep(&m.body, &q("/x")));
    }

    #[test]
    fn a_tiny_budget_still_makes_a_few_tries_on_a_large_input() {
        // One candidate of this input costs 125 units, more than the whole budget.
        let comment = format!("#{}\n", "p".repeat(998));
        let body = format!("Disallow: /junk\n{}Disallow: /x\n", comment.repeat(512));
        let mut calls = 0;
        minimize_by(
            body.as_bytes(),
            &q("/x"),
            |_, _| {
                calls += 1;
                false
            },
            100,
        );
        assert_eq!(calls, MIN_EVALUATIONS);
    }

    #[test]
    fn stops_say_why() {
        let m = minimize_by(b"Disallow: /x\n", &q("/x"), |_, _| false, 2_000);
        assert_eq!(m.stop, Stop::Done);
        let body = "Disallow: /x\n".repeat(300);
        let m = minimize_by(body.as_bytes(), &q("/x"), |_, _| false, 10);
        assert_eq!(m.stop, Stop::Budget);
    }

    #[test]
    fn large_candidates_cost_more_of_the_budget() {
        assert_eq!(evaluation_cost(10), 1);
        assert_eq!(evaluation_cost(BUDGET_BYTES), 1);
        assert_eq!(evaluation_cost(BUDGET_BYTES + 1), 2);
        assert_eq!(evaluation_cost(512_000), 125);
        // 512,000 bytes of padding: a failed candidate of half of it costs 63 units, so a
        // budget of 200 allows a handful of calls, not 200.
        let comment = format!("#{}\n", "p".repeat(98));
        let body = format!("{}Disallow: /x\n", comment.repeat(5_120));
        let mut calls = 0;
        minimize_by(
            body.as_bytes(),
            &q("/x"),
            |_, _| {
                calls += 1;
                false
            },
            200,
        );
        assert!((2..10).contains(&calls), "{calls}");
    }
}
