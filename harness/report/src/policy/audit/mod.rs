//! The report of `reptest policy --audit`: for each crawler of the catalogue
//! ([`super::crawlers`]), its site class under RFC 9309 (the survey's classes,
//! [`reptest_survey::sites::SiteClass`]: fully restricted, partially restricted,
//! unrestricted) with the deciding group and line, the parsers that read another class,
//! and the lints' findings ([`super::lint`]). Rendered as [`text`], [`json`] (format
//! `reptest-policy-audit/1`, docs/policy.md), [`github`] annotations and [`junit`].

mod github;
mod json;
mod junit;
mod text;

pub use github::render as github;
pub use json::render as json;
pub use junit::render as junit;
pub use text::render as text;

use super::crawlers::Crawler;
use super::lint::{Finding, Level};
use reptest_survey::sites::SiteClass;

/// The JSON report's format name; a change that is not an addition bumps the number.
pub const FORMAT: &str = "reptest-policy-audit/1";

/// Another implementation's class for a crawler, where it differs from RFC 9309's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    /// The implementation's name (`reptest impls`).
    pub implementation: String,
    /// Its class; `None` when its answers do not settle one (an error, no verdict).
    pub class: Option<SiteClass>,
}

/// One crawler, audited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The catalogue's entry.
    pub crawler: Crawler,
    /// Its class under RFC 9309 (the reference, through the access method).
    pub class: Option<SiteClass>,
    /// The line of the first user-agent line of the group that applies (RFC 9309
    /// §2.2.1); `None` when no group does.
    pub group: Option<usize>,
    /// The line of the rule that decided the class (the Disallow of `/`, or of the first
    /// disallowed rule path); `None` when no rule did.
    pub line: Option<usize>,
    /// The path whose verdict decided the class.
    pub path: String,
    /// Why, in words (the reference's reason for that path).
    pub reason: String,
    /// The implementations that read another class.
    pub others: Vec<Reading>,
    /// The `crawler-user-agents` patterns that match the token (`None`: the package is
    /// not installed).
    pub registry: Option<Vec<String>>,
}

/// The `crawler-user-agents` package the tokens were cross-checked against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registry {
    /// Its version.
    pub version: String,
    /// How many patterns it lists.
    pub patterns: usize,
}

/// Everything the audit shows.
#[derive(Debug, Clone)]
pub struct Audit<'a> {
    /// The robots.txt as the user named it.
    pub robots: &'a str,
    /// What the fetch noted, one line each.
    pub notes: &'a [String],
    /// One row per crawler, in the catalogue's order.
    pub rows: Vec<Row>,
    /// The other implementations compared.
    pub compared: Vec<String>,
    /// The lints' findings, `--allow`ed ones left out.
    pub findings: Vec<Finding>,
    /// The lint ids silenced with `--allow`.
    pub allowed: Vec<String>,
    /// The registry package, when installed.
    pub registry: Option<Registry>,
}

impl Audit<'_> {
    /// How many findings of `level`.
    pub fn count(&self, level: Level) -> usize {
        self.findings.iter().filter(|f| f.level == level).count()
    }

    /// The audit fails when a finding is an error.
    pub fn failed(&self) -> bool {
        self.count(Level::Error) > 0
    }

    /// How many crawlers (AI ones if `ai`) are in `class` under RFC 9309.
    pub fn in_class(&self, class: SiteClass, ai: Option<bool>) -> usize {
        self.rows
            .iter()
            .filter(|r| r.class == Some(class) && ai.is_none_or(|a| r.crawler.ai == a))
            .count()
    }
}

/// A class in words; `no class` when unsettled.
pub fn class_word(class: Option<SiteClass>) -> &'static str {
    class.map_or("no class", SiteClass::label)
}

/// `group line G, rule line L` (or what is missing).
pub fn deciding(row: &Row) -> String {
    match (row.group, row.line) {
        (Some(g), Some(l)) => format!("group line {g}, rule line {l}"),
        (Some(g), None) => format!("group line {g}, no rule"),
        (None, Some(l)) => format!("rule line {l}"),
        (None, None) => "no group applies".to_string(),
    }
}

/// `name: class, ...` of the implementations that read another class.
pub fn other_classes(row: &Row) -> String {
    row.others
        .iter()
        .map(|o| format!("{}: {}", o.implementation, class_word(o.class)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `3 fully restricted, 1 partially restricted, 2 unrestricted`.
pub fn class_counts(audit: &Audit<'_>, ai: Option<bool>) -> String {
    SiteClass::ALL
        .iter()
        .map(|c| format!("{} {}", audit.in_class(*c, ai), c.label()))
        .collect::<Vec<_>>()
        .join(", ")
}
