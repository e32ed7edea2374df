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
//! the report more than one implementation; a query's question id is searchable (`#q=`).
//! After rendering it records, for tests, on `<body>`: `data-ready="1"`, `data-rows`
//! (queries), `data-cols` (implementations), `data-visible` (rows shown), `data-profile`,
//! and `data-errors` (script errors, unhandled rejections and `console.error` calls).

use super::{QuestionVerdict, Report};
use reptest_core::markup::escape as esc;
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
    let _ = writeln!(page, "<script>{ERROR_HOOK}</script>");
    let _ = writeln!(page, "<style>{CSS}</style>\n</head>\n<body>");
    header(&mut page, report);
    page.push_str(
        "<nav class=tabs id=tabs>\
         <button type=button data-view=questions>Questions</button>\
         <button type=button data-view=matrix class=on>Matrix</button>\
         <button type=button data-view=scores>Scores</button>\
         <button type=button data-view=access>Access method</button>\
         <button type=button data-view=agreement>Agreement</button></nav>\n",
    );
    questions_section(&mut page, report);
    page.push_str(MATRIX_SECTION);
    scores_section(&mut page, report);
    access_section(&mut page, report);
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
    let _ = writeln!(page, "<script>{SCRIPT}</script>\n</body>\n</html>");
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
<p class=note>The page's address keeps its state, so a link shows the same view: <code>#fails=NAME</code> (the queries NAME did not pass), <code>#profile=google</code>, <code>#level=MAY</code>, <code>#dim=wildcards</code>, <code>#req=2.2.3-STAR</code>, <code>#q=text</code>, <code>#disagree=1</code>, <code>#sort=NAME</code> (<code>&amp;dir=desc</code>), <code>#open=QUERY@NAME</code>, <code>#view=questions</code>, <code>#view=scores</code> or <code>#view=agreement</code>, joined with <code>&amp;</code>; <code>#q=Q-ID</code> shows a question's queries. A report of one implementation opens on its failures.</p>
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
         answered none. Open a question for its RFC sentences, its example and every \
         implementation's answer; its queries are one click away in the matrix.</p>\n",
    );
    let rows: Vec<_> = report.queries().collect();
    let order = column_order(report);
    for q in &report.questions {
        let count = |v: QuestionVerdict| q.per_impl.iter().filter(|a| a.verdict == v).count();
        let hits: u64 = q.hits.values().sum();
        let _ = writeln!(
            page,
            "<details class=question id=\"{id}\"><summary><b>{id}</b> {question} \
             <span class=lvl>{level}</span> <span class=tally>right <b>{right}</b> · wrong \
             <b>{wrong}</b> · no verdict <b>{none}</b>{hits}</span></summary>",
            id = esc(&q.id),
            question = esc(&q.question),
            level = esc(&q.level),
            right = count(QuestionVerdict::Right),
            wrong = count(QuestionVerdict::Wrong),
            none = count(QuestionVerdict::NoVerdict),
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
        let _ = writeln!(page, "<p><b>Decision:</b> {}</p>", esc(&q.decision));
        if let Some(both) = &q.permits_both {
            let _ = writeln!(page, "<p><b>Either verdict conforms:</b> {}</p>", esc(both));
        }
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
        page.push_str("<p class=answers>");
        for &i in &order {
            let (Some(entry), Some(answer)) = (report.implementations.get(i), q.per_impl.get(i))
            else {
                continue;
            };
            let class = match answer.verdict {
                QuestionVerdict::Right => "ok",
                QuestionVerdict::Wrong => "bad",
                QuestionVerdict::NoVerdict => "none",
                QuestionVerdict::NotJudged => continue,
            };
            let _ = write!(
                page,
                "<span class=\"chip {class}\" title=\"{} of {} queries passed\">{} — {}</span> ",
                answer.pass,
                answer.pass + answer.fail,
                esc(&entry.name),
                answer.verdict.as_str()
            );
        }
        page.push_str("</p>\n");
        if !q.upstream.is_empty() {
            page.push_str("<ul class=upstream>");
            for (name, url, title) in &q.upstream {
                let _ = write!(
                    page,
                    "<li><code>{}</code>: <a href=\"{}\">{}</a></li>",
                    esc(name),
                    esc(url),
                    esc(title)
                );
            }
            page.push_str("</ul>\n");
        }
        let _ = writeln!(
            page,
            "<p><a href=\"#view=matrix&amp;q={}\" class=to-matrix>Its {} queries in the matrix →</a></p></details>",
            esc(&q.id),
            q.queries.len()
        );
    }
    page.push_str("</section>\n");
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
        "<p class=note>MUST and SHOULD: passed of judged queries (errors, timeouts and \
         crashes count as not passed; unsupported queries and fuzzing findings awaiting \
         their verdict are not judged). MAY choices: the verdicts given where the profile \
         lets implementations answer either way (allowed / disallowed), as in the \
         Markdown summary.</p>\n",
    );
    let levels = ["MUST", "SHOULD", "MAY choices"];
    page.push_str("<div class=table-wrap><table class=scores><thead><tr><th rowspan=2>implementation</th><th rowspan=2>language</th><th rowspan=2>version</th><th rowspan=2>seconds</th>");
    for &profile in &report.meta.profiles {
        let _ = write!(page, "<th colspan=3>{}</th>", esc(profile.as_str()));
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
        // Over every level, from the model (the MAY column shows choices, not tallies).
        let no_verdict = score
            .and_then(|s| s.totals.get(&Profile::Rfc9309))
            .map_or(0, |t| t.no_verdict);
        for &profile in &report.meta.profiles {
            for level in levels {
                if level == "MAY choices" {
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
                    Some(t) => {
                        let judged = t.pass + t.fail + t.no_verdict;
                        let _ = write!(
                            page,
                            "<td class=num title=\"{} passed of {} judged\">{}/{} <b>{:.1}%</b></td>",
                            t.pass, judged, t.pass, judged, t.pass_rate
                        );
                    }
                    None => page.push_str("<td class=num>–</td>"),
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
    let width = label + n * cell + 8;
    let height = label + n * cell + 8;
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
            let x = label + b * cell;
            let y = label + a * cell;
            let rate = rates[a * n + b];
            let (fill, ink) = match rate {
                Some(r) => scale((r - low) / (100.0 - low).max(1e-9)),
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
    }
    svg.push_str("</svg>");
    svg
}

/// A colour on a viridis-like sequential scale (`t` in 0..=1, 1 darkest), with the ink
/// that reads on it.
fn scale(t: f64) -> (String, &'static str) {
    // Viridis, reversed: light yellow for low agreement, dark purple for full agreement.
    const STOPS: [(f64, f64, f64); 6] = [
        (253.0, 231.0, 37.0),
        (122.0, 209.0, 81.0),
        (34.0, 168.0, 132.0),
        (42.0, 120.0, 142.0),
        (65.0, 68.0, 135.0),
        (68.0, 1.0, 84.0),
    ];
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let at = t * (STOPS.len() - 1) as f64;
    let i = (at.floor() as usize).min(STOPS.len() - 2);
    let f = at - i as f64;
    let mix = |a: f64, b: f64| (a + (b - a) * f).round() as u8;
    let (r, g, b) = (
        mix(STOPS[i].0, STOPS[i + 1].0),
        mix(STOPS[i].1, STOPS[i + 1].1),
        mix(STOPS[i].2, STOPS[i + 1].2),
    );
    let ink = if t > 0.45 { "#ffffff" } else { "#111111" };
    (format!("#{r:02x}{g:02x}{b:02x}"), ink)
}

/// Runs before anything else: counts errors, unhandled rejections and `console.error`
/// calls into `data-errors` (on `<html>`, mirrored to `<body>` once rendered).
const ERROR_HOOK: &str = r#"(function(){var list=[];window.__reptestErrors=list;
function note(m){list.push(String(m));document.documentElement.setAttribute('data-errors',String(list.length));if(document.body){document.body.setAttribute('data-errors',String(list.length));}}
window.addEventListener('error',function(e){note(e.message||'error');});
window.addEventListener('unhandledrejection',function(e){note(e.reason||'unhandled rejection');});
var original=console.error;console.error=function(){note(Array.prototype.join.call(arguments,' '));return original.apply(console,arguments);};
document.documentElement.setAttribute('data-errors','0');})();"#;

const CSS: &str = r#"
:root{--pass:#a6dcc5;--pass-ink:#0b4a33;--fail:#d55e00;--fail-ink:#fff;--either:#9fd3f3;--either-ink:#0b3a5a;
--error:#cc79a7;--error-ink:#fff;--timeout:#f0e442;--timeout-ink:#3a3400;--crash:#222;--crash-ink:#fff;
--unsupported:#e4e4e4;--unsupported-ink:#777;--line:#d0d4da;--head:#f3f5f8;--accent:#0072b2;}
*{box-sizing:border-box}
body{margin:0;font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#1c1f24;background:#fff}
header{padding:10px 18px 6px;border-bottom:1px solid var(--line);background:var(--head)}
h1{font-size:20px;margin:0 0 4px}h1 small{font-weight:400;color:#5a6270;font-size:14px}
h2{font-size:17px;margin:14px 0 6px}
.meta{margin:0 0 6px;display:flex;flex-wrap:wrap;gap:4px 16px;color:#3b424d}
.meta b{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-weight:600;color:#1c1f24}
.impls{list-style:none;margin:0;padding:0;columns:5 230px;column-gap:18px;font-size:12px;color:#3b424d}
.impls li{break-inside:avoid;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.impls b{font-weight:600;color:#1c1f24}.impls i{color:#6b7380}
.tabs{display:flex;gap:2px;padding:8px 18px 0;border-bottom:1px solid var(--line)}
.tabs button{font:inherit;border:1px solid var(--line);border-bottom:none;background:#f7f8fa;padding:5px 14px;border-radius:6px 6px 0 0;cursor:pointer;color:#3b424d}
.tabs button.on{background:#fff;color:#000;font-weight:600;position:relative;top:1px}
.view{padding:8px 18px 18px}
.filters{display:flex;flex-wrap:wrap;align-items:center;gap:6px 14px;margin:2px 0 6px}
.filters label{display:flex;align-items:center;gap:5px;color:#3b424d}
.filters select,.filters input,.filters button{font:inherit;padding:2px 4px}
.filters output{font-weight:600;margin-left:auto}
.legend{display:flex;flex-wrap:wrap;gap:4px 12px;margin:0 0 6px;font-size:12.5px;align-items:center}
.legend span.k{display:inline-block;width:22px;text-align:center;border-radius:3px;margin-right:4px;font-weight:700}
.matrix-wrap{overflow:auto;max-height:calc(100vh - 120px);min-height:300px;border:1px solid var(--line)}
table.matrix{border-collapse:separate;border-spacing:0;font-size:12px}
.matrix th,.matrix td{border-right:1px solid #fff;border-bottom:1px solid #fff;padding:0 4px;white-space:nowrap;height:20px}
.matrix thead th{position:sticky;top:0;z-index:2;background:var(--head);vertical-align:bottom;border-bottom:1px solid var(--line);cursor:pointer;user-select:none}
.matrix thead th.ih{padding:4px 0 2px;width:30px;min-width:30px;max-width:30px}
.matrix thead th.ih .vn{writing-mode:vertical-rl;transform:rotate(180deg);margin:0 auto;max-height:200px;overflow:hidden;text-overflow:ellipsis;font-weight:600;font-size:11.5px;line-height:30px}
.matrix thead th.ih .pr{font-weight:400;font-size:10px;color:#555;text-align:center;margin-top:2px}
.matrix thead th.sorted{background:#dbe9f6}.matrix thead th .arrow{color:var(--accent)}
.matrix thead th.qh{left:0;z-index:3;text-align:left}
.matrix tbody th{position:sticky;left:0;z-index:1;background:#fff;text-align:left;font-weight:400;font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:11.5px;max-width:290px;overflow:hidden;text-overflow:ellipsis;cursor:pointer;border-right:1px solid var(--line)}
.matrix tbody tr:nth-child(even) th,.matrix tbody tr:nth-child(even) td.m{background:#f6f7f9}
.matrix tbody tr:hover th,.matrix tbody tr:hover td.m{background:#e8f1fa}
.matrix td.m{color:#333;font-size:11px}
.matrix td.lv{font-weight:600}.matrix td.lv.MAY{color:#6a3d9a}.matrix td.lv.SHOULD{color:#8a5a00}
.matrix td.ex{font-family:ui-monospace,"DejaVu Sans Mono",monospace}
.matrix td.rq{max-width:150px;overflow:hidden;text-overflow:ellipsis;font-family:ui-monospace,"DejaVu Sans Mono",monospace}
.matrix td.c{width:30px;min-width:30px;max-width:30px;text-align:center;cursor:pointer;font-weight:700;padding:0}
.j-pass{background:var(--pass);color:var(--pass-ink)}.j-fail{background:var(--fail);color:var(--fail-ink)}
.j-either{background:var(--either);color:var(--either-ink)}.j-error{background:var(--error);color:var(--error-ink)}
.j-timeout{background:var(--timeout);color:var(--timeout-ink)}.j-crash{background:var(--crash);color:var(--crash-ink)}
.j-unsupported{background:var(--unsupported);color:var(--unsupported-ink)}
.matrix td.c:hover{outline:2px solid #000;outline-offset:-2px}
.matrix td.sel,.matrix tr.sel th{outline:3px solid var(--accent);outline-offset:-3px}
.note{color:#5a6270;font-size:12.5px;margin:6px 0}
#detail{position:fixed;top:0;right:0;bottom:0;width:min(680px,48vw);background:#fff;border-left:1px solid #9aa3ad;box-shadow:-6px 0 18px rgba(0,0,0,.18);overflow:auto;padding:12px 18px 24px;z-index:10}
#detail[hidden]{display:none}
#detail-close{position:sticky;top:0;float:right;font-size:20px;line-height:1;border:1px solid var(--line);background:#fff;border-radius:4px;padding:2px 8px;cursor:pointer}
#detail h2{margin:0 0 2px;font-size:17px;padding-right:40px}
#detail h3{font-size:14px;margin:12px 0 4px}
#detail .where{font-family:ui-monospace,"DejaVu Sans Mono",monospace;color:#5a6270;font-size:12px}
#detail dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 10px;margin:4px 0}
#detail dt{color:#5a6270}#detail dd{margin:0;word-break:break-all}
#detail dd.why{word-break:normal}
#detail pre{background:#f6f7f9;border:1px solid var(--line);padding:6px 0;margin:4px 0;max-height:320px;overflow:auto;font:12px/1.45 ui-monospace,"DejaVu Sans Mono",monospace}
#detail pre .ln{display:block;padding:0 8px 0 0;white-space:pre}
#detail pre .ln::before{content:attr(data-n);display:inline-block;width:3.5em;padding-right:8px;margin-right:8px;text-align:right;color:#8a929c;border-right:1px solid var(--line)}
#detail pre .ln.hl{background:#ffe9a8}
#detail table{border-collapse:collapse;width:100%;font-size:12.5px}
#detail table th,#detail table td{text-align:left;padding:2px 6px;border-bottom:1px solid #eceef1;vertical-align:top}
#detail table td.k{width:26px;text-align:center;font-weight:700}
#detail table tr.me{outline:3px solid var(--accent);outline-offset:-2px}
#detail table td.line{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:11.5px;word-break:break-all}
.triage{background:#fff4d6;border:1px solid #e6c96b;padding:4px 8px;border-radius:4px}
details.question{border:1px solid var(--line);border-radius:6px;margin:6px 0;padding:4px 10px;background:#fff}
details.question summary{cursor:pointer;padding:3px 0}
details.question .lvl{font-size:11px;border:1px solid var(--line);border-radius:4px;padding:0 4px;margin-left:4px}
details.question .tally{color:#555;font-size:12px;margin-left:8px}
details.question blockquote{margin:6px 0 6px 8px;padding-left:10px;border-left:3px solid var(--line);color:#333}
details.question pre.body{background:#f7f8fa;padding:6px 8px;overflow:auto;font-size:12px}
.chip{display:inline-block;font-size:11.5px;border-radius:10px;padding:1px 8px;margin:2px 1px;border:1px solid var(--line)}
.chip.ok{background:#e6f4ea}.chip.bad{background:#fde2e1;font-weight:600}.chip.none{background:#f1f1f1;color:#666}
.table-wrap{overflow:auto}
table.scores{border-collapse:collapse;font-size:12.5px}
table.scores th,table.scores td{border:1px solid var(--line);padding:3px 8px;text-align:left;white-space:nowrap}
table.scores thead th{background:var(--head)}
table.scores td.num{text-align:right;font-variant-numeric:tabular-nums}
table.access td.verdicts{font-family:ui-monospace,"DejaVu Sans Mono",monospace}table.access td.ok{background:#e6f4ea}table.access td.bad{background:#fde2e1;font-weight:600}table.access td.none{color:#888}
svg.heatmap{max-width:100%;height:auto}
svg.heatmap g:hover rect{stroke:#000;stroke-width:2}
"#;

const SCRIPT: &str = r#"(function(){
'use strict';
var data=JSON.parse(document.getElementById('report-data').textContent);
var KINDS=['pass','fail','either','error','timeout','crash','unsupported'];
var SYMBOL={pass:'\u2713',fail:'\u2717',either:'~',error:'E',timeout:'T',crash:'C',unsupported:'\u2013'};
var LABEL={pass:'pass',fail:'fail',either:'verdict where the RFC permits either',error:'error',timeout:'timeout',crash:'crash',unsupported:'unsupported (not judged)'};
// Sorting: the worst first.
var RANK={fail:0,crash:1,timeout:2,error:3,either:4,unsupported:5,pass:6};
var impls=data.implementations;
var nImpl=impls.length;
var rows=[];
data.cases.forEach(function(c){c.queries.forEach(function(q){rows.push({c:c,q:q});});});
var nRows=rows.length;
function esc(s){return String(s).replace(/[&<>"']/g,function(ch){return {'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'}[ch];});}
function cellOf(i,r){var col=data.outcomes[i];return (col&&col[r])||{word:'error',detail:'no outcome in the report'};}
function judge(expect,word){
  if(word==='allowed'||word==='disallowed'){if(expect==='either'){return 'either';}return expect===word?'pass':'fail';}
  return RANK.hasOwnProperty(word)?word:'error';
}
function expectOf(q,profile){return (q.expect&&q.expect[profile])||(q.expect&&q.expect.rfc9309)||'either';}
// Rows where two implementations gave different verdicts (whatever the expectation).
var disagree=rows.map(function(row,r){var seen={};var n=0;
  for(var i=0;i<nImpl;i++){var w=cellOf(i,r).word;if((w==='allowed'||w==='disallowed')&&!seen[w]){seen[w]=1;n++;}}
  return n>1;});
// The page opens on the questions when the corpus has them (a report of one
// implementation on what it did not pass); a fragment overrides.
var defaultView=(data.questions&&data.questions.length&&nImpl>1)?'questions':'matrix';
var state={profile:'rfc9309',level:'',dim:'',req:'',q:'',disagree:false,fails:-1,sort:-1,desc:false,open:null,view:defaultView};
if(nImpl===1&&!location.hash){state.fails=0;}
if(data.meta.profiles.indexOf('rfc9309')<0&&data.meta.profiles.length){state.profile=data.meta.profiles[0];}
var $=function(id){return document.getElementById(id);};
var body=document.body,table=$('matrix'),thead=$('matrix-head'),tbody=$('matrix-body');
// Filter choices from the data.
(function(){
  var sel=$('f-profile');data.meta.profiles.forEach(function(p){var o=document.createElement('option');o.value=p;o.textContent=p;sel.appendChild(o);});
  impls.forEach(function(im,i){var o=document.createElement('option');o.value=String(i);o.textContent=im.name;$('f-fails').appendChild(o);});
  var levels=[];rows.forEach(function(row){if(levels.indexOf(row.q.level)<0){levels.push(row.q.level);}});
  var order=['MUST','SHOULD','MAY'];levels.sort(function(a,b){return (order.indexOf(a)+99*(order.indexOf(a)<0))-(order.indexOf(b)+99*(order.indexOf(b)<0));});
  levels.forEach(function(l){var o=document.createElement('option');o.value=l;o.textContent=l;$('f-level').appendChild(o);});
  var dims={};data.cases.forEach(function(c){c.dimensions.forEach(function(d){dims[d]=1;});});
  Object.keys(dims).sort().forEach(function(d){var o=document.createElement('option');o.value=d;o.textContent=d;$('f-dim').appendChild(o);});
  var cited={};rows.forEach(function(row){row.q.requirements.forEach(function(id){cited[id]=1;});});
  data.requirements.forEach(function(req){if(cited[req.id]){var o=document.createElement('option');o.value=req.id;o.textContent=req.level+' \u00a7'+req.section;$('req-list').appendChild(o);}});
  var legend=$('legend');var parts=['<b>Legend:</b>'];
  KINDS.forEach(function(k){parts.push('<span><span class="k j-'+k+'">'+SYMBOL[k]+'</span>'+esc(LABEL[k])+'</span>');});
  parts.push('<span><span class="k j-either">A</span><span class="k j-either">D</span>a fuzzing finding awaiting its verdict: the recorded answer (allowed / disallowed), not judged</span>');
  legend.innerHTML=parts.join(' ');
})();
var order=rows.map(function(_,r){return r;});
function judgements(r){var q=rows[r].q;var e=expectOf(q,state.profile);var out=[];for(var i=0;i<nImpl;i++){out.push(judge(e,cellOf(i,r).word));}return out;}
function renderHead(){
  var h=['<tr><th class="qh" data-sort="id" title="corpus order">query'+(state.sort<0?' <span class="arrow">\u25be</span>':'')+'</th><th data-sort="id">level</th><th data-sort="id">requirements</th><th data-sort="id">expected</th>'];
  for(var i=0;i<nImpl;i++){
    var pass=0,judged=0;
    for(var r=0;r<nRows;r++){if(rows[r].q.finding){continue;}var j=judge(expectOf(rows[r].q,state.profile),cellOf(i,r).word);if(j!=='unsupported'){judged++;if(j==='pass'||j==='either'){pass++;}}}
    var rate=judged?Math.floor(1000*pass/judged)/10:100;
    var im=impls[i];
    h.push('<th class="ih'+(state.sort===i?' sorted':'')+'" data-sort="'+i+'" title="'+esc(im.name+' '+im.version+' ('+im.language+'): '+pass+' of '+judged+' judged queries passed under '+state.profile+'; click to sort')+'"><div class="vn">'+esc(im.name)+'</div><div class="pr">'+(state.sort===i?'<span class="arrow">'+(state.desc?'\u25b4':'\u25be')+'</span>':Math.round(rate)+'%')+'</div></th>');
  }
  h.push('</tr>');thead.innerHTML=h.join('');
}
function renderBody(){
  order=rows.map(function(_,r){return r;});
  var js=null;
  if(state.sort>=0){
    var s=state.sort;js=[];for(var r=0;r<nRows;r++){js.push(RANK[judge(expectOf(rows[r].q,state.profile),cellOf(s,r).word)]);}
    order.sort(function(a,b){var d=js[a]-js[b];if(state.desc){d=-d;}return d||a-b;});
  }
  var html=[];
  for(var k=0;k<nRows;k++){
    var r=order[k],q=rows[r].q;var e=expectOf(q,state.profile);var differs=e!==expectOf(q,'rfc9309');
    html.push('<tr data-q="'+r+'"><th title="'+esc(q.id+'  '+q.url)+'">'+esc(q.id)+'</th><td class="m lv '+esc(q.level)+'">'+esc(q.level)+'</td><td class="m rq" title="'+esc(q.requirements.join(' '))+'">'+esc(q.requirements.join(' '))+'</td><td class="m ex"'+(differs?' title="differs from rfc9309 ('+esc(expectOf(q,'rfc9309'))+')"':'')+'>'+esc(e)+(differs?'*':'')+'</td>');
    for(var i=0;i<nImpl;i++){var w=cellOf(i,r).word;var j=judge(e,w);var sym=SYMBOL[j];if(q.finding&&j==='either'){sym=w==='allowed'?'A':'D';}html.push('<td class="c j-'+j+'">'+sym+'</td>');}
    html.push('</tr>');
  }
  tbody.innerHTML=html.join('');
}
function matches(row,r){
  var q=row.q;
  if(state.level&&q.level!==state.level){return false;}
  if(state.dim&&row.c.dimensions.indexOf(state.dim)<0){return false;}
  if(state.req){var want=state.req.toLowerCase();var exact=q.requirements.some(function(id){return id.toLowerCase()===want;});
    var known=data.requirements.some(function(x){return x.id.toLowerCase()===want;});
    if(!(exact||(!known&&q.requirements.some(function(id){return id.toLowerCase().indexOf(want)>=0;})))){return false;}}
  if(state.q){var t=state.q.toLowerCase();if((q.id+'\n'+q.url+'\n'+q.agent+'\n'+(q.question||'')).toLowerCase().indexOf(t)<0){return false;}}
  if(state.disagree&&!disagree[r]){return false;}
  if(state.fails>=0){if(q.finding){return false;}var j=judge(expectOf(q,state.profile),cellOf(state.fails,r).word);if(j==='pass'||j==='either'||j==='unsupported'){return false;}}
  return true;
}
function applyFilters(){
  var shown=0;var trs=tbody.rows;
  for(var k=0;k<trs.length;k++){var tr=trs[k];var r=+tr.getAttribute('data-q');var ok=matches(rows[r],r);tr.hidden=!ok;if(ok){shown++;}}
  $('f-count').textContent=shown+' of '+nRows+' rows';
  body.setAttribute('data-visible',String(shown));
}
function syncControls(){
  $('f-profile').value=state.profile;$('f-level').value=state.level;$('f-dim').value=state.dim;
  $('f-req').value=state.req;$('f-q').value=state.q;$('f-disagree').checked=state.disagree;
  $('f-fails').value=state.fails>=0?String(state.fails):'';
}
function writeHash(){
  var p=[];
  if(state.view!==defaultView){p.push('view='+state.view);}
  if(state.profile!=='rfc9309'){p.push('profile='+encodeURIComponent(state.profile));}
  if(state.level){p.push('level='+encodeURIComponent(state.level));}
  if(state.dim){p.push('dim='+encodeURIComponent(state.dim));}
  if(state.req){p.push('req='+encodeURIComponent(state.req));}
  if(state.q){p.push('q='+encodeURIComponent(state.q));}
  if(state.disagree){p.push('disagree=1');}
  if(state.fails>=0){p.push('fails='+encodeURIComponent(impls[state.fails].name));}
  if(state.sort>=0){p.push('sort='+encodeURIComponent(impls[state.sort].name));if(state.desc){p.push('dir=desc');}}
  if(state.open){p.push('open='+encodeURIComponent(rows[state.open.r].q.id+(state.open.i>=0?'@'+impls[state.open.i].name:'')));}
  var h=p.length?'#'+p.join('&'):' ';
  try{history.replaceState(null,'',h===' '?location.pathname+location.search:h);}catch(e){/* file:// in some browsers: keep the old fragment */}
}
function readHash(){
  var h=location.hash.replace(/^#/,'');if(!h){return;}
  h.split('&').forEach(function(kv){
    var at=kv.indexOf('=');var k=at<0?kv:kv.slice(0,at);var v='';
    try{v=at<0?'':decodeURIComponent(kv.slice(at+1).replace(/\+/g,' '));}catch(e){v=kv.slice(at+1);}
    if(k==='profile'&&data.meta.profiles.indexOf(v)>=0){state.profile=v;}
    else if(k==='level'){state.level=v.toUpperCase();}
    else if(k==='dim'){state.dim=v;}
    else if(k==='req'){state.req=v;}
    else if(k==='q'){state.q=v;}
    else if(k==='disagree'){state.disagree=v!=='0'&&v!=='false';}
    else if(k==='fails'){state.fails=impls.findIndex(function(im){return im.name===v;});}
    else if(k==='sort'||k==='impl-sort'){state.sort=impls.findIndex(function(im){return im.name===v;});}
    else if(k==='dir'){state.desc=v==='desc';}
    else if(k==='view'&&(v==='questions'||v==='matrix'||v==='scores'||v==='access'||v==='agreement')){state.view=v;}
    else if(k==='open'){var a=v.lastIndexOf('@');var id=a<0?v:v.slice(0,a);var name=a<0?'':v.slice(a+1);
      var r=rows.findIndex(function(row){return row.q.id===id;});
      if(r>=0){state.open={r:r,i:impls.findIndex(function(im){return im.name===name;})};}}
  });
}
function showView(){
  ['questions','matrix','scores','access','agreement'].forEach(function(v){$('view-'+v).hidden=v!==state.view;});
  Array.prototype.forEach.call(document.querySelectorAll('#tabs button'),function(b){b.classList.toggle('on',b.getAttribute('data-view')===state.view);});
}
function renderAll(){renderHead();renderBody();applyFilters();markSelected();body.setAttribute('data-profile',state.profile);}
function markSelected(){
  Array.prototype.forEach.call(tbody.querySelectorAll('.sel'),function(el){el.classList.remove('sel');});
  if(!state.open){return;}
  var tr=tbody.querySelector('tr[data-q="'+state.open.r+'"]');if(!tr){return;}
  if(state.open.i>=0){var td=tr.cells[4+state.open.i];if(td){td.classList.add('sel');}}else{tr.classList.add('sel');}
}
// The body in visible notation, one numbered line per line of the file.
function bodyHtml(text,highlight){
  var max=60000;var cut=text.length>max;var shown=cut?text.slice(0,max):text;
  var lines=shown.split('\n');if(lines.length&&lines[lines.length-1]===''){lines.pop();}
  var out=lines.map(function(l,n){return '<span class="ln'+(highlight.indexOf(n+1)>=0?' hl':'')+'" data-n="'+(n+1)+'">'+esc(l)+'</span>';});
  if(cut){out.push('<span class="ln" data-n="\u2026">\u2026 '+(text.length-max)+' more characters not shown</span>');}
  if(!out.length){out.push('<span class="ln" data-n="">(empty body)</span>');}
  return out.join('');
}
function openDetail(r,i){
  state.open={r:r,i:i};var row=rows[r],c=row.c,q=row.q;
  var lines=c.body.split('\n');
  function lineText(n){return n>=1&&n<=lines.length?lines[n-1]:'';}
  var chosen=i>=0?cellOf(i,r):null;
  var h=[];
  h.push('<h2>'+esc(c.title)+'</h2><div class="where">'+esc(c.file)+':'+c.line+' \u00b7 case '+esc(c.id)+' \u00b7 query '+esc(q.id)+' at line '+q.line+'</div>');
  if(c.dimensions.length){h.push('<div class="where">dimensions: '+esc(c.dimensions.join(', '))+'</div>');}
  h.push('<h3>Query</h3><dl><dt>agent</dt><dd>'+esc(q.agent)+'</dd><dt>URL</dt><dd>'+esc(q.url)+'</dd><dt>level</dt><dd>'+esc(q.level)+'</dd><dt>requirements</dt><dd>'+esc(q.requirements.join(', '))+'</dd>');
  data.meta.profiles.forEach(function(p){h.push('<dt>expected ('+esc(p)+')</dt><dd>'+(p===state.profile?'<b>':'')+esc(expectOf(q,p))+(p===state.profile?'</b>':'')+'</dd>');});
  h.push('<dt>why</dt><dd class="why">'+esc(q.why)+'</dd></dl>');
  if(q.triage){h.push('<p class="triage"><b>Triage:</b> '+esc(q.triage)+'</p>');}
  if(c.fetch){h.push('<h3>Fetch outcome</h3><p>'+esc(c.fetch)+'</p>');}
  h.push('<h3>robots.txt <small class="where">(visible notation: \u2192 tab, \u2190 CR, \u21b5 LF, \u2423 trailing space, \u21d4 BOM)</small></h3>');
  h.push('<pre>'+bodyHtml(c.body,chosen&&chosen.line?[chosen.line]:[])+'</pre>');
  h.push('<h3>Verdicts under '+esc(state.profile)+'</h3><table><thead><tr><th></th><th>implementation</th><th>outcome</th><th>deciding line / detail</th></tr></thead><tbody>');
  var e=expectOf(q,state.profile);
  for(var k=0;k<nImpl;k++){
    var cell=cellOf(k,r);var j=judge(e,cell.word);var extra=[];
    if(cell.line){extra.push('line '+cell.line+': '+esc(lineText(cell.line)));}
    if(cell.detail){extra.push(esc(cell.detail));}
    h.push('<tr'+(k===i?' class="me"':'')+'><td class="k j-'+j+'" title="'+esc(LABEL[j])+'">'+SYMBOL[j]+'</td><td>'+esc(impls[k].name)+'</td><td>'+esc(cell.word)+'</td><td class="line">'+extra.join('<br>')+'</td></tr>');
  }
  h.push('</tbody></table>');
  $('detail-body').innerHTML=h.join('');
  $('detail').hidden=false;
  var pre=$('detail-body').querySelector('pre');var hl=pre&&pre.querySelector('.hl');
  if(hl){pre.scrollTop=Math.max(0,hl.offsetTop-pre.clientHeight/2);}
  markSelected();writeHash();
}
function closeDetail(){state.open=null;$('detail').hidden=true;markSelected();writeHash();}
// One delegated listener for the whole matrix.
table.addEventListener('click',function(ev){
  var el=ev.target.closest('th,td');if(!el){return;}
  var s=el.getAttribute('data-sort');
  if(s!==null){
    if(s==='id'){state.sort=-1;state.desc=false;}
    else{var i=+s;if(state.sort===i){state.desc=!state.desc;}else{state.sort=i;state.desc=false;}}
    renderAll();writeHash();return;
  }
  var tr=el.closest('tr[data-q]');if(!tr){return;}
  var r=+tr.getAttribute('data-q');
  var col=el.cellIndex-4;
  openDetail(r,el.tagName==='TD'&&el.classList.contains('c')?col:-1);
});
$('detail-close').addEventListener('click',closeDetail);
document.addEventListener('keydown',function(ev){if(ev.key==='Escape'&&state.open){closeDetail();}});
$('tabs').addEventListener('click',function(ev){var b=ev.target.closest('button[data-view]');if(!b){return;}state.view=b.getAttribute('data-view');showView();writeHash();});
$('f-profile').addEventListener('change',function(){state.profile=this.value;renderAll();if(state.open){openDetail(state.open.r,state.open.i);}writeHash();});
function onFilter(){state.level=$('f-level').value;state.dim=$('f-dim').value;state.req=$('f-req').value.trim();state.q=$('f-q').value.trim();state.disagree=$('f-disagree').checked;state.fails=$('f-fails').value===''?-1:+$('f-fails').value;applyFilters();writeHash();}
['f-level','f-dim','f-disagree','f-fails'].forEach(function(id){$(id).addEventListener('change',onFilter);});
['f-req','f-q'].forEach(function(id){$(id).addEventListener('input',onFilter);});
$('f-reset').addEventListener('click',function(){state.level='';state.dim='';state.req='';state.q='';state.disagree=false;state.fails=-1;state.sort=-1;state.desc=false;syncControls();renderAll();writeHash();});
readHash();syncControls();showView();renderAll();
// A link inside the page (a question's "its queries in the matrix") changes the fragment.
window.addEventListener('hashchange',function(){readHash();syncControls();showView();renderAll();});
if(state.open){openDetail(state.open.r,state.open.i);var tr=tbody.querySelector('tr[data-q="'+state.open.r+'"]'),wrap=$('matrix-wrap');if(tr){wrap.scrollTop=Math.max(0,tr.offsetTop-wrap.clientHeight/2);}}
body.setAttribute('data-rows',String(tbody.rows.length));
body.setAttribute('data-cols',String(tbody.rows.length?tbody.rows[0].querySelectorAll('td.c').length:nImpl));
body.setAttribute('data-errors',document.documentElement.getAttribute('data-errors')||'0');
body.setAttribute('data-ready','1');
})();"#;

#[cfg(test)]
mod tests {
    use super::*;
    use reptest_adapters as impls;
    use reptest_core::runner;

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

    /// Every figure is labelled: the matrix headers' percentages, the MAY choices as
    /// in the Markdown, the failures filter and the URL state for sharing.
    #[test]
    fn figures_are_labelled_and_the_failures_view_is_there() {
        let report = report();
        let page = render(&report);
        assert!(page.contains("The figure under each implementation's name is the percentage"));
        assert!(page.contains("Math.round(rate)+'%'"));
        assert!(page.contains("MAY choices"));
        let (allowed, disallowed) = report.scores[0].either_verdicts[&Profile::Rfc9309];
        assert!(
            page.contains(&format!(">{allowed} / {disallowed}</td>")),
            "the model's MAY choices"
        );
        assert!(page.contains("id=f-fails") && page.contains("#fails=NAME"));
        assert!(page.contains("if(nImpl===1&&!location.hash){state.fails=0;}"));
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
        assert!(page.contains("v==='access'") && page.contains("'scores','access','agreement'"));
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
