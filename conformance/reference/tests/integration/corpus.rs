//! The reference drives the corpus itself, as regex's engines drive `testdata/`: every
//! decided query under RFC 9309 (`Config::rfc9309()`), and every decided query of the
//! `google` profile under `Config::google()` but the departures it does not model.
//!
//! This module alone is the oracle of the reference's mutation testing (`mutants.sh`): a
//! mutant counts as killed only when a corpus query catches it.

use std::sync::OnceLock;

use reptest_corpus::{Case, Corpus, Expect, Profile, Query};
use reptest_reference::{corpus::verdicts, Config, PatternWithoutSlash, Robots};

/// The corpus, loaded once for every test of this binary (each runs it many times).
pub(crate) fn corpus() -> &'static Corpus {
    static CORPUS: OnceLock<Corpus> = OnceLock::new();
    CORPUS.get_or_init(|| {
        Corpus::load(reptest_corpus::default_dir()).unwrap_or_else(|e| panic!("{e}"))
    })
}

/// Departures of the `google` profile that `Config::google()` does not model (a profile ID,
/// or a query id for a single query), each with what Google does.
const GOOGLE_NOT_MODELLED: &[(&str, &str)] = &[
    (
        "profile-google-bom-prefix",
        "skips a partial BOM prefix before the first key",
    ),
    ("profile-google-nul-ends-line", "ends a line at a NUL octet"),
    (
        "profile-google-ascii-whitespace",
        "strips form feed and vertical tab as white space",
    ),
    (
        "profile-google-escapes-as-written",
        "compares percent-escapes as written: no hex-case folding, no decoding in a rule",
    ),
    (
        "profile-google-dollar-inside-literal",
        "reads a `$` before the end of a pattern as a literal octet",
    ),
    (
        "profile-google-control-octet-rule",
        "keeps a rule with a control octet in its path",
    ),
    (
        "typo-disallow-misspellings/examplebot:/four",
        "reads any key that starts with `disallow` (`Disallowed`) as disallow",
    ),
];

fn not_modelled(query: &Query) -> bool {
    let listed = |id: &str| GOOGLE_NOT_MODELLED.iter().any(|(name, _)| *name == id);
    listed(&query.id) || query.requirements.iter().any(|r| listed(r))
}

/// Runs every case under `config` and returns the decided queries `judged` keeps whose
/// verdict `profile` does not accept, with the number of queries judged.
fn failures(
    config: &Config,
    profile: Profile,
    judged: impl Fn(&Query) -> bool,
) -> (usize, Vec<String>) {
    let (mut checked, mut failed) = (0, Vec::new());
    for case in corpus().cases() {
        for (query, verdict) in case.queries.iter().zip(verdicts(case, config)) {
            let expect = query.expect_for(profile);
            if query.is_undecided() || expect == Expect::Either || !judged(query) {
                continue;
            }
            checked += 1;
            if !expect.accepts(verdict.is_allowed()) {
                failed.push(describe(case, query, expect, verdict.is_allowed()));
            }
        }
    }
    (checked, failed)
}

/// Asserts that [`failures`] judged the whole corpus (at least 700 decided queries) and
/// found no failure; `what` says what was run.
fn assert_passes(what: &str, (checked, failed): (usize, Vec<String>)) {
    assert!(checked >= 700, "{what}: only {checked} decided queries");
    assert!(
        failed.is_empty(),
        "{what}: {} queries failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

fn describe(case: &Case, query: &Query, expect: Expect, allowed: bool) -> String {
    let got = if allowed { "allowed" } else { "disallowed" };
    let file = case.file.display();
    format!(
        "{} ({file}:{}): expected {expect}, got {got}",
        query.id, query.line
    )
}

#[test]
fn the_reference_passes_every_decided_query() {
    let result = failures(&Config::rfc9309(), Profile::Rfc9309, |_| true);
    assert_passes("Config::rfc9309()", result);
}

/// The choices RFC 9309 leaves open, each made the other way from `Config::rfc9309()`:
/// a conforming choice changes only `either` verdicts, never a decided one.
fn conforming_choices() -> Vec<(&'static str, Config)> {
    let choice = |name, set: fn(&mut Config)| {
        let mut config = Config::rfc9309();
        set(&mut config);
        (name, config)
    };
    vec![
        // §2.2.4 "Crawlers MAY be lenient when interpreting other records."
        choice("accept_typos", |c| c.accept_typos = true),
        // Not `AgentValueMatch::WholeValue`: it reads a value that is no product token
        // (`examplebot/`) as a user-agent line of another crawler, neither reading the
        // scope decision of corpus/README.md allows (finding-91c060b7 tells them apart).
        choice("pattern_without_slash", |c| {
            c.pattern_without_slash = PatternWithoutSlash::PrependSlash
        }),
        // §2.3.1.3 "the crawler MAY access any resources on the server" (or not).
        choice("unavailable_allows_all", |c| {
            c.unavailable_allows_all = false
        }),
        choice("too_many_requests_unreachable", |c| {
            c.too_many_requests_unreachable = true
        }),
        // §2.3.1.2 "SHOULD follow at least five consecutive redirects".
        choice("max_redirects", |c| c.max_redirects = 10),
        // §2.5 "The parsing limit MUST be at least 500 kibibytes".
        choice("parse_limit", |c| c.parse_limit = 4 * 512_000),
    ]
}

#[test]
fn every_conforming_choice_keeps_the_decided_verdicts() {
    for (name, config) in conforming_choices() {
        let result = failures(&config, Profile::Rfc9309, |_| true);
        assert_passes(
            &format!("the choice `{name}` changes decided verdicts"),
            result,
        );
    }
}

/// `Config::google()` is the `google` profile in code: on every decided query of the
/// profile it answers what the profile expects, unless the departure is listed in
/// [`GOOGLE_NOT_MODELLED`].
#[test]
fn the_google_config_answers_the_google_profile() {
    let result = failures(&Config::google(), Profile::Google, |q| !not_modelled(q));
    assert_passes("Config::google() differs from the google profile", result);
}

/// The other ways in: `Robots::parse` and `is_allowed` (the RFC-strict shorthands) and
/// `parse_with_warnings` ("Warnings never change the result") answer every query of
/// every case without a fetch scenario as `parse_with` and `check` do.
#[test]
fn the_shorthands_and_the_warning_parse_agree() {
    let mut warnings = 0;
    for case in corpus().cases().iter().filter(|c| c.fetch.is_none()) {
        for config in [Config::rfc9309(), Config::google()] {
            let full = verdicts(case, &config);
            let warned = Robots::parse_with_warnings(&case.body, &config, &mut |_| warnings += 1);
            let strict = Robots::parse(&case.body);
            for (query, verdict) in case.queries.iter().zip(&full) {
                let (agent, url) = (query.agent.as_str(), query.url.as_str());
                assert_eq!(
                    &warned.check(agent, url),
                    verdict,
                    "{} (warnings)",
                    query.id
                );
                if config == Config::rfc9309() {
                    let allowed = strict.is_allowed(agent, url);
                    assert_eq!(allowed, verdict.is_allowed(), "{} (parse)", query.id);
                }
            }
        }
    }
    assert!(warnings > 100, "only {warnings} warnings over the corpus");
}
