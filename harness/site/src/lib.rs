//! reptest's loopback site: one RFC 9309 fetch **scenario** served over real HTTP.
//!
//! RFC 9309 decides what a crawler may do from the *outcome of fetching* the robots.txt,
//! not only from its text. That outcome can only be judged for a fetching library or a
//! real crawler by letting it fetch: this crate starts a small HTTP site on loopback
//! (127.0.0.0/8, never any other address) that serves one [`Scenario`] for one origin,
//! logs every request, and stops itself.
//!
//! # The model
//!
//! A [`Scenario`] says what the origin answers at `/robots.txt`:
//!
//! - **the final response** ([`Response`]): any status, any bytes of any size, a content
//!   type (default `text/plain`), optionally gzipped by the server
//!   (`Content-Encoding: gzip`);
//! - **a redirect chain** in front of it ([`Redirect`]): N hops, each a 3xx status with an
//!   absolute `Location`, any of which may cross to a *second origin* (another listener on
//!   another loopback address and port);
//! - **a network fault** instead of a clean response ([`Fault`]): connection refused,
//!   reset mid-body, or a response that never completes;
//! - **pages**: URL paths that answer 200 with a small HTML page, all linked from the
//!   start page (`/reptest-start.html`, so that `/` can be a page), so a crawler that obeys nothing fetches every one of them. Any other
//!   path answers 404.
//!
//! A [`Site`] starts a scenario ([`Site::start`], or [`Options::start`] to choose the
//! addresses and bounds), exposes its origin(s), the robots.txt URL and the start page URL,
//! and records every request ([`Request`]: method, origin, path with query, user-agent,
//! time since start). It stops by itself after a number of requests or a lifetime,
//! whichever comes first ([`StopReason`]), and on [`Site::stop`] or drop; then nothing
//! listens and its thread has been joined.
//!
//! # What the RFC says the outcomes mean
//!
//! The site only *serves*; judging is the caller's. The scenarios exist to exercise:
//!
//! - **§2.3.1.1 Successful access**: on a 2xx the crawler "MUST follow the parseable
//!   rules".
//! - **§2.3.1.2 Redirects**: the crawler "SHOULD follow at least five consecutive
//!   redirects, even across authorities (for example, hosts in the case of HTTP)"; after
//!   more than five it "MAY assume that the robots.txt file is unavailable". Hence chains
//!   of 1 to 7 hops and the second origin.
//! - **§2.3.1.3 "Unavailable" status**: on a 4xx (400–499) the crawler "MAY access any
//!   resources on the server".
//! - **§2.3.1.4 "Unreachable" status**: on a 5xx (500–599), or when the server cannot be
//!   reached, the crawler "MUST assume complete disallow"; hence the network
//!   [`Fault`]s.
//! - **§2.3.1.5 Parsing errors**: the crawler "MUST try to parse each line" and use the
//!   rules it can; a body may be any bytes, also `text/html`.
//! - **§2.5 Limits**: "The parsing limit MUST be at least 500 kibibytes (KiB)"; hence
//!   bodies of any size.
//!
//! (In `corpus/requirements.md`: `2.3.1.1-SUCCESS`, `2.3.1.2-REDIRECTS`,
//! `2.3.1.3-UNAVAILABLE`, `2.3.1.4-UNREACHABLE`, `2.3.1.5-PARSE-ERRORS`, `2.5-LIMIT`.)
//!
//! # Crawlers
//!
//! [`crawl`] runs a real crawler (GNU Wget, HTTrack, ...) against a site's start page and
//! judges it as a black box from the request log: a queried page it fetched is
//! `allowed`, one it did not is `disallowed`.
//!
//! # Example
//!
//! ```
//! use reptest_site::{Scenario, Site};
//!
//! let scenario = Scenario::new(200, "User-agent: *\nDisallow: /private\n")
//!     .with_pages(["/private", "/public"]);
//! let site = Site::start(&scenario)?;
//! assert!(site.origin().starts_with("http://127."));
//!
//! let body = ureq::get(&site.robots_url()).call()?.into_string()?;
//! assert_eq!(body, "User-agent: *\nDisallow: /private\n");
//!
//! let stopped = site.stop();
//! assert_eq!(stopped.requests.len(), 1);
//! assert_eq!(stopped.requests[0].path, "/robots.txt");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod addr;
pub mod crawl;
mod error;
mod faults;
mod fetch;
mod handler;
mod log;
mod pages;
mod plan;
mod response_body;
mod scenario;
pub mod served_case;
mod site;

pub use error::Error;
pub use fetch::scenario_for;
pub use log::Request;
pub use pages::START_PATH;
pub use scenario::{Body, Fault, Redirect, Response, Scenario};
pub use site::{Options, Site, StopReason, Stopped};
