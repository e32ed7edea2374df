//! Runs corpus cases through implementations in parallel into one outcome matrix.

use crate::{CaseInput, Implementation, Outcome, QueryInput};
use rayon::prelude::*;
use reptest_corpus::{Case, Corpus};

/// The outcome matrix of a run: for each implementation, one outcome per corpus query,
/// in corpus order.
#[derive(Debug, Clone)]
pub struct Run {
    /// Names of the implementations, in the order given.
    pub implementations: Vec<String>,
    /// `outcomes[i][q]`: implementation `i`, query `q` (corpus order).
    pub outcomes: Vec<Vec<Outcome>>,
}

/// Evaluates every case of `corpus` with every implementation (rayon over
/// implementation × case).
pub fn run(corpus: &Corpus, implementations: &[Box<dyn Implementation>]) -> Run {
    let cases = corpus.cases();
    let outcomes = implementations
        .par_iter()
        .map(|implementation| {
            cases
                .par_iter()
                .map(|case| evaluate_case(implementation.as_ref(), case))
                .collect::<Vec<_>>()
                .into_iter()
                .flatten()
                .collect()
        })
        .collect();
    Run {
        implementations: implementations
            .iter()
            .map(|i| i.info().name.clone())
            .collect(),
        outcomes,
    }
}

/// Evaluates one case, guaranteeing one outcome per query: an adapter that answers with
/// the wrong count gets `error` for the queries it left out or the whole case.
pub fn evaluate_case(implementation: &dyn Implementation, case: &Case) -> Vec<Outcome> {
    let queries: Vec<QueryInput<'_>> = case
        .queries
        .iter()
        .map(|q| QueryInput {
            agent: &q.agent,
            url: &q.url,
        })
        .collect();
    let input = CaseInput {
        robots: &case.body,
        fetch: case.fetch.as_ref(),
        queries: &queries,
    };
    if input.fetch.is_some() && !implementation.info().capabilities.fetch_outcomes {
        let why = "takes a body only; this case describes a fetch outcome (RFC 9309 §2.3.1)";
        return vec![Outcome::Unsupported(why.into()); queries.len()];
    }
    let answers = implementation.evaluate(&input);
    if answers.len() == queries.len() {
        answers
    } else {
        let why = format!(
            "adapter answered {} queries of {}",
            answers.len(),
            queries.len()
        );
        vec![Outcome::Error(why); queries.len()]
    }
}
