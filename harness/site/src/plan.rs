//! A scenario laid out on concrete origins: which path answers what on which origin.

use std::collections::HashMap;
use std::io::Write as _;

use bytes::Bytes;
use flate2::write::GzEncoder;
use flate2::Compression;
use http::{HeaderValue, StatusCode};

use crate::error::Error;
use crate::pages;
use crate::scenario::{Fault, Scenario};

/// The index of the site's first origin (the one with the start page).
pub(crate) const FIRST: usize = 0;
/// The index of the second origin (redirect targets across authorities).
pub(crate) const SECOND: usize = 1;

/// The path hop `k` redirects to (and hop `k + 1` is served at); 0 is the robots.txt.
pub(crate) fn hop_path(k: usize) -> String {
    if k == 0 {
        "/robots.txt".to_owned()
    } else {
        format!("/hop/{k}/robots.txt")
    }
}

/// Which origin each hop is served on and where the final response is, from the scenario
/// alone (before any address is known).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Chain {
    /// For hop `k` (0-based): the origin that serves it and the origin it names.
    pub(crate) hops: Vec<(usize, usize)>,
    /// The origin of the final response.
    pub(crate) last: usize,
}

impl Chain {
    pub(crate) fn of(scenario: &Scenario) -> Self {
        let mut at = FIRST;
        let mut hops = Vec::with_capacity(scenario.redirects.len());
        for hop in &scenario.redirects {
            let to = if hop.cross_origin { 1 - at } else { at };
            hops.push((at, to));
            at = to;
        }
        Self { hops, last: at }
    }

    /// Whether the second origin takes part at all.
    pub(crate) fn uses_second(&self) -> bool {
        self.last == SECOND
            || self
                .hops
                .iter()
                .any(|&(from, to)| from == SECOND || to == SECOND)
    }
}

/// What a path answers.
#[derive(Debug, Clone)]
pub(crate) enum Route {
    /// A redirect hop.
    Redirect {
        status: StatusCode,
        location: HeaderValue,
    },
    /// The final robots.txt response.
    Robots,
    /// The start page.
    Start,
    /// A linked page.
    Page,
}

/// The final robots.txt response, ready to send.
#[derive(Debug, Clone)]
pub(crate) struct Robots {
    pub(crate) status: StatusCode,
    pub(crate) content_type: Option<HeaderValue>,
    pub(crate) gzip: bool,
    /// The bytes on the wire (gzipped when `gzip`).
    pub(crate) body: Bytes,
    pub(crate) fault: Option<Fault>,
}

/// The routes of both origins and the final response.
#[derive(Debug)]
pub(crate) struct Plan {
    routes: [HashMap<String, Route>; 2],
    pub(crate) robots: Robots,
    pub(crate) start_page: Bytes,
}

impl Plan {
    /// Lays `scenario` (already validated) out on `origins` (`http://127.a.b.c:PORT`; the
    /// second is unused when the chain stays on the first).
    pub(crate) fn new(scenario: &Scenario, origins: &[String; 2]) -> Result<Self, Error> {
        let chain = Chain::of(scenario);
        let mut routes: [HashMap<String, Route>; 2] = Default::default();
        for (k, (&(from, to), hop)) in chain.hops.iter().zip(&scenario.redirects).enumerate() {
            let status = status(hop.status)?;
            let location = format!("{}{}", origins[to], hop_path(k + 1));
            let location = HeaderValue::from_str(&location)
                .map_err(|_| Error::invalid(format!("location {location:?}")))?;
            routes[from].insert(hop_path(k), Route::Redirect { status, location });
        }
        routes[chain.last].insert(hop_path(chain.hops.len()), Route::Robots);
        routes[FIRST].insert(pages::START_PATH.to_owned(), Route::Start);
        for page in &scenario.pages {
            routes[FIRST].entry(page.clone()).or_insert(Route::Page);
        }

        let response = &scenario.response;
        let body = if response.gzip {
            gzip(response.body.as_bytes())?
        } else {
            response.body.as_bytes().to_vec()
        };
        let content_type =
            if response.content_type.is_empty() {
                None
            } else {
                Some(HeaderValue::from_str(&response.content_type).map_err(|_| {
                    Error::invalid(format!("content type {:?}", response.content_type))
                })?)
            };
        Ok(Self {
            routes,
            robots: Robots {
                status: status(response.status)?,
                content_type,
                gzip: response.gzip,
                body: Bytes::from(body),
                fault: scenario.fault,
            },
            start_page: Bytes::from(pages::start_page(&scenario.pages)),
        })
    }

    /// What `path_and_query` answers on `origin`: an exact match, or else a robots.txt or
    /// redirect route matched on the path alone (a query does not change the robots.txt).
    pub(crate) fn route(&self, origin: usize, path_and_query: &str) -> Option<&Route> {
        let routes = self.routes.get(origin)?;
        routes.get(path_and_query).or_else(|| {
            let path = path_and_query.split('?').next()?;
            routes
                .get(path)
                .filter(|route| matches!(route, Route::Robots | Route::Redirect { .. }))
        })
    }

    /// Whether some response resets its connection (so connections keep a handle for it).
    pub(crate) fn resets(&self) -> bool {
        self.robots.fault == Some(Fault::ResetMidBody)
    }
}

fn status(code: u16) -> Result<StatusCode, Error> {
    StatusCode::from_u16(code).map_err(|_| Error::invalid(format!("status {code}")))
}

fn gzip(bytes: &[u8]) -> Result<Vec<u8>, Error> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
    encoder
        .write_all(bytes)
        .and_then(|()| encoder.finish())
        .map_err(Error::start)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Redirect;

    fn origins() -> [String; 2] {
        [
            "http://127.0.0.2:1".to_owned(),
            "http://127.0.0.3:2".to_owned(),
        ]
    }

    #[test]
    fn a_chain_walks_hop_paths_and_crosses_origins() {
        let scenario = Scenario::new(200, "x").with_redirects([
            Redirect::new(301),
            Redirect::cross_origin(302),
            Redirect::new(307),
        ]);
        let chain = Chain::of(&scenario);
        assert_eq!(
            chain.hops,
            [(FIRST, FIRST), (FIRST, SECOND), (SECOND, SECOND)]
        );
        assert_eq!(chain.last, SECOND);
        let plan = Plan::new(&scenario, &origins()).unwrap();
        let Some(Route::Redirect { status, location }) = plan.route(FIRST, "/robots.txt?x") else {
            panic!("no redirect at /robots.txt");
        };
        assert_eq!(status.as_u16(), 301);
        assert_eq!(location, "http://127.0.0.2:1/hop/1/robots.txt");
        let Some(Route::Redirect { location, .. }) = plan.route(FIRST, "/hop/1/robots.txt") else {
            panic!("no redirect at hop 1");
        };
        assert_eq!(location, "http://127.0.0.3:2/hop/2/robots.txt");
        assert!(matches!(
            plan.route(SECOND, "/hop/3/robots.txt"),
            Some(Route::Robots)
        ));
        assert!(plan.route(FIRST, "/hop/3/robots.txt").is_none());
        assert!(plan.route(SECOND, "/").is_none());
    }

    #[test]
    fn pages_match_exactly_with_their_query() {
        let scenario = Scenario::new(200, "").with_pages(["/a?b=1"]);
        let plan = Plan::new(&scenario, &origins()).unwrap();
        assert!(matches!(plan.route(FIRST, "/a?b=1"), Some(Route::Page)));
        assert!(plan.route(FIRST, "/a").is_none());
        assert!(matches!(
            plan.route(FIRST, pages::START_PATH),
            Some(Route::Start)
        ));
        assert!(plan.route(FIRST, "/").is_none());
    }
}
