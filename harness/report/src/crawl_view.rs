//! The crawler view of a [`Report`]: per crawler judged over HTTP, the MUSTs of RFC 9309
//! §2.3–§2.5 it breaks in practice, topic by topic (status families, unreachable,
//! redirects, content coding, size, cached copy), each with an example query and the
//! crawl's request log as evidence: what the crawler fetched, in order.
//!
//! The Markdown summary and the HTML page both render this model.

use super::access::meets;
use super::{CaseEntry, QueryEntry, Report};
use reptest_corpus::Fetch;
use serde::{Deserialize, Serialize};

/// The largest body §2.5 obliges a crawler to parse: "at least 500 kibibytes (KiB)".
const PARSE_LIMIT: usize = 500 * 1024;

/// What a fetch case tests of the access method (RFC 9309 §2.3–§2.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum AccessTopic {
    /// A 2xx download (§2.3.1.1): its rules are followed.
    Success,
    /// Redirects before the final response (§2.3.1.2).
    Redirects,
    /// A 4xx: the file is unavailable (§2.3.1.3).
    Unavailable,
    /// A 5xx: the file is unreachable, complete disallow (§2.3.1.4).
    ServerError,
    /// No complete response (§2.3.1.4): complete disallow.
    Unreachable,
    /// A content coding such as gzip (RFC 9110 §8.4): the decoded file is the file.
    Encoding,
    /// A file past the 500 KiB a crawler must parse (§2.5).
    Size,
    /// A cached copy beside the fetch (§2.4).
    Cache,
}

impl AccessTopic {
    /// Every topic, in the view's column order.
    pub const ALL: [AccessTopic; 8] = [
        AccessTopic::Success,
        AccessTopic::Redirects,
        AccessTopic::Unavailable,
        AccessTopic::ServerError,
        AccessTopic::Unreachable,
        AccessTopic::Encoding,
        AccessTopic::Size,
        AccessTopic::Cache,
    ];

    /// The topic of a fetch case whose body is `body_len` bytes: the cached copy, a
    /// network error, redirects, a content coding and the size first, then the final
    /// status's family (`None` for a status outside 2xx, 4xx and 5xx).
    pub fn of(fetch: &Fetch, body_len: usize) -> Option<AccessTopic> {
        Some(if fetch.cache.is_some() {
            AccessTopic::Cache
        } else if fetch.network_error {
            AccessTopic::Unreachable
        } else if fetch.redirects > 0 {
            AccessTopic::Redirects
        } else if fetch.content_encoding.is_some() {
            AccessTopic::Encoding
        } else if body_len > PARSE_LIMIT {
            AccessTopic::Size
        } else {
            match fetch.status? {
                200..=299 => AccessTopic::Success,
                400..=499 => AccessTopic::Unavailable,
                500..=599 => AccessTopic::ServerError,
                _ => return None,
            }
        })
    }

    /// The column's label: `2xx`, `redirects`, `4xx`, `5xx`, `unreachable`, `encoding`,
    /// `size`, `cache`.
    pub fn label(self) -> &'static str {
        match self {
            AccessTopic::Success => "2xx",
            AccessTopic::Redirects => "redirects",
            AccessTopic::Unavailable => "4xx",
            AccessTopic::ServerError => "5xx",
            AccessTopic::Unreachable => "unreachable",
            AccessTopic::Encoding => "encoding",
            AccessTopic::Size => "size",
            AccessTopic::Cache => "cache",
        }
    }

    /// The RFC 9309 section the topic's MUSTs come from.
    pub fn section(self) -> &'static str {
        match self {
            AccessTopic::Success | AccessTopic::Encoding => "§2.3.1.1",
            AccessTopic::Redirects => "§2.3.1.2",
            AccessTopic::Unavailable => "§2.3.1.3",
            AccessTopic::ServerError | AccessTopic::Unreachable => "§2.3.1.4",
            AccessTopic::Size => "§2.5",
            AccessTopic::Cache => "§2.4",
        }
    }
}

/// The view: the topics some fetch case tests, and one row per crawler.
#[derive(Debug, Clone, PartialEq)]
pub struct CrawlerView<'r> {
    /// The topics with at least one fetch case, in [`AccessTopic::ALL`] order.
    pub topics: Vec<AccessTopic>,
    /// One row per crawler, in report order.
    pub rows: Vec<CrawlerRow<'r>>,
}

/// One crawler's MUST queries per topic, and the ones it breaks.
#[derive(Debug, Clone, PartialEq)]
pub struct CrawlerRow<'r> {
    /// The crawler, as a [`Report::implementations`] index.
    pub implementation: usize,
    /// One cell per topic of [`CrawlerView::topics`].
    pub cells: Vec<TopicCell>,
    /// Per topic it breaks, the first MUST query it failed, in topic order.
    pub broken: Vec<Broken<'r>>,
}

/// A crawler's MUST queries of one topic, judged under `rfc9309`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TopicCell {
    /// MUST queries with a verdict (a crawl that showed something).
    pub judged: usize,
    /// Those whose verdict missed the expectation.
    pub failed: usize,
}

impl TopicCell {
    /// `ok n`, `broken f/n`, or `—` when nothing was judged.
    pub fn text(self) -> String {
        match (self.judged, self.failed) {
            (0, _) => "—".to_string(),
            (n, 0) => format!("ok {n}"),
            (n, f) => format!("broken {f}/{n}"),
        }
    }
}

/// A MUST a crawler breaks: one failed query, with the crawl that shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Broken<'r> {
    /// The topic.
    pub topic: AccessTopic,
    /// The case.
    pub case: &'r CaseEntry,
    /// The query failed.
    pub query: &'r QueryEntry,
    /// The crawler's verdict (fetched is allowed).
    pub allowed: bool,
    /// The requests of the crawl as the query's agent, in arrival order (empty when the
    /// report holds no request log).
    pub log: Vec<&'r str>,
}

impl Broken<'_> {
    /// The verdict the query expects: the opposite of the crawler's.
    pub fn expected(&self) -> &'static str {
        if self.allowed {
            "disallowed"
        } else {
            "allowed"
        }
    }

    /// What the crawler did: `fetched it (allowed)` or `did not fetch it (disallowed)`.
    pub fn got(&self) -> &'static str {
        if self.allowed {
            "fetched it (allowed)"
        } else {
            "did not fetch it (disallowed)"
        }
    }
}

impl Report {
    /// The crawler view, crawlers in report order; `None` when the report has no crawler
    /// or no case with an access topic.
    pub fn crawler_view(&self) -> Option<CrawlerView<'_>> {
        let topics: Vec<AccessTopic> = AccessTopic::ALL
            .into_iter()
            .filter(|t| self.cases.iter().any(|c| c.access == Some(*t)))
            .collect();
        let rows: Vec<CrawlerRow<'_>> = (0..self.implementations.len())
            .filter(|&i| self.implementations[i].crawler)
            .map(|i| self.crawler_row(i, &topics))
            .collect();
        (!topics.is_empty() && !rows.is_empty()).then_some(CrawlerView { topics, rows })
    }

    fn crawler_row(&self, i: usize, topics: &[AccessTopic]) -> CrawlerRow<'_> {
        let mut cells = vec![TopicCell::default(); topics.len()];
        let mut broken: Vec<Broken<'_>> = Vec::new();
        for case in &self.cases {
            let Some(t) = topics.iter().position(|t| Some(*t) == case.access) else {
                continue;
            };
            for query in case.queries.iter().filter(|q| q.level == "MUST") {
                let Some(allowed) = self.verdict_of(i, query) else {
                    continue;
                };
                cells[t].judged += 1;
                if meets(query, allowed) {
                    continue;
                }
                cells[t].failed += 1;
                if !broken.iter().any(|b| b.topic == topics[t]) {
                    broken.push(Broken {
                        topic: topics[t],
                        case,
                        query,
                        allowed,
                        log: self.crawl_log(i, case, query),
                    });
                }
            }
        }
        broken.sort_by_key(|b| b.topic);
        CrawlerRow {
            implementation: i,
            cells,
            broken,
        }
    }

    fn verdict_of(&self, i: usize, query: &QueryEntry) -> Option<bool> {
        self.outcomes.get(i)?.get(query.index)?.word.verdict()
    }

    /// The request log of implementation `i`'s crawl as `query`'s agent on `case`.
    fn crawl_log<'r>(&'r self, i: usize, case: &CaseEntry, query: &QueryEntry) -> Vec<&'r str> {
        let prefix = format!("{}: ", query.agent);
        self.implementations[i]
            .request_logs
            .get(&case.id)
            .map(|lines| {
                lines
                    .iter()
                    .filter_map(|line| line.strip_prefix(&prefix))
                    .collect()
            })
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reptest_corpus::{Cache, ContentEncoding};

    fn status(status: u16) -> Fetch {
        Fetch {
            status: Some(status),
            ..Fetch::default()
        }
    }

    #[test]
    fn a_fetch_case_has_the_topic_of_what_it_tests_first() {
        let topic = |fetch: &Fetch, len| AccessTopic::of(fetch, len);
        assert_eq!(topic(&status(203), 10), Some(AccessTopic::Success));
        assert_eq!(topic(&status(404), 10), Some(AccessTopic::Unavailable));
        assert_eq!(topic(&status(503), 10), Some(AccessTopic::ServerError));
        assert_eq!(
            topic(&status(200), PARSE_LIMIT + 1),
            Some(AccessTopic::Size)
        );
        assert_eq!(topic(&status(304), 10), None);
        let redirected = Fetch {
            redirects: 2,
            ..status(503)
        };
        assert_eq!(topic(&redirected, 10), Some(AccessTopic::Redirects));
        let gzip = Fetch {
            content_encoding: Some(ContentEncoding::Gzip),
            ..status(200)
        };
        assert_eq!(topic(&gzip, 10), Some(AccessTopic::Encoding));
        let refused = Fetch {
            network_error: true,
            ..Fetch::default()
        };
        assert_eq!(topic(&refused, 10), Some(AccessTopic::Unreachable));
        let cached = Fetch {
            cache: Some(Cache {
                age_hours: 2,
                body: Vec::new(),
            }),
            ..refused
        };
        assert_eq!(topic(&cached, 10), Some(AccessTopic::Cache));
    }

    #[test]
    fn a_cell_says_ok_broken_or_nothing() {
        let cell = |judged, failed| TopicCell { judged, failed }.text();
        assert_eq!(cell(0, 0), "—");
        assert_eq!(cell(4, 0), "ok 4");
        assert_eq!(cell(4, 3), "broken 3/4");
    }
}
