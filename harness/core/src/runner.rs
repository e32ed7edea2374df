//! Runs corpus cases through implementations in parallel into one outcome matrix.

use crate::{CaseInput, Implementation, Outcome, QueryInput};
use rayon::prelude::*;
use reptest_corpus::{Case, Corpus};
use std::time::{Duration, Instant};

/// The outcome matrix of a run: for each implementation, one outcome per corpus query,
/// in corpus order.
#[derive(Debug, Clone)]
pub struct Run {
    /// Names of the implementations, in the order given.
    pub implementations: Vec<String>,
    /// `outcomes[i][q]`: implementation `i`, query `q` (corpus order).
    pub outcomes: Vec<Vec<Outcome>>,
    /// `elapsed[i]`: the wall time implementation `i` took for the whole corpus
    /// (implementations run one after another, so these do not overlap).
    pub elapsed: Vec<Duration>,
    /// `case_elapsed[i][c]`: the wall time implementation `i` took for case `c` (corpus
    /// order), a timeout's wait included.
    pub case_elapsed: Vec<Vec<Duration>>,
}

impl Run {
    /// The `n` cases implementation `i` took longest on, slowest first: (case index in
    /// corpus order, wall time).
    pub fn slowest_cases(&self, i: usize, n: usize) -> Vec<(usize, Duration)> {
        let mut cases: Vec<(usize, Duration)> = self
            .case_elapsed
            .get(i)
            .map(|times| times.iter().copied().enumerate().collect())
            .unwrap_or_default();
        cases.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
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

/// Evaluates every case of `corpus` with every implementation: one implementation after
/// another, its cases in parallel (rayon), so each implementation's wall time is its own.
pub fn run(corpus: &Corpus, implementations: &[Box<dyn Implementation>]) -> Run {
    run_with_progress(corpus, implementations, &|_| {})
}

/// [`run`], calling `progress` with the number of queries of each case as it is
/// answered (from worker threads), e.g. to drive a progress bar.
pub fn run_with_progress(
    corpus: &Corpus,
    implementations: &[Box<dyn Implementation>],
    progress: &(dyn Fn(usize) + Sync),
) -> Run {
    let cases = corpus.cases();
    let run_one = |implementation: &dyn Implementation| {
        let started = Instant::now();
        let answered: Vec<(Vec<Outcome>, Duration)> = cases
            .par_iter()
            .map(|case| {
                let case_started = Instant::now();
                let outcomes = evaluate_case(implementation, case);
                progress(outcomes.len());
                (outcomes, case_started.elapsed())
            })
            .collect();
        let elapsed = started.elapsed();
        let (outcomes, times): (Vec<Vec<Outcome>>, Vec<Duration>) = answered.into_iter().unzip();
        (
            outcomes.into_iter().flatten().collect::<Vec<_>>(),
            (elapsed, times),
        )
    };
    // External adapters keep worker threads waiting on pipes: twice as many threads as
    // cores keep every pooled adapter process busy (a thread waits with the next case
    // while the process answers the last).
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()) * 2;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(4))
        .build();
    let (outcomes, times): (Vec<_>, Vec<_>) = implementations
        .iter()
        .map(|implementation| match &pool {
            Ok(pool) => pool.install(|| run_one(implementation.as_ref())),
            Err(_) => run_one(implementation.as_ref()),
        })
        .unzip();
    let (elapsed, case_elapsed) = times.into_iter().unzip();
    Run {
        implementations: implementations
            .iter()
            .map(|i| i.name().to_string())
            .collect(),
        outcomes,
        elapsed,
        case_elapsed,
    }
}

/// Evaluates one case, guaranteeing one outcome per query: an adapter that answers with
/// the wrong count gets `error` for the queries it left out or the whole case.
pub fn evaluate_case(implementation: &dyn Implementation, case: &Case) -> Vec<Outcome> {
    let queries: Vec<QueryInput<'_>> = case.queries.iter().map(QueryInput::from).collect();
    let input = CaseInput {
        robots: &case.body,
        fetch: case.fetch.as_ref(),
        queries: &queries,
    };
    evaluate(implementation, &input)
}

/// Evaluates one input, guaranteeing one outcome per query: a fetch outcome given to an
/// implementation that cannot take one is `unsupported`, and an adapter that answers
/// with the wrong count gets `error` for the whole input. Every consumer (run, fuzz
/// campaign, minimizer) evaluates through here.
pub fn evaluate(implementation: &dyn Implementation, input: &CaseInput<'_>) -> Vec<Outcome> {
    let count = input.queries.len();
    if input.fetch.is_some() && !implementation.info().capabilities.fetch_outcomes {
        let why = "takes a body only; this case describes a fetch outcome (RFC 9309 §2.3.1)";
        return vec![Outcome::Unsupported(why.into()); count];
    }
    let answers = implementation.evaluate(input);
    if answers.len() == count {
        answers
    } else {
        let why = format!("adapter answered {} queries of {count}", answers.len());
        vec![Outcome::Error(why); count]
    }
}
