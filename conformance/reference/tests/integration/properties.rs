//! Property tests for the reference matcher (RFC 9309).

use proptest::prelude::*;
use reptest_reference::{AgentValueMatch, Config, PatternWithoutSlash, Robots};

pub(crate) fn configs() -> Vec<Config> {
    let mut whole = Config::default();
    whole.agent_value = AgentValueMatch::WholeValue;
    whole.pattern_without_slash = PatternWithoutSlash::PrependSlash;
    whole.skip_bom = false;
    whole.max_line_length = Some(7);
    vec![Config::default(), Config::google(), whole]
}

/// Bytes that hit the interesting cases of the grammar.
pub(crate) fn robots_bytes() -> impl Strategy<Value = Vec<u8>> {
    let token = prop_oneof![
        Just(b"user-agent".to_vec()),
        Just(b"disallow".to_vec()),
        Just(b"allow".to_vec()),
        Just(b"useragent".to_vec()),
        Just(b"disalow".to_vec()),
        Just(b":".to_vec()),
        Just(b" ".to_vec()),
        Just(b"\t".to_vec()),
        Just(b"\n".to_vec()),
        Just(b"\r".to_vec()),
        Just(b"\r\n".to_vec()),
        Just(b"#".to_vec()),
        Just(b"*".to_vec()),
        Just(b"$".to_vec()),
        Just(b"/".to_vec()),
        Just(b"%".to_vec()),
        Just(b"%2A".to_vec()),
        Just(b"%e3".to_vec()),
        Just(b"\xEF\xBB\xBF".to_vec()),
        Just(b"\0".to_vec()),
        Just(b"a".to_vec()),
        proptest::collection::vec(any::<u8>(), 1..4),
    ];
    proptest::collection::vec(token, 0..40).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn never_panics_on_arbitrary_bytes(
        body in proptest::collection::vec(any::<u8>(), 0..300),
        agent in ".{0,8}",
        url in ".{0,24}",
    ) {
        for config in configs() {
            let r = Robots::parse_with(&body, &config);
            let _ = r.check(&agent, &url);
            Robots::parse_with_warnings(&body, &config, &mut |w| { let _ = w.to_string(); });
        }
    }

    #[test]
    fn never_panics_on_grammar_like_bytes(
        body in robots_bytes(),
        agent in "[a*A/ -]{0,4}",
        url in "[/a%2AE3*$?#:]{0,12}",
    ) {
        for config in configs() {
            let r = Robots::parse_with(&body, &config);
            let v = r.check(&agent, &url);
            let _ = v.line();
            let mut n = 0;
            let r2 = Robots::parse_with_warnings(&body, &config, &mut |_| n += 1);
            prop_assert_eq!(r2.check(&agent, &url), v, "warnings must not change parsing");
        }
    }
}

/// One line of a structured file.
#[derive(Debug, Clone)]
enum Line {
    UserAgent(String),
    Allow(String),
    Disallow(String),
    Comment,
    Blank,
    Sitemap,
}

fn pattern() -> impl Strategy<Value = String> {
    "[/ab*$]{0,5}"
}

fn rule() -> impl Strategy<Value = Line> {
    prop_oneof![
        pattern().prop_map(Line::Allow),
        pattern().prop_map(Line::Disallow),
    ]
}

fn other() -> impl Strategy<Value = Line> {
    prop_oneof![Just(Line::Comment), Just(Line::Blank), Just(Line::Sitemap)]
}

fn agent() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("a".to_string()),
        Just("A".to_string()),
        Just("b".to_string()),
        Just("*".to_string()),
        Just("b/1.0".to_string()),
    ]
}

/// A group: agents, then rules (each possibly followed by noise lines).
#[derive(Debug, Clone)]
pub(crate) struct Group {
    agents: Vec<String>,
    rules: Vec<Line>,
}

fn group() -> impl Strategy<Value = Group> {
    (
        proptest::collection::vec(agent(), 1..3),
        proptest::collection::vec(prop_oneof![4 => rule(), 1 => other()], 0..6),
    )
        .prop_map(|(agents, rules)| Group { agents, rules })
}

pub(crate) fn groups() -> impl Strategy<Value = Vec<Group>> {
    proptest::collection::vec(group(), 0..4)
}

fn key_case(key: &str, variant: usize) -> String {
    match variant % 4 {
        0 => key.to_string(),
        1 => key.to_ascii_uppercase(),
        2 => key
            .chars()
            .enumerate()
            .map(|(i, c)| {
                if i % 2 == 1 {
                    c.to_ascii_uppercase()
                } else {
                    c
                }
            })
            .collect(),
        _ => {
            let mut s = key.to_string();
            if let Some(first) = s.get_mut(..1) {
                first.make_ascii_uppercase();
            }
            s
        }
    }
}

fn render_line(line: &Line, variant: usize) -> String {
    match line {
        Line::UserAgent(v) => format!("{}: {v}", key_case("user-agent", variant)),
        Line::Allow(v) => format!("{}: {v}", key_case("allow", variant)),
        Line::Disallow(v) => format!("{}:{v}", key_case("disallow", variant)),
        Line::Comment => "# comment".into(),
        Line::Blank => String::new(),
        Line::Sitemap => "Sitemap: https://example.com/s.xml".into(),
    }
}

pub(crate) fn render(groups: &[Group], eol: &str, case_seed: usize) -> String {
    let mut lines: Vec<Line> = Vec::new();
    for g in groups {
        lines.extend(g.agents.iter().cloned().map(Line::UserAgent));
        lines.extend(g.rules.iter().cloned());
        // keep groups apart even when a group has no rules
        if g.rules
            .iter()
            .all(|r| !matches!(r, Line::Allow(_) | Line::Disallow(_)))
        {
            lines.push(Line::Disallow(String::new()));
        }
    }
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| render_line(l, case_seed.wrapping_add(i * 7)) + eol)
        .collect()
}

pub(crate) const AGENTS: &[&str] = &["a", "b", "c", "A"];
pub(crate) const PATHS: &[&str] = &[
    "/", "/a", "/ab", "/a/b", "/b$", "/ba*", "/abab", "/aa/b/", "/b", "/a?b",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn invariant_under_line_endings(gs in groups()) {
        let lf = Robots::parse(render(&gs, "\n", 0).as_bytes());
        let crlf = Robots::parse(render(&gs, "\r\n", 0).as_bytes());
        let cr = Robots::parse(render(&gs, "\r", 0).as_bytes());
        for agent in AGENTS {
            for path in PATHS {
                let v = lf.check(agent, path);
                prop_assert_eq!(&crlf.check(agent, path), &v);
                prop_assert_eq!(&cr.check(agent, path), &v);
            }
        }
    }

    #[test]
    fn invariant_under_key_case(gs in groups(), seed in 1usize..1000) {
        let lower = Robots::parse(render(&gs, "\n", 0).as_bytes());
        let mixed = Robots::parse(render(&gs, "\n", seed).as_bytes());
        for agent in AGENTS {
            for path in PATHS {
                prop_assert_eq!(mixed.check(agent, path), lower.check(agent, path));
            }
        }
    }

    #[test]
    fn invariant_under_rule_order(
        (gs, shuffled) in groups().prop_flat_map(|gs| {
            let shuffled: Vec<BoxedStrategy<Group>> = gs
                .iter()
                .map(|g| {
                    let agents = g.agents.clone();
                    Just(g.rules.clone())
                        .prop_shuffle()
                        .prop_map(move |rules| Group { agents: agents.clone(), rules })
                        .boxed()
                })
                .collect();
            (Just(gs), shuffled)
        })
    ) {
        let a = Robots::parse(render(&gs, "\n", 0).as_bytes());
        let b = Robots::parse(render(&shuffled, "\n", 0).as_bytes());
        for agent in AGENTS {
            for path in PATHS {
                let (va, vb) = (a.check(agent, path), b.check(agent, path));
                prop_assert_eq!(va.is_allowed(), vb.is_allowed(), "{} {}", agent, path);
            }
        }
    }
}

/// Exponential reference matcher: `*` any run; `$` the end of the path, wherever it
/// stands (RFC 9309 §2.2.3: `$` "Designates the end of the match pattern"), so nothing
/// but `*` and `$` matches after it; a pattern matches a prefix of the path. (It used to
/// cut the pattern at its first `$`, the reading the reference no longer takes: the RFC
/// leaves a `$` before the end open, question Q-DOLLAR-MID.)
fn naive(pattern: &[u8], path: &[u8]) -> bool {
    match pattern.split_first() {
        None => true,
        Some((b'*', rest)) => (0..=path.len()).any(|i| naive(rest, &path[i..])),
        Some((b'$', rest)) => path.is_empty() && naive(rest, path),
        Some((c, rest)) => path.first() == Some(c) && naive(rest, &path[1..]),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    #[test]
    fn matcher_agrees_with_naive(pattern in "[/ab*$]{1,8}", tail in "[/ab$]{0,12}") {
        let path = format!("/{tail}");
        // Under an origin: a path that starts with `//` alone would be a network-path
        // reference, whose first segment is its host (RFC 3986 §4.2).
        let url = format!("https://example.com{path}");
        let r = Robots::parse(format!("User-agent: *\nDisallow: {pattern}\n").as_bytes());
        prop_assert_eq!(
            !r.is_allowed("bot", &url),
            naive(pattern.as_bytes(), path.as_bytes()),
            "pattern {:?} path {:?}", pattern, path
        );
    }
}
