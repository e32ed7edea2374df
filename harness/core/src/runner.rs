//! Runs corpus cases through implementations in parallel into one outcome matrix.

use crate::{CaseInput, Implementation, Outcome, QueryInput};
use rayon::prelude::*;
use reptest_corpus::{Case, Corpus};
use std::time::{Duration, Instant};

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
    /// `elapsed[i]`: the wall time implementation `i` took for the whole corpus
    /// (implementations run one after another, so these do not overlap).
    pub elapsed: Vec<Duration>,
    /// `case_elapsed[i]`: (case id, wall time) for every case implementation `i` ran, a
    /// timeout's wait included.
    pub case_elapsed: Vec<Vec<(String, Duration)>>,
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

/// Evaluates every case of `corpus` with every implementation: one implementation after
/// another, its cases in parallel (rayon), so each implementation's wall time is its own.
pub fn run(corpus: &Corpus, implementations: &[Box<dyn Implementation>]) -> Run {
    run_observed(corpus, implementations, &())
}

/// [`run`], telling `observer` when each implementation starts and how many queries each
/// case answered (from worker threads). Each implementation's wall time is in the
/// [`Run`] ([`Run::elapsed`]).
pub fn run_observed(
    corpus: &Corpus,
    implementations: &[Box<dyn Implementation>],
    observer: &dyn RunObserver,
) -> Run {
    let cases = corpus.cases();
    let queries: usize = cases.iter().map(|case| case.queries.len()).sum();
    let count = implementations.len();
    let run_one = |index: usize, implementation: &dyn Implementation| {
        observer.started(index, count, implementation.name(), queries);
        let started = Instant::now();
        let answered: Vec<(Vec<Outcome>, (String, Duration))> = cases
            .par_iter()
            .map(|case| {
                let case_started = Instant::now();
                let outcomes = evaluate_case(implementation, case);
                observer.answered(outcomes.len());
                (outcomes, (case.id.clone(), case_started.elapsed()))
            })
            .collect();
        let elapsed = started.elapsed();
        let (outcomes, times): (Vec<Vec<Outcome>>, Vec<(String, Duration)>) =
            answered.into_iter().unzip();
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
        .enumerate()
        .map(|(index, implementation)| match &pool {
            Ok(pool) => pool.install(|| run_one(index, implementation.as_ref())),
            Err(_) => run_one(index, implementation.as_ref()),
        })
        .unzip();
    let (elapsed, case_elapsed) = times.into_iter().unzip();
    Run {
        implementations: implementations
            .iter()
            .map(|i| i.name().to_string())
            .collect(),
        queries: corpus.queries().map(|(_, q)| q.id.clone()).collect(),
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
