//! The small crawler reptest runs as `crawler-spider` (harness/site/src/crawl/pinned.rs):
//! the `spider` crate's `Website` crawler, with `respect_robots_txt` on.
//!
//! `reptest-spider START_URL AGENT`: crawls from the start page, on its host only (no
//! subdomains), to depth 2 (the start page and what it links), with the agent as its
//! `User-Agent` (`with_user_agent`, also the name its robots.txt parser is asked about),
//! a 5 s request timeout, no retries and no delay. Everything about robots.txt is
//! spider's own: before the crawl it fetches `/robots.txt` (`RobotFileParser::read`:
//! 401/403 disallow all, other 4xx allow all) and skips each link
//! `is_allowed_robots` refuses. The pages it visited are printed on stderr.

use spider::website::Website;
use std::time::Duration;

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, start, agent] = args.as_slice() else {
        eprintln!("usage: reptest-spider START_URL AGENT");
        std::process::exit(2);
    };
    let mut website = Website::new(start);
    website
        .with_respect_robots_txt(true)
        .with_user_agent(Some(agent))
        .with_depth(2)
        .with_subdomains(false)
        .with_request_timeout(Some(Duration::from_secs(5)))
        .with_retry(0)
        .with_delay(0);
    website.crawl().await;
    for link in website.get_links() {
        eprintln!("visited: {}", link.as_ref());
    }
}
