//! The counts of one partial, checked before they are merged: no count larger than its
//! total, and the sums that every survey's counts satisfy (see [`crate::engine`]): each
//! file read is surveyed or not, each implementation is asked every query and answers
//! it or not, each query compared is unanimous or split, each split query is attributed
//! to a question or to a new group.

use crate::engine::Survey;
use crate::tally::{ImplTally, PairTally, Tally};

/// A count no survey gives: its path in the tally, and what is wrong with it.
pub(super) struct Bad {
    pub(super) field: String,
    pub(super) detail: String,
}

type Checked = Result<(), Bad>;

/// `count` (at `field`) is at most `total` (named `of`).
fn at_most(field: impl FnOnce() -> String, count: u64, of: &str, total: u64) -> Checked {
    if count <= total {
        return Ok(());
    }
    Err(Bad {
        field: field(),
        detail: format!("= {count} is larger than {of} = {total}"),
    })
}

/// The sum of `counts`, which must be `total` (named `of`); `field` names the sum.
fn sums_to(field: &str, counts: &[u64], of: &str, total: u64) -> Checked {
    let sum = counts.iter().try_fold(0u64, |sum, n| sum.checked_add(*n));
    if sum == Some(total) {
        return Ok(());
    }
    Err(Bad {
        field: field.to_string(),
        detail: match sum {
            Some(sum) => format!("= {sum} is not {of} = {total}"),
            None => "overflows (more than 2^64 - 1)".to_string(),
        },
    })
}

/// Checks the counts of `survey`, a partial's.
pub(super) fn counts(survey: &Survey) -> Checked {
    let t = &survey.tally;
    files(t)?;
    for (i, imp) in t.implementations.iter().enumerate() {
        implementation(t, i, imp)?;
    }
    for (i, row) in t.pairwise.iter().enumerate() {
        for (j, pair) in row.iter().enumerate() {
            pairwise(t, i, j, pair)?;
        }
    }
    agreement(t)
}

fn files(t: &Tally) -> Checked {
    let f = &t.files;
    let sum = [f.surveyed, f.not_surveyed];
    sums_to("files.surveyed + not_surveyed", &sum, "files.read", f.read)?;
    at_most(
        || "files.cut_at_limit".into(),
        f.cut_at_limit,
        "files.read",
        f.read,
    )?;
    at_most(
        || "files.cut_in_archive".into(),
        f.cut_in_archive,
        "files.read",
        f.read,
    )?;
    let rows: Vec<u64> = t.status.values().map(|r| r.files).collect();
    sums_to("status.*.files", &rows, "files.read", f.read)?;
    let rows: Vec<u64> = t.status.values().map(|r| r.queries).collect();
    sums_to("status.*.queries", &rows, "queries", t.queries)
}

fn implementation(t: &Tally, i: usize, imp: &ImplTally) -> Checked {
    let at = |what: &'static str| move || format!("implementations[{i}].{what}");
    let surveyed = t.files.surveyed;
    sums_to(&at("asked")(), &[imp.asked], "queries", t.queries)?;
    let m = &imp.missing;
    let answers = [
        imp.verdicts,
        m.error,
        m.timeout,
        m.crash,
        m.unsupported,
        m.skipped,
    ];
    sums_to(
        &at("verdicts + missing.*")(),
        &answers,
        "its asked",
        imp.asked,
    )?;
    at_most(at("allowed"), imp.allowed, "its verdicts", imp.verdicts)?;
    let d = &imp.decided;
    at_most(
        at("decided.queries"),
        d.queries,
        "its verdicts",
        imp.verdicts,
    )?;
    let of = "its decided.queries";
    at_most(
        at("decided.queries_disagree"),
        d.queries_disagree,
        of,
        d.queries,
    )?;
    at_most(at("decided.files"), d.files, "files.surveyed", surveyed)?;
    let of = "its decided.files";
    at_most(at("decided.files_disagree"), d.files_disagree, of, d.files)?;
    let b = &imp.breaker;
    at_most(
        at("breaker.files_tripped"),
        b.files_tripped,
        "files.surveyed",
        surveyed,
    )?;
    at_most(
        at("breaker.files_skipped"),
        b.files_skipped,
        "files.surveyed",
        surveyed,
    )?;
    if b.opened > 1 {
        return Err(Bad {
            field: at("breaker.opened")(),
            detail: format!("= {}: a breaker opens at most once in a shard", b.opened),
        });
    }
    Ok(())
}

fn pairwise(t: &Tally, i: usize, j: usize, pair: &PairTally) -> Checked {
    let at = |what: &'static str| move || format!("pairwise[{i}][{j}].{what}");
    let verdicts = |k: usize| t.implementations[k].verdicts;
    let of = format!("implementations[{i}].verdicts");
    at_most(at("queries"), pair.queries, &of, verdicts(i))?;
    let of = format!("implementations[{j}].verdicts");
    at_most(at("queries"), pair.queries, &of, verdicts(j))?;
    let of = "its queries";
    at_most(
        at("queries_disagree"),
        pair.queries_disagree,
        of,
        pair.queries,
    )?;
    at_most(at("files"), pair.files, "files.surveyed", t.files.surveyed)?;
    at_most(
        at("files_disagree"),
        pair.files_disagree,
        "its files",
        pair.files,
    )?;
    if *pair != t.pairwise[j][i] {
        return Err(Bad {
            field: format!("pairwise[{i}][{j}]"),
            detail: format!("is not pairwise[{j}][{i}]"),
        });
    }
    Ok(())
}

fn agreement(t: &Tally) -> Checked {
    let a = &t.agreement;
    at_most(
        || "agreement.compared".into(),
        a.compared,
        "queries",
        t.queries,
    )?;
    at_most(
        || "agreement.unanimous".into(),
        a.unanimous,
        "agreement.compared",
        a.compared,
    )?;
    at_most(
        || "agreement.split".into(),
        a.split,
        "agreement.compared",
        a.compared,
    )?;
    let sum = [a.unanimous, a.split];
    sums_to(
        "agreement.unanimous + split",
        &sum,
        "agreement.compared",
        a.compared,
    )?;
    at_most(
        || "agreement.attributed".into(),
        a.attributed,
        "agreement.split",
        a.split,
    )?;
    let mut attributed = Vec::new();
    for (id, q) in &t.per_question {
        let at = |what: &str| format!("per_question.{id}.{what}");
        at_most(|| at("files"), q.files, &at("queries"), q.queries)?;
        for (name, n) in &q.minority {
            at_most(
                || at(&format!("minority.{name}")),
                *n,
                &at("queries"),
                q.queries,
            )?;
        }
        for (name, n) in &q.against_files {
            at_most(
                || at(&format!("against_files.{name}")),
                *n,
                &at("files"),
                q.files,
            )?;
        }
        attributed.push(q.queries);
    }
    sums_to(
        "per_question.*.queries",
        &attributed,
        "agreement.attributed",
        a.attributed,
    )?;
    let mut split = vec![a.attributed];
    for (key, group) in &t.new {
        let at = |what: &str| format!("new[{key}].{what}");
        at_most(|| at("files"), group.files, &at("queries"), group.queries)?;
        split.push(group.queries);
    }
    sums_to(
        "agreement.attributed + new[*].queries",
        &split,
        "agreement.split",
        a.split,
    )
}
