//! Attribution: which known question of the catalogue (`corpus/questions.toml`) a
//! divergence is about, or none (a **new** one, for a person to look at).
//!
//! The method needs both what the input shows and how the implementations behave:
//!
//! 1. Every question names the [features](crate::features) a divergence about it shows
//!    in its input (`features = ["lone-cr"]`): a question is a candidate only when the
//!    divergence's minimized input has all of them.
//! 2. Every question's example queries (ordinary corpus queries, decided from the RFC)
//!    are put to every implementation of the campaign once, at its start ([`probe`]).
//! 3. A candidate's *similarity* to the divergence is, over the implementations that gave
//!    a verdict on both, the share that fall on the same side (the sides matched either
//!    way round), taken for its example that splits them most alike; both must split at
//!    least two implementations. The candidate with the highest similarity wins, then the
//!    one with the most features, then the first in the catalogue. Below
//!    [`MIN_SIMILARITY`], or with no candidate, the divergence is new.
//!
//! A padded input keeps its size through minimization, so `past-limit` is a feature like
//! any other: a divergence about group merging in a padded input still goes to the
//! group-merging question.
//!
//! `harness/cli/tests/integration/fuzz.rs` measures it on the committed findings from their recorded
//! answers, each finding left out of its question's examples.

use crate::features::Feature;
use crate::signature::Signature;
use rayon::prelude::*;
use reptest_core::{CaseInput, Implementation, QueryInput};
use reptest_corpus::{Corpus, OutcomeWord};
use std::collections::{BTreeMap, BTreeSet};

/// A question's examples, to be put to implementations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuestionProbe {
    /// The question id (`Q-…`).
    pub id: String,
    /// The features a divergence about it shows ([`crate::features`]).
    pub features: Vec<String>,
    /// Its example queries that need no fetch outcome.
    pub examples: Vec<ProbeExample>,
}

/// One example query of a question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProbeExample {
    /// The query id in the corpus (`case-id/name`).
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
/// let probes = reptest_triage::attribution::probes_of(&corpus);
/// assert_eq!(probes.len(), corpus.questions().len());
/// ```
pub fn probes_of(corpus: &Corpus) -> Vec<QuestionProbe> {
    corpus
        .questions()
        .iter()
        .map(|question| QuestionProbe {
            id: question.id.clone(),
            features: question.features.clone(),
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
    /// The features a divergence about it needs; `None` when the question names one that
    /// is no [`Feature`] (it is then no candidate).
    features: Option<BTreeSet<Feature>>,
    /// Per example: implementation name to outcome word.
    examples: Vec<BTreeMap<String, OutcomeWord>>,
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
            .map(|(probe, answers)| Known {
                id: probe.id.clone(),
                features: probe
                    .features
                    .iter()
                    .map(|name| Feature::from_name(name))
                    .collect(),
                examples: answers,
            })
            .collect();
        Attribution { known }
    }

    /// Whether there is no question to attribute to.
    pub fn is_empty(&self) -> bool {
        self.known.is_empty()
    }

    /// The question of a signature whose minimized input is `body`, `agent`, `url`
    /// (see the module documentation), if any.
    pub fn of_signature(
        &self,
        signature: &Signature,
        body: &[u8],
        agent: &str,
        url: &str,
    ) -> Option<&str> {
        let verdicts: BTreeMap<&str, bool> = signature
            .partition
            .iter()
            .filter_map(|(word, names)| word.verdict().map(|v| (v, names)))
            .flat_map(|(v, names)| names.iter().map(move |n| (n.as_str(), v)))
            .collect();
        let features = crate::features::features(body, agent, url);
        self.of_verdicts(&verdicts, &features)
    }

    /// The question of a divergence given as each implementation's verdict (`true`:
    /// allowed) and the [features](crate::features) of its input.
    pub fn of_verdicts(
        &self,
        verdicts: &BTreeMap<&str, bool>,
        features: &BTreeSet<Feature>,
    ) -> Option<&str> {
        self.best(verdicts, features)
            .filter(|(_, similarity)| *similarity >= MIN_SIMILARITY)
            .map(|(id, _)| id)
    }

    /// The best candidate question with its similarity, whatever the similarity.
    pub fn best(
        &self,
        verdicts: &BTreeMap<&str, bool>,
        features: &BTreeSet<Feature>,
    ) -> Option<(&str, f64)> {
        let mut best: Option<((u32, usize, usize), &str)> = None;
        for (at, q) in self.known.iter().enumerate() {
            let Some(needed) = q.features.as_ref() else {
                continue;
            };
            if needed.is_empty() || !needed.is_subset(features) {
                continue;
            }
            for words in &q.examples {
                let Some(similarity) = similarity(verdicts, words) else {
                    continue;
                };
                let score = (
                    (similarity * 1000.0).round() as u32,
                    needed.len(),
                    usize::MAX - at,
                );
                if best.as_ref().is_none_or(|(b, _)| score > *b) {
                    best = Some((score, q.id.as_str()));
                }
            }
        }
        best.map(|(score, id)| (id, f64::from(score.0) / 1000.0))
    }
}

/// How alike the split of a divergence and that of a question's example must be for the
/// divergence to go to the question: the share of the implementations answering both
/// that fall on the same side. Below it, the divergence is new.
pub const MIN_SIMILARITY: f64 = 0.75;

/// Of the implementations that gave a verdict both on the divergence and on the example
/// (at least two, split both times), the share that fall on the same side, the sides
/// matched either way round (an example may test the allow side of what a divergence
/// shows on the disallow side). `None` when they share too little to compare.
fn similarity(
    verdicts: &BTreeMap<&str, bool>,
    example: &BTreeMap<String, OutcomeWord>,
) -> Option<f64> {
    let pairs: Vec<(bool, bool)> = verdicts
        .iter()
        .filter_map(|(name, &v)| Some((v, example.get(*name)?.verdict()?)))
        .collect();
    let split = |side: fn(&(bool, bool)) -> bool| pairs.iter().any(side) && !pairs.iter().all(side);
    if pairs.len() < 2 || !split(|p| p.0) || !split(|p| p.1) {
        return None;
    }
    let same = pairs.iter().filter(|(a, b)| a == b).count();
    let most = same.max(pairs.len() - same);
    Some(most as f64 / pairs.len() as f64)
}
