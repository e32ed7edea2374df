//! A differential fuzzing campaign: generated inputs through every implementation,
//! divergences grouped by [`Signature`], one minimized example per signature.
//!
//! Reproducible from the seed: input `i` is generated from `splitmix(seed, i)`; inputs
//! are evaluated in parallel chunk by chunk and merged in input order, so the signatures
//! and counts found in a given number of inputs never depend on thread timing. The time
//! budget only decides how many inputs run; [`CampaignOptions::inputs`] fixes it.
//!
//! The time budget covers minimization: no input starts and no minimization candidate
//! is tried after it. A run can pass it by what is in flight at that moment (one input's
//! or one candidate's evaluation, at most an adapter's timeout). Minimizations cut short
//! keep the smaller input found so far ([`Found::minimize_stop`]); dissents that no
//! signature explains when time runs out are counted in
//! [`CampaignReport::unminimized`].
//!
//! In-process implementations answer every input. External ones (processes, about a
//! thousand times slower) answer only the queries already divergent in process, plus
//! every query of one input in [`CampaignOptions::external_sample`], one batched case per
//! input.

mod steps;

use reptest_core::{ImplKind, Implementation};
use reptest_corpus::{Dimension, OutcomeWord};
use reptest_triage::attribution::QuestionProbe;
use reptest_triage::minimize::{Stop, DEFAULT_BUDGET};
use reptest_triage::signature::Signature;
use serde::Serialize;
use std::time::Duration;
use steps::Campaign;

/// What a campaign runs.
#[derive(Debug, Clone)]
pub struct CampaignOptions {
    /// The time budget (ignored when `inputs` is given).
    pub seconds: f64,
    /// The campaign seed.
    pub seed: u64,
    /// Run exactly this many inputs, whatever the time (for reproducible campaigns).
    pub inputs: Option<u64>,
    /// External implementations also answer every query of one input in this many
    /// (0: only the queries already divergent in process).
    pub external_sample: u64,
    /// Inputs evaluated in parallel between two merges.
    pub chunk: u64,
    /// Predicate calls allowed per minimization with in-process implementations only
    /// (a twentieth of it when external ones take part).
    pub minimize_budget: usize,
    /// Raw examples kept per signature besides the minimized one.
    pub raw_examples: usize,
    /// The known questions, to attribute signatures to
    /// ([`attribution`](reptest_triage::attribution)); empty: every signature is new.
    pub questions: Vec<QuestionProbe>,
}

impl Default for CampaignOptions {
    fn default() -> Self {
        CampaignOptions {
            seconds: 60.0,
            seed: 1,
            inputs: None,
            external_sample: 64,
            chunk: 512,
            minimize_budget: DEFAULT_BUDGET,
            raw_examples: 3,
            questions: Vec::new(),
        }
    }
}

/// Where a campaign is, for a progress display.
#[derive(Debug, Clone, Copy)]
pub struct CampaignProgress {
    /// Inputs done.
    pub inputs: u64,
    /// Executions done (input × implementation × query).
    pub execs: u64,
    /// Distinct signatures so far.
    pub signatures: usize,
    /// Time since the start.
    pub elapsed: Duration,
}

/// One input and query with every implementation's outcome word.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Example {
    /// The index of the generated input it comes from.
    pub input: u64,
    /// The robots.txt body.
    #[serde(serialize_with = "lossy")]
    pub body: Vec<u8>,
    /// The query.
    pub agent: String,
    /// The URL.
    pub url: String,
    /// Implementation name to outcome word, sorted by name.
    pub observed: Vec<(String, OutcomeWord)>,
}

fn lossy<S: serde::Serializer>(body: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&String::from_utf8_lossy(body))
}

/// How many signatures, and how many raw hits, went to one question.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct QuestionTally {
    /// The question id, or `new`.
    pub question: String,
    /// Signatures attributed to it.
    pub signatures: usize,
    /// Their raw hits.
    pub hits: u64,
}

/// One signature found.
#[derive(Debug, Clone, Serialize)]
pub struct Found {
    /// The signature (dimensions from the minimized example).
    pub signature: Signature,
    /// Raw inputs that showed it.
    pub hits: u64,
    /// The minimized example.
    pub minimized: Example,
    /// Predicate calls the minimization made.
    pub minimize_evaluations: usize,
    /// Why the minimization stopped: `done` (as small as the passes get it), `budget`
    /// or `deadline` (the campaign's time ran out; the example may be larger than needed).
    pub minimize_stop: Stop,
    /// Up to [`CampaignOptions::raw_examples`] raw examples, in input order.
    pub raw: Vec<Example>,
    /// The known question it is about ([`attribution`](reptest_triage::attribution)); `None`: new.
    pub question: Option<String>,
}

/// What a campaign found, and how fast.
#[derive(Debug, Clone, Serialize)]
pub struct CampaignReport {
    /// The seed.
    pub seed: u64,
    /// Inputs generated.
    pub inputs: u64,
    /// Queries generated (over all inputs).
    pub queries: u64,
    /// Executions: one implementation answering one query.
    pub execs: u64,
    /// Wall time, in seconds.
    pub seconds: f64,
    /// Time spent minimizing, in seconds (included in `seconds`).
    pub minimize_seconds: f64,
    /// Dissents (one implementation against the majority on one query) that no signature
    /// explained when the time budget ran out, so were neither minimized nor counted.
    pub unminimized: u64,
    /// Threads the inputs were evaluated on.
    pub threads: usize,
    /// The implementations, in process first.
    pub in_process: Vec<String>,
    /// The external implementations (sampled).
    pub external: Vec<String>,
    /// Every signature, most hits first (then by signature).
    pub signatures: Vec<Found>,
    /// Signatures and raw hits per known question, in catalogue order (questions no
    /// signature went to included, with zeros); `new` for the rest.
    pub per_question: Vec<QuestionTally>,
    /// Questions known to the campaign.
    pub questions_known: usize,
}

impl CampaignReport {
    /// Executions per second, over the whole campaign.
    pub fn execs_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.execs as f64 / self.seconds
        } else {
            0.0
        }
    }

    /// Executions per second per thread while evaluating (minimization excluded): the
    /// differential throughput.
    pub fn execs_per_second_per_thread(&self) -> f64 {
        let evaluating = self.seconds - self.minimize_seconds;
        if evaluating > 0.0 && self.threads > 0 {
            self.execs as f64 / evaluating / self.threads as f64
        } else {
            0.0
        }
    }

    /// How many signatures carry each dimension (every dimension listed, in order),
    /// plus `none` for signatures without any.
    pub fn per_dimension(&self) -> Vec<(String, usize)> {
        let mut out: Vec<(String, usize)> = Dimension::ALL
            .iter()
            .map(|d| {
                let n = self
                    .signatures
                    .iter()
                    .filter(|f| f.signature.dimensions.contains(d))
                    .count();
                (d.as_str().to_string(), n)
            })
            .collect();
        let none = self
            .signatures
            .iter()
            .filter(|f| f.signature.dimensions.is_empty())
            .count();
        out.push(("none".into(), none));
        out
    }
}

/// The seed of input `index` of a campaign: splitmix64 over `seed` and `index`.
pub fn splitmix(seed: u64, index: u64) -> u64 {
    let mut z = seed
        .wrapping_add(index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Runs a campaign with `implementations` (in-process and external ones are told apart
/// by their [`ImplKind`]: processes are sampled rather than run on every input);
/// `progress` is called after every chunk.
pub fn run_campaign(
    options: &CampaignOptions,
    implementations: &[Box<dyn Implementation>],
    progress: &(dyn Fn(CampaignProgress) + Sync),
) -> CampaignReport {
    let (outside, inside): (Vec<&dyn Implementation>, Vec<&dyn Implementation>) = implementations
        .iter()
        .map(|i| i.as_ref())
        .partition(|i| i.info().kind != ImplKind::InProcess);
    run_split(options, &inside, &outside, progress)
}

/// [`run_campaign`] with the implementations already split into in-process and
/// external ones.
pub fn run_split(
    options: &CampaignOptions,
    inside: &[&dyn Implementation],
    outside: &[&dyn Implementation],
    progress: &(dyn Fn(CampaignProgress) + Sync),
) -> CampaignReport {
    let mut campaign = Campaign::new(options, inside, outside);
    let attribution = campaign.probe_questions();
    while let Some(end) = campaign.next_chunk() {
        let hits = campaign.evaluate_chunk(end);
        let explained_by = campaign.explain(&hits);
        campaign.count_hits(hits, explained_by);
        progress(campaign.progress());
    }
    campaign.report(&attribution)
}

/// Signatures and hits per question, in catalogue order, then `new`.
fn tally(questions: &[QuestionProbe], signatures: &[Found]) -> Vec<QuestionTally> {
    let mut out: Vec<QuestionTally> = questions
        .iter()
        .map(|q| QuestionTally {
            question: q.id.clone(),
            signatures: 0,
            hits: 0,
        })
        .collect();
    out.push(QuestionTally {
        question: "new".into(),
        signatures: 0,
        hits: 0,
    });
    for found in signatures {
        let at = found
            .question
            .as_deref()
            .and_then(|id| out.iter().position(|t| t.question == id))
            .unwrap_or(out.len() - 1);
        out[at].signatures += 1;
        out[at].hits += found.hits;
    }
    out
}

impl CampaignReport {
    /// The share of raw hits (summed over signatures) that went to known questions, in
    /// [0, 1]; 0 when nothing was found.
    pub fn attributed_share(&self) -> f64 {
        let total: u64 = self.signatures.iter().map(|f| f.hits).sum();
        let known: u64 = self
            .signatures
            .iter()
            .filter(|f| f.question.is_some())
            .map(|f| f.hits)
            .sum();
        if total == 0 {
            0.0
        } else {
            known as f64 / total as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_spreads_indices() {
        assert_ne!(splitmix(1, 0), splitmix(1, 1));
        assert_ne!(splitmix(1, 0), splitmix(2, 0));
        assert_eq!(splitmix(7, 9), splitmix(7, 9));
    }
}
