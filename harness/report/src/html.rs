//! The self-contained HTML rendering of a [`super::Report`].
//!
//! One page, no network fetches: inline CSS, vanilla JavaScript, and the report itself
//! embedded as JSON in `<script type="application/json" id="report-data">` (with `<`,
//! `>` and `&` escaped as `\u003c`, `\u003e`, `\u0026`, so no body can end the script).
//! The script builds the matrix (queries × implementations) in one `innerHTML`
//! assignment, filters by toggling `hidden` on rows, and handles every click through one
//! delegated listener. The agreement heatmap is inline SVG made here ([`agreement_svg`]).
//!
//! The page reads filters from the URL fragment on load, e.g. `#level=MAY`,
//! `#profile=google`, `#dim=wildcards`, `#req=2.2.3-STAR`, `#q=text`, `#disagree=1`,
//! `#sort=<implementation>` (`&dir=desc`), `#open=<query id>@<implementation>`,
//! `#view=questions`, `#view=agreement` or `#view=scores`, joined with `&`; it keeps the
//! fragment up to date. It opens on the questions view when the corpus has questions and
//! the report more than one implementation; a fragment with a matrix key (`fails`,
//! `level`, `q`, `open`, ...) and no `view=` opens the matrix, so `#fails=NAME` alone
//! shows NAME's failures, NAME's column marked. A query's question id is searchable
//! (`#q=`). After rendering it records, for tests, on `<body>`: `data-ready="1"`,
//! `data-rows` (queries), `data-cols` (implementations), `data-visible` (rows shown),
//! `data-profile`, `data-clipped` (header labels cut short: none expected) and
//! `data-errors` (script errors, unhandled rejections and `console.error` calls).
//!
//! Backticks in question titles, decisions and `why` texts are code spans
//! ([`crate::pieces::html::code_spans`]); the detail panel shows the reference's
//! deciding line beside the chosen implementation's.

use super::{CaseEntry, QueryEntry, QuestionEntry, QuestionVerdict, Report};
use crate::pieces::colour::viridis;
use crate::pieces::html::{code_spans, escape as esc};
use reptest_corpus::Profile;
use std::fmt::Write as _;

/// The report as one self-contained HTML page (no network fetches).
pub fn render(report: &Report) -> String {
    let mut page = String::with_capacity(1 << 20);
    page.push_str("<!doctype html>\n<html lang=en>\n<head>\n<meta charset=utf-8>\n");
    page.push_str("<meta name=viewport content=\"width=device-width, initial-scale=1\">\n");
    // An empty icon: the browser asks for no favicon.
    page.push_str("<link rel=icon href=\"data:,\">\n");
    let _ = writeln!(
        page,
        "<title>reptest report: {} implementations, {} queries</title>",
        report.implementations.len(),
        report.meta.queries
    );
    // Errors are recorded before anything else runs, so the page's own errors count.
    let _ = writeln!(page, "<script>{}</script>", ERROR_HOOK.trim_end());
    let _ = writeln!(page, "<style>\n{CSS}</style>\n</head>\n<body>");
    header(&mut page, report);
    page.push_str(
        "<nav class=tabs id=tabs>\
         <button type=button data-view=questions>Questions</button>\
         <button type=button data-view=matrix class=on>Matrix</button>\
         <button type=button data-view=scores>Scores</button>\
         <button type=button data-view=access>Access method</button>\
         <button type=button data-view=crawlers>Crawlers</button>\
         <button type=button data-view=agreement>Agreement</button></nav>\n",
    );
    questions_section(&mut page, report);
    page.push_str(MATRIX_SECTION);
    scores_section(&mut page, report);
    access_section(&mut page, report);
    crate::crawl_html::section(&mut page, report);
    page.push_str("<section id=view-agreement class=view hidden>\n<h2>Pairwise agreement</h2>\n");
    page.push_str(
        "<p class=note>Each cell: of the queries both implementations gave a verdict for, \
         the share with the same verdict (allowed or disallowed), whatever the corpus \
         expects. Hover a cell for the counts.</p>\n",
    );
    page.push_str(&agreement_svg(report));
    page.push_str("\n</section>\n");
    page.push_str(
        "<aside id=detail hidden aria-live=polite><button type=button id=detail-close \
         title=\"Close (Esc)\">×</button><div id=detail-body></div></aside>\n",
    );
    page.push_str("<script type=\"application/json\" id=\"report-data\">");
    page.push_str(&embedded_json(report));
    page.push_str("</script>\n");
    let _ = writeln!(
        page,
        "<script>{}</script>\n</body>\n</html>",
        SCRIPT.trim_end()
    );
    page
}

/// The most characters of a body the page embeds (and its detail panel shows): padded
/// 512,000-byte bodies would make the page tens of megabytes. `report.json` has them whole.
pub const PAGE_BODY_CHARS: usize = 60_000;

/// The report as the page embeds it: bodies over [`PAGE_BODY_CHARS`] cut, with a last
/// line saying how many characters were left out.
pub fn for_page(report: &Report) -> Report {
    let mut page = report.clone();
    for case in &mut page.cases {
        let total = case.body.chars().count();
        if total > PAGE_BODY_CHARS {
            let mut cut: String = case.body.chars().take(PAGE_BODY_CHARS).collect();
            let _ = write!(
                cut,
                "\n[… {} more characters: the whole body is in report.json]\n",
                total - PAGE_BODY_CHARS
            );
            case.body = cut;
        }
    }
    page
}

/// The report as JSON that can sit inside a `<script>` element: `<`, `>` and `&` are
/// written as JSON escapes, so the text never contains `</script` or `<!--`.
fn embedded_json(report: &Report) -> String {
    let json = serde_json::to_string(&for_page(report)).unwrap_or_else(|e| {
        // Serializing plain data cannot fail; should it, the page says so.
        serde_json::json!({ "error": e.to_string() }).to_string()
    });
    let mut out = String::with_capacity(json.len() + 1024);
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

fn header(page: &mut String, report: &Report) {
    let meta = &report.meta;
    let _ = write!(
        page,
        "<header>\n<h1>reptest report <small>RFC 9309 conformance</small></h1>\n\
         <p class=meta><span>reptest <b>{}</b></span> <span>corpus <b>{}</b></span> \
         <span><b>{}</b> cases</span> <span><b>{}</b> queries</span> \
         <span><b>{}</b> implementations</span> <span>profiles <b>{}</b></span> \
         <span>generated <b>{}</b></span></p>\n",
        esc(&meta.reptest_version),
        esc(&meta.corpus_fingerprint),
        meta.cases,
        meta.queries,
        report.implementations.len(),
        esc(&meta
            .profiles
            .iter()
            .map(|p| p.as_str())
            .collect::<Vec<_>>()
            .join(", ")),
        esc(&meta.generated_at),
    );
    page.push_str("<ul class=impls>");
    for implementation in &report.implementations {
        let _ = write!(
            page,
            "<li><b>{}</b> {} <i>{}</i></li>",
            esc(&implementation.name),
            esc(&implementation.version),
            esc(&implementation.language)
        );
    }
    page.push_str("</ul>\n</header>\n");
}

const MATRIX_SECTION: &str = r#"<section id=view-matrix class=view>
<form id=filters class=filters autocomplete=off onsubmit="return false">
<label>Profile <select id=f-profile></select></label>
<label>Level <select id=f-level><option value="">all</option></select></label>
<label>Dimension <select id=f-dim><option value="">all</option></select></label>
<label>Requirement <input id=f-req list=req-list size=14 placeholder="ID, e.g. 2.2.2"></label>
<datalist id=req-list></datalist>
<label>Search <input id=f-q type=search size=22 placeholder="query id or URL"></label>
<label class=check><input id=f-disagree type=checkbox> only rows where implementations disagree</label>
<label>Not passed by <select id=f-fails><option value="">anyone (all rows)</option></select></label>
<button type=button id=f-reset>Reset</button>
<output id=f-count></output>
</form>
<div class=legend id=legend></div>
<div class=matrix-wrap id=matrix-wrap><table id=matrix class=matrix><thead id=matrix-head></thead><tbody id=matrix-body></tbody></table></div>
<p class=note>The figure under each implementation's name is the percentage of judged queries it passed under the chosen profile (unsupported queries and fuzzing findings awaiting their verdict are not judged). Click a column header to sort the rows by that implementation's judgement (again to reverse), the <i>query</i> header for corpus order, a cell or a query for its details.</p>
<p class=note>The page's address keeps its state, so a link shows the same view: <code>#fails=NAME</code> (the queries NAME did not pass, its column marked; alone, it opens the matrix), <code>#profile=google</code>, <code>#level=MAY</code>, <code>#dim=wildcards</code>, <code>#req=2.2.3-STAR</code>, <code>#q=text</code>, <code>#disagree=1</code>, <code>#sort=NAME</code> (<code>&amp;dir=desc</code>), <code>#open=QUERY@NAME</code>, <code>#view=questions</code>, <code>#view=scores</code> or <code>#view=agreement</code>, joined with <code>&amp;</code>; <code>#q=Q-ID</code> shows a question's queries. A report of one implementation opens on its failures.</p>
</section>
"#;

/// The questions view: one row per question (level, how many implementations are right,
/// wrong, without verdict), opening to its RFC sentences, decision, example and every
/// implementation's answer; each links to its queries in the matrix (`#q=Q-…`).
fn questions_section(page: &mut String, report: &Report) {
    page.push_str("<section id=view-questions class=view hidden>\n<h2>Questions</h2>\n");
    if report.questions.is_empty() {
        page.push_str("<p class=note>The corpus has no question catalogue.</p>\n</section>\n");
        return;
    }
    page.push_str(
        "<p class=note>The root questions implementations disagree on, each decided from \
         the RFC text (corpus/questions.toml). <b>wrong</b>: failed at least one query naming \
         the question; <b>right</b>: passed every one it answered; <b>no verdict</b>: \
         answered none. The counts are over the implementations named after them: the \
         parsers (libraries given the body) and the crawlers (judged by what they fetch) \
         that can express at least one of the question's queries; the others are not \
         judged on it. Open a question for its RFC sentences, its example and every \
         implementation's answer; its queries are one click away in the matrix.</p>\n",
    );
    let rows: Vec<_> = report.queries().collect();
    let order = column_order(report);
    for q in &report.questions {
        question(page, report, q, &rows, &order);
    }
    page.push_str("</section>\n");
}

/// One question as a `<details>`: its tally, RFC sentences, decision, example (from
/// `rows`, the matrix's rows), every implementation's answer (in `order`), upstream
/// reports and a link to its queries in the matrix.
fn question(
    page: &mut String,
    report: &Report,
    q: &QuestionEntry,
    rows: &[(&CaseEntry, &QueryEntry)],
    order: &[usize],
) {
    let count = |v: QuestionVerdict| q.per_impl.iter().filter(|a| a.verdict == v).count();
    let hits: u64 = q.hits.values().sum();
    let _ = writeln!(
        page,
        "<details class=question id=\"{id}\"><summary><b>{id}</b> {question} \
         <span class=lvl>{level}</span> <span class=tally>right <b>{right}</b> · wrong \
         <b>{wrong}</b> · no verdict <b>{none}</b> · choice <b>{choice}</b> ({counted}){hits}\
         </span></summary>",
        id = esc(&q.id),
        question = code_spans(&q.question),
        counted = counted(report, q),
        level = esc(&q.level),
        right = count(QuestionVerdict::Right),
        wrong = count(QuestionVerdict::Wrong),
        none = count(QuestionVerdict::NoVerdict),
        choice = count(QuestionVerdict::Choice),
        hits = if hits > 0 {
            format!(" · campaign hits <b>{hits}</b>")
        } else {
            String::new()
        }
    );
    for (section, sentence) in &q.rfc {
        let _ = writeln!(
            page,
            "<blockquote>{} “{}”</blockquote>",
            esc(&reptest_corpus::questions::cite(section)),
            esc(sentence)
        );
    }
    let _ = writeln!(page, "<p><b>Decision:</b> {}</p>", code_spans(&q.decision));
    if let Some(both) = &q.permits_both {
        let _ = writeln!(
            page,
            "<p><b>Either verdict conforms:</b> {}</p>",
            code_spans(both)
        );
    }
    example(page, q, rows);
    answers(page, report, q, order);
    upstream(page, report, q, order);
    let _ = writeln!(
        page,
        "<p><a href=\"#view=matrix&amp;q={}\" class=to-matrix>Its {} queries in the matrix →</a></p></details>",
        esc(&q.id),
        q.queries.len()
    );
}

/// Which implementations a question's counts are over, from the report: those judged on
/// it (any verdict but not judged), as parsers (libraries given the body) and crawlers
/// (judged by what they fetch), then those not judged, e.g. `of 24 parsers; 4 crawlers not judged`; the
/// names in the tooltip.
fn counted(report: &Report, q: &QuestionEntry) -> String {
    let mut groups: [[Vec<&str>; 2]; 2] = Default::default(); // [judged][crawler]
    for (entry, answer) in report.implementations.iter().zip(&q.per_impl) {
        let judged = answer.verdict != QuestionVerdict::NotJudged;
        groups[usize::from(judged)][usize::from(entry.crawler)].push(entry.name.as_str());
    }
    let kinds = |names: &[Vec<&str>; 2]| -> Vec<String> {
        let mut parts = Vec::new();
        for (crawler, list) in names.iter().enumerate() {
            let n = list.len();
            let word = match (crawler == 1, n == 1) {
                (false, true) => "parser",
                (false, false) => "parsers",
                (true, true) => "crawler",
                (true, false) => "crawlers",
            };
            if n > 0 {
                parts.push(format!("{n} {word}"));
            }
        }
        parts
    };
    let judged = kinds(&groups[1]);
    let apart = kinds(&groups[0]);
    let mut text = format!(
        "of {}",
        if judged.is_empty() {
            "none".to_string()
        } else {
            judged.join(" and ")
        }
    );
    if !apart.is_empty() {
        let _ = write!(text, "; {} not judged", apart.join(" and "));
    }
    let names = |g: &[Vec<&str>; 2]| g.iter().flatten().copied().collect::<Vec<_>>().join(", ");
    let mut title = format!("counted: {}", names(&groups[1]));
    if !apart.is_empty() {
        let _ = write!(
            title,
            "; not judged (no query of this question they can express): {}",
            names(&groups[0])
        );
    }
    format!(
        "<span class=counted title=\"{}\">{}</span>",
        esc(&title),
        esc(&text)
    )
}

/// The question's first example query, with its body.
fn example(page: &mut String, q: &QuestionEntry, rows: &[(&CaseEntry, &QueryEntry)]) {
    if let Some((case, query)) = q.examples.first().and_then(|&i| rows.get(i)) {
        let _ = writeln!(
            page,
            "<p>Example <code>{}</code>: agent <code>{}</code>, URL <code>{}</code>, \
             expected <b>{}</b></p><pre class=body>{}</pre>",
            esc(&query.id),
            esc(&query.agent),
            esc(&query.url),
            esc(query
                .expect
                .get(&Profile::Rfc9309)
                .map_or("either", String::as_str)),
            esc(&case.body)
        );
    }
}

/// The upstream threads of the question, with their status, by implementation (in
/// `order`): every implementation that gets it wrong (`no upstream issue known` when no
/// thread is), or has a thread; a newest release (`NAME@latest`) whose verdict differs is
/// shown beside its pinned version.
fn upstream(page: &mut String, report: &Report, q: &QuestionEntry, order: &[usize]) {
    let mut items = String::new();
    for &i in order {
        let (Some(entry), Some(answer)) = (report.implementations.get(i), q.per_impl.get(i)) else {
            continue;
        };
        let threads = q.threads_for(&entry.name);
        let wrong = answer.verdict == QuestionVerdict::Wrong;
        if entry.name.ends_with(crate::LATEST_SUFFIX) || (!wrong && threads.is_empty()) {
            continue;
        }
        let _ = write!(
            items,
            "<li><code>{}</code> {}: {}",
            esc(&entry.name),
            esc(&entry.version),
            esc(answer.verdict.as_str())
        );
        if let Some(latest) = report
            .latest_answer(&entry.name, &q.id)
            .filter(|l| l.differs)
        {
            let _ = write!(
                items,
                " · {} (latest): {}",
                esc(&latest.version),
                esc(latest.verdict.as_str())
            );
        }
        if wrong && threads.is_empty() {
            let _ = write!(
                items,
                " · <i class=no-thread>{}</i>",
                crate::markdown::NO_THREAD
            );
        }
        for t in threads {
            let _ = write!(
                items,
                " · <a href=\"{}\">{}</a> <span class=\"thread {}\">{}</span>",
                esc(&t.url),
                esc(&t.title),
                esc(t.status.as_str()),
                esc(&t.describe_checked())
            );
        }
        items.push_str("</li>");
    }
    if !items.is_empty() {
        let _ = writeln!(page, "<ul class=upstream>{items}</ul>");
    }
}

/// Every implementation's answer to `q` as a chip (right, wrong, no verdict, choice), in
/// `order`, its counts in the tooltip.
fn answers(page: &mut String, report: &Report, q: &QuestionEntry, order: &[usize]) {
    page.push_str("<p class=answers>");
    for &i in order {
        let (Some(entry), Some(answer)) = (report.implementations.get(i), q.per_impl.get(i)) else {
            continue;
        };
        let class = match answer.verdict {
            QuestionVerdict::Right => "ok",
            QuestionVerdict::Wrong => "bad",
            QuestionVerdict::NoVerdict | QuestionVerdict::Choice => "none",
            QuestionVerdict::NotJudged => continue,
        };
        let _ = write!(
            page,
            "<span class=\"chip {class}\" title=\"{}\">{} — {}</span> ",
            esc(&answer.describe()),
            esc(&entry.name),
            answer.verdict.as_str()
        );
    }
    page.push_str("</p>\n");
}

/// Columns: the reference first, then by name (as in the Markdown summary).
fn column_order(report: &Report) -> Vec<usize> {
    let mut order: Vec<usize> = (0..report.implementations.len()).collect();
    order.sort_by_key(|&i| {
        let name = &report.implementations[i].name;
        (name != "reference", name.clone())
    });
    order
}

/// The access-method view ([`Report::access_view`], the model the Markdown summary
/// renders too): one row per fetch case (status family, redirect depth, network fault,
/// size, encoding, cached copy; RFC 9309 §2.3.1–§2.5), one column per implementation
/// that answers such cases; each cell the queries passed of those answered under
/// `rfc9309` and the verdicts in query order, marked where one failed, linking to the
/// case's queries in the matrix.
fn access_section(page: &mut String, report: &Report) {
    page.push_str("<section id=view-access class=view hidden>\n<h2>The access method</h2>\n");
    let Some(view) = report.access_view(&column_order(report)) else {
        page.push_str(
            "<p class=note>No implementation in this report answers the cases that describe \
             how the robots.txt was fetched.</p>\n</section>\n",
        );
        return;
    };
    page.push_str(
        "<p class=note>The cases that describe how the robots.txt was fetched (RFC 9309 \
         §2.3.1, §2.4, §2.5): each status family, redirect depth, network fault, size, \
         encoding and cached copy, through the implementations that answer them (crawlers \
         over HTTP on the loopback site). A cell is the queries passed of those answered \
         under <code>rfc9309</code>, then the verdicts in query order (A allowed, D \
         disallowed, · not answered); red where one failed. A case links to its queries \
         in the matrix.</p>\n",
    );
    page.push_str(
        "<div class=table-wrap><table class=\"scores access\"><thead><tr><th>case</th><th>fetch</th>",
    );
    for &i in &view.columns {
        let _ = write!(page, "<th>{}</th>", esc(&report.implementations[i].name));
    }
    page.push_str("</tr></thead><tbody>\n");
    for row in &view.rows {
        let _ = write!(
            page,
            "<tr data-case=\"{id}\"><th><a href=\"#view=matrix&amp;q={id}/\" title=\"{title}\">{id}</a></th><td>{fetch}</td>",
            id = esc(&row.case.id),
            title = esc(&row.case.title),
            fetch = esc(row.fetch)
        );
        for (cell, &i) in row.cells.iter().zip(&view.columns) {
            let class = if cell.answered == 0 {
                "none"
            } else if cell.failed() {
                "bad"
            } else {
                "ok"
            };
            let _ = write!(
                page,
                "<td class=\"verdicts {class}\" title=\"{name}: {passed} of {answered} answered queries passed\">{text}</td>",
                name = esc(&report.implementations[i].name),
                passed = cell.passed,
                answered = cell.answered,
                text = esc(&cell.text())
            );
        }
        page.push_str("</tr>\n");
    }
    page.push_str("</tbody></table></div>\n</section>\n");
}

fn scores_section(page: &mut String, report: &Report) {
    page.push_str("<section id=view-scores class=view hidden>\n<h2>Scores</h2>\n");
    page.push_str(
        "<p class=note>MUST, SHOULD and MAY: passed of judged decided queries (errors, \
         timeouts and crashes count as not passed; unsupported queries and fuzzing findings \
         awaiting their verdict are not judged). Choices: the verdicts given where the \
         profile lets implementations answer either way (allowed / disallowed), as in the \
         Markdown summary; a choice is never counted as a pass.</p>\n",
    );
    let levels = ["MUST", "SHOULD", "MAY", "choices"];
    page.push_str("<div class=table-wrap><table class=scores><thead><tr><th rowspan=2>implementation</th><th rowspan=2>language</th><th rowspan=2>version</th><th rowspan=2>seconds</th>");
    for &profile in &report.meta.profiles {
        let _ = write!(
            page,
            "<th colspan={}>{}</th>",
            levels.len(),
            esc(profile.as_str())
        );
    }
    page.push_str("<th rowspan=2>no verdict</th></tr><tr>");
    for _ in &report.meta.profiles {
        for level in levels {
            let _ = write!(page, "<th>{level}</th>");
        }
    }
    page.push_str("</tr></thead><tbody>\n");
    for (i, implementation) in report.implementations.iter().enumerate() {
        let score = report.scores.get(i);
        let _ = write!(
            page,
            "<tr><th>{}</th><td>{}</td><td>{}</td><td class=num>{:.2}</td>",
            esc(&implementation.name),
            esc(&implementation.language),
            esc(&implementation.version),
            implementation.seconds
        );
        // Over every level, from the model (the choices column shows verdicts, not tallies).
        let no_verdict = score
            .and_then(|s| s.totals.get(&Profile::Rfc9309))
            .map_or(0, |t| t.no_verdict);
        for &profile in &report.meta.profiles {
            for level in levels {
                if level == "choices" {
                    match score.and_then(|s| s.either_verdicts.get(&profile)) {
                        Some((allowed, disallowed)) => {
                            let _ = write!(
                                page,
                                "<td class=num title=\"{allowed} allowed, {disallowed} disallowed where either is permitted\">{allowed} / {disallowed}</td>"
                            );
                        }
                        None => page.push_str("<td class=num>–</td>"),
                    }
                    continue;
                }
                match score
                    .and_then(|s| s.profiles.get(&profile))
                    .and_then(|p| p.get(level))
                {
                    Some(t) if t.judged() > 0 => {
                        let judged = t.judged();
                        let _ = write!(
                            page,
                            "<td class=num title=\"{} passed of {} judged\">{}/{} <b>{:.1}%</b></td>",
                            t.pass, judged, t.pass, judged, t.pass_rate
                        );
                    }
                    _ => page.push_str("<td class=num>–</td>"),
                }
            }
        }
        let _ = writeln!(page, "<td class=num>{no_verdict}</td></tr>");
    }
    page.push_str("</tbody></table></div>\n</section>\n");
}

/// The pairwise agreement heatmap as inline SVG (implementations × implementations, in
/// report order): each cell coloured by [`super::Agreement::rate`] on a colour-blind-safe
/// sequential scale, the rate written in it, names on both axes, and a `<title>` tooltip
/// with the counts. Deterministic: the same report gives the same text.
pub fn agreement_svg(report: &Report) -> String {
    let names: Vec<&str> = report
        .implementations
        .iter()
        .map(|i| i.name.as_str())
        .collect();
    let n = names.len();
    let cell = 38usize;
    let longest = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    // Monospace labels at 12px are about 7.3px per character.
    let label = (longest * 15 / 2 + 16).max(60);
    let width = (label + n * cell + 8).max(LEGEND_WIDTH);
    let height = label + n * cell + 8 + LEGEND_HEIGHT;
    let rates: Vec<Option<f64>> = (0..n)
        .flat_map(|a| (0..n).map(move |b| (a, b)))
        .map(|(a, b)| report.agreement.rate(a, b))
        .collect();
    // The scale runs from the lowest rate seen (at most 90%) to 100%.
    let low = rates
        .iter()
        .flatten()
        .fold(90.0f64, |low, &r| low.min(r))
        .floor();
    let mut svg = String::new();
    let _ = write!(
        svg,
        "<svg id=agreement class=heatmap role=img viewBox=\"0 0 {width} {height}\" \
         width=\"{width}\" height=\"{height}\" font-family=\"ui-monospace, monospace\" \
         font-size=\"12\" data-n=\"{n}\">\
         <desc>Pairwise agreement of {n} implementations, from {low:.0}% (lightest) to \
         100% (darkest)</desc>"
    );
    for (i, name) in names.iter().enumerate() {
        let y = label + i * cell + cell / 2;
        let _ = write!(
            svg,
            "<text class=hm-row x=\"{}\" y=\"{y}\" text-anchor=\"end\" \
             dominant-baseline=\"middle\">{}</text>",
            label - 6,
            esc(name)
        );
        let x = label + i * cell + cell / 2;
        let _ = write!(
            svg,
            "<text class=hm-col transform=\"translate({x} {}) rotate(-90)\" \
             dominant-baseline=\"middle\">{}</text>",
            label - 6,
            esc(name)
        );
    }
    for a in 0..n {
        for b in 0..n {
            let grid = Grid { label, cell, low };
            heatmap_cell(&mut svg, report, &names, grid, (a, b), rates[a * n + b]);
        }
    }
    // Under the grid when it is wide enough, else from the left edge.
    let left = if label + LEGEND_WIDTH <= width {
        label
    } else {
        8
    };
    heatmap_legend(&mut svg, left, label + n * cell + 8, low);
    svg.push_str("</svg>");
    svg
}

/// The heatmap legend's size (px).
const LEGEND_WIDTH: usize = 420;
const LEGEND_HEIGHT: usize = 64;

/// The heatmap's legend, from (`left`, `top`): the colour scale in six steps from `low` to 100%,
/// each labelled with its rate, and the grey of a pair with no verdict from both.
fn heatmap_legend(svg: &mut String, left: usize, top: usize, low: f64) {
    let key = 38usize;
    let _ = write!(
        svg,
        "<g class=hm-legend><text x=\"{left}\" y=\"{}\">Same verdict, share of the queries both \
         answered:</text>",
        top + 12
    );
    for step in 0..6 {
        let t = step as f64 / 5.0;
        let (fill, _) = viridis(t);
        let rate = low + t * (100.0 - low);
        let x = left + step * key;
        let _ = write!(
            svg,
            "<rect class=hm-key x=\"{x}\" y=\"{}\" width=\"{}\" height=\"14\" fill=\"{fill}\"/>\
             <text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"10.5\">{rate:.0}%</text>",
            top + 20,
            key - 1,
            x + key / 2,
            top + 48,
        );
    }
    let x = left + 6 * key + 16;
    let _ = write!(
        svg,
        "<rect class=hm-key x=\"{x}\" y=\"{}\" width=\"14\" height=\"14\" fill=\"#dddddd\"/>\
         <text x=\"{}\" y=\"{}\" dominant-baseline=\"middle\" font-size=\"10.5\">– none \
         answered by both</text></g>",
        top + 20,
        x + 20,
        top + 27,
    );
}

/// The heatmap's geometry and colour scale: the label margin and the cell size (px), and
/// the lowest rate of the scale (%).
#[derive(Clone, Copy)]
struct Grid {
    label: usize,
    cell: usize,
    low: f64,
}

/// One cell of the heatmap, `a` against `b`: its colour on the scale, its rate, and a
/// title with the counts.
fn heatmap_cell(
    svg: &mut String,
    report: &Report,
    names: &[&str],
    grid: Grid,
    (a, b): (usize, usize),
    rate: Option<f64>,
) {
    let Grid { label, cell, low } = grid;
    let x = label + b * cell;
    let y = label + a * cell;
    let (fill, ink) = match rate {
        Some(r) => viridis((r - low) / (100.0 - low).max(1e-9)),
        None => ("#dddddd".to_string(), "#333333"),
    };
    let count = |m: &Vec<Vec<usize>>| m.get(a).and_then(|row| row.get(b)).copied();
    let same = count(&report.agreement.same).unwrap_or(0);
    let both = count(&report.agreement.both).unwrap_or(0);
    let title = match rate {
        Some(r) => format!(
            "{} vs {}: {r:.1}% same verdict ({same} of {both} queries with a verdict from both)",
            names[a], names[b]
        ),
        None => format!(
            "{} vs {}: no query with a verdict from both",
            names[a], names[b]
        ),
    };
    let text = match rate {
        Some(r) if r >= 99.95 => "100".to_string(),
        Some(r) => format!("{r:.1}"),
        None => "–".to_string(),
    };
    let _ = write!(
        svg,
        "<g><title>{}</title><rect class=hm-cell x=\"{x}\" y=\"{y}\" width=\"{}\" \
         height=\"{}\" fill=\"{fill}\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\" \
         dominant-baseline=\"middle\" font-size=\"10.5\" fill=\"{ink}\">{text}</text></g>",
        esc(&title),
        cell - 1,
        cell - 1,
        x + cell / 2,
        y + cell / 2,
    );
}

/// Runs before anything else: counts errors, unhandled rejections and `console.error`
/// calls into `data-errors` (on `<html>`, mirrored to `<body>` once rendered).
const ERROR_HOOK: &str = include_str!("../assets/error-hook.js");

/// The page's style sheet.
const CSS: &str = include_str!("../assets/report.css");

/// The page's behaviour: the views, the matrix's filters, the detail panel, the hash state.
const SCRIPT: &str = include_str!("../assets/report.js");

#[cfg(test)]
mod tests {
    use super::*;
    use reptest_core::runner;
    use reptest_impls as impls;

    fn report() -> Report {
        let dir = reptest_corpus::default_dir();
        let corpus = reptest_corpus::Corpus::load(&dir).expect("the corpus loads");
        let implementations = impls::select(&["reference"]).expect("the reference exists");
        let run = runner::run(&corpus, &implementations);
        let infos: Vec<_> = implementations.iter().map(|i| i.info().clone()).collect();
        Report::build(&corpus, &dir, &run, &infos, "2026-01-01T00:00:00Z")
    }

    const OPEN: &str = "<script type=\"application/json\" id=\"report-data\">";

    fn embedded(page: &str) -> &str {
        let start = page.find(OPEN).expect("the data element") + OPEN.len();
        let len = page[start..].find("</script>").expect("its end");
        &page[start..start + len]
    }

    /// Every figure is labelled: the matrix headers' percentages, the choices as
    /// in the Markdown, the failures filter and the URL state for sharing.
    #[test]
    fn figures_are_labelled_and_the_failures_view_is_there() {
        let report = report();
        let page = render(&report);
        assert!(page.contains("The figure under each implementation's name is the percentage"));
        assert!(page.contains("Math.round(rate)+'%'"));
        assert!(page.contains("<th>choices</th>"));
        let (allowed, disallowed) = report.scores[0].either_verdicts[&Profile::Rfc9309];
        assert!(
            page.contains(&format!(">{allowed} / {disallowed}</td>")),
            "the model's choices"
        );
        assert!(page.contains("id=f-fails") && page.contains("#fails=NAME"));
        assert!(page.contains("if(nImpl===1&&!location.hash){state.fails=0;}"));
    }

    /// The crawler tab is there; with no crawler in the report its section says how to
    /// run them.
    #[test]
    fn the_crawler_view_has_its_tab_and_says_when_no_crawler_ran() {
        let report = report();
        assert!(report.crawler_view().is_none());
        let page = render(&report);
        assert!(page.contains("<button type=button data-view=crawlers>Crawlers</button>"));
        assert!(page.contains("<section id=view-crawlers class=view hidden>"));
        assert!(page.contains("reptest run --impl crawlers"));
        assert!(page.contains("v==='crawlers'"));
    }

    /// The access-method view is the model's ([`Report::access_view`]), one row per fetch
    /// case, one cell per implementation answering them, reachable from its tab and the
    /// URL fragment.
    #[test]
    fn the_access_method_view_renders_the_model() {
        let report = report();
        let page = render(&report);
        assert!(page.contains("<button type=button data-view=access>Access method</button>"));
        assert!(page.contains("<section id=view-access class=view hidden>"));
        assert!(
            page.contains("v==='access'")
                && page.contains("'scores','access','crawlers','agreement'")
        );
        let view = report
            .access_view(&column_order(&report))
            .expect("the reference answers the fetch cases");
        assert_eq!(view.columns, [0]);
        let fetch_cases = report.cases.iter().filter(|c| c.fetch.is_some()).count();
        assert_eq!(view.rows.len(), fetch_cases);
        assert_eq!(page.matches("<tr data-case=").count(), fetch_cases);
        for row in &view.rows {
            let cell = &row.cells[0];
            assert!(!cell.failed(), "the reference passes {}", row.case.id);
            let html = format!(
                "<tr data-case=\"{id}\"><th><a href=\"#view=matrix&amp;q={id}/\" title=\"{}\">{id}</a></th><td>{}</td><td class=\"verdicts ok\" title=\"reference: {p} of {a} answered queries passed\">{}</td></tr>",
                esc(&row.case.title),
                esc(row.fetch),
                esc(&cell.text()),
                id = esc(&row.case.id),
                p = cell.passed,
                a = cell.answered,
            );
            assert!(page.contains(&html), "missing {html}");
        }
        let gzip = view
            .rows
            .iter()
            .find(|row| row.case.id == "access-gzip")
            .expect("the gzip case");
        assert_eq!(gzip.fetch, "HTTP 200, Content-Encoding: gzip");
        assert_eq!(gzip.cells[0].text(), "2/2 DA");
    }

    #[test]
    fn no_network_references_outside_the_data() {
        let page = render(&report());
        let data = embedded(&page);
        // What would make a browser fetch: scripts, images, styles, frames, imports.
        // (Text and links a reader may follow, such as an example URL or an upstream
        // report, fetch nothing.)
        let outside = page.replacen(data, "", 1);
        for fetches in [
            "src=",
            "@import",
            "url(http",
            "url(//",
            "<link rel=stylesheet",
            "<iframe",
        ] {
            assert!(
                !outside.contains(fetches),
                "the page fetches with {fetches}"
            );
        }
        for link in outside.match_indices("<link ") {
            let tag = &outside[link.0
                ..outside[link.0..]
                    .find('>')
                    .map_or(outside.len(), |e| link.0 + e)];
            assert!(!tag.contains("http"), "{tag}");
        }
    }

    #[test]
    fn the_embedded_json_round_trips() {
        let report = report();
        let page = render(&report);
        let parsed: Report = serde_json::from_str(embedded(&page)).expect("valid JSON");
        let expected = for_page(&report);
        assert_eq!(
            serde_json::to_value(&parsed).ok(),
            serde_json::to_value(&expected).ok()
        );
        assert_eq!(parsed.cases, expected.cases);
        assert_eq!(parsed.outcomes, report.outcomes);
    }

    #[test]
    fn long_bodies_are_cut_for_the_page_only() {
        let mut report = report();
        report.cases[0].body = "ab".repeat(PAGE_BODY_CHARS);
        let page = for_page(&report);
        let body = &page.cases[0].body;
        assert!(body.starts_with(&"ab".repeat(PAGE_BODY_CHARS / 2)));
        assert!(body.ends_with(&format!(
            "[… {PAGE_BODY_CHARS} more characters: the whole body is in report.json]\n"
        )));
        assert_eq!(page.cases[1], report.cases[1]);
        assert_eq!(report.cases[0].body.len(), 2 * PAGE_BODY_CHARS);
    }

    #[test]
    fn a_body_cannot_end_the_script() {
        let mut report = report();
        let evil = "</script><script>alert(1)</script><!-- & -->";
        report.cases[0].body = evil.to_string();
        report.cases[0].title = evil.to_string();
        report.implementations[0].name = evil.to_string();
        let page = render(&report);
        // The page's own scripts: the error hook, the data, the program.
        assert_eq!(page.matches("</script>").count(), 3);
        assert!(!page.contains("<script>alert(1)"));
        let parsed: Report = serde_json::from_str(embedded(&page)).expect("valid JSON");
        assert_eq!(parsed.cases[0].body, evil);
        assert_eq!(parsed.implementations[0].name, evil);
    }

    /// A question's counts name whom they count, from the report: parsers and crawlers
    /// judged, and those not judged; a backtick pair in its title is code.
    #[test]
    fn question_counts_name_their_implementations() {
        let mut report = report();
        let first = report.implementations[0].clone();
        for (name, fetches) in [("p2", false), ("c1", true), ("c2", true)] {
            let mut entry = first.clone();
            entry.name = name.to_string();
            entry.crawler = fetches;
            report.implementations.push(entry);
        }
        let q = &mut report.questions[0];
        let answer = q.per_impl[0];
        let mut not_judged = answer;
        not_judged.verdict = QuestionVerdict::NotJudged;
        q.per_impl = vec![answer, answer, not_judged, answer];
        q.question = "Is `Disallow:` a <rule>?".to_string();
        let text = counted(&report, &report.questions[0]);
        assert!(
            text.ends_with(">of 2 parsers and 1 crawler; 1 crawler not judged</span>"),
            "{text}"
        );
        assert!(text.contains("not judged (no query of this question they can express): c1"));
        let page = render(&report);
        assert!(page.contains(&text));
        assert!(page.contains("Is <code>Disallow:</code> a &lt;rule&gt;?"));
    }

    /// The heatmap's legend: the scale in six labelled steps and the grey of no pair.
    #[test]
    fn the_heatmap_has_a_legend() {
        let mut report = report();
        report.agreement.same = vec![vec![80]];
        report.agreement.both = vec![vec![100]];
        let svg = agreement_svg(&report);
        let legend = &svg[svg.find("<g class=hm-legend>").expect("a legend")..];
        assert_eq!(legend.matches("class=hm-key").count(), 7);
        for label in [">80%<", ">84%<", ">100%<", "none answered by both"] {
            assert!(legend.contains(label), "{label} in {legend}");
        }
    }

    #[test]
    fn the_heatmap_has_n_by_n_cells_and_is_deterministic() {
        let mut report = report();
        // Three columns: the reference three times over (agreement from the same data).
        let first = report.implementations[0].clone();
        for name in ["b", "c"] {
            let mut entry = first.clone();
            entry.name = name.to_string();
            report.implementations.push(entry);
        }
        let n = report.implementations.len();
        report.agreement.same = vec![vec![10; n]; n];
        report.agreement.both = vec![vec![10; n]; n];
        report.agreement.same[0][1] = 7;
        report.agreement.both[2][0] = 0;
        let svg = agreement_svg(&report);
        assert_eq!(svg.matches("class=hm-cell").count(), n * n);
        assert_eq!(svg.matches("<title>").count(), n * n);
        assert!(svg.contains(">70.0</text>"));
        assert!(svg.contains("no query with a verdict from both"));
        assert_eq!(svg, agreement_svg(&report));
        assert!(render(&report).contains(&svg));
    }
}
