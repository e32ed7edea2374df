//! The query a divergence is about: a crawler's product token and an absolute URL, owned,
//! so the minimizer can shorten its URL.

use reptest_core::QueryInput;

/// One query: a product token and an absolute URL.
///
/// ```
/// let query = reptest_triage::Query { agent: "bot".into(), url: "https://h/p".into() };
/// let input = reptest_core::QueryInput::from(&query);
/// assert_eq!((input.agent, input.url), ("bot", "https://h/p"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Query {
    /// The product token (sometimes not a bare token, e.g. `examplebot/1.0`).
    pub agent: String,
    /// An absolute URL.
    pub url: String,
}

impl<'a> From<&'a Query> for QueryInput<'a> {
    fn from(query: &'a Query) -> Self {
        QueryInput {
            agent: &query.agent,
            url: &query.url,
        }
    }
}
