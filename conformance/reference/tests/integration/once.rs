//! `check_once`, the one-query path, gives exactly the verdict of parse + check (the
//! deciding rule, its line and pattern, and the groups applied included): on generated
//! files under several configurations, and on every query of the corpus.

use proptest::prelude::*;
use reptest_reference::{check_once, Config, Robots};

use crate::corpus::corpus;
use crate::properties::{configs, groups, render, robots_bytes, AGENTS, PATHS};

/// Agents beyond [`AGENTS`]: the empty token, `*`, one that is no product token.
const MORE_AGENTS: &[&str] = &["", "*", "b/1.0"];

/// URLs beyond [`PATHS`]: the robots.txt URI, absolute URLs, escapes, dot segments.
const URLS: &[&str] = &[
    "/robots.txt",
    "https://example.com/robots.txt?x",
    "https://example.com/a/../b*",
    "//example.com/ab",
    "/%61%2a?b$",
    "",
];

/// Asserts that `check_once` and `Robots::parse_with` + `check` agree on `body` under
/// `config` for every agent and URL given, and for every agent and URL of
/// [`AGENTS`], [`MORE_AGENTS`], [`PATHS`] and [`URLS`].
fn assert_agree(
    body: &[u8],
    config: &Config,
    agents: &[&str],
    urls: &[&str],
) -> Result<(), TestCaseError> {
    let robots = Robots::parse_with(body, config);
    let agents = agents.iter().chain(AGENTS).chain(MORE_AGENTS);
    for agent in agents {
        for url in urls.iter().chain(PATHS).chain(URLS) {
            prop_assert_eq!(
                check_once(body, config, agent, url),
                robots.check(agent, url),
                "agent {:?} url {:?} config {:?}",
                agent,
                url,
                config
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn agrees_on_structured_files(gs in groups(), seed in 0usize..1000) {
        let body = render(&gs, "\n", seed);
        for config in configs() {
            assert_agree(body.as_bytes(), &config, &[], &[])?;
        }
    }

    #[test]
    fn agrees_on_grammar_like_bytes(
        body in robots_bytes(),
        agent in "[a*A/ -]{0,4}",
        url in "[/a%2AE3*$?#:]{0,12}",
    ) {
        for config in configs() {
            assert_agree(&body, &config, &[&agent], &[&url])?;
        }
    }

    #[test]
    fn agrees_on_arbitrary_bytes(
        body in proptest::collection::vec(any::<u8>(), 0..300),
        agent in ".{0,8}",
        url in ".{0,24}",
    ) {
        for config in configs() {
            assert_agree(&body, &config, &[&agent], &[&url])?;
        }
    }
}

/// Every query of every case of the corpus, on the case's body and on its cached copy if
/// it has one, under the RFC, Google and the property tests' configurations.
#[test]
fn agrees_on_every_corpus_query() {
    let mut compared = 0;
    let mut configs = configs();
    configs.push(Config::rfc9309());
    for case in corpus().cases() {
        let cached = case.fetch.as_ref().and_then(|f| f.cache.as_ref());
        let bodies = std::iter::once(&case.body).chain(cached.map(|c| &c.body));
        for body in bodies {
            for config in &configs {
                let robots = Robots::parse_with(body, config);
                for query in &case.queries {
                    let (agent, url) = (query.agent.as_str(), query.url.as_str());
                    assert_eq!(
                        check_once(body, config, agent, url),
                        robots.check(agent, url),
                        "{} under {config:?}",
                        query.id
                    );
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 3 * 900, "only {compared} comparisons");
}
