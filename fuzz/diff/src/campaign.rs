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

use crate::attribution::{self, Attribution, QuestionProbe};
use crate::minimize::{minimize_dissent, Budget, Stop, DEFAULT_BUDGET};
use crate::signature::{dissents, is_divergent, partition, rule_kind_in, Dissent, Signature};
use rayon::prelude::*;
use reptest_core::{CaseInput, ImplKind, Implementation, Outcome, QueryInput};
use reptest_corpus::{Dimension, OutcomeWord};
use reptest_fuzz_gen::{generate_from_seed, FuzzQuery};
use reptest_reference::Robots;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::time::{Duration, Instant};

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
    /// The known questions, to attribute signatures to ([`attribution`]); empty: every
    /// signature is new.
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
    /// The known question it is about ([`attribution`]); `None`: new.
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

/// One divergent query of one input, before merging: who answers against the majority.
struct Hit {
    dissents: Vec<Dissent>,
    example: Example,
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
    let started = Instant::now();
    let inside_names: Vec<String> = inside.iter().map(|i| i.name().to_string()).collect();
    let outside_names: Vec<String> = outside.iter().map(|i| i.name().to_string()).collect();
    // Blocking external adapters want more threads than cores, as in the runner.
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let threads = if outside.is_empty() {
        threads
    } else {
        (threads * 2).max(4)
    };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
    let in_pool = |f: &mut (dyn FnMut() + Send)| match &pool {
        Ok(pool) => pool.install(f),
        Err(_) => f(),
    };

    // How every implementation answers each known question's examples, once.
    let mut attribution = Attribution::default();
    if !options.questions.is_empty() {
        let all: Vec<&dyn Implementation> = inside.iter().chain(outside).copied().collect();
        in_pool(&mut || attribution = attribution::probe(&options.questions, &all));
    }
    let mut found: BTreeMap<Signature, Found> = BTreeMap::new();
    // Every dissent key minimized so far (a key whose minimization explained nothing is
    // not tried again).
    let mut tried: HashSet<DissentKey> = HashSet::new();
    let (mut inputs, mut queries, mut execs) = (0u64, 0u64, 0u64);
    let mut minimize_time = Duration::ZERO;
    // With external implementations a chunk takes far longer: smaller chunks keep a
    // time budget from being overrun by much (the results do not depend on the chunk).
    let chunk = if outside.is_empty() || options.inputs.is_some() {
        options.chunk.max(1)
    } else {
        (options.chunk / 8).max(1)
    };
    // A time-bounded campaign ends at its deadline, minimization included; one with a
    // fixed number of inputs has none (its results must not depend on the machine).
    let deadline = match options.inputs {
        Some(_) => None,
        None => Duration::try_from_secs_f64(options.seconds.max(0.0))
            .ok()
            .and_then(|budget| started.checked_add(budget)),
    };
    let past_deadline = || deadline.is_some_and(|d| Instant::now() >= d);
    let mut unminimized = 0u64;
    let mut out_of_time = false;
    while !out_of_time {
        let end = match options.inputs {
            Some(limit) if inputs >= limit => break,
            Some(limit) => (inputs + chunk).min(limit),
            None if past_deadline() => break,
            None => inputs + chunk,
        };
        let mut results = Vec::new();
        in_pool(&mut || {
            results = (inputs..end)
                .into_par_iter()
                .map(|index| {
                    // No input starts after the deadline.
                    (!past_deadline()).then(|| {
                        evaluate_input(
                            options,
                            index,
                            inside,
                            outside,
                            &inside_names,
                            &outside_names,
                        )
                    })
                })
                .collect::<Vec<_>>();
        });
        // The inputs done form a prefix (in input order) of the chunk.
        let done = results.iter().take_while(|r| r.is_some()).count();
        out_of_time = done < results.len();
        let end = inputs + done as u64;
        // Merge in input order; note the dissents no signature explains yet.
        let mut merged: Vec<Hit> = Vec::new();
        for (q, e, hits) in results.into_iter().map_while(|r| r) {
            queries += q;
            execs += e;
            merged.extend(hits);
        }
        // Walk the dissents in input order, as a sequential campaign would: a dissent
        // that a signature found so far explains counts as a hit of it; any other is
        // minimized (once per key), and its minimized input's signature is new. The
        // minimizations run ahead in parallel, a wave of the next unexplained keys at a
        // time; each is a pure function of its dissent and example, so neither thread
        // timing nor chunking changes the result.
        let flat: Vec<(usize, &Dissent)> = merged
            .iter()
            .enumerate()
            .flat_map(|(h, hit)| hit.dissents.iter().map(move |d| (h, d)))
            .collect();
        let mut ahead: HashMap<DissentKey, Option<MinimizedDissent>> = HashMap::new();
        let mut hit_signatures: Vec<BTreeSet<Signature>> = vec![BTreeSet::new(); merged.len()];
        let minimize_started = Instant::now();
        let wave = threads.max(2) * 2;
        let mut pos = 0;
        while pos < flat.len() {
            let (h, dissent) = flat[pos];
            if let Some(signature) = explaining(&found, dissent) {
                hit_signatures[h].insert(signature);
                pos += 1;
                continue;
            }
            let key = DissentKey::of(dissent);
            if tried.contains(&key) {
                pos += 1;
                continue;
            }
            if past_deadline() && !ahead.contains_key(&key) {
                // Time is up: no new minimization starts.
                unminimized += 1;
                out_of_time = true;
                pos += 1;
                continue;
            }
            if let Some(result) = ahead.remove(&key) {
                tried.insert(key);
                // A minimized input whose signature does not explain the dissent (an
                // implementation answered differently on the second asking) is dropped.
                if let Some((signature, example, evaluations, stop)) =
                    result.filter(|(signature, ..)| dissent.explained_by(signature))
                {
                    found.entry(signature.clone()).or_insert(Found {
                        signature,
                        hits: 0,
                        minimized: example,
                        minimize_evaluations: evaluations,
                        minimize_stop: stop,
                        raw: Vec::new(),
                        question: None,
                    });
                }
                // Not `pos += 1`: the dissent is looked up again with the new signature.
                if explaining(&found, dissent).is_none() {
                    pos += 1;
                }
                continue;
            }
            // Minimize this dissent and the next few unexplained ones, in parallel.
            let mut batch: Vec<(DissentKey, &Dissent, &Example)> = Vec::new();
            for &(h, d) in &flat[pos..] {
                if batch.len() >= wave {
                    break;
                }
                let k = DissentKey::of(d);
                if !tried.contains(&k)
                    && !batch.iter().any(|(b, _, _)| *b == k)
                    && !explained(&found, d)
                {
                    batch.push((k, d, &merged[h].example));
                }
            }
            let mut minimized = Vec::new();
            in_pool(&mut || {
                minimized = batch
                    .par_iter()
                    .map(|(_, dissent, example)| {
                        minimize_for(options, deadline, dissent, example, inside, outside)
                    })
                    .collect::<Vec<_>>();
            });
            for ((k, _, _), result) in batch.into_iter().zip(minimized) {
                ahead.insert(k, result);
            }
        }
        minimize_time += minimize_started.elapsed();
        for (hit, signatures) in merged.into_iter().zip(hit_signatures) {
            // Every signature that explains one of the query's dissents gets the hit once.
            for key in signatures {
                if let Some(entry) = found.get_mut(&key) {
                    entry.hits += 1;
                    if entry.raw.len() < options.raw_examples {
                        entry.raw.push(hit.example.clone());
                    }
                }
            }
        }
        inputs = end;
        progress(CampaignProgress {
            inputs,
            execs,
            signatures: found.len(),
            elapsed: started.elapsed(),
        });
    }
    let mut signatures: Vec<Found> = found.into_values().collect();
    signatures.sort_by(|a, b| b.hits.cmp(&a.hits).then(a.signature.cmp(&b.signature)));
    for found in &mut signatures {
        let example = &found.minimized;
        found.question = attribution
            .of_signature(
                &found.signature,
                &example.body,
                &example.agent,
                &example.url,
            )
            .map(str::to_string);
    }
    let per_question = tally(&options.questions, &signatures);
    CampaignReport {
        seed: options.seed,
        inputs,
        queries,
        execs,
        seconds: started.elapsed().as_secs_f64(),
        minimize_seconds: minimize_time.as_secs_f64(),
        unminimized,
        threads,
        in_process: inside_names,
        external: outside_names,
        signatures,
        per_question,
        questions_known: options.questions.len(),
    }
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

/// The signature found so far that explains a dissent (see [`Dissent::explained_by`]):
/// the one with the most dimensions, then the smallest.
fn explaining(found: &BTreeMap<Signature, Found>, dissent: &Dissent) -> Option<Signature> {
    found
        .keys()
        .filter(|s| dissent.explained_by(s))
        .max_by(|a, b| {
            a.dimensions
                .len()
                .cmp(&b.dimensions.len())
                .then_with(|| b.cmp(a))
        })
        .cloned()
}

fn explained(found: &BTreeMap<Signature, Found>, dissent: &Dissent) -> bool {
    found.keys().any(|s| dissent.explained_by(s))
}

/// What makes two dissents the same for minimization (the witness aside).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct DissentKey {
    implementation: String,
    word: OutcomeWord,
    dimensions: BTreeSet<Dimension>,
    rule_kind: Option<String>,
}

impl DissentKey {
    fn of(d: &Dissent) -> DissentKey {
        DissentKey {
            implementation: d.implementation.clone(),
            word: d.word,
            dimensions: d.dimensions.clone(),
            rule_kind: d.rule_kind.clone(),
        }
    }
}

/// Generates and evaluates input `index`: (queries, executions, divergent hits).
fn evaluate_input(
    options: &CampaignOptions,
    index: u64,
    inside: &[&dyn Implementation],
    outside: &[&dyn Implementation],
    inside_names: &[String],
    outside_names: &[String],
) -> (u64, u64, Vec<Hit>) {
    let input = generate_from_seed(splitmix(options.seed, index));
    let query_inputs: Vec<QueryInput<'_>> = input.queries.iter().map(QueryInput::from).collect();
    let n = query_inputs.len();
    let mut execs = 0u64;
    // outcomes[impl][query], in process.
    let inner: Vec<Vec<Outcome>> = inside
        .iter()
        .map(|i| answers(*i, &input.body, &query_inputs))
        .collect();
    execs += (inside.len() * n) as u64;
    let in_partition = |q: usize| {
        partition(
            inside_names,
            &inner.iter().map(|o| o[q].clone()).collect::<Vec<_>>(),
        )
    };
    let sampled = options.external_sample > 0 && index.is_multiple_of(options.external_sample);
    let wanted: Vec<usize> = (0..n)
        .filter(|&q| sampled || is_divergent(&in_partition(q)))
        .collect();
    let mut outer: Vec<Vec<Outcome>> = Vec::new();
    if !outside.is_empty() && !wanted.is_empty() {
        let batch: Vec<QueryInput<'_>> = wanted.iter().map(|&q| query_inputs[q]).collect();
        outer = outside
            .par_iter()
            .map(|i| answers(*i, &input.body, &batch))
            .collect();
        execs += (outside.len() * batch.len()) as u64;
    }
    let mut hits = Vec::new();
    let all_names: Vec<String> = inside_names.iter().chain(outside_names).cloned().collect();
    // The reference's parse, once per input, for the rule kind of each divergent query.
    let mut parsed: Option<Robots> = None;
    for q in 0..n {
        let mut outcomes: Vec<Outcome> = inner.iter().map(|o| o[q].clone()).collect();
        let mut names: &[String] = inside_names;
        if let Some(at) = wanted
            .iter()
            .position(|&w| w == q)
            .filter(|_| !outer.is_empty())
        {
            outcomes.extend(outer.iter().map(|o| o[at].clone()));
            names = &all_names;
        }
        let p = partition(names, &outcomes);
        if !is_divergent(&p) {
            continue;
        }
        let FuzzQuery { agent, url } = &input.queries[q];
        let signature = Signature {
            partition: p,
            dimensions: reptest_fuzz_gen::dimensions(&input.body, agent, url),
            rule_kind: rule_kind_in(
                parsed.get_or_insert_with(|| Robots::parse(&input.body)),
                agent,
                url,
            ),
        };
        let dissents = dissents(&signature, &all_names);
        let mut observed: Vec<(String, OutcomeWord)> = names
            .iter()
            .zip(&outcomes)
            .map(|(name, o)| (name.clone(), o.kind()))
            .collect();
        observed.sort();
        hits.push(Hit {
            dissents,
            example: Example {
                input: index,
                body: input.body.clone(),
                agent: agent.clone(),
                url: url.clone(),
                observed,
            },
        });
    }
    (n as u64, execs, hits)
}

/// One outcome per query, whatever the adapter does.
fn answers(
    implementation: &dyn Implementation,
    body: &[u8],
    queries: &[QueryInput<'_>],
) -> Vec<Outcome> {
    let input = CaseInput {
        robots: body,
        fetch: None,
        queries,
    };
    reptest_core::runner::evaluate(implementation, &input)
}

/// Minimizes `example` for one dissent (see [`minimize_dissent`]), then asks every
/// implementation that answered the raw query about the minimized one: the signature of
/// the result, the minimized example, the evaluations made and why it stopped. `None`
/// when the dissenter or witness is not among the implementations.
fn minimize_for(
    options: &CampaignOptions,
    deadline: Option<Instant>,
    dissent: &Dissent,
    example: &Example,
    inside: &[&dyn Implementation],
    outside: &[&dyn Implementation],
) -> Option<MinimizedDissent> {
    let all: Vec<&dyn Implementation> = inside.iter().chain(outside).copied().collect();
    let find = |name: &str| all.iter().copied().find(|i| i.name() == name);
    let dissenter = find(&dissent.implementation)?;
    let witness = find(&dissent.witness)?;
    let external = outside
        .iter()
        .any(|i| i.name() == dissenter.name() || i.name() == witness.name());
    let mut budget = Budget::from(if external {
        options.minimize_budget / 20
    } else {
        options.minimize_budget
    });
    if let Some(deadline) = deadline {
        budget = budget.until(deadline);
    }
    let query = FuzzQuery {
        agent: example.agent.clone(),
        url: example.url.clone(),
    };
    let m = minimize_dissent(&example.body, &query, dissenter, witness, dissent, budget);
    let answered: BTreeSet<&str> = example.observed.iter().map(|(n, _)| n.as_str()).collect();
    let chosen: Vec<&dyn Implementation> = all
        .iter()
        .copied()
        .filter(|i| answered.contains(i.name()))
        .collect();
    let names: Vec<String> = chosen.iter().map(|i| i.name().to_string()).collect();
    let outcomes = crate::minimize::evaluate_one(&chosen, &m.body, &m.query);
    let signature = Signature::of(&m.body, &m.query.agent, &m.query.url, &names, &outcomes);
    let mut observed: Vec<(String, OutcomeWord)> = names
        .into_iter()
        .zip(&outcomes)
        .map(|(name, o)| (name, o.kind()))
        .collect();
    observed.sort();
    let minimized = Example {
        input: example.input,
        body: m.body,
        agent: m.query.agent,
        url: m.query.url,
        observed,
    };
    Some((signature, minimized, m.evaluations, m.stop))
}

/// A dissent's minimization: the result's signature, example, evaluations and stop.
type MinimizedDissent = (Signature, Example, usize, Stop);

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
