//! The validated case model: what the rest of reptest consumes.
//!
//! Every type serializes (serde) for export to other languages: words as in case files,
//! bodies as arrays of bytes.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

use crate::vocabulary::{OutcomeWord, Profile};
use serde::Serialize;

/// One robots.txt body with its queries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Case {
    /// Unique across the corpus: lowercase ASCII letters, digits and `-`.
    pub id: String,
    /// One line saying what the case is about.
    pub title: String,
    /// The robots.txt body, byte for byte (escapes and generators already applied).
    pub body: Vec<u8>,
    /// What the case exercises.
    pub dimensions: Vec<Dimension>,
    /// How the body was obtained (RFC 9309 §2.3.1); `None` is a plain HTTP 200.
    pub fetch: Option<Fetch>,
    /// The queries, at least one.
    pub queries: Vec<Query>,
    /// The file the case was read from.
    pub file: PathBuf,
    /// The 1-based line of the case's `id` in that file.
    pub line: usize,
}

/// An (agent, URL) pair with its expected outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Query {
    /// `case-id/name`: unique across the corpus, and stable (it depends on nothing but the
    /// case id and the query's own name).
    pub id: String,
    /// Unique within the case: given in the case file (`name = "..."`) or derived from
    /// the agent and URL ([`crate::names::derived`], e.g. `examplebot:/a?b`).
    pub name: String,
    /// The crawler's product token.
    pub agent: String,
    /// An absolute URL or a path.
    pub url: String,
    /// The expected outcome under the default `rfc9309` profile.
    pub expect: Expect,
    /// Requirement IDs this query tests (at least one).
    pub requirements: Vec<String>,
    /// The level of the requirement tested: given on the query or its case, or else the
    /// level of the RFC requirements it cites (`MAY` when it cites profile IDs only).
    pub level: Level,
    /// One-line rationale from the RFC text.
    pub why: String,
    /// Expectations that differ under a named profile.
    pub profiles: BTreeMap<Profile, Expect>,
    /// Set when the RFC is unclear here and the expectation awaits a decision.
    pub triage: Option<String>,
    /// The question of the catalogue (`questions.toml`) this query is an example or an
    /// instance of, e.g. `Q-MERGE-GROUPS`.
    pub question: Option<String>,
    /// For a finding promoted from a fuzzing campaign: the raw inputs of the campaign
    /// that showed its signature.
    pub hits: Option<u64>,
    /// What each implementation answered when the query was recorded (findings promoted
    /// from fuzzing): implementation name to outcome word. A record of behaviour, never
    /// an expectation.
    pub observed: BTreeMap<String, OutcomeWord>,
    /// The 1-based line of the query's `agent` in its file.
    pub line: usize,
}

impl Query {
    /// The expectation under `profile` (the default one when the query gives none).
    pub fn expect_for(&self, profile: Profile) -> Expect {
        self.profiles.get(&profile).copied().unwrap_or(self.expect)
    }

    /// Whether the query is a fuzzing finding awaiting its RFC verdict: it records what
    /// implementations answered (`observed`) and expects `either` while marked for
    /// triage. Such a query is a regression check, not a conformance test, so pass rates
    /// leave it out.
    pub fn is_undecided_finding(&self) -> bool {
        !self.observed.is_empty() && self.triage.is_some() && self.expect == Expect::Either
    }

    /// The root cause the query's failures are grouped by (RFC 9309 as a whole): its
    /// question when it names one, else the one RFC requirement it cites when it tests
    /// one plain sentence, else `None` (the corpus wants a question then).
    pub fn cause(&self) -> Option<Cause<'_>> {
        if let Some(question) = &self.question {
            return Some(Cause::Question(question));
        }
        let mut rfc = self
            .requirements
            .iter()
            .filter(|id| !id.starts_with("profile-"));
        match (rfc.next(), rfc.next()) {
            (Some(id), None) => Some(Cause::Requirement(id)),
            _ => None,
        }
    }

    /// Whether the query has no decided verdict: marked for triage (an RFC reading not
    /// yet settled, or a finding awaiting its verdict).
    pub fn is_undecided(&self) -> bool {
        self.triage.is_some()
    }
}

/// The root cause a query's failures are grouped by ([`Query::cause`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cause<'a> {
    /// A question of the catalogue (`Q-…`): a point implementations disagree on.
    Question(&'a str),
    /// One plain requirement of the index (e.g. `2.2.2-LONGEST`) that the query alone
    /// tests.
    Requirement(&'a str),
}

impl Cause<'_> {
    /// The question's or the requirement's id.
    pub fn id(&self) -> &str {
        match self {
            Cause::Question(id) | Cause::Requirement(id) => id,
        }
    }
}

impl fmt::Display for Cause<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// An expected outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Expect {
    /// The URL may be crawled.
    Allowed,
    /// The URL must not be crawled.
    Disallowed,
    /// The RFC permits both answers.
    Either,
}

impl Expect {
    /// Whether a verdict (`true` = allowed) meets this expectation.
    pub fn accepts(self, allowed: bool) -> bool {
        match self {
            Expect::Allowed => allowed,
            Expect::Disallowed => !allowed,
            Expect::Either => true,
        }
    }

    /// `allowed`, `disallowed` or `either`.
    pub fn as_str(self) -> &'static str {
        match self {
            Expect::Allowed => "allowed",
            Expect::Disallowed => "disallowed",
            Expect::Either => "either",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<Expect> {
        match text {
            "allowed" => Some(Expect::Allowed),
            "disallowed" => Some(Expect::Disallowed),
            "either" => Some(Expect::Either),
            _ => None,
        }
    }
}

impl fmt::Display for Expect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A BCP 14 requirement level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Level {
    /// A violation is non-conformance.
    Must,
    /// A deviation is a warning.
    Should,
    /// Either behaviour conforms.
    May,
}

impl Level {
    /// `MUST`, `SHOULD` or `MAY`.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Must => "MUST",
            Level::Should => "SHOULD",
            Level::May => "MAY",
        }
    }

    /// The level named `MUST`, `SHOULD` or `MAY`.
    pub fn parse(text: &str) -> Option<Level> {
        match text {
            "MUST" => Some(Level::Must),
            "SHOULD" => Some(Level::Should),
            "MAY" => Some(Level::May),
            _ => None,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a case exercises: the fuzzers' and the reports' vocabulary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Dimension {
    /// Case of record names, agent names and paths.
    Case,
    /// Percent-encoding of paths and patterns.
    PercentEncoding,
    /// `*` and `$`.
    Wildcards,
    /// Byte order marks.
    Bom,
    /// Parse limits and long lines.
    SizeLimits,
    /// How groups form and combine.
    GroupMerging,
    /// CR, LF and CRLF.
    LineEndings,
    /// Forms of user-agent values and product tokens.
    AgentNames,
}

impl Dimension {
    /// Every dimension, in order.
    pub const ALL: [Dimension; 8] = [
        Dimension::Case,
        Dimension::PercentEncoding,
        Dimension::Wildcards,
        Dimension::Bom,
        Dimension::SizeLimits,
        Dimension::GroupMerging,
        Dimension::LineEndings,
        Dimension::AgentNames,
    ];

    /// The name used in case files.
    pub fn as_str(self) -> &'static str {
        match self {
            Dimension::Case => "case",
            Dimension::PercentEncoding => "percent-encoding",
            Dimension::Wildcards => "wildcards",
            Dimension::Bom => "bom",
            Dimension::SizeLimits => "size-limits",
            Dimension::GroupMerging => "group-merging",
            Dimension::LineEndings => "line-endings",
            Dimension::AgentNames => "agent-names",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<Dimension> {
        Dimension::ALL.into_iter().find(|d| d.as_str() == text)
    }
}

impl fmt::Display for Dimension {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How the robots.txt was obtained (RFC 9309 §2.3.1, §2.4).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Fetch {
    /// The final HTTP status; `None` with a cache and no network error means "not fetched again".
    pub status: Option<u16>,
    /// No complete HTTP response (DNS failure, refused connection, reset, timeout): the
    /// file is "unreachable due to ... network errors" (§2.3.1.4). Always set when
    /// [`fault`](Self::fault) is.
    pub network_error: bool,
    /// Which network error, when the case names one; `None` with `network_error` is a
    /// network error of no particular kind.
    pub fault: Option<NetworkFault>,
    /// Redirects followed before the final response.
    pub redirects: u32,
    /// The last redirect crosses to another authority (another host and port):
    /// §2.3.1.2 "The crawlers SHOULD follow at least five consecutive redirects, even
    /// across authorities". Only with `redirects` of 1 or more.
    pub cross_origin: bool,
    /// The `Content-Encoding` the file was served with (RFC 9110 §8.4); the case's body
    /// is the decoded representation.
    pub content_encoding: Option<ContentEncoding>,
    /// The `Content-Type` the file was served with; `None` is `text/plain`. RFC 9309
    /// names no media type: a file served as `text/html` is still the robots.txt.
    pub content_type: Option<String>,
    /// A copy fetched earlier.
    pub cache: Option<Cache>,
}

/// A network error while fetching the robots.txt: the file is unreachable (RFC 9309
/// §2.3.1.4, "unreachable due to server or network errors").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum NetworkFault {
    /// The connection to the file's origin is refused: no response at all.
    Refused,
    /// The response starts, then the connection is reset before the body is complete.
    Reset,
    /// The response starts and never completes: the crawler's own timeout ends it.
    NeverCompletes,
}

impl NetworkFault {
    /// Every fault, in order.
    pub const ALL: [NetworkFault; 3] = [
        NetworkFault::Refused,
        NetworkFault::Reset,
        NetworkFault::NeverCompletes,
    ];

    /// The word used in case files: `refused`, `reset` or `never-completes`.
    pub fn as_str(self) -> &'static str {
        match self {
            NetworkFault::Refused => "refused",
            NetworkFault::Reset => "reset",
            NetworkFault::NeverCompletes => "never-completes",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<NetworkFault> {
        NetworkFault::ALL.into_iter().find(|f| f.as_str() == text)
    }
}

impl fmt::Display for NetworkFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A content coding the file was served with (RFC 9110 §8.4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ContentEncoding {
    /// `gzip` (RFC 9110 §8.4.1.3).
    Gzip,
}

impl ContentEncoding {
    /// The word used in case files and in the header: `gzip`.
    pub fn as_str(self) -> &'static str {
        match self {
            ContentEncoding::Gzip => "gzip",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<ContentEncoding> {
        (text == "gzip").then_some(ContentEncoding::Gzip)
    }
}

impl fmt::Display for ContentEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A previously fetched copy of the robots.txt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cache {
    /// Its age in hours.
    pub age_hours: u32,
    /// Its body, byte for byte.
    pub body: Vec<u8>,
}

impl Cache {
    /// The longest a cached copy is used without fetching again: RFC 9309 §2.4
    /// "Crawlers SHOULD NOT use the cached version for more than 24 hours".
    pub const MAX_AGE_HOURS: u32 = 24;

    /// Whether the copy is young enough to use without fetching again (§2.4).
    pub fn is_fresh(&self) -> bool {
        self.age_hours <= Self::MAX_AGE_HOURS
    }
}
