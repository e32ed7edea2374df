//! One file's part in the bootstrap's group sums ([`crate::bootstrap`]): for every share
//! the reports give an interval for, the file's numerator and denominator, read from
//! the file's own tally.
//!
//! Share keys: `all/unanimous`, `all/queries/NAME` and `all/files/NAME` (the
//! implementation's disagreeing queries and files against the decided verdict), the
//! same under each stratum (`natural/...`, `probe/...`), `sites/CRAWLER/disagree` (files
//! the implementations class differently), `sites/CRAWLER/NAME` (files an
//! implementation classes otherwise than decided) and `sites/ai/NAME` (the headline:
//! files on which an implementation classes some AI crawler otherwise).

use super::Setup;
use crate::tally::{Agreement, Decided, Tally};

/// Adds the file's contributions, from its tally `t`, to `t.bootstrap`.
pub(super) fn add_file(t: &mut Tally, setup: &Setup<'_>, group: u32) {
    let names: Vec<&str> = setup.implementations.iter().map(|i| i.name()).collect();
    let mut parts: Vec<(String, u64, u64)> = Vec::new();
    let decided: Vec<&Decided> = t.implementations.iter().map(|i| &i.decided).collect();
    queries(&mut parts, "all", &t.agreement, &decided, &names);
    for (stratum, slice) in &t.strata {
        let decided: Vec<&Decided> = slice.decided.iter().collect();
        queries(&mut parts, stratum, &slice.agreement, &decided, &names);
    }
    for (crawler, sites) in &t.sites.crawlers {
        parts.push((
            format!("sites/{crawler}/disagree"),
            sites.disagree,
            sites.files,
        ));
        for (name, mine) in names.iter().zip(&sites.implementations) {
            let compared = mine.confusion.iter().flatten().sum();
            parts.push((format!("sites/{crawler}/{name}"), mine.differ, compared));
        }
    }
    for (name, mine) in names.iter().zip(&t.sites.ai) {
        parts.push((format!("sites/ai/{name}"), mine.changed, mine.compared));
    }
    for (key, numerator, denominator) in parts {
        t.bootstrap.add(&key, group, numerator, denominator);
    }
}

/// The query shares of one slice (`at`): unanimity, and each implementation's
/// disagreeing queries and files.
fn queries(
    parts: &mut Vec<(String, u64, u64)>,
    at: &str,
    agreement: &Agreement,
    decided: &[&Decided],
    names: &[&str],
) {
    parts.push((
        format!("{at}/unanimous"),
        agreement.unanimous,
        agreement.compared,
    ));
    for (name, d) in names.iter().zip(decided) {
        parts.push((
            format!("{at}/queries/{name}"),
            d.queries_disagree,
            d.queries,
        ));
        parts.push((format!("{at}/files/{name}"), d.files_disagree, d.files));
    }
}
