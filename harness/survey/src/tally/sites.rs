//! The site-level counts: each file's class per crawler and implementation
//! ([`crate::sites`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{add, Counts, Example, Minimized, TallyError};

/// Site-level classes: per crawler, and the AI-crawler headline.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sites {
    /// Per crawler (a product token of [`crate::sites::SITE_CRAWLERS`]).
    pub crawlers: BTreeMap<String, CrawlerSites>,
    /// Per implementation: the files on which it classes some AI crawler otherwise than
    /// the decided class.
    pub ai: Vec<Headline>,
}

/// One crawler's classes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrawlerSites {
    /// Files classed (their rules apply).
    pub files: u64,
    /// Files whose decided class is open: a site query of the crawler split, and was
    /// attributed to a question the corpus leaves open (`either`).
    pub open: u64,
    /// Files on which the implementations' verdicts on `/` for the crawler split (may
    /// the crawler fetch `/`?).
    #[serde(default)]
    pub root_split: u64,
    /// Files the implementations (those giving a class) class differently.
    pub disagree: u64,
    /// Of those, files whose decided class is open.
    pub disagree_open: u64,
    /// Per implementation.
    pub implementations: Vec<SiteImpl>,
}

/// One implementation's classes for one crawler.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiteImpl {
    /// Files in each class (fully, partially, unrestricted: [`crate::sites::SiteClass::ALL`]).
    pub classes: [u64; 3],
    /// Files it gave no class.
    pub missing: u64,
    /// `confusion[d][c]`: files whose decided class is `d` and its class `c`, over the
    /// files whose class is decided (not open).
    pub confusion: [[u64; 3]; 3],
    /// Decided files on which its class is another than the decided class.
    pub differ: u64,
    /// Open files on which its class is another than the reference's.
    pub differ_open: u64,
}

/// One implementation against the decided AI-crawler classes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Headline {
    /// Files on which it and the decider class at least one AI crawler, decided.
    pub compared: u64,
    /// Of those, files on which it classes at least one AI crawler otherwise.
    pub changed: u64,
    /// Files on which it classes an AI crawler otherwise than the reference where the
    /// class is open.
    pub changed_open: u64,
    /// The changed file with the smallest (host, locator): the site query on which its
    /// verdict differs from the decided one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub example: Option<SiteExample>,
}

/// A file on which an implementation classes a crawler otherwise.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiteExample {
    /// The crawler.
    pub crawler: String,
    /// The decided class (its key: `full`, `partial`, `none`).
    pub decided: String,
    /// The implementation's class.
    pub theirs: String,
    /// The file and the site query (agent: the crawler).
    pub example: Example,
    /// The example minimized: the body and URL shrunk while the implementation and the
    /// reference keep their verdicts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimized: Option<Minimized>,
}

impl Sites {
    /// Adds `other`'s counts.
    pub(super) fn add(&mut self, other: Sites) -> Result<(), TallyError> {
        for (crawler, theirs) in other.crawlers {
            match self.crawlers.get_mut(&crawler) {
                None => {
                    self.crawlers.insert(crawler, theirs);
                }
                Some(mine) => mine.add(theirs, &crawler)?,
            }
        }
        if self.ai.is_empty() {
            self.ai = other.ai;
            return Ok(());
        }
        same_len(self.ai.len(), other.ai.len())?;
        for (i, (mine, theirs)) in self.ai.iter_mut().zip(other.ai).enumerate() {
            let at = |what: &str| format!("sites.ai[{i}].{what}");
            add(&mut mine.compared, theirs.compared, || at("compared"))?;
            add(&mut mine.changed, theirs.changed, || at("changed"))?;
            add(&mut mine.changed_open, theirs.changed_open, || {
                at("changed_open")
            })?;
            if let Some(example) = theirs.example {
                let smaller = mine
                    .example
                    .as_ref()
                    .is_none_or(|m| example.example.key() < m.example.key());
                if smaller {
                    mine.example = Some(example);
                }
            }
        }
        Ok(())
    }
}

impl CrawlerSites {
    fn add(&mut self, other: CrawlerSites, crawler: &str) -> Result<(), TallyError> {
        let at = |what: &str| format!("sites.{crawler}.{what}");
        add(&mut self.files, other.files, || at("files"))?;
        add(&mut self.open, other.open, || at("open"))?;
        add(&mut self.root_split, other.root_split, || at("root_split"))?;
        add(&mut self.disagree, other.disagree, || at("disagree"))?;
        add(&mut self.disagree_open, other.disagree_open, || {
            at("disagree_open")
        })?;
        same_len(self.implementations.len(), other.implementations.len())?;
        for (i, (mine, theirs)) in self
            .implementations
            .iter_mut()
            .zip(&other.implementations)
            .enumerate()
        {
            mine.add(theirs, &|| at(&format!("implementations[{i}]")))?;
        }
        Ok(())
    }
}

impl Counts for SiteImpl {
    fn add(&mut self, other: &Self, at: &dyn Fn() -> String) -> Result<(), TallyError> {
        for (k, (a, b)) in self.classes.iter_mut().zip(other.classes).enumerate() {
            add(a, b, || format!("{}.classes[{k}]", at()))?;
        }
        for (d, (row, theirs)) in self.confusion.iter_mut().zip(other.confusion).enumerate() {
            for (c, (a, b)) in row.iter_mut().zip(theirs).enumerate() {
                add(a, b, || format!("{}.confusion[{d}][{c}]", at()))?;
            }
        }
        add(&mut self.missing, other.missing, || {
            format!("{}.missing", at())
        })?;
        add(&mut self.differ, other.differ, || {
            format!("{}.differ", at())
        })?;
        add(&mut self.differ_open, other.differ_open, || {
            format!("{}.differ_open", at())
        })
    }
}

/// Two lists of implementations of the same length, or a shape error.
fn same_len(ours: usize, theirs: usize) -> Result<(), TallyError> {
    if ours == theirs {
        Ok(())
    } else {
        Err(TallyError::Shape { ours, theirs })
    }
}
