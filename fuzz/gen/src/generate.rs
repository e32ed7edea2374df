//! Structure-aware generation: a [`RobotsModel`] from [`arbitrary`] bytes, rendered with
//! its quirks, plus queries derived from its own rules so that they often match.

use super::model::{pick, AgentToken, RobotsModel};
use super::render::{render, RenderedRule};
use arbitrary::{Arbitrary, Unstructured};

/// The origin of every generated URL.
pub const ORIGIN: &str = "https://example.com";

/// One generated input: a robots.txt body and queries derived from its rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FuzzInput {
    /// The robots.txt bytes.
    pub body: Vec<u8>,
    /// 1 to 4 queries.
    pub queries: Vec<FuzzQuery>,
}

/// One query: a crawler's product token and an absolute URL.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuzzQuery {
    /// The product token (sometimes deliberately not a bare token, e.g. `examplebot/1.0`).
    pub agent: String,
    /// An absolute URL, `https://example.com/...`.
    pub url: String,
}

/// Structure-aware generation (arbitrary): a robots.txt model rendered with quirks, and
/// 1 to 4 queries built from its rules: a rule's pattern made into a path that is the
/// pattern itself, one character longer or shorter, its wildcards expanded, its `$`
/// dropped or followed by a query, percent-encoded or decoded, case-flipped, or with raw
/// versus encoded non-ASCII; the agent is one of the rule's group's user-agent values,
/// case-flipped, with a version suffix, another group's, or unknown.
///
/// Never fails for lack of data: exhausted bytes give a small plain file.
pub fn generate(u: &mut Unstructured<'_>) -> arbitrary::Result<FuzzInput> {
    let model = RobotsModel::arbitrary(u)?;
    let rendered = render(&model);
    let n = pick(u, &[(3u8, 1usize), (3, 2), (2, 3), (2, 4)])?;
    let mut queries = Vec::with_capacity(n);
    let padded = rendered.rules.iter().position(|r| r.padded);
    for i in 0..n {
        let rule = match (i, padded) {
            (0, Some(index)) => Some(&rendered.rules[index]),
            _ if rendered.rules.is_empty() => None,
            _ => Some(&rendered.rules[u.choose_index(rendered.rules.len())?]),
        };
        let path = match rule {
            Some(rule) => derive_path(u, &rule.pattern)?,
            None => (*u.choose(&["/", "/a", "/b/x.html", "/A?q=1"])?).to_string(),
        };
        let agent = derive_agent(u, rule, &rendered.agents)?;
        let mut url = String::with_capacity(ORIGIN.len() + path.len());
        url.push_str(ORIGIN);
        url.push_str(&path);
        queries.push(FuzzQuery { agent, url });
    }
    Ok(FuzzInput {
        body: rendered.body,
        queries,
    })
}

/// Deterministic: the same seed gives the same input. Fills a byte buffer from a small
/// seeded PRNG (splitmix64), then calls [`generate`].
///
/// ```
/// use reptest_fuzz_gen::generate::generate_from_seed;
/// let a = generate_from_seed(7);
/// assert_eq!(a, generate_from_seed(7));
/// assert!(!a.queries.is_empty());
/// assert!(a.queries.iter().all(|q| q.url.starts_with("https://example.com/")));
/// ```
pub fn generate_from_seed(seed: u64) -> FuzzInput {
    let mut buf = [0u8; 1024];
    let mut rng = SplitMix64(seed);
    for chunk in buf.chunks_exact_mut(8) {
        chunk.copy_from_slice(&rng.next().to_le_bytes());
    }
    generate(&mut Unstructured::new(&buf)).expect("generation never fails for lack of data")
}

/// The splitmix64 generator (Steele, Lea, Flood 2014): small, fast, good enough to
/// drive generation.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// A URL path built from `pattern`, likely near its match boundary.
fn derive_path(u: &mut Unstructured<'_>, pattern: &str) -> arbitrary::Result<String> {
    let star = *u.choose(&["", "xyz", "/"])?;
    let form = pick(
        u,
        &[
            (3u8, 0u8), // wildcards expanded, `$` dropped
            (2, 1),     // the pattern itself
            (2, 2),     // one character more
            (2, 3),     // one character less
            (1, 4),     // `$` dropped, a query appended
            (1, 5),     // one character percent-encoded
            (1, 6),     // percent-encoded octets decoded
            (1, 7),     // letters case-flipped
            (1, 8),     // raw non-ASCII versus encoded
            (1, 9),     // up to the last `/`
        ],
    )?;
    let expanded = expand(pattern, star);
    let mut path = match form {
        0 => expanded,
        1 => pattern.to_string(),
        2 => {
            let mut p = expanded;
            p.push(*u.choose(&['z', '/', '.', 'a'])?);
            p
        }
        3 => {
            let mut p = expanded;
            p.pop();
            p
        }
        4 => expanded + "?v=1",
        5 => encode_one(&expanded),
        6 => decode(&expanded),
        7 => flip_case(&expanded),
        8 => swap_non_ascii(&expanded),
        _ => match expanded.rfind('/') {
            Some(i) => expanded[..=i].to_string(),
            None => String::from("/"),
        },
    };
    if !path.starts_with('/') {
        path.insert(0, '/');
    }
    Ok(path)
}

/// `pattern` with each `*` replaced by `star` and a final `$` dropped.
fn expand(pattern: &str, star: &str) -> String {
    let body = pattern.strip_suffix('$').unwrap_or(pattern);
    body.replace('*', star)
}

/// Percent-encodes the first letter, digit, `.` or `/` after the first character that is
/// not part of a `%XX` triplet.
fn encode_one(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut i = 1;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'%' {
            i += 3;
            continue;
        }
        if b.is_ascii_alphanumeric() || b == b'.' || b == b'/' {
            return format!("{}%{:02X}{}", &path[..i], b, &path[i + 1..]);
        }
        i += 1;
    }
    format!("{path}%61")
}

/// Decodes every `%XX` triplet (invalid UTF-8 becomes U+FFFD).
fn decode(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push(h << 4 | l);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// Swaps the case of every ASCII letter (hex digits of `%XX` included).
fn flip_case(path: &str) -> String {
    path.chars()
        .map(|c| {
            if c.is_ascii_lowercase() {
                c.to_ascii_uppercase()
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect()
}

/// `ツ` raw becomes encoded and encoded becomes raw; with neither, a raw `ツ` is appended.
fn swap_non_ascii(path: &str) -> String {
    if path.contains('ツ') {
        path.replace('ツ', "%E3%83%84")
    } else if path.contains("%E3%83%84") || path.contains("%e3%83%84") {
        path.replace("%E3%83%84", "ツ").replace("%e3%83%84", "ツ")
    } else {
        format!("{path}ツ")
    }
}

/// The product token at the start of a user-agent value (`examplebot/2.1` →
/// `examplebot`, `Example Bot` → `Example`); `*` gives `otherbot`, which only the `*`
/// group matches.
fn token_of(agent: AgentToken) -> &'static str {
    let text = agent.text();
    if text == "*" {
        return "otherbot";
    }
    let end = text
        .find(|c: char| !(c.is_ascii_alphabetic() || c == '_' || c == '-'))
        .unwrap_or(text.len());
    &text[..end]
}

/// A query agent for `rule`.
fn derive_agent(
    u: &mut Unstructured<'_>,
    rule: Option<&RenderedRule>,
    all: &[AgentToken],
) -> arbitrary::Result<String> {
    let own = match rule {
        Some(rule) if !rule.agents.is_empty() => Some(*u.choose(&rule.agents)?),
        _ => None,
    };
    let other = if all.is_empty() {
        AgentToken::Examplebot
    } else {
        *u.choose(all)?
    };
    let base = token_of(own.unwrap_or(other));
    Ok(
        match pick(u, &[(8u8, 0u8), (2, 1), (1, 2), (1, 3), (2, 4)])? {
            0 => base.to_string(),
            1 => flip_case(base),
            2 => format!("{base}/1.0"),
            3 => String::from("otherbot"),
            _ => token_of(other).to_string(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_helpers() {
        assert_eq!(expand("/a*b$", "xyz"), "/axyzb");
        assert_eq!(expand("/a$b", ""), "/a$b");
        assert_eq!(encode_one("/ab"), "/%61b");
        assert_eq!(encode_one("/%2f"), "/%2f%61");
        assert_eq!(encode_one("/%2fb"), "/%2f%62");
        assert_eq!(encode_one("/ツb"), "/ツ%62");
        assert_eq!(decode("/%62%2F%E3%83%84%zz%4"), "/b/ツ%zz%4");
        assert_eq!(flip_case("/aB%2f"), "/Ab%2F");
        assert_eq!(swap_non_ascii("/ツ"), "/%E3%83%84");
        assert_eq!(swap_non_ascii("/%e3%83%84"), "/ツ");
        assert_eq!(token_of(AgentToken::ExamplebotVersion), "examplebot");
        assert_eq!(token_of(AgentToken::ExampleSpaceBot), "Example");
        assert_eq!(token_of(AgentToken::ExampleDashBot), "example-bot");
        assert_eq!(token_of(AgentToken::Star), "otherbot");
    }

    #[test]
    fn same_seed_same_input() {
        for seed in 0..200 {
            assert_eq!(generate_from_seed(seed), generate_from_seed(seed));
        }
        assert_ne!(generate_from_seed(1), generate_from_seed(2));
    }

    #[test]
    fn empty_data_gives_a_small_plain_input() {
        let input = generate(&mut Unstructured::new(&[])).unwrap();
        assert_eq!(input.body, b"User-agent: examplebot\n");
        assert_eq!(input.queries.len(), 1);
    }

    #[test]
    fn no_panic_on_many_seeds() {
        let mut padded = 0;
        for seed in 0..10_000 {
            let input = generate_from_seed(seed);
            assert!((1..=4).contains(&input.queries.len()));
            for q in &input.queries {
                assert!(q.url.starts_with("https://example.com/"), "{}", q.url);
                assert!(!q.agent.is_empty());
            }
            if input.body.len() > 16_000 {
                padded += 1;
            }
        }
        // About 1 in 64 inputs is padded.
        assert!((60..=300).contains(&padded), "{padded} padded inputs");
    }

    #[test]
    fn short_data_never_fails() {
        let mut rng = SplitMix64(99);
        let buf: Vec<u8> = (0..16).flat_map(|_| rng.next().to_le_bytes()).collect();
        for len in 0..buf.len() {
            for offset in 0..8 {
                let data = &buf[offset..(offset + len).min(buf.len())];
                let input = generate(&mut Unstructured::new(data)).unwrap();
                assert!(!input.queries.is_empty());
            }
        }
    }

    #[test]
    fn queries_often_hit_a_disallow_rule() {
        let (mut total, mut disallowed) = (0, 0);
        for seed in 0..2_000 {
            let input = generate_from_seed(seed);
            let robots = reptest_reference::Robots::parse(&input.body);
            for q in &input.queries {
                total += 1;
                if !robots.is_allowed(&q.agent, &q.url) {
                    disallowed += 1;
                }
            }
        }
        let share = disallowed as f64 / total as f64;
        assert!(share >= 0.30, "{disallowed} of {total} queries disallowed");
    }

    /// Counts, per dimension, the queries of seeds `0..n` tagged with it.
    fn coverage(n: u64) -> std::collections::BTreeMap<reptest_corpus::Dimension, usize> {
        let mut counts = std::collections::BTreeMap::new();
        for seed in 0..n {
            let input = generate_from_seed(seed);
            for q in &input.queries {
                for d in reptest_triage::dimensions(&input.body, &q.agent, &q.url) {
                    *counts.entry(d).or_insert(0) += 1;
                }
            }
        }
        counts
    }

    #[test]
    fn every_dimension_is_generated() {
        let counts = coverage(2_000);
        for d in reptest_corpus::Dimension::ALL {
            assert!(
                counts.get(&d).copied().unwrap_or(0) > 0,
                "{d:?} never generated: {counts:?}"
            );
        }
    }

    /// `cargo test --release -p reptest --lib generation_throughput -- --ignored --nocapture`
    #[test]
    #[ignore = "a measurement; run in release"]
    fn generation_throughput() {
        let n = 200_000u64;
        let started = std::time::Instant::now();
        let mut bytes = 0usize;
        for seed in 0..n {
            bytes += generate_from_seed(seed).body.len();
        }
        let elapsed = started.elapsed().as_secs_f64();
        println!(
            "{n} inputs in {elapsed:.3}s: {:.0} inputs/s, {:.1} MB/s of bodies",
            n as f64 / elapsed,
            bytes as f64 / elapsed / 1e6
        );
        let inputs: Vec<FuzzInput> = (0..20_000u64).map(generate_from_seed).collect();
        for (label, padded) in [("all", true), ("unpadded", false)] {
            let started = std::time::Instant::now();
            let (mut queries, mut tags) = (0usize, 0usize);
            for input in inputs.iter().filter(|i| padded || i.body.len() < 16_000) {
                for q in &input.queries {
                    queries += 1;
                    tags += reptest_triage::dimensions(&input.body, &q.agent, &q.url).len();
                }
            }
            let elapsed = started.elapsed().as_secs_f64();
            println!(
                "dimensions ({label} inputs): {:.0} queries/s ({tags} tags)",
                queries as f64 / elapsed
            );
        }
        let counts = coverage(2_000);
        println!("dimension coverage, queries of seeds 0..2000: {counts:?}");
        let (mut total, mut disallowed, mut unpadded) = (0usize, 0usize, 0usize);
        for seed in 0..2_000 {
            let input = generate_from_seed(seed);
            if input.body.len() < 16_000 {
                unpadded += 1;
            }
            let robots = reptest_reference::Robots::parse(&input.body);
            for q in &input.queries {
                total += 1;
                disallowed += usize::from(!robots.is_allowed(&q.agent, &q.url));
            }
        }
        println!("{disallowed} of {total} queries disallowed; {unpadded} of 2000 unpadded");
    }
}
