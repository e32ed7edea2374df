//! Runs corpus cases through implementations in parallel into one outcome matrix.

use crate::{CaseInput, ImplKind, Implementation, Outcome, QueryInput};
use rayon::prelude::*;
use reptest_corpus::{Case, Corpus};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Crawls per core that run at once ([`crawls_at_once`]).
pub const CRAWLS_PER_CORE: usize = 4;

/// How many crawls run at once in [`run_observed`]: [`CRAWLS_PER_CORE`] per core, at
/// least 4. The crawlers run together, each crawl mostly waiting on its process and the
/// loopback site (a crawl of the four crawlers of 2026-12-03 took about 0.3 s of CPU in
/// 1 to 7 s of wall), so more crawls than cores overlap their waits; the bound keeps the
/// CPU the crawls need (a Python crawler's start-up) within every crawler's time limit.
pub fn crawls_at_once() -> usize {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    (cores * CRAWLS_PER_CORE).max(4)
}

/// A counting semaphore: at most `free` holders at once.
struct Gate {
    free: std::sync::Mutex<usize>,
    freed: std::sync::Condvar,
}

impl Gate {
    fn new(free: usize) -> Gate {
        Gate {
            free: std::sync::Mutex::new(free),
            freed: std::sync::Condvar::new(),
        }
    }

    /// Runs `work` once a place is free, then frees it.
    fn pass<T>(&self, work: impl FnOnce() -> T) -> T {
        {
            let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
            while *free == 0 {
                free = self.freed.wait(free).unwrap_or_else(|e| e.into_inner());
            }
            *free -= 1;
        }
        // Freed also when `work` panics.
        struct Leave<'g>(&'g Gate);
        impl Drop for Leave<'_> {
            fn drop(&mut self) {
                *self.0.free.lock().unwrap_or_else(|e| e.into_inner()) += 1;
                self.0.freed.notify_one();
            }
        }
        let _leave = Leave(self);
        work()
    }
}

/// The outcome matrix of a run: for each implementation, one outcome per query. Rows
/// are keyed by query id ([`Run::outcome`]): runs over parts of a corpus (shards) or over
/// other implementations [`merge`](Run::merge) into one, and consumers look outcomes up
/// by id, never by position in some other list.
#[derive(Debug, Clone, Default)]
pub struct Run {
    /// Names of the implementations, in the order given.
    pub implementations: Vec<String>,
    /// The query ids, in the order of every column (corpus order for a corpus run).
    pub queries: Vec<String>,
    /// `outcomes[i][q]`: implementation `i`, query `queries[q]`.
    pub outcomes: Vec<Vec<Outcome>>,
    /// `elapsed[i]`: the wall time implementation `i` took for the whole corpus (the
    /// parsers run one after another, so theirs do not overlap; the crawlers run
    /// together, so theirs do).
    pub elapsed: Vec<Duration>,
    /// `case_elapsed[i]`: (case id, wall time) for every case implementation `i` ran, a
    /// timeout's wait included.
    pub case_elapsed: Vec<Vec<(String, Duration)>>,
    /// `evidence[i]`: case id to what implementation `i` did to answer it, one line per
    /// step, for the cases where it says ([`Implementation::evaluate_with_evidence`]: a
    /// crawler's request log). May be shorter than `implementations` (none for the rest).
    pub evidence: Vec<BTreeMap<String, Vec<String>>>,
}

/// A [`Run`] indexed by query id ([`Run::lookup`]).
pub struct Lookup<'r> {
    run: &'r Run,
    index: std::collections::HashMap<&'r str, usize>,
}

impl<'r> Lookup<'r> {
    /// What implementation `i` answered for query `id`, if the run holds it.
    pub fn outcome(&self, i: usize, id: &str) -> Option<&'r Outcome> {
        self.run.outcomes.get(i)?.get(*self.index.get(id)?)
    }
}

/// Why two runs cannot be merged.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum MergeError {
    /// The same query appears in both shards.
    DuplicateQuery(String),
    /// The same implementation appears in both runs over the same queries.
    DuplicateImplementation(String),
    /// Neither the same implementations (shards) nor the same queries (columns).
    Mismatch,
}

impl std::fmt::Display for MergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MergeError::DuplicateQuery(id) => write!(f, "query `{id}` is in both runs"),
            MergeError::DuplicateImplementation(name) => {
                write!(f, "implementation `{name}` is in both runs")
            }
            MergeError::Mismatch => f.write_str(
                "the runs share neither their implementations (shards) nor their queries (columns)",
            ),
        }
    }
}

impl std::error::Error for MergeError {}

impl Run {
    /// The position of query `id` in every column.
    pub fn query_index(&self, id: &str) -> Option<usize> {
        self.index().get(id).copied()
    }

    /// The position of implementation `name`.
    pub fn implementation_index(&self, name: &str) -> Option<usize> {
        self.implementations.iter().position(|n| n == name)
    }

    /// What implementation `i` answered for query `id` (`None` when the run does not
    /// hold that query, e.g. another shard's). One lookup; for many, use [`Run::lookup`].
    pub fn outcome(&self, i: usize, id: &str) -> Option<&Outcome> {
        self.outcomes.get(i)?.get(self.query_index(id)?)
    }

    /// An index of the run's queries, for many lookups by id.
    pub fn lookup(&self) -> Lookup<'_> {
        Lookup {
            run: self,
            index: self.index(),
        }
    }

    fn index(&self) -> std::collections::HashMap<&str, usize> {
        self.queries
            .iter()
            .enumerate()
            .map(|(q, id)| (id.as_str(), q))
            .collect()
    }

    /// One run of two: shards of one corpus run by the same implementations (their
    /// queries are joined), or the same queries run by other implementations (their
    /// columns are joined, outcomes looked up by query id).
    ///
    /// ```
    /// use reptest_core::runner::Run;
    /// use reptest_core::Outcome;
    /// let allowed = Outcome::Verdict { allowed: true, line: None };
    /// let shard = |id: &str| Run {
    ///     implementations: vec!["a".into()],
    ///     queries: vec![id.into()],
    ///     outcomes: vec![vec![allowed.clone()]],
    ///     elapsed: vec![Default::default()],
    ///     case_elapsed: vec![vec![("x".into(), Default::default())]],
    ///     evidence: Vec::new(),
    /// };
    /// let run = shard("x/a:/1").merge(shard("x/a:/2")).unwrap();
    /// assert_eq!(run.queries, ["x/a:/1", "x/a:/2"]);
    /// assert_eq!(run.outcome(0, "x/a:/2"), Some(&allowed));
    /// assert!(shard("x/a:/1").merge(shard("x/a:/1")).is_err());
    /// ```
    pub fn merge(mut self, other: Run) -> Result<Run, MergeError> {
        if self.implementations == other.implementations {
            let index = self.index();
            if let Some(id) = other
                .queries
                .iter()
                .find(|id| index.contains_key(id.as_str()))
            {
                return Err(MergeError::DuplicateQuery(id.clone()));
            }
            self.queries.extend(other.queries);
            for (mine, theirs) in self.outcomes.iter_mut().zip(other.outcomes) {
                mine.extend(theirs);
            }
            for (mine, theirs) in self.elapsed.iter_mut().zip(other.elapsed) {
                *mine += theirs;
            }
            for (mine, theirs) in self.case_elapsed.iter_mut().zip(other.case_elapsed) {
                mine.extend(theirs);
            }
            self.evidence
                .resize_with(self.implementations.len(), BTreeMap::new);
            for (mine, theirs) in self.evidence.iter_mut().zip(other.evidence) {
                mine.extend(theirs);
            }
            return Ok(self);
        }
        let same_queries = {
            let mut a: Vec<&String> = self.queries.iter().collect();
            let mut b: Vec<&String> = other.queries.iter().collect();
            a.sort();
            b.sort();
            a == b
        };
        if !same_queries {
            return Err(MergeError::Mismatch);
        }
        if let Some(name) = other
            .implementations
            .iter()
            .find(|n| self.implementations.contains(n))
        {
            return Err(MergeError::DuplicateImplementation(name.clone()));
        }
        let theirs = other.index();
        for (name, column) in other.implementations.iter().zip(&other.outcomes) {
            self.implementations.push(name.clone());
            self.outcomes.push(
                self.queries
                    .iter()
                    .map(|id| column[theirs[id.as_str()]].clone())
                    .collect(),
            );
        }
        self.elapsed.extend(other.elapsed);
        self.case_elapsed.extend(other.case_elapsed);
        let mut evidence = other.evidence;
        evidence.resize_with(other.implementations.len(), BTreeMap::new);
        self.evidence
            .resize_with(self.implementations.len() - evidence.len(), BTreeMap::new);
        self.evidence.extend(evidence);
        Ok(self)
    }

    /// The `n` cases implementation `i` took longest on, slowest first: (case id, wall
    /// time).
    pub fn slowest_cases(&self, i: usize, n: usize) -> Vec<(&str, Duration)> {
        let mut cases: Vec<(&str, Duration)> = self
            .case_elapsed
            .get(i)
            .map(|times| times.iter().map(|(id, t)| (id.as_str(), *t)).collect())
            .unwrap_or_default();
        cases.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        cases.truncate(n);
        cases
    }

    /// Queries per second of implementation `i` (its queries over its elapsed time).
    pub fn queries_per_second(&self, i: usize) -> f64 {
        let queries = self.outcomes.get(i).map_or(0, Vec::len) as f64;
        let seconds = self.elapsed.get(i).map_or(0.0, Duration::as_secs_f64);
        if seconds > 0.0 {
            queries / seconds
        } else {
            f64::INFINITY
        }
    }
}

/// What a run reports as it goes ([`run_observed`]), e.g. to drive a progress bar. Every
/// method has an empty default.
pub trait RunObserver: Sync {
    /// Implementation `index` (0-based) of `count`, named `name`, starts on `queries`
    /// queries.
    fn started(&self, index: usize, count: usize, name: &str, queries: usize) {
        let _ = (index, count, name, queries);
    }

    /// `queries` more queries were answered (one case's; called from worker threads).
    fn answered(&self, queries: usize) {
        let _ = queries;
    }
}

/// Observes nothing.
impl RunObserver for () {}

/// Evaluates every case of `corpus` with every implementation: the parsers one after
/// another, its cases in parallel (rayon), so each implementation's wall time is its own
/// (the next one starts once the last case of the one before has started); the crawlers
/// beside them, all together, at most [`crawls_at_once`] crawls at a time.
pub fn run(corpus: &Corpus, implementations: &[Box<dyn Implementation>]) -> Run {
    run_observed(corpus, implementations, &())
}

/// One implementation's part of a run.
struct Column {
    outcomes: Vec<Outcome>,
    elapsed: Duration,
    case_elapsed: Vec<(String, Duration)>,
    evidence: BTreeMap<String, Vec<String>>,
}

/// Runs every case of `cases` through `implementation` in the current rayon pool, each
/// case (or each batch of cases, for an implementation whose
/// [`batch_size`](Implementation::batch_size) is more than 1) through `gate` when there is
/// one.
///
/// `last_started` is called once the last case (or batch) has been picked up: from then on
/// the column only finishes what it holds, and the next implementation may start.
fn run_column(
    cases: &[Case],
    implementation: &dyn Implementation,
    observer: &dyn RunObserver,
    gate: Option<&Gate>,
    last_started: &(dyn Fn() + Sync),
) -> Column {
    let started = Instant::now();
    let batch = implementation.batch_size().max(1);
    let order = largest_first(cases, batch);
    let chunks: Vec<&[Case]> = order
        .iter()
        .map(|&(start, end)| &cases[start..end])
        .collect();
    let picked = std::sync::atomic::AtomicUsize::new(0);
    let answered: Vec<(Vec<Outcome>, Vec<String>, Duration)> = chunks
        .par_iter()
        .flat_map_iter(|&chunk| {
            if picked.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1 == chunks.len() {
                last_started();
            }
            // A case's time is its own: a wait for the gate is not in it; the cases of a
            // batch share its time equally.
            let evaluate = || {
                let batch_started = Instant::now();
                let answers = evaluate_cases_with_evidence(implementation, chunk);
                let share = batch_started.elapsed() / u32::try_from(chunk.len()).unwrap_or(1);
                answers
                    .into_iter()
                    .map(|(outcomes, evidence)| (outcomes, evidence, share))
                    .collect::<Vec<_>>()
            };
            let answered = match gate {
                Some(gate) => gate.pass(evaluate),
                None => evaluate(),
            };
            observer.answered(answered.iter().map(|answer| answer.0.len()).sum());
            answered
        })
        .collect();
    let mut column = Column {
        outcomes: Vec::new(),
        elapsed: started.elapsed(),
        case_elapsed: Vec::with_capacity(cases.len()),
        evidence: BTreeMap::new(),
    };
    // Back into corpus order.
    let positions = order.iter().flat_map(|&(start, end)| start..end);
    let mut answered: Vec<_> = positions.zip(answered).collect();
    answered.sort_by_key(|&(position, _)| position);
    for (case, (_, (outcomes, evidence, elapsed))) in cases.iter().zip(answered) {
        column.outcomes.extend(outcomes);
        column.case_elapsed.push((case.id.clone(), elapsed));
        if !evidence.is_empty() {
            column.evidence.insert(case.id.clone(), evidence);
        }
    }
    column
}

/// The batches of `cases` (`start..end` ranges of `batch` cases, one case each when
/// `batch` is 1), the largest bodies first: the slowest work starts first, so a column's
/// wall time is not one long case left running alone at its end (a parser's cost grows
/// with the body, and most with its lines, each a rule to build and match: a file of
/// 26,900 rules in 511,132 octets holds one library 24 s, longer than its 3,000,000-octet
/// file of a few long lines). A body weighs its octets plus [`LINE_WEIGHT`] per line.
fn largest_first(cases: &[Case], batch: usize) -> Vec<(usize, usize)> {
    let mut ranges: Vec<(usize, usize)> = (0..cases.len())
        .step_by(batch)
        .map(|start| (start, (start + batch).min(cases.len())))
        .collect();
    // Each range weighed once (a body can be megabytes), not once per comparison.
    ranges.sort_by_cached_key(|&(start, end)| {
        std::cmp::Reverse(cases[start..end].iter().map(weight).sum::<usize>())
    });
    ranges
}

/// What one line of a body weighs against its octets when [`largest_first`] orders cases.
const LINE_WEIGHT: usize = 128;

/// How heavy `case` is to parse, for [`largest_first`]: its body's octets plus
/// [`LINE_WEIGHT`] per line.
fn weight(case: &Case) -> usize {
    let lines = case.body.iter().filter(|&&octet| octet == b'\n').count();
    case.body.len() + LINE_WEIGHT * lines
}

/// A rayon pool of `threads` threads (`None` when one cannot be built: the caller then
/// runs in the global pool).
fn pool(threads: usize) -> Option<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .ok()
}

/// Runs `work` in `pool` when there is one, else where it is.
fn install<T: Send>(pool: Option<&rayon::ThreadPool>, work: impl FnOnce() -> T + Send) -> T {
    match pool {
        Some(pool) => pool.install(work),
        None => work(),
    }
}

/// [`run`], telling `observer` when each implementation starts (the crawlers once, all
/// together, after the last parser) and how many queries each case answered (from worker
/// threads). Each implementation's wall time is in the [`Run`] ([`Run::elapsed`]).
///
/// The crawlers start first and run beside the parsers: a crawl mostly waits (on its
/// process's time limits and the loopback site: about 45 s of CPU in 68 s of wall for the
/// four crawlers of 2026-12-03 on 2 cores), so the parsers use the cores it leaves idle.
/// A parser's wall time then includes that small share of CPU the crawls take.
pub fn run_observed(
    corpus: &Corpus,
    implementations: &[Box<dyn Implementation>],
    observer: &dyn RunObserver,
) -> Run {
    let cases = corpus.cases();
    let queries: usize = cases.iter().map(|case| case.queries.len()).sum();
    let count = implementations.len();
    let is_crawler = |i: &dyn Implementation| i.info().kind == ImplKind::Crawler;
    let crawlers: Vec<usize> = (0..count)
        .filter(|&i| is_crawler(implementations[i].as_ref()))
        .collect();
    let mut columns: Vec<Option<Column>> = (0..count).map(|_| None).collect();
    let later = Deferred::new(observer);
    std::thread::scope(|scope| {
        let crawling = spawn_crawlers(scope, cases, implementations, &crawlers, &later);
        run_parsers(cases, implementations, observer, &mut columns);
        if let Some(&first) = crawlers.first() {
            let names: Vec<&str> = crawlers
                .iter()
                .map(|&i| implementations[i].name())
                .collect();
            let label = format!("{} crawlers at once: {}", names.len(), names.join(", "));
            observer.started(first, count, &label, queries * crawlers.len());
            later.go_live();
        }
        for (&i, running) in crawlers.iter().zip(crawling) {
            // A crawler's column never panics by design; if it did, its place stays
            // empty and is filled with errors below.
            columns[i] = running.join().ok();
        }
    });
    assemble(corpus, implementations, columns)
}

/// Runs every parser (every implementation that is not a crawler), one after another,
/// each one's cases in parallel, into `columns`. The next parser starts as soon as the
/// last case of the one before has started, so the cores that its last cases leave idle
/// work on the next one (its progress is held back until the one before has finished).
fn run_parsers(
    cases: &[Case],
    implementations: &[Box<dyn Implementation>],
    observer: &dyn RunObserver,
    columns: &mut [Option<Column>],
) {
    let queries: usize = cases.iter().map(|case| case.queries.len()).sum();
    // External adapters keep worker threads waiting on pipes: twice as many threads as
    // cores keep every pooled adapter process busy (a thread waits with the next case
    // while the process answers the last).
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()) * 2;
    let parsers = pool(threads.max(4));
    let count = implementations.len();
    let order: Vec<usize> = (0..count)
        .filter(|&i| implementations[i].info().kind != ImplKind::Crawler)
        .collect();
    let held: Vec<Deferred<'_>> = order.iter().map(|_| Deferred::new(observer)).collect();
    std::thread::scope(|scope| {
        let mut running = None;
        for (&index, held) in order.iter().zip(&held) {
            let implementation = implementations[index].as_ref();
            let (tell, last_started) = std::sync::mpsc::channel::<()>();
            let pool = parsers.as_ref();
            let column = scope.spawn(move || {
                let signal = || {
                    let _ = tell.send(());
                };
                install(pool, || {
                    run_column(cases, implementation, held, None, &signal)
                })
            });
            if let Some((previous, done)) = running.replace((index, column)) {
                columns[previous] = join_column(done);
            }
            observer.started(index, count, implementation.name(), queries);
            held.go_live();
            // Every case started, or the column ended (the sender dropped).
            let _ = last_started.recv();
        }
        if let Some((previous, done)) = running {
            columns[previous] = join_column(done);
        }
    });
}

/// A finished column; `None` if its thread panicked (filled with errors by [`assemble`]).
fn join_column(column: std::thread::ScopedJoinHandle<'_, Column>) -> Option<Column> {
    column.join().ok()
}

/// Starts the crawlers `crawlers` (indices into `implementations`) together, each in a
/// rayon pool of its own (so its wall time is its own cases', their waits for the gate
/// included), at most [`crawls_at_once`] crawls of all of them at a time.
fn spawn_crawlers<'scope, 'env>(
    scope: &'scope std::thread::Scope<'scope, 'env>,
    cases: &'env [Case],
    implementations: &'env [Box<dyn Implementation>],
    crawlers: &[usize],
    observer: &'env Deferred<'env>,
) -> Vec<std::thread::ScopedJoinHandle<'scope, Column>> {
    let gate = std::sync::Arc::new(Gate::new(crawls_at_once()));
    crawlers
        .iter()
        .map(|&i| {
            let crawler = implementations[i].as_ref();
            let gate = std::sync::Arc::clone(&gate);
            scope.spawn(move || {
                install(pool(crawls_at_once()).as_ref(), || {
                    run_column(cases, crawler, observer, Some(&gate), &|| {})
                })
            })
        })
        .collect()
}

/// An observer's `answered` held back until [`go_live`](Self::go_live): the crawlers
/// answer while the parsers still run, and a progress bar shows one implementation (or
/// the crawlers together) at a time.
struct Deferred<'a> {
    observer: &'a dyn RunObserver,
    /// Queries answered before going live; `None` once live.
    held: std::sync::Mutex<Option<usize>>,
}

impl<'a> Deferred<'a> {
    fn new(observer: &'a dyn RunObserver) -> Self {
        Deferred {
            observer,
            held: std::sync::Mutex::new(Some(0)),
        }
    }

    /// Passes on what was held back, and from now on every answer as it comes.
    fn go_live(&self) {
        let held = self.held.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(queries) = held.filter(|&n| n > 0) {
            self.observer.answered(queries);
        }
    }
}

impl RunObserver for Deferred<'_> {
    fn answered(&self, queries: usize) {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        match held.as_mut() {
            Some(count) => *count += queries,
            None => {
                drop(held);
                self.observer.answered(queries);
            }
        }
    }
}

/// The [`Run`] of the columns, in the implementations' order (a column missing, which
/// only a panic leaves, is an error for each query).
fn assemble(
    corpus: &Corpus,
    implementations: &[Box<dyn Implementation>],
    columns: Vec<Option<Column>>,
) -> Run {
    let queries: Vec<String> = corpus.queries().map(|(_, q)| q.id.clone()).collect();
    let mut run = Run {
        implementations: implementations
            .iter()
            .map(|i| i.name().to_string())
            .collect(),
        queries,
        ..Run::default()
    };
    for column in columns {
        let column = column.unwrap_or_else(|| Column {
            outcomes: vec![
                Outcome::Error("the run of this implementation panicked".into());
                run.queries.len()
            ],
            elapsed: Duration::ZERO,
            case_elapsed: Vec::new(),
            evidence: BTreeMap::new(),
        });
        run.outcomes.push(column.outcomes);
        run.elapsed.push(column.elapsed);
        run.case_elapsed.push(column.case_elapsed);
        run.evidence.push(column.evidence);
    }
    run
}

/// Evaluates one case, guaranteeing one outcome per query: an adapter that answers with
/// the wrong count gets `error` for the queries it left out or the whole case.
pub fn evaluate_case(implementation: &dyn Implementation, case: &Case) -> Vec<Outcome> {
    evaluate_case_with_evidence(implementation, case).0
}

/// [`evaluate_case`], with the implementation's evidence
/// ([`Implementation::evaluate_with_evidence`]).
pub fn evaluate_case_with_evidence(
    implementation: &dyn Implementation,
    case: &Case,
) -> (Vec<Outcome>, Vec<String>) {
    let queries = query_inputs(case);
    evaluate_with_evidence(implementation, &case_input(case, &queries))
}

/// The queries of `case` as an implementation sees them.
fn query_inputs(case: &Case) -> Vec<QueryInput<'_>> {
    case.queries.iter().map(QueryInput::from).collect()
}

/// `case` as an implementation sees it, with `queries` ([`query_inputs`]).
fn case_input<'a>(case: &'a Case, queries: &'a [QueryInput<'a>]) -> CaseInput<'a> {
    CaseInput {
        robots: &case.body,
        fetch: case.fetch.as_ref(),
        queries,
    }
}

/// Evaluates one input, guaranteeing one outcome per query: a fetch outcome given to an
/// implementation that cannot take one is `unsupported`, and an adapter that answers
/// with the wrong count gets `error` for the whole input. Every consumer (run, fuzz
/// campaign, minimizer) evaluates through here.
pub fn evaluate(implementation: &dyn Implementation, input: &CaseInput<'_>) -> Vec<Outcome> {
    evaluate_with_evidence(implementation, input).0
}

/// [`evaluate`], with the implementation's evidence
/// ([`Implementation::evaluate_with_evidence`]; none when it was not asked).
pub fn evaluate_with_evidence(
    implementation: &dyn Implementation,
    input: &CaseInput<'_>,
) -> (Vec<Outcome>, Vec<String>) {
    if let Some(unsupported) = unsupported_fetch(implementation, input) {
        return unsupported;
    }
    let answer = implementation.evaluate_with_evidence(input);
    checked_count(input, answer)
}

/// [`evaluate_case_with_evidence`] for several cases at once, through
/// [`Implementation::evaluate_batch`] (the cases an implementation cannot take left out
/// of the batch), with the same guarantees for each case.
pub fn evaluate_cases_with_evidence(
    implementation: &dyn Implementation,
    cases: &[Case],
) -> Vec<(Vec<Outcome>, Vec<String>)> {
    let queries: Vec<Vec<QueryInput<'_>>> = cases.iter().map(query_inputs).collect();
    let inputs: Vec<CaseInput<'_>> = cases
        .iter()
        .zip(&queries)
        .map(|(case, queries)| case_input(case, queries))
        .collect();
    if let [input] = inputs.as_slice() {
        return vec![evaluate_with_evidence(implementation, input)];
    }
    let mut answers: Vec<Option<(Vec<Outcome>, Vec<String>)>> = inputs
        .iter()
        .map(|input| unsupported_fetch(implementation, input))
        .collect();
    let asked: Vec<usize> = (0..inputs.len())
        .filter(|&i| answers[i].is_none())
        .collect();
    let batch: Vec<CaseInput<'_>> = asked.iter().map(|&i| inputs[i]).collect();
    let mut given = implementation.evaluate_batch(&batch).into_iter();
    for &i in &asked {
        let answer = given.next().unwrap_or_default();
        answers[i] = Some(checked_count(&inputs[i], answer));
    }
    answers.into_iter().map(Option::unwrap_or_default).collect()
}

/// Every query `unsupported` when `input` has a fetch outcome and `implementation`
/// cannot take one (RFC 9309 §2.3.1); `None` when it can.
fn unsupported_fetch(
    implementation: &dyn Implementation,
    input: &CaseInput<'_>,
) -> Option<(Vec<Outcome>, Vec<String>)> {
    if input.fetch.is_none() || implementation.info().capabilities.fetch_outcomes {
        return None;
    }
    let why = "takes a body only; this case describes a fetch outcome (RFC 9309 §2.3.1)";
    Some((
        vec![Outcome::Unsupported(why.into()); input.queries.len()],
        Vec::new(),
    ))
}

/// `answer` when it has one outcome per query of `input`, else `error` for every query
/// (the evidence kept).
fn checked_count(
    input: &CaseInput<'_>,
    (answers, evidence): (Vec<Outcome>, Vec<String>),
) -> (Vec<Outcome>, Vec<String>) {
    let count = input.queries.len();
    if answers.len() == count {
        (answers, evidence)
    } else {
        let why = format!("adapter answered {} queries of {count}", answers.len());
        (vec![Outcome::Error(why); count], evidence)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{self, conforming, faulty, verdict, QUERIES};
    use crate::ImplInfo;

    /// Both fixture implementations, conforming first.
    fn both() -> Vec<Box<dyn Implementation>> {
        vec![conforming().boxed(), faulty().boxed()]
    }

    /// The ids of the cases implementation `i` was timed on, in order.
    fn timed(run: &Run, i: usize) -> Vec<&str> {
        run.case_elapsed[i]
            .iter()
            .map(|(id, _)| id.as_str())
            .collect()
    }

    #[test]
    fn a_run_holds_every_implementation_s_outcome_of_every_query_in_corpus_order() {
        let run = run(&fixtures::corpus(), &both());
        assert_eq!(run.implementations, ["conforming", "faulty"]);
        assert_eq!(run.queries, QUERIES);
        assert!(run
            .outcomes
            .iter()
            .all(|column| column.len() == QUERIES.len()));
        assert_eq!(run.outcome(0, "must/bot:/private"), Some(&verdict(false)));
        assert_eq!(run.outcome(1, "must/bot:/private"), Some(&verdict(true)));
        assert_eq!(
            run.outcome(1, "should/bot:/tie"),
            Some(&Outcome::Unsupported("no ties".into()))
        );
        assert_eq!(run.outcome(0, "nowhere/bot:/x"), None);
        assert_eq!(run.outcome(2, "must/bot:/private"), None);
        let cases = ["must", "should", "may", "fetched", "finding"];
        assert_eq!(
            (timed(&run, 0), timed(&run, 1)),
            (cases.into(), cases.into())
        );
        assert_eq!(run.elapsed.len(), 2);
    }

    /// A fetch outcome is described only to an implementation that can take one; the
    /// others get `unsupported` without being asked.
    #[test]
    fn a_fetch_case_is_unsupported_without_fetch_outcomes() {
        let run = run(&fixtures::corpus(), &both());
        let id = "fetched/bot:/unreachable";
        assert_eq!(run.outcome(0, id), Some(&verdict(false)));
        let Some(Outcome::Unsupported(why)) = run.outcome(1, id) else {
            panic!("{:?}", run.outcome(1, id));
        };
        assert!(why.contains("§2.3.1"), "{why}");
    }

    /// Answers nothing, whatever it is asked.
    struct Mute(ImplInfo);

    impl Implementation for Mute {
        fn info(&self) -> &ImplInfo {
            &self.0
        }

        fn evaluate(&self, _: &CaseInput<'_>) -> Vec<Outcome> {
            Vec::new()
        }
    }

    /// `conforming`, answering in batches of `size`, each batch's length recorded.
    struct Batched {
        inner: Box<dyn Implementation>,
        size: usize,
        batches: std::sync::Arc<std::sync::Mutex<Vec<usize>>>,
    }

    impl Implementation for Batched {
        fn info(&self) -> &ImplInfo {
            self.inner.info()
        }

        fn evaluate(&self, case: &CaseInput<'_>) -> Vec<Outcome> {
            self.inner.evaluate(case)
        }

        fn batch_size(&self) -> usize {
            self.size
        }

        fn evaluate_batch(&self, cases: &[CaseInput<'_>]) -> Vec<(Vec<Outcome>, Vec<String>)> {
            self.batches.lock().unwrap().push(cases.len());
            let mut answers: Vec<_> = cases
                .iter()
                .map(|case| {
                    (
                        self.inner.evaluate(case),
                        vec![format!("{} queries", case.queries.len())],
                    )
                })
                .collect();
            // The last case of a full batch is answered with one outcome too few.
            if cases.len() == self.size {
                answers.last_mut().map(|(outcomes, _)| outcomes.pop());
            }
            answers
        }
    }

    /// An implementation that answers several cases at once gets them in batches of its
    /// size, and each case's answer lands on its own queries, checked like any other.
    #[test]
    fn batches_are_answered_case_by_case_in_corpus_order() {
        let batches = std::sync::Arc::default();
        let batched = Batched {
            inner: conforming().boxed(),
            size: 2,
            batches: std::sync::Arc::clone(&batches),
        };
        let corpus = fixtures::corpus();
        let whole = run(&corpus, &[conforming().boxed()]);
        let implementations: Vec<Box<dyn Implementation>> = vec![Box::new(batched)];
        let batched_run = run(&corpus, &implementations);
        assert_eq!(batched_run.queries, whole.queries);
        assert_eq!(timed(&batched_run, 0), timed(&whole, 0));
        let cases = corpus.cases();
        let mut short = 0;
        for (chunk, answers) in cases.chunks(2).zip(
            cases
                .chunks(2)
                .map(|chunk| evaluate_cases_with_evidence(implementations[0].as_ref(), chunk)),
        ) {
            for (i, (case, (outcomes, evidence))) in chunk.iter().zip(answers).enumerate() {
                // A case alone is answered through `evaluate_with_evidence`.
                let batch_evidence = vec![format!("{} queries", case.queries.len())];
                assert_eq!(evidence.is_empty(), chunk.len() == 1, "{}", case.id);
                if chunk.len() == 2 {
                    assert_eq!(evidence, batch_evidence);
                }
                let expected = evaluate_case(&*conforming().boxed(), case);
                if chunk.len() == 2 && i == 1 {
                    short += 1;
                    assert!(outcomes.iter().all(|o| o.word() == "error"), "{outcomes:?}");
                } else {
                    assert_eq!(outcomes, expected, "{}", case.id);
                }
            }
        }
        assert!(short >= 2, "{short}");
        // Only whole batches reach `evaluate_batch`; a case left alone is asked alone.
        let batches = batches.lock().unwrap();
        assert!(
            !batches.is_empty() && batches.iter().all(|&n| n == 2),
            "{batches:?}"
        );
    }

    #[test]
    fn the_largest_bodies_go_first_and_every_case_once() {
        let corpus = fixtures::corpus();
        let cases = corpus.cases();
        for batch in [1, 2, 3, 100] {
            let order = largest_first(cases, batch);
            let mut seen: Vec<usize> = order.iter().flat_map(|&(a, b)| a..b).collect();
            let sizes: Vec<usize> = order
                .iter()
                .map(|&(a, b)| cases[a..b].iter().map(weight).sum())
                .collect();
            assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "{batch}: {sizes:?}");
            assert!(order.iter().all(|&(a, b)| b - a <= batch && b > a));
            seen.sort_unstable();
            assert_eq!(seen, (0..cases.len()).collect::<Vec<_>>());
        }
    }

    #[test]
    fn an_adapter_answering_the_wrong_count_gets_an_error_per_query() {
        let corpus = fixtures::corpus();
        let must = &corpus.cases()[0];
        let outcomes = evaluate_case(&Mute(fixtures::info("mute", true)), must);
        let error = Outcome::Error("adapter answered 0 queries of 2".into());
        assert_eq!(outcomes, [error.clone(), error]);
    }

    /// Shards of one corpus run by the same implementations join into the whole run:
    /// queries and outcomes in shard order, each implementation's time summed.
    #[test]
    fn shards_merge_into_the_whole_run() {
        let [whole, first, second] = fixtures::corpora();
        let (a, b) = (run(&first, &both()), run(&second, &both()));
        assert_eq!(a.queries, QUERIES[..3]);
        let elapsed: Vec<Duration> = a
            .elapsed
            .iter()
            .zip(&b.elapsed)
            .map(|(x, y)| *x + *y)
            .collect();
        let merged = a.merge(b).unwrap();
        let all = run(&whole, &both());
        assert_eq!(merged.implementations, all.implementations);
        assert_eq!(merged.queries, all.queries);
        assert_eq!(merged.outcomes, all.outcomes);
        assert_eq!(merged.elapsed, elapsed);
        assert_eq!(timed(&merged, 1), timed(&all, 1));
    }

    /// Runs of other implementations over the same queries join column by column, each
    /// outcome found by its query id, in whatever order the other run holds them.
    #[test]
    fn several_implementations_merge_by_query_id() {
        let corpus = fixtures::corpus();
        let mine = run(&corpus, &[conforming().boxed()]);
        let mut theirs = run(&corpus, &[faulty().boxed()]);
        theirs.queries.reverse();
        theirs.outcomes[0].reverse();
        let merged = mine.merge(theirs).unwrap();
        let all = run(&corpus, &both());
        assert_eq!(merged.implementations, ["conforming", "faulty"]);
        assert_eq!(merged.queries, QUERIES);
        assert_eq!(merged.outcomes, all.outcomes);
        assert_eq!((merged.elapsed.len(), merged.case_elapsed.len()), (2, 2));
    }

    #[test]
    fn runs_that_overlap_or_share_nothing_are_refused() {
        let [whole, first, second] = fixtures::corpora();
        let shard = || run(&first, &both());
        assert_eq!(
            shard().merge(shard()).unwrap_err(),
            MergeError::DuplicateQuery("must/bot:/private".into())
        );
        // Not the same implementations, the same queries: columns, one of them twice.
        let alone = run(&whole, &[conforming().boxed()]);
        let again = alone.merge(run(&whole, &both())).unwrap_err();
        assert_eq!(
            again,
            MergeError::DuplicateImplementation("conforming".into())
        );
        assert_eq!(
            again.to_string(),
            "implementation `conforming` is in both runs"
        );
        let other = run(&second, &[faulty().boxed()]);
        assert_eq!(
            run(&first, &[conforming().boxed()])
                .merge(other)
                .unwrap_err(),
            MergeError::Mismatch
        );
    }

    #[test]
    fn slowest_cases_come_first_ties_by_id() {
        let ms = Duration::from_millis;
        let run = Run {
            implementations: vec!["a".into()],
            queries: vec!["x/1".into(), "y/1".into(), "z/1".into(), "z/2".into()],
            outcomes: vec![vec![verdict(true); 4]],
            elapsed: vec![ms(2000)],
            case_elapsed: vec![vec![
                ("z".into(), ms(2)),
                ("y".into(), ms(5)),
                ("x".into(), ms(2)),
            ]],
            evidence: Vec::new(),
        };
        assert_eq!(run.slowest_cases(0, 2), [("y", ms(5)), ("x", ms(2))]);
        assert_eq!(run.slowest_cases(0, 9).len(), 3);
        assert!(run.slowest_cases(1, 2).is_empty());
        assert!((run.queries_per_second(0) - 2.0).abs() < 1e-9);
        let instant = Run {
            elapsed: vec![Duration::ZERO],
            ..run
        };
        assert_eq!(instant.queries_per_second(0), f64::INFINITY);
    }

    /// Flags one of two [`Signals`] on its first case, then (a parser) waits up to 5 s
    /// for the other's flag and records whether it came: a crawler that only started
    /// after the parsers would leave the parser waiting in vain.
    struct Signals {
        crawler_started: std::sync::atomic::AtomicBool,
        parser_saw_crawler: std::sync::atomic::AtomicBool,
    }

    struct Meets {
        info: ImplInfo,
        signals: std::sync::Arc<Signals>,
    }

    impl Implementation for Meets {
        fn info(&self) -> &ImplInfo {
            &self.info
        }

        fn evaluate(&self, case: &CaseInput<'_>) -> Vec<Outcome> {
            use std::sync::atomic::Ordering::SeqCst;
            if self.info.kind == ImplKind::Crawler {
                self.signals.crawler_started.store(true, SeqCst);
            } else {
                let until = Instant::now() + Duration::from_secs(5);
                while !self.signals.crawler_started.load(SeqCst) && Instant::now() < until {
                    std::thread::sleep(Duration::from_millis(5));
                }
                let seen = self.signals.crawler_started.load(SeqCst);
                self.signals.parser_saw_crawler.fetch_or(seen, SeqCst);
            }
            vec![verdict(true); case.queries.len()]
        }
    }

    #[test]
    fn crawlers_run_beside_the_parsers_and_are_shown_after_them() {
        let signals = std::sync::Arc::new(Signals {
            crawler_started: false.into(),
            parser_saw_crawler: false.into(),
        });
        let mut crawler_info = fixtures::info("crawler", true);
        crawler_info.kind = ImplKind::Crawler;
        let implementations: Vec<Box<dyn Implementation>> = vec![
            Box::new(Meets {
                info: crawler_info,
                signals: std::sync::Arc::clone(&signals),
            }),
            Box::new(Meets {
                info: fixtures::info("parser", true),
                signals: std::sync::Arc::clone(&signals),
            }),
        ];
        let corpus = fixtures::corpus();
        let events = Recorder::default();
        let run = run_observed(&corpus, &implementations, &events);
        assert!(signals
            .parser_saw_crawler
            .load(std::sync::atomic::Ordering::SeqCst));
        let started = events.started.lock().unwrap().clone();
        assert_eq!(started[0], "parser");
        assert!(started[1].contains("crawler"), "{started:?}");
        // Every query answered, the crawler's held back until it was shown.
        let answered = *events.answered.lock().unwrap();
        assert_eq!(answered, 2 * QUERIES.len());
        assert_eq!(
            events.answered_before_crawlers.lock().unwrap().unwrap(),
            QUERIES.len()
        );
        assert_eq!(run.outcomes.len(), 2);
    }

    /// What the observer was told: the names started, and the queries answered in all
    /// and by the time the second implementation started.
    #[derive(Default)]
    struct Recorder {
        started: std::sync::Mutex<Vec<String>>,
        answered: std::sync::Mutex<usize>,
        answered_before_crawlers: std::sync::Mutex<Option<usize>>,
    }

    impl RunObserver for Recorder {
        fn started(&self, _: usize, _: usize, name: &str, _: usize) {
            let mut started = self.started.lock().unwrap();
            if !started.is_empty() {
                *self.answered_before_crawlers.lock().unwrap() =
                    Some(*self.answered.lock().unwrap());
            }
            started.push(name.to_owned());
        }

        fn answered(&self, queries: usize) {
            *self.answered.lock().unwrap() += queries;
        }
    }
}
