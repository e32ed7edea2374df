//! The Markdown rendering of a [`super::Report`]: deterministic (implementations and
//! lists sorted, no timings, no dates, no absolute paths), so the rendering of a run can
//! be committed under `reports/` and any change of behaviour shows up as a reviewed diff.
//!
//! - [`summary`] renders the conformance summary: the scores per profile
//!   ([`super::ImplScore::profiles`]), the per-requirement table
//!   ([`super::Report::per_requirement`]), same verdicts with other deciding lines
//!   ([`super::ImplScore::same_verdict_other_line`]), pairwise agreement
//!   ([`super::Report::agreement`]) and the divergence write-ups of fuzzing.
//! - [`implementation`] renders one implementation's page: its scores, its choices where
//!   the RFC allows either verdict ([`super::ImplScore::may_choices`]), and every query it
//!   did not pass, with the body and everything needed to see why.
//!
//! Every string taken from the report is escaped: table cells escape `|`, text outside
//! code spans escapes Markdown's punctuation, agents and URLs are code spans in
//! visible-character notation ([`reptest_core::visible_notation`]), and bodies sit in fenced code blocks
//! whose fence is longer than any backtick run inside.

use super::{
    CaseEntry, Cell, ImplEntry, ImplScore, LevelTally, QueryEntry, QuestionEntry, QuestionVerdict,
    Report,
};
use crate::pieces::markdown::{cell, code, code_cell, fenced, text};
use crate::pieces::numbers;
use reptest_corpus::{OutcomeWord, Profile};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// A fuzzing write-up to link from the summary (`reports/findings/NAME.md`, written by
/// `reptest fuzz --write-findings NAME`). The caller lists them; the renderer reads no
/// files.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct WriteUp {
    /// The campaign name (the file stem).
    pub name: String,
    /// The link target, relative to where the rendered Markdown will live.
    pub link: String,
}

/// Error details longer than this are cut (the JSON report holds them whole).
const DETAIL_LIMIT: usize = 300;

/// The conformance summary of `report`: first the questions implementations disagree on
/// (each with its RFC sentences, decision, minimal example, one row per implementation:
/// right, wrong or no verdict, and campaign hits); then per profile, one row per
/// implementation (the
/// reference first, then by name) with version, language, MUST, SHOULD and MAY pass rates
/// over the decided queries, the choices over queries expecting `either`, failed, no
/// verdict and unsupported
/// counts; then one row per requirement of the index (queries citing it, how many
/// implementations pass all of them, which fail some); then same verdicts with another
/// deciding line than the reference; then pairwise agreement; then the fuzzing
/// write-ups `write_ups` (links as given) and the findings cases of the corpus (case ids
/// starting with `finding-`) with the answers they get.
pub fn summary(report: &Report, write_ups: &[WriteUp]) -> String {
    let mut out = String::new();
    let order = order(report);
    let _ = writeln!(out, "# RFC 9309 conformance\n");
    let _ = writeln!(
        out,
        "reptest {}; corpus `{}`: {} cases, {} queries; {} implementation(s). Expectations \
         are written from the RFC text; under `google`, a query expects Google's choice \
         where the RFC allows either verdict. A query with no verdict (error, timeout or \
         crash) counts as not passed; an unsupported one (a fetch outcome given to a \
         library that takes a body only) is not judged.\n",
        text(&report.meta.reptest_version),
        text(&report.meta.corpus_fingerprint),
        report.meta.cases,
        report.meta.queries,
        report.implementations.len()
    );
    questions(&mut out, report, &order);
    for &profile in &report.meta.profiles {
        profile_table(&mut out, report, &order, profile);
    }
    requirement_table(&mut out, report);
    access_method(&mut out, report, &order);
    crate::crawl_markdown::section(&mut out, report);
    other_lines(&mut out, report, &order);
    agreement(&mut out, report, &order);
    findings(&mut out, report, &order, write_ups);
    finish(out)
}

/// The page of implementation `name` (`None` when the report has no such column): its
/// scores per profile and level, its choices per requirement where the RFC allows either
/// verdict, and every query it did not pass under `rfc9309` — then, separately, those it
/// did not pass under `google` where that profile expects something else — each with
/// query id, file and line, level, requirements, agent, URL, the body in a fenced block,
/// what was expected and what came (word, deciding line, error detail), in corpus order.
pub fn implementation(report: &Report, name: &str) -> Option<String> {
    let column = report.implementation(name)?;
    let outcomes = report.outcomes.get(column)?;
    let score = report.scores.iter().find(|s| s.name == name);
    let reference = report
        .implementation("reference")
        .filter(|&r| r != column)
        .and_then(|r| report.outcomes.get(r));
    let mut out = String::new();
    implementation_header(&mut out, report, name, &report.implementations[column]);
    implementation_scores(&mut out, report, score);
    questions_wrong(&mut out, report, name);
    may_choices(&mut out, report, score);
    either_without_verdict(&mut out, report, outcomes);
    unsupported(&mut out, report, outcomes);
    let failed = Failed {
        report,
        score,
        outcomes,
        reference,
    };
    failed.rfc9309(&mut out);
    if report.meta.profiles.contains(&Profile::Google) {
        failed.google(&mut out);
    }
    Some(finish(out))
}

/// The title of an implementation's page: what it is, what it takes, the corpus.
fn implementation_header(out: &mut String, report: &Report, name: &str, entry: &ImplEntry) {
    let _ = writeln!(out, "# {}\n", code(name));
    let _ = writeln!(
        out,
        "Version {}, {}. Takes {}; {}; {}.\n",
        text(&entry.version),
        text(&entry.language),
        if entry.full_urls {
            "absolute URLs"
        } else {
            "paths only (the harness passes the path of each URL)"
        },
        if entry.fetches {
            "fetches /robots.txt itself over HTTP, so its fetch cases (RFC 9309 §2.3.1) are served on the loopback site"
        } else if entry.fetch_outcomes {
            "models fetch outcomes (RFC 9309 §2.3.1)"
        } else {
            "takes a body only (fetch-outcome queries are unsupported)"
        },
        if entry.reports_line {
            "reports the deciding line"
        } else {
            "does not report the deciding line"
        }
    );
    let _ = writeln!(
        out,
        "Corpus `{}`, {} queries; reptest {}.\n",
        text(&report.meta.corpus_fingerprint),
        report.meta.queries,
        text(&report.meta.reptest_version)
    );
}

/// "Scores": an implementation's pass rates per profile and level, and its counts.
fn implementation_scores(out: &mut String, report: &Report, score: Option<&ImplScore>) {
    let _ = writeln!(out, "## Scores\n");
    let _ = writeln!(
        out,
        "Passed over judged decided queries (unsupported ones are not judged; no verdict \
         counts as not passed). Where the profile permits either verdict, an answer is a \
         choice, never a pass: those queries are counted under *either* only.\n"
    );
    let _ = writeln!(
        out,
        "| profile | MUST | SHOULD | MAY | failed | no verdict | unsupported | either |\n| --- | --- | --- | --- | ---: | ---: | ---: | ---: |"
    );
    for &profile in &report.meta.profiles {
        let levels = score.and_then(|s| s.profiles.get(&profile));
        let total = score
            .and_then(|s| s.totals.get(&profile))
            .copied()
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            code(profile.as_str()),
            rate(levels.and_then(|l| l.get("MUST"))),
            rate(levels.and_then(|l| l.get("SHOULD"))),
            rate(levels.and_then(|l| l.get("MAY"))),
            total.fail,
            total.no_verdict,
            total.unsupported,
            total.choices
        );
    }
    let _ = writeln!(out);
}

/// What an implementation's page lists the queries it did not pass from.
struct Failed<'r> {
    report: &'r Report,
    score: Option<&'r ImplScore>,
    outcomes: &'r [Cell],
    reference: Option<&'r Vec<Cell>>,
}

impl Failed<'_> {
    /// "Queries not passed under `rfc9309`".
    fn rfc9309(&self, out: &mut String) {
        let list = not_passed(self.report, self.score, Profile::Rfc9309, None);
        let _ = writeln!(
            out,
            "## Queries not passed under `rfc9309` ({})\n",
            list.len()
        );
        if list.is_empty() {
            let _ = writeln!(out, "None: every judged query passed.\n");
        } else {
            failures(out, &list, self.outcomes, self.reference, Profile::Rfc9309);
        }
    }

    /// "Queries not passed under `google` where it expects otherwise" than `rfc9309`.
    fn google(&self, out: &mut String) {
        let list = not_passed(
            self.report,
            self.score,
            Profile::Google,
            Some(Profile::Rfc9309),
        );
        let _ = writeln!(
            out,
            "## Queries not passed under `google` where it expects otherwise ({})\n",
            list.len()
        );
        let _ = writeln!(
            out,
            "Queries whose `google` expectation differs from the `rfc9309` one (Google's \
             choice where the RFC allows either verdict); the others are listed above.\n"
        );
        if list.is_empty() {
            let _ = writeln!(out, "None.\n");
        } else {
            failures(out, &list, self.outcomes, self.reference, Profile::Google);
        }
    }
}

/// Column indexes: the reference first, then by name.
fn order(report: &Report) -> Vec<usize> {
    let mut order: Vec<usize> = (0..report.implementations.len()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (
            &report.implementations[a].name,
            &report.implementations[b].name,
        );
        (a != "reference", a).cmp(&(b != "reference", b))
    });
    order
}

/// One trailing line break.
fn finish(mut out: String) -> String {
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

/// `pass/judged (rate%)` over the decided queries, or `—` when none was judged.
fn rate(tally: Option<&LevelTally>) -> String {
    match tally {
        Some(t) if t.judged() > 0 => format!("{}/{} ({:.1}%)", t.pass, t.judged(), t.pass_rate),
        _ => "—".into(),
    }
}

/// The access-method view ([`Report::access_view`]): for each case with a fetch outcome
/// (a status family, a redirect depth, a network fault, the size, the encoding, a cached
/// copy; RFC 9309 §2.3.1–§2.5), what each implementation that answers such cases did, as
/// queries passed of those it answered under `rfc9309`, with its verdicts.
fn access_method(out: &mut String, report: &Report, order: &[usize]) {
    let Some(view) = report.access_view(order) else {
        return;
    };
    let _ = writeln!(
        out,
        "## The access method

The cases that describe how the robots.txt was fetched (RFC 9309 §2.3.1, §2.4, §2.5: each status family, redirect depth, network fault, size, encoding and cached copy), through the implementations that answer them (crawlers over HTTP on the loopback site). A cell is the queries passed of those answered under `rfc9309`, then the verdicts in query order (A allowed, D disallowed, · not answered); **bold** where one failed.\n"
    );
    let _ = write!(out, "| case | fetch |");
    for &i in &view.columns {
        let _ = write!(out, " {} |", code_cell(&report.implementations[i].name));
    }
    let _ = write!(out, "\n| --- | --- |");
    for _ in &view.columns {
        let _ = write!(out, " --- |");
    }
    let _ = writeln!(out);
    for row in &view.rows {
        let _ = write!(out, "| {} | {} |", code_cell(&row.case.id), cell(row.fetch));
        for access in &row.cells {
            if access.failed() {
                let _ = write!(out, " **{}** |", access.text());
            } else {
                let _ = write!(out, " {} |", access.text());
            }
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(out);
}

/// The expectation of `query` under `profile` (`either` when the report lacks it).
fn expect(query: &QueryEntry, profile: Profile) -> &str {
    query.expect.get(&profile).map_or("either", String::as_str)
}

/// The per-profile table of the summary.
fn profile_table(out: &mut String, report: &Report, order: &[usize], profile: Profile) {
    let _ = writeln!(out, "## Profile `{}`\n", text(profile.as_str()));
    let either = report
        .queries()
        .filter(|(_, q)| expect(q, profile) == "either" && !q.finding)
        .count();
    let _ = writeln!(
        out,
        "MUST, SHOULD and MAY: passed over judged decided queries. Choices: what each \
         implementation answered on the {either} queries where this profile allows either \
         verdict (allowed / disallowed), counted in no pass rate. Fuzzing findings awaiting \
         their verdict are not counted here (see below). Failed, no verdict and unsupported \
         count decided queries at every level.\n"
    );
    let _ = writeln!(
        out,
        "| implementation | version | language | MUST | SHOULD | MAY | choices (allowed / disallowed) | failed | no verdict | unsupported |\n| --- | --- | --- | --- | --- | --- | --- | ---: | ---: | ---: |"
    );
    for &i in order {
        let entry = &report.implementations[i];
        let score = report.scores.get(i).filter(|s| s.name == entry.name);
        let levels = score.and_then(|s| s.profiles.get(&profile));
        let total = score
            .and_then(|s| s.totals.get(&profile))
            .copied()
            .unwrap_or_default();
        let (allowed, disallowed) = score
            .and_then(|s| s.either_verdicts.get(&profile))
            .copied()
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {allowed} / {disallowed} | {} | {} | {} |",
            code_cell(&entry.name),
            cell(&entry.version),
            cell(&entry.language),
            rate(levels.and_then(|l| l.get("MUST"))),
            rate(levels.and_then(|l| l.get("SHOULD"))),
            rate(levels.and_then(|l| l.get("MAY"))),
            total.fail,
            total.no_verdict,
            total.unsupported
        );
    }
    let _ = writeln!(out);
}

/// The per-requirement table of the summary.
fn requirement_table(out: &mut String, report: &Report) {
    let _ = writeln!(out, "## Per requirement (`rfc9309`)\n");
    let _ = writeln!(
        out,
        "In the order of the requirement index (`corpus/requirements.md`). \"Pass all\": \
         implementations that passed every judged query citing the requirement, over those \
         with at least one judged query; the others are named.\n"
    );
    let _ = writeln!(
        out,
        "| requirement | level | queries | pass all | not passing some |\n| --- | --- | ---: | --- | --- |"
    );
    for req in &report.per_requirement {
        let mut judged = 0;
        let mut passing = 0;
        let mut failing = Vec::new();
        for (i, (pass, of)) in req.per_impl.iter().enumerate() {
            if *of == 0 {
                continue;
            }
            judged += 1;
            if pass == of {
                passing += 1;
            } else if let Some(entry) = report.implementations.get(i) {
                failing.push(format!("{} ({}/{of})", entry.name, pass));
            }
        }
        failing.sort();
        let pass_all = if judged == 0 {
            "—".to_string()
        } else {
            format!("{passing} of {judged}")
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {pass_all} | {} |",
            code_cell(&req.id),
            cell(&req.level),
            req.queries,
            if failing.is_empty() {
                String::new()
            } else {
                cell(&failing.join(", "))
            }
        );
    }
    let _ = writeln!(out);
}

/// Same verdict as the reference, other deciding line.
fn other_lines(out: &mut String, report: &Report, order: &[usize]) {
    let _ = writeln!(out, "## Same verdict, different deciding line\n");
    let reference = report.implementation("reference");
    let reporting: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&i| {
            report.implementations[i].reports_line && report.implementations[i].name != "reference"
        })
        .collect();
    if reference.is_none() || reporting.is_empty() {
        let _ = writeln!(
            out,
            "No implementation besides the reference reports deciding lines in this run.\n"
        );
        return;
    }
    let index: BTreeMap<&str, usize> = report
        .queries()
        .map(|(_, q)| (q.id.as_str(), q.index))
        .collect();
    let line_of = |column: usize, query: usize| -> String {
        report
            .outcomes
            .get(column)
            .and_then(|c| c.get(query))
            .and_then(|c| c.line)
            .map_or("—".into(), |l| l.to_string())
    };
    let names: Vec<String> = reporting
        .iter()
        .map(|&i| code(&report.implementations[i].name))
        .collect();
    let _ = writeln!(
        out,
        "Queries where an implementation that reports lines ({}) gave the reference's \
         verdict but named another rule's line: the same answer for a different reason.\n",
        names.join(", ")
    );
    let mut rows = Vec::new();
    for &i in &reporting {
        let Some(score) = report
            .scores
            .iter()
            .find(|s| s.name == report.implementations[i].name)
        else {
            continue;
        };
        for id in &score.same_verdict_other_line {
            let (ours, theirs) = match (index.get(id.as_str()), reference) {
                (Some(&q), Some(r)) => (line_of(i, q), line_of(r, q)),
                _ => ("—".into(), "—".into()),
            };
            rows.push(format!(
                "| {} | {} | {ours} | {theirs} |",
                code_cell(&report.implementations[i].name),
                code_cell(id)
            ));
        }
    }
    if rows.is_empty() {
        let _ = writeln!(out, "None.\n");
        return;
    }
    let _ = writeln!(
        out,
        "| implementation | query | its line | reference's line |\n| --- | --- | ---: | ---: |"
    );
    for row in rows {
        let _ = writeln!(out, "{row}");
    }
    let _ = writeln!(out);
}

/// Implementations up to which the full agreement matrix is printed.
const MATRIX_LIMIT: usize = 8;

/// Pairwise agreement: the matrix for a few implementations, else each one's three
/// least-agreeing peers.
fn agreement(out: &mut String, report: &Report, order: &[usize]) {
    let _ = writeln!(out, "## Pairwise agreement\n");
    let _ = writeln!(
        out,
        "Over the queries both implementations gave a verdict for, the share of equal \
         verdicts (whatever the expectation).\n"
    );
    let rate = |a: usize, b: usize| report.agreement.rate(a, b);
    if order.len() <= MATRIX_LIMIT {
        let _ = write!(out, "| |");
        for &b in order {
            let _ = write!(out, " {} |", code_cell(&report.implementations[b].name));
        }
        let _ = write!(out, "\n| --- |");
        for _ in order {
            let _ = write!(out, " ---: |");
        }
        let _ = writeln!(out);
        for &a in order {
            let _ = write!(out, "| {} |", code_cell(&report.implementations[a].name));
            for &b in order {
                let _ = write!(out, " {} |", numbers::rate(rate(a, b)));
            }
            let _ = writeln!(out);
        }
        let _ = writeln!(out);
        return;
    }
    let reference = report.implementation("reference");
    let _ = writeln!(
        out,
        "{} implementations make the full matrix too wide to read; for each, its agreement \
         with the reference and its three least-agreeing peers (the JSON report holds every \
         pair).\n",
        order.len()
    );
    let _ = writeln!(
        out,
        "| implementation | with the reference | least-agreeing peers |\n| --- | ---: | --- |"
    );
    for &a in order {
        let mut peers: Vec<(f64, &str)> = order
            .iter()
            .filter(|&&b| b != a)
            .filter_map(|&b| Some((rate(a, b)?, report.implementations[b].name.as_str())))
            .collect();
        peers.sort_by(|x, y| x.0.total_cmp(&y.0).then_with(|| x.1.cmp(y.1)));
        let peers: Vec<String> = peers
            .iter()
            .take(3)
            .map(|(r, name)| format!("{name} {r:.1}%"))
            .collect();
        let with_reference = match reference {
            Some(r) if r != a => numbers::rate(rate(a, r)),
            _ => "—".into(),
        };
        let _ = writeln!(
            out,
            "| {} | {with_reference} | {} |",
            code_cell(&report.implementations[a].name),
            cell(&peers.join(", "))
        );
    }
    let _ = writeln!(out);
}

/// The fuzzing write-ups and the findings cases of the corpus.
fn findings(out: &mut String, report: &Report, order: &[usize], write_ups: &[WriteUp]) {
    let _ = writeln!(out, "## Divergence write-ups\n");
    let mut write_ups = write_ups.to_vec();
    write_ups.sort();
    write_ups.dedup();
    if write_ups.is_empty() {
        let _ = writeln!(
            out,
            "No fuzzing write-up yet (`reptest fuzz --write-findings NAME` writes \
             `reports/findings/NAME.md`).\n"
        );
    } else {
        for w in &write_ups {
            let _ = writeln!(
                out,
                "- [{}](<{}>)",
                text(&w.name),
                w.link.replace(['<', '>', '\n', '\r'], "")
            );
        }
        let _ = writeln!(out);
    }
    let findings: Vec<(&CaseEntry, &QueryEntry)> = report
        .queries()
        .filter(|(case, _)| case.id.starts_with("finding-"))
        .collect();
    let cases: BTreeSet<&str> = findings.iter().map(|(c, _)| c.id.as_str()).collect();
    let _ = writeln!(
        out,
        "{} findings case(s) in the corpus (case ids `finding-…`, promoted from fuzzing, \
         expecting `either` until the RFC verdict is decided), {} queries.\n",
        cases.len(),
        findings.len()
    );
    if findings.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "| query | allowed | disallowed | no verdict | disagreeing (the smaller side) |\n| --- | ---: | ---: | ---: | ---: |"
    );
    for (_, q) in findings {
        let (mut allowed, mut disallowed, mut none) = (0, 0, 0);
        for &i in order {
            match report
                .outcomes
                .get(i)
                .and_then(|c| c.get(q.index))
                .map(|c| c.word.as_str())
            {
                Some("allowed") => allowed += 1,
                Some("disallowed") => disallowed += 1,
                Some("unsupported") | None => {}
                Some(_) => none += 1,
            }
        }
        let _ = writeln!(
            out,
            "| {} | {allowed} | {disallowed} | {none} | {} |",
            code_cell(&q.id),
            allowed.min(disallowed)
        );
    }
    let _ = writeln!(out);
}

/// The questions of the catalogue, each with what decides it and how every
/// implementation answers it.
fn questions(out: &mut String, report: &Report, order: &[usize]) {
    if report.questions.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "## Questions
"
    );
    let _ = writeln!(
        out,
        "The root questions implementations disagree on, each decided from the RFC text \
         (`corpus/questions.toml`). An implementation is *wrong* on a question when it fails \
         one of the queries that name it, *right* when it passes every one it answers, and \
         makes a *choice* when every query it answers is one where the RFC permits either \
         verdict. Every query naming the question counts, not only its examples.\n"
    );
    let _ = writeln!(
        out,
        "| question | level | right | wrong | no verdict | choice | campaign hits |\n| --- | --- | ---: | ---: | ---: | ---: | ---: |"
    );
    for q in &report.questions {
        let count = |v: QuestionVerdict| {
            order
                .iter()
                .filter(|&&i| q.per_impl.get(i).map(|a| a.verdict) == Some(v))
                .count()
        };
        let _ = writeln!(
            out,
            "| [{}](#{}) {} | {} | {} | {} | {} | {} | {} |",
            text(&q.id),
            q.id.to_ascii_lowercase(),
            cell(&q.question),
            text(&q.level),
            count(QuestionVerdict::Right),
            count(QuestionVerdict::Wrong),
            count(QuestionVerdict::NoVerdict),
            count(QuestionVerdict::Choice),
            q.hits.values().sum::<u64>()
        );
    }
    let _ = writeln!(out);
    let rows: Vec<(&CaseEntry, &QueryEntry)> = report.queries().collect();
    for q in &report.questions {
        question(out, report, order, q, &rows);
    }
}

/// One question of the catalogue: its RFC sentences, decision, example and hits, then
/// every implementation's answer with its upstream reports.
fn question(
    out: &mut String,
    report: &Report,
    order: &[usize],
    q: &QuestionEntry,
    rows: &[(&CaseEntry, &QueryEntry)],
) {
    let _ = writeln!(out, "### {}\n", text(&q.id));
    let _ = writeln!(out, "**{}**\n", text(&q.question));
    for (section, sentence) in &q.rfc {
        let _ = writeln!(
            out,
            "> {} “{}”\n",
            text(&reptest_corpus::questions::cite(section)),
            text(sentence)
        );
    }
    let _ = writeln!(
        out,
        "Decision ({}; {}): {}\n",
        text(&q.level),
        q.requirements
            .iter()
            .map(|r| code(r))
            .collect::<Vec<_>>()
            .join(", "),
        text(&q.decision)
    );
    if let Some(both) = &q.permits_both {
        let _ = writeln!(out, "Either verdict conforms: {}\n", text(both));
    }
    if let Some((case, query)) = q.examples.first().and_then(|&first| rows.get(first)) {
        let _ = writeln!(
            out,
            "Minimal example {}: agent {}, URL {}, expected **{}**\n\n{}\n",
            code(&query.id),
            code(&query.agent),
            code(&query.url),
            text(expect(query, Profile::Rfc9309)),
            fenced(&case.body)
        );
    }
    if !q.hits.is_empty() {
        let hits: Vec<String> = q
            .hits
            .iter()
            .map(|(campaign, n)| format!("{} {n}", code(campaign)))
            .collect();
        let _ = writeln!(out, "Raw hits in fuzzing campaigns: {}\n", hits.join(", "));
    }
    let _ = writeln!(
        out,
        "| implementation | answer | queries | upstream |\n| --- | --- | --- | --- |"
    );
    for &i in order {
        let (Some(entry), Some(answer)) = (report.implementations.get(i), q.per_impl.get(i)) else {
            continue;
        };
        if answer.verdict == QuestionVerdict::NotJudged {
            continue;
        }
        let upstream: Vec<String> = q
            .threads_for(&entry.name)
            .into_iter()
            .map(|t| thread_link(t, &cell(&t.title)))
            .collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} |",
            code_cell(&entry.name),
            answer.verdict.as_str(),
            cell(&with_latest(report, q, &entry.name, &entry.version, answer)),
            upstream.join(" ")
        );
    }
    let _ = writeln!(out);
}

/// The questions an implementation gets wrong, with their decisions and upstream reports.
fn questions_wrong(out: &mut String, report: &Report, name: &str) {
    if report.questions.is_empty() {
        return;
    }
    let wrong = report.questions_wrong(name);
    let _ = writeln!(out, "## Questions it gets wrong ({})\n", wrong.len());
    if wrong.is_empty() {
        let _ = writeln!(out, "None of the {} questions.\n", report.questions.len());
        return;
    }
    let column = report.implementation(name);
    for q in wrong {
        let answer = column.and_then(|c| q.per_impl.get(c));
        let _ = writeln!(
            out,
            "- **{}** {} ({}; {}). Decision: {}",
            text(&q.id),
            text(&q.question),
            text(&q.level),
            answer.map_or_else(String::new, |a| a.describe()),
            text(&q.decision)
        );
        if let Some(latest) = report.latest_answer(name, &q.id).filter(|l| l.differs) {
            let _ = writeln!(
                out,
                "  - newest release {} (`{name}{}`): {} ({})",
                text(&latest.version),
                crate::model::LATEST_SUFFIX,
                latest.verdict.as_str(),
                latest.answer
            );
        }
        let threads = q.threads_for(name);
        if threads.is_empty() {
            let _ = writeln!(out, "  - {NO_THREAD}");
        }
        for t in threads {
            let _ = writeln!(out, "  - upstream: {}", thread_link(t, &text(&t.title)));
        }
    }
    let _ = writeln!(out);
}

/// What a failure with no upstream thread known says: the report to file.
pub const NO_THREAD: &str = "no upstream issue known";

/// An upstream thread as a link (its title already escaped for where it goes) and its
/// status: `[title](<url>) (open, checked 2026-12-03)`.
fn thread_link(t: &crate::UpstreamThread, title: &str) -> String {
    format!(
        "[{title}](<{}>) ({})",
        t.url.replace(['<', '>', '\n', '\r', '|'], ""),
        t.describe_checked()
    )
}

/// `answer` in words, with the newest release's answer beside it when the report holds
/// `name@latest` and its verdict differs: `0.7.0: 3 of 5 wrong · 0.8.1 (latest): 5 of 5
/// right`.
fn with_latest(
    report: &Report,
    q: &QuestionEntry,
    name: &str,
    version: &str,
    answer: &crate::QuestionAnswer,
) -> String {
    match report.latest_answer(name, &q.id).filter(|l| l.differs) {
        Some(latest) => format!(
            "{version}: {} · {} (latest): {} ({})",
            answer.describe(),
            latest.version,
            latest.verdict.as_str(),
            latest.answer
        ),
        None => answer.describe(),
    }
}

/// The implementation's choices where the RFC allows either verdict.
fn may_choices(out: &mut String, report: &Report, score: Option<&ImplScore>) {
    let _ = writeln!(out, "## Choices where the RFC allows either verdict\n");
    let Some(score) = score.filter(|s| !s.may_choices.is_empty()) else {
        let _ = writeln!(
            out,
            "No verdict on any query expecting `either` under `rfc9309`.\n"
        );
        return;
    };
    let _ = writeln!(
        out,
        "Verdicts on the queries expecting `either` under `rfc9309`, per requirement they \
         cite (index order).\n"
    );
    let _ = writeln!(
        out,
        "| requirement | level | allowed | disallowed |\n| --- | --- | ---: | ---: |"
    );
    let mut ids: Vec<&String> = score.may_choices.keys().collect();
    ids.sort_by_key(|id| (entry_of(report, id).unwrap_or(usize::MAX), *id));
    for id in ids {
        let (allowed, disallowed) = score.may_choices[id];
        let level = entry_of(report, id)
            .and_then(|i| report.requirements.get(i))
            .map_or("—", |r| r.level.as_str());
        let _ = writeln!(
            out,
            "| {} | {} | {allowed} | {disallowed} |",
            code_cell(id),
            cell(level)
        );
    }
    let _ = writeln!(out);
}

/// The queries expecting `either` under `rfc9309` that got no verdict (error, timeout,
/// crash): neither passed nor failed, so listed nowhere else, yet worth a maintainer's
/// look; counted by outcome word, with the first few ids.
fn either_without_verdict(out: &mut String, report: &Report, outcomes: &[Cell]) {
    let mut words: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for ((_, q), c) in report.queries().zip(outcomes) {
        let faulty = !matches!(c.word, OutcomeWord::Unsupported) && c.word.verdict().is_none();
        if faulty && expect(q, Profile::Rfc9309) == "either" && !q.finding {
            words.entry(c.word.as_str()).or_default().push(&q.id);
        }
    }
    for (word, ids) in words {
        let shown: Vec<String> = ids.iter().take(5).map(|id| code(id)).collect();
        let more = if ids.len() > shown.len() { ", …" } else { "" };
        let _ = writeln!(
            out,
            "No verdict where either verdict conforms ({word}, not counted as failed): {} \
             queries, {}{more}\n",
            ids.len(),
            shown.join(", ")
        );
    }
}

/// The index entry requirement `id` belongs to: itself, or the family (`X-*`) it is a
/// member of.
fn entry_of(report: &Report, id: &str) -> Option<usize> {
    report
        .requirements
        .iter()
        .position(|r| r.id == id)
        .or_else(|| {
            report.requirements.iter().position(|r| {
                r.id.strip_suffix('*')
                    .is_some_and(|prefix| id.len() > prefix.len() && id.starts_with(prefix))
            })
        })
}

/// The implementation's unsupported queries, counted by reason.
fn unsupported(out: &mut String, report: &Report, outcomes: &[Cell]) {
    let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
    for ((_, _), c) in report.queries().zip(outcomes) {
        if c.word == OutcomeWord::Unsupported {
            *reasons
                .entry(c.detail.as_deref().unwrap_or(""))
                .or_default() += 1;
        }
    }
    if reasons.is_empty() {
        return;
    }
    let _ = writeln!(out, "## Unsupported (not judged)\n");
    for (reason, count) in reasons {
        let _ = writeln!(out, "- {count} queries: {}", detail(reason));
    }
    let _ = writeln!(out);
}

/// The queries `outcomes` did not pass under `profile` (failed or no verdict), in corpus
/// order; with `unless`, only those whose expectation differs from `unless`'s.
fn not_passed<'r>(
    report: &'r Report,
    score: Option<&ImplScore>,
    profile: Profile,
    unless: Option<Profile>,
) -> Vec<(&'r CaseEntry, &'r QueryEntry)> {
    let listed: BTreeSet<usize> = score
        .and_then(|s| s.not_passed.get(&profile))
        .into_iter()
        .flatten()
        .copied()
        .collect();
    report
        .queries()
        .filter(|(_, q)| listed.contains(&q.index))
        .filter(|(_, q)| unless.is_none_or(|other| expect(q, other) != expect(q, profile)))
        .collect()
}

/// One failing query after another, grouped by case (the body shown once per case).
fn failures(
    out: &mut String,
    list: &[(&CaseEntry, &QueryEntry)],
    outcomes: &[Cell],
    reference: Option<&Vec<Cell>>,
    profile: Profile,
) {
    let mut previous: Option<&str> = None;
    for (case, query) in list {
        if previous != Some(case.id.as_str()) {
            previous = Some(case.id.as_str());
            let _ = writeln!(out, "### {}: {}\n", code(&case.id), text(&case.title));
            let _ = writeln!(
                out,
                "{}:{} (`reptest corpus show {}` prints it)\n",
                code(&case.file),
                case.line,
                text(&case.id)
            );
            if let Some(fetch) = &case.fetch {
                let _ = writeln!(out, "Fetch: {}\n", text(fetch));
            }
            let _ = writeln!(out, "{}\n", fenced(&case.body));
        }
        let _ = writeln!(
            out,
            "#### {} ({}:{})\n",
            code(&query.id),
            text(&case.file),
            query.line
        );
        let _ = writeln!(
            out,
            "- level {}, requirements {}",
            text(&query.level),
            query
                .requirements
                .iter()
                .map(|r| code(r))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let _ = writeln!(out, "- agent {}", code(&query.agent));
        let _ = writeln!(out, "- URL {}", code(&query.url));
        let _ = write!(
            out,
            "- expected **{}** under `{}`",
            text(expect(query, profile)),
            text(profile.as_str())
        );
        if profile != Profile::Rfc9309 {
            let _ = write!(
                out,
                " (`rfc9309`: {})",
                text(expect(query, Profile::Rfc9309))
            );
        }
        let _ = writeln!(out);
        let got = outcomes.get(query.index);
        let _ = writeln!(out, "- got **{}**", got.map_or("—".into(), describe));
        if let Some(theirs) = reference.and_then(|r| r.get(query.index)) {
            let _ = writeln!(
                out,
                "- the reference (the RFC's choices): {}",
                describe(theirs)
            );
        }
        let _ = writeln!(out, "- why: {}", text(&query.why));
        if let Some(triage) = &query.triage {
            let _ = writeln!(out, "- triage: {}", text(triage));
        }
        let _ = writeln!(out);
    }
}

/// `word (line N): detail`.
fn describe(cell: &Cell) -> String {
    let mut out = text(cell.word.as_str());
    if let Some(line) = cell.line {
        let _ = write!(out, " (line {line})");
    }
    if let Some(d) = &cell.detail {
        let _ = write!(out, ": {}", detail(d));
    }
    out
}

/// An error detail on one line, cut to [`DETAIL_LIMIT`] characters, as a code span.
fn detail(text: &str) -> String {
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let cut: String = one_line.chars().take(DETAIL_LIMIT).collect();
    if cut.len() < one_line.len() {
        format!("{} …", code(&cut))
    } else {
        code(&cut)
    }
}
