//! Counting a file's site-level classes ([`crate::sites`]) per crawler and
//! implementation, and the AI-crawler headline.

use super::file::{example, Asked};
use super::Setup;
use crate::sites::{is_ai, SiteClass, SITE_CRAWLERS};
use crate::tally::{CrawlerSites, Headline, SiteExample, SiteImpl, Tally};

/// One crawler's classes on one file.
struct Classed {
    /// Per implementation.
    theirs: Vec<Option<SiteClass>>,
    /// The decider's.
    decided: Option<SiteClass>,
    /// Whether a split site query of the crawler is attributed to an open question.
    open: bool,
    /// Whether the verdicts on `/` split.
    root_split: bool,
}

/// Counts the file's classes for every crawler in `t.sites`.
pub(super) fn count(t: &mut Tally, asked: &Asked<'_>, setup: &Setup<'_>) {
    let n = setup.implementations.len();
    let mut ai = vec![Headline::default(); n];
    for (c, crawler) in SITE_CRAWLERS.iter().enumerate() {
        let range =
            asked.site.ranges[c].start + asked.derived..asked.site.ranges[c].end + asked.derived;
        let classed = classify(asked, range.clone(), n);
        t.sites
            .crawlers
            .insert(crawler.to_string(), crawler_counts(&classed));
        if is_ai(crawler) {
            headline(&mut ai, &classed, asked, range, crawler);
        }
    }
    t.sites.ai = ai;
}

/// The classes of one crawler's site queries `range`.
fn classify(asked: &Asked<'_>, range: std::ops::Range<usize>, n: usize) -> Classed {
    let judged = &asked.judged[range];
    let theirs = (0..n)
        .map(|i| {
            let verdicts: Vec<Option<bool>> = judged.iter().map(|j| j.verdicts[i]).collect();
            SiteClass::of(&verdicts)
        })
        .collect();
    let decided: Vec<Option<bool>> = judged.iter().map(|j| j.decided).collect();
    Classed {
        theirs,
        decided: SiteClass::of(&decided),
        open: judged.iter().any(|j| j.open),
        root_split: judged.first().is_some_and(|j| j.split),
    }
}

/// One file's counts for one crawler.
fn crawler_counts(classed: &Classed) -> CrawlerSites {
    let mut distinct: Vec<SiteClass> = classed.theirs.iter().flatten().copied().collect();
    distinct.sort();
    distinct.dedup();
    let disagree = distinct.len() > 1;
    let implementations = classed
        .theirs
        .iter()
        .map(|theirs| {
            let mut mine = SiteImpl::default();
            match theirs {
                Some(class) => mine.classes[class.index()] = 1,
                None => mine.missing = 1,
            }
            if let (Some(d), Some(c)) = (classed.decided, theirs) {
                if classed.open {
                    mine.differ_open = u64::from(d != *c);
                } else {
                    mine.confusion[d.index()][c.index()] = 1;
                    mine.differ = u64::from(d != *c);
                }
            }
            mine
        })
        .collect();
    CrawlerSites {
        files: 1,
        open: u64::from(classed.open),
        root_split: u64::from(classed.root_split),
        disagree: u64::from(disagree),
        disagree_open: u64::from(disagree && classed.open),
        implementations,
    }
}

/// Adds one AI crawler's classes to the file's headline, and the file as an example
/// for an implementation whose decided class it changes first.
fn headline(
    ai: &mut [Headline],
    classed: &Classed,
    asked: &Asked<'_>,
    range: std::ops::Range<usize>,
    crawler: &str,
) {
    let Some(d) = classed.decided else {
        return;
    };
    for (i, (mine, theirs)) in ai.iter_mut().zip(&classed.theirs).enumerate() {
        let Some(c) = theirs else {
            continue;
        };
        if classed.open {
            mine.changed_open |= u64::from(*c != d);
            continue;
        }
        mine.compared = 1;
        if *c == d || mine.changed == 1 {
            continue;
        }
        mine.changed = 1;
        let differs = range
            .clone()
            .find(|&q| asked.judged[q].verdicts[i] != asked.judged[q].decided)
            .unwrap_or(range.start);
        mine.example = Some(SiteExample {
            crawler: crawler.to_string(),
            decided: d.key().to_string(),
            theirs: c.key().to_string(),
            example: example(asked, differs),
            minimized: None,
        });
    }
}
