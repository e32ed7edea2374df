//! What `reptest survey` and `reptest survey merge` say on standard error once a survey
//! is done: its size and speed, each implementation's missing answers, the minimizer's
//! work, and where the pages were written. One line each, no final line break.

use std::path::Path;

use crate::pieces::numbers::percent;
use reptest_survey::engine::Survey;
use reptest_survey::Shard;

/// How a run went, beside the survey itself.
pub struct Timing {
    /// Files read from the input, in the shard or not.
    pub read: u64,
    /// The shard surveyed, if the run was sharded.
    pub shard: Option<Shard>,
    /// The implementations asked.
    pub implementations: usize,
    /// The survey's duration in seconds.
    pub seconds: f64,
}

/// The survey's size and speed. A shard reads every file of the input and tallies its
/// own: the line says both.
pub fn finished(survey: &Survey, timing: &Timing) -> String {
    let files = survey.tally.files;
    format!(
        "reptest survey: {} file(s) read{}, {} surveyed, {} queries, {} implementation(s), in {:.1} s ({:.0} surveyed files/s)",
        timing.read,
        timing
            .shard
            .map_or(String::new(), |s| format!(", {} in shard {s}", files.read)),
        files.surveyed,
        survey.tally.queries,
        timing.implementations,
        timing.seconds,
        files.surveyed as f64 / timing.seconds.max(1e-9)
    )
}

/// One line per implementation with missing answers or a tripped breaker: the missing
/// answers by kind and what the breaker did.
pub fn missing(survey: &Survey) -> Vec<String> {
    survey
        .header
        .implementations
        .iter()
        .zip(&survey.tally.implementations)
        .filter(|(_, t)| t.missing.total() > 0 || t.breaker.files_tripped > 0)
        .map(|(entry, t)| {
            let (m, b) = (&t.missing, &t.breaker);
            format!(
                "reptest survey: {}: {} of {} answers missing (error {}, timeout {}, crash {}, unsupported {}, skipped {}); {} file(s) tripped the breaker{}",
                entry.name,
                m.total(),
                t.asked,
                m.error,
                m.timeout,
                m.crash,
                m.unsupported,
                m.skipped,
                b.files_tripped,
                if b.opened > 0 {
                    format!(", which opened: {} file(s) skipped", b.files_skipped)
                } else {
                    String::new()
                }
            )
        })
        .collect()
}

/// What the minimizer did to the `groups` new groups' examples, in `seconds`.
pub fn minimized(survey: &Survey, groups: usize, seconds: f64) -> String {
    let minimized: Vec<_> = survey
        .tally
        .new
        .values()
        .filter_map(|g| g.minimized.as_ref())
        .collect();
    let matched = minimized.iter().filter(|m| m.question.is_some()).count();
    format!(
        "reptest survey: minimized {} of {groups} new group example(s) in {seconds:.1} s; {matched} of them match a question once minimized",
        minimized.len()
    )
}

/// The pages written into `dir` ([`super::files`]), with the headline agreement.
pub fn written(survey: &Survey, dir: &Path) -> String {
    let a = &survey.tally.agreement;
    format!(
        "wrote {}/{{survey.json,README.md,survey.html,csv/,figures/}}: agreement {} of {} queries compared",
        dir.display(),
        percent(a.unanimous, a.compared),
        a.compared
    )
}
