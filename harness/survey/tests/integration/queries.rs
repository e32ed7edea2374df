//! Query derivation: determinism, counts, URLs that match their rules under the
//! reference matcher, and no panic on any body.

use std::collections::{BTreeMap, HashSet};

use proptest::prelude::*;
use reptest_reference::syntax::is_product_token;
use reptest_reference::{Reason, Robots};
use reptest_survey::{
    derive, SurveyFile, SurveyQuery, COMMON_PATHS, CRAWLER_AGENTS, GENERIC_AGENTS, ORIGINS,
};

const SITE: &[u8] = b"# a typical file\n\
User-agent: *\n\
Disallow: /private/\n\
Disallow: /*?sort=\n\
Disallow: /*.pdf$\n\
Allow: /private/public.html\n\
Disallow: /caf%C3%A9/\n\
Disallow: /search\n\
Disallow: /%7Ejoe/\n\
Disallow: /old$page\n\
\n\
User-agent: GPTBot\n\
User-agent: CCBot\n\
Disallow: /\n\
\n\
User-agent: MyCrawler\n\
User-agent: Googlebot-Image/1.0\n\
Disallow: /mine\n\
Crawl-delay: 5\n";

fn file(host: &str, body: &[u8]) -> SurveyFile {
    SurveyFile::new(host, body.to_vec())
}

fn check_well_formed(queries: &[SurveyQuery]) {
    let mut seen = HashSet::new();
    for q in queries {
        // A path, or a path that starts with `//` under the default origin (alone it would
        // be a network-path reference, RFC 3986 §4.2).
        let path = q.url.strip_prefix("https://example.com").unwrap_or(&q.url);
        assert!(path.starts_with('/'), "{q:?}");
        assert_eq!(path.starts_with("//"), path.len() < q.url.len(), "{q:?}");
        assert!(is_product_token(q.agent.as_bytes()), "{q:?}");
        assert!(ORIGINS.contains(&q.origin), "{q:?}");
        assert!(
            seen.insert((q.agent.clone(), q.url.clone())),
            "duplicate {q:?}"
        );
    }
}

#[test]
fn deterministic_from_the_seed() {
    let f = file("www.example.com", SITE);
    for n in [1, 7, 20, 100] {
        assert_eq!(derive(&f, 1, n), derive(&f, 1, n));
    }
    assert_ne!(derive(&f, 1, 20), derive(&f, 2, 20));
    // The host is part of the file's seed.
    assert_ne!(
        derive(&f, 1, 20),
        derive(&file("other.example", SITE), 1, 20)
    );
    // Fixed expectations for seed 0: a change of method shows here.
    let q = derive(&f, 0, 20);
    assert_eq!(q.len(), 20);
    let origins: HashSet<&str> = q.iter().map(|q| q.origin).collect();
    assert!(
        origins.len() >= 8,
        "20 queries spread over the methods: {origins:?}"
    );
}

#[test]
fn independent_of_file_order() {
    let files: Vec<SurveyFile> = (0..30)
        .map(|i| {
            file(
                &format!("host{i}.example"),
                format!("User-agent: *\nDisallow: /p{i}/\n").as_bytes(),
            )
        })
        .collect();
    let forward: BTreeMap<String, Vec<SurveyQuery>> = files
        .iter()
        .map(|f| (f.host.clone(), derive(f, 99, 12)))
        .collect();
    let backward: BTreeMap<String, Vec<SurveyQuery>> = files
        .iter()
        .rev()
        .map(|f| (f.host.clone(), derive(f, 99, 12)))
        .collect();
    assert_eq!(forward, backward);
}

#[test]
fn exact_counts() {
    let f = file("www.example.com", SITE);
    for n in [0, 1, 2, 5, 19, 20, 21, 100, 500, 1000] {
        let q = derive(&f, 5, n);
        assert_eq!(q.len(), n, "per_file {n}");
        check_well_formed(&q);
    }
    // An empty body: the common paths for the fixed agents, and no more.
    let empty = file("empty.example", b"");
    let most = COMMON_PATHS.len() * (GENERIC_AGENTS.len() + CRAWLER_AGENTS.len());
    assert_eq!(derive(&empty, 5, 10).len(), 10);
    assert_eq!(derive(&empty, 5, most + 50).len(), most);
    let all = derive(&empty, 5, most);
    check_well_formed(&all);
    assert!(all.iter().all(|q| q.origin == "common"));
}

#[test]
fn rules_are_asked_for_their_groups_agents() {
    let f = file("www.example.com", SITE);
    let q = derive(&f, 3, 200);
    check_well_formed(&q);
    // The `MyCrawler` group's rule, for that group's agents (one of them by its leading
    // token).
    assert!(q
        .iter()
        .any(|q| q.url.starts_with("/mine")
            && (q.agent == "MyCrawler" || q.agent == "Googlebot-Image")));
    // `*` rules for agents that fall to `*`.
    assert!(q.iter().any(|q| q.origin == "dollar-end"
        && q.url == "/.pdf"
        && GENERIC_AGENTS.contains(&q.agent.as_str())));
    for origin in ORIGINS {
        assert!(
            q.iter().any(|q| q.origin == origin),
            "{origin} is represented"
        );
    }
}

/// Whether `url` is decided by `body`'s rule on line 2 (disallow), for `agent`.
fn decided_by_rule(body: &[u8], agent: &str, url: &str) -> bool {
    match Robots::parse(body).check(agent, url).reason() {
        Reason::Rule { rule, .. } => rule.line == 2,
        _ => false,
    }
}

/// Every URL whose method promises a match does match the one rule of a `*` group.
fn check_matches(pattern: &[u8]) {
    let body = [&b"User-agent: *\nDisallow: "[..], pattern, b"\n"].concat();
    let wild = pattern.contains(&b'*');
    // The reference reads `$` as the end of the path wherever it stands: an octet other
    // than `*` or `$` after the first `$` can never match, so the rule matches nothing.
    let void = pattern
        .iter()
        .position(|&b| b == b'$')
        .is_some_and(|at| pattern[at + 1..].iter().any(|&b| b != b'$' && b != b'*'));
    for q in derive(&file("p.example", &body), 11, 400) {
        // `/robots.txt` is always allowed, and a client resolves `.` and `..` segments
        // before it asks (the reference too): no pattern matches those URLs as written.
        let path = q.url.split('?').next().unwrap();
        if q.url == "/robots.txt" || path.split('/').any(|s| s == "." || s == "..") {
            continue;
        }
        let promised = match q.origin {
            "rule-prefix" => !wild,
            "common" | "dollar-past" | "dollar-literal" => false,
            _ => true,
        };
        if promised && !void {
            assert!(
                decided_by_rule(&body, &q.agent, &q.url),
                "pattern {:?}: {q:?} does not match",
                String::from_utf8_lossy(pattern)
            );
        }
        if q.origin == "dollar-past" && !wild {
            assert!(
                !decided_by_rule(&body, &q.agent, &q.url),
                "pattern {:?}: {q:?} matches one octet past the end",
                String::from_utf8_lossy(pattern)
            );
        }
    }
}

#[test]
fn expansions_match_their_rule() {
    for pattern in [
        &b"/private/"[..],
        b"/search",
        b"/*?sort=",
        b"/*.pdf$",
        b"/a/*/b/*/c",
        b"*.php",
        b"/exact$",
        b"/a$b$",
        "/café/".as_bytes(),
        b"/caf%C3%A9/",
        b"/caf%c3%a9/",
        b"/%7Euser/",
        b"/%2Fencoded",
        b"/bad%zz",
        b"/with space",
        b"/q?x=1&y=*",
        b"/*",
        b"*",
        b"/%41%42*C",
    ] {
        check_matches(pattern);
    }
}

fn pattern_strategy() -> impl Strategy<Value = Vec<u8>> {
    let pieces = prop::sample::select(vec![
        "a", "b", "Z", "/", "*", "$", "%41", "%c3%a9", "%C3%A9", "é", "?", "=", "&", ".", "-", "~",
        "%2F", "%7e", "%zz", "%", "1", " ", ":", "@",
    ]);
    (prop::bool::ANY, prop::collection::vec(pieces, 0..12)).prop_map(|(star, pieces)| {
        let mut p = if star { b"*".to_vec() } else { b"/".to_vec() };
        for piece in pieces {
            p.extend_from_slice(piece.as_bytes());
        }
        p
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn generated_patterns_match(pattern in pattern_strategy()) {
        check_matches(&pattern);
    }

    #[test]
    fn any_body_gives_well_formed_queries(body in prop::collection::vec(any::<u8>(), 0..2048), seed: u64, n in 0usize..60) {
        let q = derive(&file("fuzz.example", &body), seed, n);
        prop_assert!(q.len() <= n);
        check_well_formed(&q);
        prop_assert_eq!(q, derive(&file("fuzz.example", &body), seed, n));
    }

    #[test]
    fn robots_like_bodies_give_exact_counts(
        lines in prop::collection::vec(
            (prop::sample::select(vec!["User-agent", "Allow", "Disallow", "useragent", "Sitemap", "disalow"]),
             pattern_strategy()),
            0..30),
        seed: u64,
        n in 0usize..100,
    ) {
        let mut body = Vec::new();
        for (key, value) in lines {
            body.extend_from_slice(key.as_bytes());
            body.extend_from_slice(b": ");
            body.extend_from_slice(&value);
            body.push(b'\n');
        }
        let q = derive(&file("gen.example", &body), seed, n);
        prop_assert_eq!(q.len(), n);
        check_well_formed(&q);
    }
}

#[test]
fn huge_and_binary_bodies() {
    let limit = reptest_survey::BODY_LIMIT;
    let many_rules: Vec<u8> = b"Disallow: /*a*b*c$\n"
        .iter()
        .copied()
        .cycle()
        .take(limit)
        .collect();
    let one_line: Vec<u8> = [&b"Disallow: /"[..], &vec![b'*'; limit - 11]].concat();
    let long_plain: Vec<u8> =
        [&b"User-agent: *\nDisallow: /"[..], &vec![b'a'; limit - 25]].concat();
    let mut state = 0x1234_5678_9abc_def0_u64;
    let noise: Vec<u8> = (0..limit)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect();
    let agents: Vec<u8> = (0..5000)
        .flat_map(|i| {
            format!(
                "User-agent: Bot{}\nDisallow: /b{i}\n",
                char::from(b'a' + (i % 26) as u8)
            )
            .into_bytes()
        })
        .collect();
    for body in [many_rules, one_line, long_plain, noise, agents] {
        let q = derive(&file("big.example", &body), 1, 20);
        assert_eq!(q.len(), 20);
        check_well_formed(&q);
    }
}
