//! The reports of `reptest policy` (a site owner's CI check that their robots.txt says
//! what they mean): the model of a judged expectations file ([`Report`], [`Judged`]) and
//! its three renderings, [`text`] for a terminal or a log, [`junit`] for CI test
//! reporters and [`github`] for GitHub Actions annotations. The command line judges
//! (with the reference, RFC 9309) and prints what these render.
//!
//! `reptest policy --audit` needs no expectations file: [`audit`] is its model and
//! renderings, [`crawlers`] the catalogue of crawlers it reports on and [`lint`] the
//! semantic lints it runs.

pub mod audit;
pub mod crawlers;
mod github;
mod junit;
pub mod lint;
mod text;

pub use github::render as github;
pub use junit::render as junit;
pub use text::render as text;

use reptest_reference::Warning;
use std::path::Path;

/// One expectation, judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judged {
    /// The agent as written (`*` included).
    pub agent: String,
    /// The URL checked, absolute.
    pub url: String,
    /// Whether the owner expects it allowed.
    pub allowed: bool,
    /// Whether the reference agrees.
    pub holds: bool,
    /// Why the reference decided as it did.
    pub reason: String,
    /// The 1-based line of the robots.txt rule that decided, if a rule did.
    pub line: Option<usize>,
    /// A likely cause of a failure, if one is known (a group of its own hiding the `*`
    /// group's rules, RFC 9309 §2.2.1).
    pub note: Option<String>,
    /// The implementations that read it otherwise than the reference (`name: outcome`).
    pub others: Vec<String>,
}

impl Judged {
    /// The reference's reading: the expectation when it holds, else the other.
    pub fn reference_allows(&self) -> bool {
        self.allowed == self.holds
    }
}

/// Everything a report shows.
#[derive(Debug, Clone)]
pub struct Report<'a> {
    /// The robots.txt as the user named it (a file, `-` or a URL).
    pub robots: &'a str,
    /// The expectations file.
    pub expect: &'a Path,
    /// What the fetch noted (redirects, status, decoding), one line each.
    pub notes: &'a [String],
    /// The lint warnings of the body whose rules are in force (none for a 4xx or 5xx).
    pub warnings: Vec<Warning>,
    /// Every expectation, judged, in file order.
    pub judged: Vec<Judged>,
    /// The other implementations compared.
    pub compared: Vec<String>,
}

impl Report<'_> {
    /// How many expectations do not hold.
    pub fn failed(&self) -> usize {
        self.judged.iter().filter(|j| !j.holds).count()
    }
}

/// `allowed` or `disallowed`.
pub fn verdict_word(allowed: bool) -> &'static str {
    if allowed {
        "allowed"
    } else {
        "disallowed"
    }
}

/// A lint warning in one line, in visible notation (no raw control bytes).
fn warning_text(warning: &Warning) -> String {
    let text = reptest_core::visible_notation::render(warning.to_string().as_bytes());
    text.trim_end_matches(['↵', '\n']).to_string()
}

/// `agent URL: RFC 9309 verdict; name: outcome, ...`.
fn other_reading(j: &Judged) -> String {
    format!(
        "{} {}: RFC 9309 {}; {}",
        j.agent,
        j.url,
        verdict_word(j.reference_allows()),
        j.others.join(", ")
    )
}
