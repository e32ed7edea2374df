//! Attribution: which known question of the catalogue (`corpus/questions.toml`) a
//! divergence is about, or none (a **new** one, for a person to look at).
//!
//! The method, from behaviour rather than from the text of the input:
//!
//! 1. Every question's example queries (ordinary corpus queries, decided from the RFC)
//!    are put to every implementation of the campaign once, at its start ([`probe`]).
//! 2. A [`Dissent`] (implementation X answering against the majority, witness Y of the
//!    majority) is attributed to question Q when
//!    - Q shows in the dissent's input: every dimension that all of Q's examples have is
//!      in the dissent's dimensions (and an input at a size limit only goes to a
//!      size-limit question: beyond a limit whole rules stop counting, RFC 9309 §2.5);
//!    - X and Y give different verdicts on one of Q's examples: the two split on Q.
//! 3. Among several such questions, the one sharing the most dimensions with the dissent
//!    wins, then one whose example has the reference decide by the dissent's kind of rule,
//!    then one where X answers the example as it answered the dissent, then the first in
//!    the catalogue. The choice is deterministic.
//! 4. A signature goes to the question most of its dissents go to ([`Attribution::of_signature`]).
//!
//! What it cannot do: tell two questions apart whose examples split the same pair of
//! implementations in the same dimensions. The catalogue's examples decide how sharp it
//! is; `harness/cli/tests/fuzz.rs` measures it on the committed findings (each finding,
//! with its own examples left out, must be attributed to its own question).

use crate::signature::{dissents, rule_kind, Dissent, Signature};
use rayon::prelude::*;
use reptest_core::{CaseInput, Implementation, QueryInput};
use reptest_corpus::{Corpus, Dimension, OutcomeWord};
use std::collections::{BTreeMap, BTreeSet};

/// A question's examples, to be put to implementations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuestionProbe {
    /// The question id (`Q-…`).
    pub id: String,
    /// Its example queries that need no fetch outcome.
    pub examples: Vec<ProbeExample>,
}

/// One example query of a question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbeExample {
    /// The query id in the corpus (`case-id/N`).
    pub query: String,
    /// The robots.txt body.
    pub body: Vec<u8>,
    /// The product token.
    pub agent: String,
    /// The URL.
    pub url: String,
}

/// The probes of every question of a corpus, in catalogue order. Examples with a fetch
/// outcome are left out (campaigns only generate bodies).
///
/// ```
/// let corpus = reptest_corpus::Corpus::load(reptest_corpus::default_dir()).unwrap();
/// let probes = reptest_fuzz_diff::attribution::probes_of(&corpus);
/// assert_eq!(probes.len(), corpus.questions().len());
/// ```
pub fn probes_of(corpus: &Corpus) -> Vec<QuestionProbe> {
    corpus
        .questions()
        .iter()
        .map(|question| QuestionProbe {
            id: question.id.clone(),
            examples: question
                .examples
                .iter()
                .filter_map(|id| {
                    let (case, query) = corpus
                        .queries()
                        .find(|(_, q)| q.id == *id && q.question.is_some())?;
                    case.fetch.is_none().then(|| ProbeExample {
                        query: id.clone(),
                        body: case.body.clone(),
                        agent: query.agent.clone(),
                        url: query.url.clone(),
                    })
                })
                .collect(),
        })
        .collect()
}

/// What each implementation answered to each question's examples, ready to attribute.
#[derive(Debug, Clone, Default)]
pub struct Attribution {
    known: Vec<Known>,
}

#[derive(Debug, Clone)]
struct Known {
    id: String,
    /// The dimensions every example has.
    dimensions: BTreeSet<Dimension>,
    /// Per example: the reference's rule kind, and implementation name to outcome word.
    examples: Vec<(Option<String>, BTreeMap<String, OutcomeWord>)>,
}

/// Puts every probe's examples to every implementation (in parallel, one case per example).
pub fn probe(probes: &[QuestionProbe], implementations: &[&dyn Implementation]) -> Attribution {
    let answers: Vec<Vec<BTreeMap<String, OutcomeWord>>> = probes
        .par_iter()
        .map(|probe| {
            probe
                .examples
                .iter()
                .map(|example| {
                    let queries = [QueryInput {
                        agent: &example.agent,
                        url: &example.url,
                    }];
                    let input = CaseInput {
                        robots: &example.body,
                        fetch: None,
                        queries: &queries,
                    };
                    implementations
                        .par_iter()
                        .map(|i| {
                            let word = reptest_core::runner::evaluate(*i, &input)
                                .first()
                                .map_or(OutcomeWord::Error, |o| o.kind());
                            (i.name().to_string(), word)
                        })
                        .collect()
                })
                .collect()
        })
        .collect();
    Attribution::from_answers(probes, answers)
}

impl Attribution {
    /// An attribution from answers already known: `answers[q][e]` maps implementation
    /// names to what they answered to example `e` of probe `q`.
    pub fn from_answers(
        probes: &[QuestionProbe],
        answers: Vec<Vec<BTreeMap<String, OutcomeWord>>>,
    ) -> Attribution {
        let known = probes
            .iter()
            .zip(answers)
            .filter(|(probe, _)| !probe.examples.is_empty())
            .map(|(probe, answers)| {
                let mut dimensions: Option<BTreeSet<Dimension>> = None;
                for example in &probe.examples {
                    let these =
                        reptest_fuzz_gen::dimensions(&example.body, &example.agent, &example.url);
                    dimensions = Some(match dimensions {
                        None => these,
                        Some(so_far) => so_far.intersection(&these).copied().collect(),
                    });
                }
                Known {
                    id: probe.id.clone(),
                    dimensions: dimensions.unwrap_or_default(),
                    examples: probe
                        .examples
                        .iter()
                        .zip(answers)
                        .map(|(e, words)| (rule_kind(&e.body, &e.agent, &e.url), words))
                        .collect(),
                }
            })
            .collect();
        Attribution { known }
    }

    /// Whether there is no question to attribute to.
    pub fn is_empty(&self) -> bool {
        self.known.is_empty()
    }

    /// The question a dissent is about (see the module documentation), if any.
    pub fn of_dissent(&self, dissent: &Dissent) -> Option<&str> {
        let size = Dimension::SizeLimits;
        self.known
            .iter()
            .enumerate()
            .filter(|(_, q)| {
                q.dimensions.is_subset(&dissent.dimensions)
                    && (!dissent.dimensions.contains(&size) || q.dimensions.contains(&size))
            })
            .filter_map(|(at, q)| {
                // The best example on which the two split.
                let best = q
                    .examples
                    .iter()
                    .filter_map(|(kind, words)| {
                        let x = words.get(&dissent.implementation)?;
                        let y = words.get(&dissent.witness)?;
                        (x.verdict().is_some() && y.verdict().is_some() && x != y)
                            .then_some((*kind == dissent.rule_kind, *x == dissent.word))
                    })
                    .max()?;
                Some(((q.dimensions.len(), best.0, best.1, usize::MAX - at), q))
            })
            .max_by_key(|(score, _)| *score)
            .map(|(_, q)| q.id.as_str())
    }

    /// The question a signature is about: the one most of its dissents go to (on a tie,
    /// the first in the catalogue), `None` when no dissent goes to any. `preferred` orders
    /// the witnesses as in the campaign (the reference and in-process ones first).
    pub fn of_signature(&self, signature: &Signature, preferred: &[String]) -> Option<&str> {
        let mut votes: BTreeMap<usize, usize> = BTreeMap::new();
        for dissent in dissents(signature, preferred) {
            if let Some(id) = self.of_dissent(&dissent) {
                if let Some(at) = self.known.iter().position(|q| q.id == id) {
                    *votes.entry(at).or_insert(0) += 1;
                }
            }
        }
        votes
            .into_iter()
            .max_by_key(|&(at, n)| (n, usize::MAX - at))
            .map(|(at, _)| self.known[at].id.as_str())
    }
}
