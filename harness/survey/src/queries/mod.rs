//! Queries derived from a real robots.txt file: which (agent, URL) pairs a survey asks
//! every implementation about, and how they are chosen.
//!
//! [`derive`](fn@derive)`(file, seed, per_file)` gives exactly `per_file` distinct
//! queries for one file (fewer only if the file yields fewer distinct ones: an empty body
//! gives 400, its 20 common paths for 20 fixed agents), each tagged with the method that
//! made its URL, its *origin*. The queries depend on the file's body and host and on the
//! seed, nothing else: not on the order the files are read in, the machine, or the shard
//! that derives them.
//!
//! # 1. The file's rules
//!
//! The reference matcher compiles a body for checking but does not list its groups or
//! rules, so the body is read with a light line scan that follows the reference's line
//! syntax (RFC 9309 §2.2): lines end at CR, LF or CRLF; `#` starts a comment; the key is
//! what precedes the first `:`, in any case; spaces and tabs around key and value are
//! dropped. The keys read are `user-agent`, `allow` and `disallow`, and the misspellings
//! that the reference's Google profile accepts (`useragent`, `user agent`, `disalow`,
//! `dissallow`, `dissalow`, `disallaw`): a query from a misspelled line is where the
//! implementations that accept it and those that do not disagree. A user-agent line
//! after a rule starts a new group (§2.1). Lines without a colon are not read; empty
//! patterns (which match nothing) are not rules. The whole body is scanned, also past
//! the 500 KiB that a parser must read (§2.5), since rules there are where parse limits
//! disagree.
//!
//! # 2. URLs
//!
//! For a rule's pattern `P`, let *body* be `P` up to its first `$` (all of `P` if it has
//! none), its *prefix* the body up to the first `*`, and its *shortest match* the body
//! with every `*` removed (the shortest path the pattern matches, when `P` starts with
//! `/` or `*`). A `$` "designates the end of the match pattern" (RFC 9309 §2.2.3). What
//! octets after a `$` before the end mean, the RFC leaves open (question `Q-DOLLAR-MID`):
//! the body reads them as dropped (`/a$b` as `/a$`); implementations that read such a `$`
//! as a literal octet get the `dollar-literal` URL; the reference reads `$` as the end of
//! the path wherever it stands, so that a pattern with an octet other than `*` or `$`
//! after its first `$` matches no path at all. Each rule gives the URLs below; the
//! variants (`encoded` to `raw-octet`) are made from the shortest match.
//!
//! | origin | URL | example: pattern → URL | the rule matches it (RFC 9309) |
//! | --- | --- | --- | --- |
//! | `rule-prefix` | the prefix | `/private` → `/private`; `/*.php` → `/` | without `*`: yes; with: not always |
//! | `rule-child` | a pattern without `*` or `$`, plus a child segment | `/private` → `/private/page.html` | yes |
//! | `rule-extend` | a pattern without `*` or `$`, plus octets without a separator | `/private` → `/private-old` | yes (prefix match) |
//! | `wildcard` | each `*` replaced by nothing, and (a second URL) each by a filler | `/*/x.php` → `https://example.com//x.php`, `/a/b/x.php` | yes |
//! | `dollar-end` | a `$` pattern's shortest match: the exact end | `/x.pdf$` → `/x.pdf` | yes |
//! | `dollar-past` | the exact end plus one octet (`x`, `/`, `?` or `.`) | `/x.pdf$` → `/x.pdfx`, `/x.pdf?` | no, unless a `*` takes the octet |
//! | `encoded` | one ASCII letter percent-encoded | `/private` → `/pr%69vate` | yes (§2.2.2 decodes unreserved escapes) |
//! | `hex-case` | one escape's hex digits in the other case | `/caf%C3%A9` → `/caf%c3%a9` | yes |
//! | `decoded` | one escape of an unreserved character decoded | `/%7Euser` → `/~user` | yes |
//! | `raw-octet` | the non-ASCII octets as raw UTF-8, where the other URLs encode them, or where the pattern wrote them encoded | `/café` or `/caf%C3%A9` → `/café` | yes (§2.2.2: octets outside US-ASCII are compared encoded) |
//! | `dollar-literal` | a pattern with a `$` before its end, that `$` kept as an octet (`*` removed, a final `$` dropped) | `/a$b` → `/a$b` | not under the reference's reading |
//! | `common` | a fixed list of paths sites have ([`COMMON_PATHS`]) | `/wp-admin/`, `/search?q=x` | whatever the file says |
//!
//! "The rule matches it" is the reference's verdict, and holds unless the pattern has an
//! octet other than `*` or `$` after its first `$` (then the reference matches nothing)
//! or the URL has a `.` or `..` path segment, which a client resolves before it requests the path (as the
//! reference does), so that `/a/./b` is asked as `/a/b`; such URLs stay, as
//! implementations differ on them.
//!
//! The child segments are `x`, `page.html`, `a/b`, `1` and `index.php?id=1`; the octets
//! of `rule-extend` are `x`, `-old`, `.bak` and `1`; the `*` fillers are `x`, `a/b`,
//! `1.2` and `-_-`; each is chosen by the seed. Where a filler or an appended segment
//! would make a new escape with a `%` before it (`%a` then `1` is `%a1`), `x` is used
//! instead, and an escape is not decoded where that would make one (`%b%41` is not
//! `%bA`): a variant never changes which octets the URL means.
//!
//! A URL is the path and query, starting with `/`: a `/` is put in front of a pattern
//! that starts otherwise (`*.php`, or `private` without its slash). Octets that cannot
//! stand in a URL are percent-encoded (upper-case hex): controls, space, `#`, DEL and
//! every octet from 0x80 (except in `raw-octet` URLs, which keep valid UTF-8 raw); the
//! reference matcher compares space and non-ASCII octets raw and encoded as the same,
//! so these URLs still match their rule. `%` is kept as written, even in an invalid
//! escape. URLs are not shortened: a 100,000-octet rule gives 100,000-octet URLs, which
//! is what slow implementations are timed on.
//!
//! # 3. Agents
//!
//! Every query's agent is a product token (`a-z A-Z _ -`):
//!
//! * the generic tokens [`GENERIC_AGENTS`] (`examplebot`, `somebot`), which no file
//!   names and which fall to the `*` group;
//! * the crawlers sites name most, [`CRAWLER_AGENTS`]: Googlebot, Bingbot, GPTBot,
//!   ClaudeBot, CCBot, Google-Extended, Applebot, Baiduspider, YandexBot, DuckDuckBot,
//!   facebookexternalhit, Twitterbot, ia_archiver, AhrefsBot, SemrushBot, PerplexityBot,
//!   Bytespider, Amazonbot;
//! * the file's own: each user-agent value that is a product token, and the leading
//!   product token of one that is not (`Googlebot-Image/1.0` gives `Googlebot-Image`,
//!   where implementations comparing the whole value and those comparing its leading
//!   token disagree); at most [`MAX_FILE_AGENTS`] of them, the first in file order; a
//!   token equal to a fixed one but for case is the fixed one.
//!
//! A URL made from a rule is asked for an agent of the rule's group, so the query
//! exercises that rule: one of the group's own agents (by the seed), a generic token for
//! a `*` group, or for a group that names no product token and a rule before any group,
//! the next agent of the sequence below. A `common` URL takes the next agent of the
//! sequence: the file's agents and the fixed ones (generic and crawlers), each list
//! shuffled by the seed, interleaved one by one.
//!
//! # 4. Choosing `per_file`
//!
//! 1. The file's seed is `mix(seed ^ fnv1a64(host))`, where `fnv1a64` is 64-bit FNV-1a
//!    of the host's octets and `mix` SplitMix64's output function; it seeds a SplitMix64
//!    generator that makes every choice, in this order: the shuffles of the agent
//!    sequence (§3: fixed agents, then the file's); the rules drawn (step 2, kinds in
//!    the order given there); for each drawn rule, its agent, then its child segment and
//!    `rule-extend` octets, its fillers, its octet past `$`, and its variants' positions
//!    (`encoded`, `hex-case`, `decoded`), as they apply; the shuffle of each origin's
//!    URLs (step 3, origins in the order of [`ORIGINS`]); each round's order (step 4).
//!    A number below `n` is `(x * n) >> 64` of the generator's next 64-bit output `x`;
//!    a shuffle is Fisher–Yates from the last element down, a draw of `k` a partial
//!    Fisher–Yates from the first.
//! 2. The rules are sorted into four kinds, the first that applies: *encoded* (a `%` or
//!    an octet from 0x80), *wildcard* (a `*`), *dollar* (a `$`), *plain*. Up to
//!    ⌈`per_file`/4⌉ rules of each kind, and at least 4, are drawn at random: a rule
//!    gives URLs of several origins, so that is enough for `per_file` URLs, a file of
//!    10,000 plain rules and 3 wildcards still gets its wildcards asked about, and the
//!    work per file stays bounded.
//! 3. The drawn rules give their URLs (§2), grouped by origin; the common paths are
//!    the `common` group. Each group is shuffled.
//! 4. Round by round, the origins that still have URLs are visited in a shuffled order,
//!    each giving its next URL not given yet, until there are `per_file` URLs or none
//!    are left. So every method is represented as evenly as the file allows.
//! 5. Each URL gets its agent (§3). If fewer than `per_file` URLs exist, the URLs are
//!    taken again with the next agents of the sequence, pass after pass, skipping pairs
//!    already given, until `per_file` queries or every (URL, agent) pair is used.
//!
//! Queries come out in that order.
//!
//! ```
//! use reptest_survey::{derive, SurveyFile};
//!
//! let file = SurveyFile::new(
//!     "example.com",
//!     b"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /*.pdf$\nAllow: /public/\n".to_vec(),
//! );
//! let queries = derive(&file, 42, 20);
//! assert_eq!(queries.len(), 20);
//! assert_eq!(queries, derive(&file, 42, 20));
//! assert!(queries.iter().all(|q| q.url.starts_with('/') && !q.url.starts_with("//")));
//! // The `*` group's `$` rule is asked about for an agent that falls to `*`.
//! assert!(queries
//!     .iter()
//!     .any(|q| q.origin == "dollar-end" && q.url == "/.pdf" && q.agent.ends_with("bot")));
//! ```

mod agents;
pub(crate) mod rng;
pub(crate) mod scan;
mod strata;

use std::borrow::Cow;
use std::collections::HashSet;

pub use agents::{
    AgentClass, AI_AGENTS, CRAWLER_AGENTS, GENERIC_AGENTS, MAX_FILE_AGENTS, SEARCH_AGENTS,
};
pub use strata::{Origins, Stratum, UnknownOrigins};

use crate::file::SurveyFile;
pub(crate) use agents::agent_of;
use rng::{file_seed, Rng};
use scan::Rule;

/// One query derived from a file: ask whether `agent` may fetch `url`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SurveyQuery {
    /// A product token (RFC 9309 §2.2.1).
    pub agent: String,
    /// The path and query, starting with `/`; a path that starts with `//` is given
    /// under `https://example.com`, since `//host/...` alone names a host (RFC 3986 §4.2).
    pub url: String,
    /// The method that made the URL: one of [`ORIGINS`].
    pub origin: &'static str,
}

impl SurveyQuery {
    /// The query as an implementation is asked it (agent and URL, borrowed).
    pub fn input(&self) -> reptest_core::QueryInput<'_> {
        reptest_core::QueryInput {
            agent: &self.agent,
            url: &self.url,
        }
    }
}

const RULE_PREFIX: usize = 0;
const RULE_CHILD: usize = 1;
const RULE_EXTEND: usize = 2;
const WILDCARD: usize = 3;
const DOLLAR_END: usize = 4;
const DOLLAR_PAST: usize = 5;
const ENCODED: usize = 6;
const HEX_CASE: usize = 7;
const DECODED: usize = 8;
const RAW_OCTET: usize = 9;
const DOLLAR_LITERAL: usize = 10;
const COMMON: usize = 11;

/// Every origin a [`SurveyQuery`] can have (the methods of the module documentation,
/// §2), in that table's order.
pub const ORIGINS: [&str; 12] = [
    "rule-prefix",
    "rule-child",
    "rule-extend",
    "wildcard",
    "dollar-end",
    "dollar-past",
    "encoded",
    "hex-case",
    "decoded",
    "raw-octet",
    "dollar-literal",
    "common",
];

/// The fixed paths asked about on every file (origin `common`).
pub const COMMON_PATHS: [&str; 20] = [
    "/",
    "/index.html",
    "/search?q=x",
    "/wp-admin/",
    "/wp-admin/admin-ajax.php",
    "/admin/",
    "/api/",
    "/login",
    "/cart",
    "/checkout/",
    "/feed/",
    "/tag/x",
    "/private/",
    "/user/1",
    "/cgi-bin/",
    "/page/2?sort=asc",
    "/sitemap.xml",
    "/robots.txt",
    "/.well-known/security.txt",
    "/%7Euser/",
];

const CHILD_SEGMENTS: [&[u8]; 5] = [b"x", b"page.html", b"a/b", b"1", b"index.php?id=1"];
const EXTENSIONS: [&[u8]; 4] = [b"x", b"-old", b".bak", b"1"];
const FILLERS: [&[u8]; 4] = [b"x", b"a/b", b"1.2", b"-_-"];
const PAST_OCTETS: [u8; 4] = [b'x', b'/', b'?', b'.'];

/// An agent of the sequence (§3): a fixed one borrowed, a file's own owned, so that the
/// many candidates of a file share them without copying.
type Agent = Cow<'static, str>;

/// A URL waiting for its agent.
struct Candidate {
    url: String,
    origin: usize,
    /// The agent of the rule's group, if the rule has one to give.
    agent: Option<Agent>,
}

/// Derives `per_file` distinct queries from `file` (see the module documentation for the
/// method), deterministically from `seed`, `file.host` and `file.body`.
///
/// ```
/// use reptest_survey::{derive, SurveyFile};
///
/// let file = SurveyFile::new("example.org", b"User-agent: *\nDisallow: /search\n".to_vec());
/// let queries = derive(&file, 7, 5);
/// assert_eq!(queries.len(), 5);
/// assert_ne!(queries, derive(&file, 8, 5));
/// ```
pub fn derive(file: &SurveyFile, seed: u64, per_file: usize) -> Vec<SurveyQuery> {
    derive_with(file, seed, per_file, Origins::All)
}

/// [`derive`](fn@derive) with only the origins `origins` admits: the URLs of the other
/// origins are dropped before step 3's shuffles, so `per_file` queries are still made
/// where the admitted origins give enough, and [`Origins::All`] is exactly
/// [`derive`](fn@derive).
///
/// ```
/// use reptest_survey::{derive_with, Origins, Stratum, SurveyFile};
///
/// let file = SurveyFile::new("example.org", b"User-agent: *\nDisallow: /search\n".to_vec());
/// let natural = derive_with(&file, 7, 10, Origins::Only(Stratum::Natural));
/// assert_eq!(natural.len(), 10);
/// assert!(natural.iter().all(|q| Stratum::of(q.origin) == Stratum::Natural));
/// ```
pub fn derive_with(
    file: &SurveyFile,
    seed: u64,
    per_file: usize,
    origins: Origins,
) -> Vec<SurveyQuery> {
    derive_scanned(file, &scan::scan(&file.body), seed, per_file, origins)
}

/// [`derive_with`] from the file's scan, when the caller has it already (the survey
/// engine scans each file once for its derived and its site queries).
pub(crate) fn derive_scanned(
    file: &SurveyFile,
    scanned: &scan::Scan<'_>,
    seed: u64,
    per_file: usize,
    origins: Origins,
) -> Vec<SurveyQuery> {
    if per_file == 0 {
        return Vec::new();
    }
    let mut rng = Rng::new(file_seed(seed, &file.host));
    let agents = agent_sequence(&scanned.groups, &mut rng);

    // 2. Rules of each kind, drawn.
    let mut kinds: [Vec<usize>; 4] = Default::default();
    for (i, rule) in scanned.rules.iter().enumerate() {
        kinds[kind(rule.pattern)].push(i);
    }
    let mut drawn = Vec::new();
    for kind in &kinds {
        drawn.extend(rng.sample(kind, rules_per_kind(per_file)));
    }

    // 3. Their URLs, by origin.
    let mut by_origin: Vec<Vec<Candidate>> = ORIGINS.iter().map(|_| Vec::new()).collect();
    for &i in &drawn {
        let rule = scanned.rules[i];
        let agent = group_agent(&scanned.groups, rule, &agents, &mut rng);
        rule_urls(rule.pattern, &mut rng, &mut |origin, url| {
            by_origin[origin].push(Candidate {
                url,
                origin,
                agent: agent.clone(),
            });
        });
    }
    by_origin[COMMON].extend(COMMON_PATHS.iter().map(|path| Candidate {
        url: (*path).to_owned(),
        origin: COMMON,
        agent: None,
    }));
    for (origin, group) in by_origin.iter_mut().enumerate() {
        if !origins.admits(ORIGINS[origin]) {
            group.clear();
        }
        rng.shuffle(group);
    }

    // 4. Round-robin over the origins.
    let mut queues: Vec<std::slice::Iter<'_, Candidate>> =
        by_origin.iter().map(|group| group.iter()).collect();
    let mut urls: Vec<&Candidate> = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    while urls.len() < per_file {
        let mut active: Vec<usize> = (0..queues.len()).filter(|&o| queues[o].len() > 0).collect();
        if active.is_empty() {
            break;
        }
        rng.shuffle(&mut active);
        for o in active {
            if urls.len() == per_file {
                break;
            }
            for candidate in queues[o].by_ref() {
                if seen.insert(candidate.url.as_str()) {
                    urls.push(candidate);
                    break;
                }
            }
        }
    }

    // 5. Agents, pass after pass.
    let first: Vec<&str> = urls
        .iter()
        .enumerate()
        .map(|(j, c)| c.agent.as_deref().unwrap_or(&agents[j % agents.len()]))
        .collect();
    let mut out: Vec<SurveyQuery> = urls
        .iter()
        .zip(&first)
        .map(|(c, agent)| SurveyQuery {
            agent: (*agent).to_owned(),
            url: c.url.clone(),
            origin: ORIGINS[c.origin],
        })
        .collect();
    'passes: for pass in 1..=agents.len() {
        for (j, c) in urls.iter().enumerate() {
            if out.len() >= per_file {
                break 'passes;
            }
            let agent = &agents[(j + pass) % agents.len()];
            if agent != first[j] {
                out.push(SurveyQuery {
                    agent: agent.to_string(),
                    url: c.url.clone(),
                    origin: ORIGINS[c.origin],
                });
            }
        }
    }
    out
}

/// How many rules of each kind are drawn for `per_file` queries (§4 step 2).
fn rules_per_kind(per_file: usize) -> usize {
    per_file.div_ceil(4).max(4)
}

/// The kind of a rule for drawing (§4 step 2): 0 encoded, 1 wildcard, 2 dollar, 3 plain.
fn kind(pattern: &[u8]) -> usize {
    if pattern.iter().any(|&b| b == b'%' || b >= 0x80) {
        0
    } else if pattern.contains(&b'*') {
        1
    } else if pattern.contains(&b'$') {
        2
    } else {
        3
    }
}

/// The agent sequence of §3: the file's agents and the fixed ones, each shuffled,
/// interleaved. Never empty.
fn agent_sequence(groups: &[Vec<&[u8]>], rng: &mut Rng) -> Vec<Agent> {
    let mut fixed: Vec<Agent> = GENERIC_AGENTS
        .iter()
        .chain(&CRAWLER_AGENTS)
        .map(|a| Cow::Borrowed(*a))
        .collect();
    let mut own: Vec<Agent> = Vec::new();
    for value in groups.iter().flatten() {
        if own.len() == MAX_FILE_AGENTS {
            break;
        }
        if let Some(agent) = agent_of(value) {
            let known = fixed
                .iter()
                .chain(&own)
                .any(|a| a.eq_ignore_ascii_case(agent));
            if !known {
                own.push(Cow::Owned(agent.to_owned()));
            }
        }
    }
    rng.shuffle(&mut fixed);
    rng.shuffle(&mut own);
    let mut sequence = Vec::with_capacity(fixed.len() + own.len());
    let (mut f, mut o) = (fixed.into_iter(), own.into_iter());
    loop {
        match (o.next(), f.next()) {
            (None, None) => break,
            (a, b) => sequence.extend(a.into_iter().chain(b)),
        }
    }
    sequence
}

/// The agent a rule's URLs are asked for (§3), spelled as in `sequence` when it is there
/// but for case.
fn group_agent(
    groups: &[Vec<&[u8]>],
    rule: Rule<'_>,
    sequence: &[Agent],
    rng: &mut Rng,
) -> Option<Agent> {
    let group = &groups[rule.group?];
    let tokens: Vec<&str> = group.iter().filter_map(|v| agent_of(v)).collect();
    if tokens.is_empty() {
        if group.iter().any(|v| *v == b"*") {
            return Some(Cow::Borrowed(*rng.pick(&GENERIC_AGENTS)));
        }
        return None;
    }
    let token = *rng.pick(&tokens);
    Some(
        sequence
            .iter()
            .find(|a| a.eq_ignore_ascii_case(token))
            .cloned()
            .unwrap_or_else(|| Cow::Owned(token.to_owned())),
    )
}

/// The URLs of one pattern (§2), given to `emit` with their origin.
fn rule_urls(pattern: &[u8], rng: &mut Rng, emit: &mut dyn FnMut(usize, String)) {
    // RFC 9309 §2.2.3: `$` "designates the end of the match pattern"; the body here ends
    // the pattern at its first `$`, one reading of a `$` before the end. That `$` is also
    // asked about taken literally (`dollar-literal`), another reading.
    let dollar = pattern.iter().position(|&b| b == b'$');
    let anchored = dollar.is_some();
    let body = &pattern[..dollar.unwrap_or(pattern.len())];
    if dollar.is_some_and(|at| at + 1 < pattern.len()) {
        let literal = pattern.strip_suffix(b"$").unwrap_or(pattern);
        emit(
            DOLLAR_LITERAL,
            to_url(
                &literal
                    .iter()
                    .filter(|&&b| b != b'*')
                    .copied()
                    .collect::<Vec<u8>>(),
            ),
        );
    }
    let parts: Vec<&[u8]> = body.split(|&b| b == b'*').collect();
    let wild = parts.len() > 1;
    let shortest = expand(&parts, &[b""]);
    if !wild && !anchored {
        emit(RULE_PREFIX, to_url(body));
        let child = if body.ends_with(b"/") {
            append(body, &CHILD_SEGMENTS, rng)
        } else {
            [body, b"/", *rng.pick(&CHILD_SEGMENTS)].concat()
        };
        emit(RULE_CHILD, to_url(&child));
        emit(RULE_EXTEND, to_url(&append(body, &EXTENSIONS, rng)));
    }
    if wild {
        emit(RULE_PREFIX, to_url(parts[0]));
        emit(WILDCARD, to_url(&shortest));
        let fillers: Vec<&[u8]> = parts[1..].iter().map(|_| *rng.pick(&FILLERS)).collect();
        emit(WILDCARD, to_url(&expand(&parts, &fillers)));
    }
    if anchored {
        emit(DOLLAR_END, to_url(&shortest));
        let mut past = shortest.clone();
        past.push(*rng.pick(&PAST_OCTETS));
        emit(DOLLAR_PAST, to_url(&past));
    }
    variants(&shortest, rng, emit);
}

/// The shortest path a rule's pattern matches, as a URL: the pattern up to its first `$`
/// with every `*` removed (§2's *shortest match*), `/` put in front when it starts
/// otherwise. The URL a site-level answer asks about for a rule ([`crate::sites`]).
pub(crate) fn shortest_match_url(pattern: &[u8]) -> String {
    let body = &pattern[..pattern
        .iter()
        .position(|&b| b == b'$')
        .unwrap_or(pattern.len())];
    let parts: Vec<&[u8]> = body.split(|&b| b == b'*').collect();
    to_url(&expand(&parts, &[b""]))
}

/// Whether `left` followed by `right` has a `%XX` escape across the joint: an escape
/// that neither part has, which would change what the URL means.
fn forms_escape(left: &[u8], right: &[u8]) -> bool {
    let tail = &left[left.len().saturating_sub(2)..];
    let head = &right[..right.len().min(2)];
    let joint = [tail, head].concat();
    (0..tail.len()).any(|i| {
        joint[i] == b'%'
            && i + 2 >= tail.len()
            && joint.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
            && joint.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
    })
}

/// `left` plus one of `options` chosen by `rng`, or `x` if that one would make a new
/// escape across the joint (`%a` plus `1` is `%a1`).
fn append(left: &[u8], options: &[&[u8]], rng: &mut Rng) -> Vec<u8> {
    let mut chosen = *rng.pick(options);
    if forms_escape(left, chosen) {
        chosen = b"x";
    }
    [left, chosen].concat()
}

/// The parts of a pattern split at `*`, joined by `fillers` (cycled), each joint
/// filled with `x` instead where the filler would make a new escape (`%*41` joined by
/// nothing would be `%41`, an `A`).
fn expand(parts: &[&[u8]], fillers: &[&[u8]]) -> Vec<u8> {
    let mut out = parts[0].to_vec();
    for (i, part) in parts[1..].iter().enumerate() {
        let filler = fillers[i % fillers.len()];
        let joined = [filler, part].concat();
        let filler: &[u8] = if forms_escape(&out, &joined) || forms_escape(filler, part) {
            b"x"
        } else {
            filler
        };
        out.extend_from_slice(filler);
        out.extend_from_slice(part);
    }
    out
}

fn hex_value(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// Where `bytes` has a valid `%XX` escape, with the octet it encodes.
fn escapes(bytes: &[u8]) -> Vec<(usize, u8)> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            if let (Some(h), Some(l)) = (
                bytes.get(i + 1).copied().and_then(hex_value),
                bytes.get(i + 2).copied().and_then(hex_value),
            ) {
                found.push((i, h << 4 | l));
                i += 3;
                continue;
            }
        }
        i += 1;
    }
    found
}

fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// The variants of §2 (`encoded`, `hex-case`, `decoded`, `raw-octet`) of `base`.
fn variants(base: &[u8], rng: &mut Rng, emit: &mut dyn FnMut(usize, String)) {
    let escapes = escapes(base);
    let in_escape = |i: usize| escapes.iter().any(|&(at, _)| (at..at + 3).contains(&i));

    let letters: Vec<usize> = (0..base.len())
        .filter(|&i| base[i].is_ascii_alphabetic() && !in_escape(i))
        .collect();
    if !letters.is_empty() {
        let i = *rng.pick(&letters);
        let encoded = [
            &base[..i],
            format!("%{:02X}", base[i]).as_bytes(),
            &base[i + 1..],
        ]
        .concat();
        emit(ENCODED, to_url(&encoded));
    }

    let lettered: Vec<usize> = escapes
        .iter()
        .filter(|&&(at, _)| base[at + 1..at + 3].iter().any(u8::is_ascii_alphabetic))
        .map(|&(at, _)| at)
        .collect();
    if !lettered.is_empty() {
        let at = *rng.pick(&lettered);
        let mut flipped = base.to_vec();
        for b in &mut flipped[at + 1..at + 3] {
            *b = if b.is_ascii_uppercase() {
                b.to_ascii_lowercase()
            } else {
                b.to_ascii_uppercase()
            };
        }
        emit(HEX_CASE, to_url(&flipped));
    }

    // Not where the decoded octet would make a new escape: `%b%41` is not `%bA`.
    let unreserved: Vec<(usize, u8)> = escapes
        .iter()
        .copied()
        .filter(|&(at, b)| {
            is_unreserved(b) && !forms_escape(&base[..at], &[&[b][..], &base[at + 3..]].concat())
        })
        .collect();
    if !unreserved.is_empty() {
        let (at, octet) = *rng.pick(&unreserved);
        let decoded = [&base[..at], &[octet][..], &base[at + 3..]].concat();
        emit(DECODED, to_url(&decoded));
    }

    // Non-ASCII octets raw: decode their escapes, and keep raw ones raw.
    let mut raw = Vec::with_capacity(base.len());
    let mut i = 0;
    while i < base.len() {
        match escapes.iter().find(|&&(at, _)| at == i) {
            Some(&(_, octet)) if octet >= 0x80 => {
                raw.push(octet);
                i += 3;
            }
            _ => {
                raw.push(base[i]);
                i += 1;
            }
        }
    }
    if raw.iter().any(|&b| b >= 0x80) {
        if let Ok(text) = std::str::from_utf8(&raw) {
            emit(RAW_OCTET, to_url_raw(text));
        }
    }
}

/// Whether an ASCII octet is percent-encoded in a URL (§2): controls, space, `#`, DEL.
fn must_encode(b: u8) -> bool {
    b <= b' ' || b == b'#' || b == 0x7f
}

fn push_encoded(url: &mut String, b: u8) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    url.push('%');
    url.push(HEX[usize::from(b >> 4)] as char);
    url.push(HEX[usize::from(b & 15)] as char);
}

/// `bytes` as a URL (§2): a leading `/`, and octets that cannot stand in a URL encoded.
fn to_url(bytes: &[u8]) -> String {
    let mut url = String::with_capacity(bytes.len() + 8);
    if !bytes.starts_with(b"/") {
        url.push('/');
    }
    for &b in bytes {
        if b >= 0x80 || must_encode(b) {
            push_encoded(&mut url, b);
        } else {
            url.push(b as char);
        }
    }
    under_origin_if_network_path(url)
}

/// `text` as a URL, keeping its non-ASCII characters raw.
fn to_url_raw(text: &str) -> String {
    let mut url = String::with_capacity(text.len() + 8);
    if !text.starts_with('/') {
        url.push('/');
    }
    for c in text.chars() {
        match u8::try_from(c) {
            Ok(b) if b.is_ascii() && must_encode(b) => push_encoded(&mut url, b),
            _ => url.push(c),
        }
    }
    under_origin_if_network_path(url)
}

/// A path that starts with `//` written under [`reptest_core::url::DEFAULT_ORIGIN`]
/// (`https://example.com//x.php`): alone, `//x.php` is a network-path reference whose
/// host is `x.php` (RFC 3986 §4.2), not the path `//x.php`.
fn under_origin_if_network_path(path: String) -> String {
    if path.starts_with("//") {
        format!("{}{path}", reptest_core::url::DEFAULT_ORIGIN)
    } else {
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn urls(pattern: &[u8]) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        rule_urls(pattern, &mut Rng::new(1), &mut |o, u| {
            out.push((ORIGINS[o], u))
        });
        out
    }

    fn has(all: &[(&'static str, String)], origin: &str, url: &str) -> bool {
        all.iter().any(|(o, u)| *o == origin && u == url)
    }

    #[test]
    fn plain_pattern() {
        let all = urls(b"/private");
        assert!(has(&all, "rule-prefix", "/private"));
        assert!(all
            .iter()
            .any(|(o, u)| *o == "rule-child" && u.starts_with("/private/")));
        assert!(all
            .iter()
            .any(|(o, u)| *o == "rule-extend" && u.starts_with("/private") && u.len() > 8));
        assert!(all.iter().any(|(o, u)| *o == "encoded" && u.contains('%')));
        assert!(!all
            .iter()
            .any(|(o, _)| ["wildcard", "dollar-end", "raw-octet"].contains(o)));
    }

    #[test]
    fn wildcard_and_dollar() {
        let all = urls(b"/*/x.php$");
        assert!(has(&all, "rule-prefix", "/"));
        let empty_star = "https://example.com//x.php";
        assert!(has(&all, "wildcard", empty_star));
        assert!(has(&all, "dollar-end", empty_star));
        assert!(all
            .iter()
            .any(|(o, u)| *o == "dollar-past" && u.len() == empty_star.len() + 1));
        assert_eq!(all.iter().filter(|(o, _)| *o == "wildcard").count(), 2);
    }

    #[test]
    fn encodings() {
        let all = urls("/café/%7Euser/%c3%a9".as_bytes());
        assert!(has(&all, "rule-prefix", "/caf%C3%A9/%7Euser/%c3%a9"));
        assert!(has(&all, "decoded", "/caf%C3%A9/~user/%c3%a9"));
        assert!(has(&all, "raw-octet", "/café/%7Euser/é"));
        assert!(all
            .iter()
            .any(|(o, u)| *o == "hex-case" && u != "/caf%C3%A9/%7Euser/%c3%a9"));
        // Invalid UTF-8 gives no raw-octet URL; a pattern without a slash gets one.
        let all = urls(b"x\xff");
        assert!(has(&all, "rule-prefix", "/x%FF"));
        assert!(!all.iter().any(|(o, _)| *o == "raw-octet"));
        assert!(has(&urls(b"a b#\x01"), "rule-prefix", "/a%20b%23%01"));
    }

    #[test]
    fn agent_sequence_interleaves() {
        let groups = vec![vec![&b"MyBot"[..], b"googlebot"], vec![b"Other/1.0", b"*"]];
        let seq = agent_sequence(&groups, &mut Rng::new(3));
        assert_eq!(seq.len(), 2 + 18 + 2);
        assert!(seq.iter().any(|a| a == "MyBot") && seq.iter().any(|a| a == "Other"));
        assert!(!seq.iter().any(|a| a == "googlebot"));
        let own = |a: &Agent| a == "MyBot" || a == "Other";
        assert!(own(&seq[0]) && !own(&seq[1]) && own(&seq[2]));
    }
}
