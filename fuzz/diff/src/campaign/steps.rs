//! The steps of a campaign ([`super::run_split`]): a [`Campaign`] evaluates its inputs
//! chunk by chunk, walks each chunk's dissents (minimizing the ones no signature explains
//! yet), counts the hits, and finally writes its [`CampaignReport`].

use super::{splitmix, tally, CampaignOptions, CampaignProgress, CampaignReport, Example, Found};
use rayon::prelude::*;
use reptest_core::{CaseInput, Implementation, Outcome, QueryInput};
use reptest_corpus::{Dimension, OutcomeWord};
use reptest_fuzz_gen::{generate_from_seed, FuzzInput, FuzzQuery};
use reptest_reference::Robots;
use reptest_triage::attribution::{self, Attribution};
use reptest_triage::minimize::{minimize_dissent, Budget, Stop};
use reptest_triage::signature::{
    dissents, is_divergent, partition, rule_kind_in, Dissent, Signature,
};
use reptest_triage::Query;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::time::{Duration, Instant};

/// A campaign under way: what it runs with, what it found so far, and its counters.
pub(super) struct Campaign<'a> {
    options: &'a CampaignOptions,
    inside: &'a [&'a dyn Implementation],
    outside: &'a [&'a dyn Implementation],
    inside_names: Vec<String>,
    outside_names: Vec<String>,
    threads: usize,
    /// `None` when rayon could not build it: the work then runs on rayon's global pool.
    pool: Option<rayon::ThreadPool>,
    started: Instant,
    /// A time-bounded campaign ends at its deadline, minimization included; one with a
    /// fixed number of inputs has none (its results must not depend on the machine).
    deadline: Option<Instant>,
    found: BTreeMap<Signature, Found>,
    /// Every dissent key minimized so far (a key whose minimization explained nothing is
    /// not tried again).
    tried: HashSet<DissentKey>,
    inputs: u64,
    queries: u64,
    execs: u64,
    minimize_time: Duration,
    unminimized: u64,
    out_of_time: bool,
}

/// One divergent query of one input, before merging: who answers against the majority.
pub(super) struct Hit {
    dissents: Vec<Dissent>,
    example: Example,
}

/// A dissent's minimization: the result's signature, example, evaluations and stop.
type MinimizedDissent = (Signature, Example, usize, Stop);

impl<'a> Campaign<'a> {
    /// A campaign not started yet: its thread pool and deadline, nothing found.
    pub(super) fn new(
        options: &'a CampaignOptions,
        inside: &'a [&'a dyn Implementation],
        outside: &'a [&'a dyn Implementation],
    ) -> Self {
        let started = Instant::now();
        // Blocking external adapters want more threads than cores, as in the runner.
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
        let threads = if outside.is_empty() {
            threads
        } else {
            (threads * 2).max(4)
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .ok();
        let deadline = match options.inputs {
            Some(_) => None,
            None => Duration::try_from_secs_f64(options.seconds.max(0.0))
                .ok()
                .and_then(|budget| started.checked_add(budget)),
        };
        Campaign {
            options,
            inside,
            outside,
            inside_names: inside.iter().map(|i| i.name().to_string()).collect(),
            outside_names: outside.iter().map(|i| i.name().to_string()).collect(),
            threads,
            pool,
            started,
            deadline,
            found: BTreeMap::new(),
            tried: HashSet::new(),
            inputs: 0,
            queries: 0,
            execs: 0,
            minimize_time: Duration::ZERO,
            unminimized: 0,
            out_of_time: false,
        }
    }

    /// Runs `f` on the campaign's thread pool.
    fn in_pool(&self, f: &mut (dyn FnMut() + Send)) {
        match &self.pool {
            Some(pool) => pool.install(f),
            None => f(),
        }
    }

    fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// How every implementation answers each known question's examples, once.
    pub(super) fn probe_questions(&self) -> Attribution {
        let mut attribution = Attribution::default();
        if !self.options.questions.is_empty() {
            let all = self.all();
            self.in_pool(&mut || attribution = attribution::probe(&self.options.questions, &all));
        }
        attribution
    }

    /// Every implementation, in process first.
    fn all(&self) -> Vec<&'a dyn Implementation> {
        self.inside.iter().chain(self.outside).copied().collect()
    }

    /// The end of the next chunk of inputs, or `None` when the campaign is done (every
    /// input run, or the deadline passed).
    pub(super) fn next_chunk(&self) -> Option<u64> {
        if self.out_of_time {
            return None;
        }
        // With external implementations a chunk takes far longer: smaller chunks keep a
        // time budget from being overrun by much (the results do not depend on the chunk).
        let chunk = if self.outside.is_empty() || self.options.inputs.is_some() {
            self.options.chunk.max(1)
        } else {
            (self.options.chunk / 8).max(1)
        };
        match self.options.inputs {
            Some(limit) if self.inputs >= limit => None,
            Some(limit) => Some((self.inputs + chunk).min(limit)),
            None if self.past_deadline() => None,
            None => Some(self.inputs + chunk),
        }
    }

    /// Evaluates the inputs up to `end` in parallel and returns their divergent queries,
    /// merged in input order. No input starts after the deadline: the inputs done then
    /// form a prefix of the chunk, and the campaign is out of time.
    pub(super) fn evaluate_chunk(&mut self, end: u64) -> Vec<Hit> {
        let mut results = Vec::new();
        self.in_pool(&mut || {
            results = (self.inputs..end)
                .into_par_iter()
                .map(|index| (!self.past_deadline()).then(|| self.evaluate_input(index)))
                .collect::<Vec<_>>();
        });
        let done = results.iter().take_while(|r| r.is_some()).count();
        self.out_of_time = done < results.len();
        self.inputs += done as u64;
        let mut merged: Vec<Hit> = Vec::new();
        for (queries, execs, hits) in results.into_iter().map_while(|r| r) {
            self.queries += queries;
            self.execs += execs;
            merged.extend(hits);
        }
        merged
    }

    /// Walks the dissents of `merged` in input order, as a sequential campaign would,
    /// and returns, per hit, the signatures that explain its dissents.
    ///
    /// A dissent that a signature found so far explains counts as a hit of it; any other
    /// is minimized (once per key), and its minimized input's signature is new. The
    /// minimizations run ahead in parallel, a wave of the next unexplained keys at a
    /// time; each is a pure function of its dissent and example, so neither thread
    /// timing nor chunking changes the result.
    pub(super) fn explain(&mut self, merged: &[Hit]) -> Vec<BTreeSet<Signature>> {
        let flat: Vec<(usize, &Dissent)> = merged
            .iter()
            .enumerate()
            .flat_map(|(h, hit)| hit.dissents.iter().map(move |d| (h, d)))
            .collect();
        let mut ahead: HashMap<DissentKey, Option<MinimizedDissent>> = HashMap::new();
        let mut hit_signatures: Vec<BTreeSet<Signature>> = vec![BTreeSet::new(); merged.len()];
        let minimize_started = Instant::now();
        let mut pos = 0;
        while pos < flat.len() {
            let (h, dissent) = flat[pos];
            if let Some(signature) = explaining(&self.found, dissent) {
                hit_signatures[h].insert(signature);
                pos += 1;
                continue;
            }
            let key = DissentKey::of(dissent);
            if self.tried.contains(&key) {
                pos += 1;
            } else if self.past_deadline() && !ahead.contains_key(&key) {
                // Time is up: no new minimization starts.
                self.unminimized += 1;
                self.out_of_time = true;
                pos += 1;
            } else if let Some(result) = ahead.remove(&key) {
                self.adopt(key, result, dissent);
                // Not `pos += 1` if it now explains: the dissent is looked up again.
                if explaining(&self.found, dissent).is_none() {
                    pos += 1;
                }
            } else {
                ahead.extend(self.minimize_wave(&flat[pos..], merged));
            }
        }
        self.minimize_time += minimize_started.elapsed();
        hit_signatures
    }

    /// Records the minimization of the dissent `key`: its signature is found, unless it
    /// does not explain the dissent (an implementation answered differently on the second
    /// asking), then it is dropped.
    fn adopt(&mut self, key: DissentKey, result: Option<MinimizedDissent>, dissent: &Dissent) {
        self.tried.insert(key);
        if let Some((signature, example, evaluations, stop)) =
            result.filter(|(signature, ..)| dissent.explained_by(signature))
        {
            self.found.entry(signature.clone()).or_insert(Found {
                signature,
                hits: 0,
                minimized: example,
                minimize_evaluations: evaluations,
                minimize_stop: stop,
                raw: Vec::new(),
                question: None,
            });
        }
    }

    /// Minimizes the first dissent of `rest` and the next few unexplained ones with keys
    /// not tried yet, in parallel: each key with its result.
    fn minimize_wave(
        &self,
        rest: &[(usize, &Dissent)],
        merged: &[Hit],
    ) -> Vec<(DissentKey, Option<MinimizedDissent>)> {
        let wave = self.threads.max(2) * 2;
        let mut batch: Vec<(DissentKey, &Dissent, &Example)> = Vec::new();
        for &(h, d) in rest {
            if batch.len() >= wave {
                break;
            }
            let k = DissentKey::of(d);
            if !self.tried.contains(&k)
                && !batch.iter().any(|(b, _, _)| *b == k)
                && !explained(&self.found, d)
            {
                batch.push((k, d, &merged[h].example));
            }
        }
        let mut minimized = Vec::new();
        self.in_pool(&mut || {
            minimized = batch
                .par_iter()
                .map(|(_, dissent, example)| self.minimize_for(dissent, example))
                .collect::<Vec<_>>();
        });
        batch
            .into_iter()
            .map(|(k, _, _)| k)
            .zip(minimized)
            .collect()
    }

    /// Counts every hit once for each signature that explains one of its dissents (and
    /// keeps its example while the signature has fewer raw ones than asked for).
    pub(super) fn count_hits(&mut self, merged: Vec<Hit>, signatures: Vec<BTreeSet<Signature>>) {
        for (hit, signatures) in merged.into_iter().zip(signatures) {
            for key in signatures {
                if let Some(entry) = self.found.get_mut(&key) {
                    entry.hits += 1;
                    if entry.raw.len() < self.options.raw_examples {
                        entry.raw.push(hit.example.clone());
                    }
                }
            }
        }
    }

    /// Where the campaign is.
    pub(super) fn progress(&self) -> CampaignProgress {
        CampaignProgress {
            inputs: self.inputs,
            execs: self.execs,
            signatures: self.found.len(),
            elapsed: self.started.elapsed(),
        }
    }

    /// The report: every signature, most hits first, with the question it is about.
    pub(super) fn report(self, attribution: &Attribution) -> CampaignReport {
        let mut signatures: Vec<Found> = self.found.into_values().collect();
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
        let per_question = tally(&self.options.questions, &signatures);
        CampaignReport {
            seed: self.options.seed,
            inputs: self.inputs,
            queries: self.queries,
            execs: self.execs,
            seconds: self.started.elapsed().as_secs_f64(),
            minimize_seconds: self.minimize_time.as_secs_f64(),
            unminimized: self.unminimized,
            threads: self.threads,
            in_process: self.inside_names,
            external: self.outside_names,
            signatures,
            per_question,
            questions_known: self.options.questions.len(),
        }
    }
}

impl Campaign<'_> {
    /// Generates and evaluates input `index`: (queries, executions, divergent hits).
    fn evaluate_input(&self, index: u64) -> (u64, u64, Vec<Hit>) {
        let input = generate_from_seed(splitmix(self.options.seed, index));
        let answers = self.answer(index, &input);
        let all_names: Vec<String> = self
            .inside_names
            .iter()
            .chain(&self.outside_names)
            .cloned()
            .collect();
        let mut hits = Vec::new();
        // The reference's parse, once per input, for the rule kind of each divergent query.
        let mut parsed: Option<Robots> = None;
        for (q, FuzzQuery { agent, url }) in input.queries.iter().enumerate() {
            let (names, outcomes) = match answers.external_at(q) {
                Some(at) => (&all_names[..], answers.of_all(q, at)),
                None => (&self.inside_names[..], answers.in_process(q)),
            };
            let p = partition(names, &outcomes);
            if !is_divergent(&p) {
                continue;
            }
            let signature = Signature {
                partition: p,
                dimensions: reptest_triage::dimensions(&input.body, agent, url),
                rule_kind: rule_kind_in(
                    parsed.get_or_insert_with(|| Robots::parse(&input.body)),
                    agent,
                    url,
                ),
            };
            hits.push(Hit {
                dissents: dissents(&signature, &all_names),
                example: Example {
                    input: index,
                    body: input.body.clone(),
                    agent: agent.clone(),
                    url: url.clone(),
                    observed: observed(names, &outcomes),
                },
            });
        }
        (input.queries.len() as u64, answers.execs, hits)
    }

    /// Every in-process implementation's answers to every query of `input`, and the
    /// external ones' to the queries divergent in process (to all of them on a sampled
    /// input).
    fn answer(&self, index: u64, input: &FuzzInput) -> Answers {
        let query_inputs: Vec<QueryInput<'_>> = input.queries.iter().map(query_input).collect();
        let n = query_inputs.len();
        let inner: Vec<Vec<Outcome>> = self
            .inside
            .iter()
            .map(|i| answers(*i, &input.body, &query_inputs))
            .collect();
        let mut execs = (self.inside.len() * n) as u64;
        let in_partition = |q: usize| {
            partition(
                &self.inside_names,
                &inner.iter().map(|o| o[q].clone()).collect::<Vec<_>>(),
            )
        };
        let sample = self.options.external_sample;
        let sampled = sample > 0 && index.is_multiple_of(sample);
        let wanted: Vec<usize> = (0..n)
            .filter(|&q| sampled || is_divergent(&in_partition(q)))
            .collect();
        let mut outer: Vec<Vec<Outcome>> = Vec::new();
        if !self.outside.is_empty() && !wanted.is_empty() {
            let batch: Vec<QueryInput<'_>> = wanted.iter().map(|&q| query_inputs[q]).collect();
            outer = self
                .outside
                .par_iter()
                .map(|i| answers(*i, &input.body, &batch))
                .collect();
            execs += (self.outside.len() * batch.len()) as u64;
        }
        Answers {
            inner,
            wanted,
            outer,
            execs,
        }
    }

    /// Minimizes `example` for one dissent (see [`minimize_dissent`]), then asks every
    /// implementation that answered the raw query about the minimized one: the signature
    /// of the result, the minimized example, the evaluations made and why it stopped.
    /// `None` when the dissenter or witness is not among the implementations.
    fn minimize_for(&self, dissent: &Dissent, example: &Example) -> Option<MinimizedDissent> {
        let all = self.all();
        let find = |name: &str| all.iter().copied().find(|i| i.name() == name);
        let dissenter = find(&dissent.implementation)?;
        let witness = find(&dissent.witness)?;
        let external = self
            .outside
            .iter()
            .any(|i| i.name() == dissenter.name() || i.name() == witness.name());
        let mut budget = Budget::from(if external {
            self.options.minimize_budget / 20
        } else {
            self.options.minimize_budget
        });
        if let Some(deadline) = self.deadline {
            budget = budget.until(deadline);
        }
        let query = Query {
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
        let outcomes = reptest_triage::minimize::evaluate_one(&chosen, &m.body, &m.query);
        let signature = Signature::of(&m.body, &m.query.agent, &m.query.url, &names, &outcomes);
        let minimized = Example {
            input: example.input,
            body: m.body,
            agent: m.query.agent,
            url: m.query.url,
            observed: observed(&names, &outcomes),
        };
        Some((signature, minimized, m.evaluations, m.stop))
    }
}

/// One input's answers ([`Campaign::answer`]).
struct Answers {
    /// `inner[implementation][query]`, in process.
    inner: Vec<Vec<Outcome>>,
    /// The queries the external implementations answered, in order.
    wanted: Vec<usize>,
    /// `outer[implementation][i]`: the external answers to query `wanted[i]` (empty when
    /// no external implementation answered).
    outer: Vec<Vec<Outcome>>,
    /// Executions made.
    execs: u64,
}

impl Answers {
    /// Where query `q` is among the externally answered ones, if it is.
    fn external_at(&self, q: usize) -> Option<usize> {
        self.wanted
            .iter()
            .position(|&w| w == q)
            .filter(|_| !self.outer.is_empty())
    }

    /// The in-process outcomes of query `q`.
    fn in_process(&self, q: usize) -> Vec<Outcome> {
        self.inner.iter().map(|o| o[q].clone()).collect()
    }

    /// The outcomes of query `q`, in process then external (the external answers at
    /// `at`).
    fn of_all(&self, q: usize, at: usize) -> Vec<Outcome> {
        let mut outcomes = self.in_process(q);
        outcomes.extend(self.outer.iter().map(|o| o[at].clone()));
        outcomes
    }
}

/// Each implementation's outcome word, sorted by name.
fn observed(names: &[String], outcomes: &[Outcome]) -> Vec<(String, OutcomeWord)> {
    let mut observed: Vec<(String, OutcomeWord)> = names
        .iter()
        .zip(outcomes)
        .map(|(name, o)| (name.clone(), o.kind()))
        .collect();
    observed.sort();
    observed
}

/// A generated query as the runner takes it.
fn query_input(query: &FuzzQuery) -> QueryInput<'_> {
    QueryInput {
        agent: &query.agent,
        url: &query.url,
    }
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

/// Whether a signature found so far explains a dissent.
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
