//! The HTML report in a real browser (Debian's `chromium`, headless): a report of the
//! reference and the six in-process Rust crates over the corpus is written to
//! `<CARGO_TARGET_TMPDIR>/report-html/report.html`, then loaded from `file://` to check
//! that it runs without errors, renders every query × implementation, applies filters
//! and profiles from the URL fragment, and opens a detail panel. Screenshots
//! (`report.png`, `report-detail.png`, `report-agreement.png`, `report-fails.png`) are
//! kept next to it.
//!
//! What a maintainer opens it for is checked too: `#fails=NAME` alone opens the matrix on
//! NAME's failures with NAME's column marked; the heatmap has a legend; backticks in
//! question titles and `why` texts are code; no version label in the header is cut (one
//! implementation is given a long version for that); each question's counts name the
//! implementations they are over; the detail panel shows the reference's deciding line
//! beside the implementation's.
//!
//! Without chromium on `PATH` at build time the test is reported as ignored, with the fix
//! (build.rs: `cfg(reptest_no_browser)`), except when `CI` is set (CI installs it;
//! `harness/external/setup` does too when run as root): then it fails.

use crate::common;

use reptest::report::{html, Report};
use reptest::{impls, runner};
use reptest_corpus::Profile;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The browser to drive, if one is installed.
fn browser() -> Option<String> {
    ["chromium", "chromium-browser", "google-chrome", "chrome"]
        .into_iter()
        .find(|name| {
            Command::new(name)
                .arg("--version")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        })
        .map(str::to_string)
}

/// What one headless run printed.
struct Load {
    dom: String,
    stderr: String,
}

/// Loads `url` headless with `extra` arguments; the DOM (with `--dump-dom`) and the log.
fn load(browser: &str, url: &str, extra: &[String]) -> Load {
    let profile = tempfile::tempdir().expect("a temporary profile folder");
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-extensions",
            "--hide-scrollbars",
            "--virtual-time-budget=10000",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(extra)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the browser starts");
    let out = common::read_in_background(child.stdout.take().expect("piped stdout"));
    let err = common::read_in_background(child.stderr.take().expect("piped stderr"));
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(50)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("the browser did not finish within 120 s on {url}");
            }
        }
    }
    Load {
        dom: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    }
}

/// The value of `name="..."` in the first `<body ...>` tag of `dom`.
fn body_attr(dom: &str, name: &str) -> Option<String> {
    let start = dom.find("<body")?;
    let tag = &dom[start..start + dom[start..].find('>')?];
    let key = format!("{name}=\"");
    let at = tag.find(&key)? + key.len();
    let len = tag[at..].find('"')?;
    Some(tag[at..at + len].to_string())
}

/// Console errors and uncaught exceptions in chromium's log.
fn console_errors(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.contains("Uncaught") || l.contains(":CONSOLE"))
        .collect()
}

/// The matrix rows of `dom`: (row index, hidden, the cell classes in column order).
fn rows(dom: &str) -> Vec<(usize, bool, Vec<String>)> {
    let Some(start) = dom.find("id=\"matrix-body\"") else {
        return Vec::new();
    };
    let tbody = &dom[start..start + dom[start..].find("</tbody>").unwrap_or(0)];
    tbody
        .split("<tr ")
        .skip(1)
        .filter_map(|tr| {
            let tag = &tr[..tr.find('>')?];
            let at = tag.find("data-q=\"")? + 8;
            let index = tag[at..at + tag[at..].find('"')?].parse().ok()?;
            let hidden = tag.contains("hidden");
            let cells = tr
                .split("<td class=\"c ")
                .skip(1)
                .filter_map(|td| Some(td[..td.find('"')?].to_string()))
                .collect();
            Some((index, hidden, cells))
        })
        .collect()
}

fn build_report() -> Report {
    let dir = reptest_corpus::default_dir();
    let corpus = reptest_corpus::Corpus::load(&dir).expect("the corpus loads");
    // Every in-process implementation but google (its library is installed by hand, so
    // the page's column count would differ between machines).
    let implementations: Vec<_> = impls::in_process()
        .into_iter()
        .filter(|i| i.name() != "google")
        .collect();
    let run = runner::run(&corpus, &implementations);
    let infos: Vec<_> = implementations.iter().map(|i| i.info().clone()).collect();
    Report::build(&corpus, &dir, &run, &infos, "2026-01-01T00:00:00Z")
}

/// The judgement class the page gives a cell (`j-pass`, ...), computed from the report.
fn class(expect: &str, word: &str) -> String {
    let kind = match word {
        "allowed" | "disallowed" if expect == "either" => "either",
        "allowed" | "disallowed" if expect == word => "pass",
        "allowed" | "disallowed" => "fail",
        other => other,
    };
    format!("j-{kind}")
}

#[test]
#[cfg_attr(
    reptest_no_browser,
    ignore = "chromium is not installed: apt-get install chromium (bash harness/external/setup installs it as root), then rebuild"
)]
fn the_html_report_works_in_a_browser() {
    let started = Instant::now();
    let browser = browser().expect(
        "chromium is not installed (apt-get install chromium; bash harness/external/setup \
         installs it as root)",
    );
    let mut report = build_report();
    // A version as long as a real one can be (a git build), to see it is not cut.
    let long_version = "0.11.0+git.4f3c2a1b9d8e7f6a5b4c3d2e (built from the pinned tree)";
    report.implementations[1].version = long_version.to_string();
    let out: PathBuf = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-html");
    std::fs::create_dir_all(&out).expect("the output folder");
    let page = out.join("report.html");
    std::fs::write(&page, html::render(&report)).expect("the page is written");
    let url = format!("file://{}", page.display());
    let queries = report.meta.queries;
    let columns = report.implementations.len();
    let may = report.queries().filter(|(_, q)| q.level == "MAY").count();
    assert!(may > 0 && may < queries, "the corpus has some MAY queries");
    // A cell whose judgement differs between the profiles.
    let changed = report
        .queries()
        .flat_map(|(_, q)| (0..columns).map(move |i| (q, i)))
        .find(|(q, i)| {
            let word = report.outcomes[*i][q.index].word.as_str();
            class(&q.expect[&Profile::Rfc9309], word) != class(&q.expect[&Profile::Google], word)
        })
        .map(|(q, i)| {
            let word = report.outcomes[i][q.index].word.as_str();
            (
                q.index,
                i,
                class(&q.expect[&Profile::Rfc9309], word),
                class(&q.expect[&Profile::Google], word),
            )
        })
        .expect("some query is judged differently under the google profile");
    let reference = report
        .implementations
        .iter()
        .position(|i| i.name == "reference")
        .expect("the reference is in the report");
    // The detail panel opens on a failed verdict where the reference and the
    // implementation name different deciding lines (else where the reference names one,
    // else on any failed one, else on any cell).
    let failed_with = |lines: u8| {
        report.queries().find_map(|(_, q)| {
            (0..columns).find_map(|i| {
                let cell = &report.outcomes[i][q.index];
                let ours = report.outcomes[reference][q.index].line;
                let shows = match lines {
                    2 => cell.line.is_some() && ours.is_some() && cell.line != ours,
                    1 => ours.is_some(),
                    _ => true,
                };
                (class(&q.expect[&Profile::Rfc9309], cell.word.as_str()) == "j-fail" && shows)
                    .then_some((q.index, i))
            })
        })
    };
    let (open_row, open_col) = failed_with(2)
        .or_else(|| failed_with(1))
        .or_else(|| failed_with(0))
        .unwrap_or((0, 0));
    let open_query = report
        .queries()
        .find(|(_, q)| q.index == open_row)
        .expect("the query");
    let open = format!(
        "{}@{}",
        open_query.1.id, report.implementations[open_col].name
    );
    // #fails=NAME: the implementation with the most failures that is not the reference.
    let fails_of = |i: usize| -> usize {
        report
            .queries()
            .filter(|(_, q)| {
                let kind = class(
                    &q.expect[&Profile::Rfc9309],
                    report.outcomes[i][q.index].word.as_str(),
                );
                !q.finding && !["j-pass", "j-either", "j-unsupported"].contains(&kind.as_str())
            })
            .count()
    };
    let fails_col = (0..columns)
        .filter(|&i| i != reference)
        .max_by_key(|&i| (fails_of(i), std::cmp::Reverse(i)))
        .expect("an implementation besides the reference");
    let fails_name = report.implementations[fails_col].name.clone();
    let fails_count = fails_of(fails_col);
    assert!(fails_count > 0, "{fails_name} fails something");
    // A query whose `why` has a code span, opened on the reference.
    let why_query = report
        .queries()
        .find(|(_, q)| span(&q.why).is_some())
        .map(|(_, q)| q.clone())
        .expect("a `why` with backticks");
    let dump = vec!["--dump-dom".to_string()];
    let shot = |name: &str| {
        vec![
            format!("--screenshot={}", out.join(name).display()),
            "--window-size=1600,1000".to_string(),
        ]
    };
    // Every load in parallel: each is one browser start.
    let loads: Vec<(String, Vec<String>)> = vec![
        (url.clone(), dump.clone()),
        (format!("{url}#level=MAY"), dump.clone()),
        (format!("{url}#profile=google"), dump.clone()),
        (format!("{url}#open={open}"), dump.clone()),
        (url.clone(), shot("report.png")),
        (format!("{url}#open={open}"), shot("report-detail.png")),
        (
            format!("{url}#view=agreement"),
            shot("report-agreement.png"),
        ),
        (format!("{url}#view=access"), dump.clone()),
        (format!("{url}#fails={fails_name}"), dump.clone()),
        (
            format!("{url}#fails={fails_name}"),
            shot("report-fails.png"),
        ),
        (format!("{url}#view=agreement"), dump.clone()),
        (
            format!("{url}#open={}@reference", why_query.id),
            dump.clone(),
        ),
    ];
    let results: Vec<Load> = std::thread::scope(|scope| {
        let handles: Vec<_> = loads
            .iter()
            .map(|(u, extra)| scope.spawn(|| load(&browser, u, extra)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a browser load"))
            .collect()
    });
    for ((u, _), result) in loads.iter().zip(&results) {
        let errors = console_errors(&result.stderr);
        assert!(
            errors.is_empty(),
            "{u}: console errors:\n{}",
            errors.join("\n")
        );
    }
    let [plain, may_only, google, detail] = [&results[0], &results[1], &results[2], &results[3]];
    for (name, load) in [
        ("plain", plain),
        ("level=MAY", may_only),
        ("google", google),
        ("open", detail),
    ] {
        assert_eq!(
            body_attr(&load.dom, "data-ready").as_deref(),
            Some("1"),
            "{name}: the page finished rendering"
        );
        assert_eq!(
            body_attr(&load.dom, "data-errors").as_deref(),
            Some("0"),
            "{name}: no script errors"
        );
    }
    let [fails, agreement, why] = [&results[8], &results[10], &results[11]];
    maintainer_checks(
        &report,
        &Loads {
            plain,
            detail,
            fails,
            agreement,
            why,
        },
        (fails_col, fails_count),
        (open_row, open_col, reference),
        &why_query,
    );
    // The access-method view from the fragment: shown, one row per fetch case.
    let access = &results[7];
    assert_eq!(body_attr(&access.dom, "data-errors").as_deref(), Some("0"));
    assert!(
        access
            .dom
            .contains("<section id=\"view-access\" class=\"view\">"),
        "#view=access shows the access-method view"
    );
    assert!(access
        .dom
        .contains("<section id=\"view-matrix\" class=\"view\" hidden=\"\">"));
    let fetch_cases = report.cases.iter().filter(|c| c.fetch.is_some()).count();
    assert_eq!(access.dom.matches("<tr data-case=").count(), fetch_cases);
    // (b) every query × implementation.
    assert_eq!(
        body_attr(&plain.dom, "data-rows"),
        Some(queries.to_string())
    );
    assert_eq!(
        body_attr(&plain.dom, "data-cols"),
        Some(columns.to_string())
    );
    let matrix = rows(&plain.dom);
    assert_eq!(matrix.len(), queries);
    assert!(matrix
        .iter()
        .all(|(_, hidden, cells)| !hidden && cells.len() == columns));
    assert_eq!(
        body_attr(&plain.dom, "data-visible"),
        Some(queries.to_string())
    );
    // (c) a filter from the fragment: only the MAY rows are shown.
    assert_eq!(
        body_attr(&may_only.dom, "data-visible"),
        Some(may.to_string())
    );
    let shown = rows(&may_only.dom)
        .iter()
        .filter(|(_, hidden, _)| !hidden)
        .count();
    assert_eq!(shown, may, "visible rows under #level=MAY");
    // ... and a profile switch changes a cell's class.
    assert_eq!(
        body_attr(&google.dom, "data-profile").as_deref(),
        Some("google")
    );
    let cell = |dom: &str| {
        rows(dom)
            .into_iter()
            .find(|(index, _, _)| *index == changed.0)
            .and_then(|(_, _, cells)| cells.get(changed.1).cloned())
    };
    assert_eq!(cell(&plain.dom), Some(changed.2.clone()), "under rfc9309");
    assert_eq!(cell(&google.dom), Some(changed.3.clone()), "under google");
    // The detail panel opens on the cell named in the fragment.
    let panel = &detail.dom[detail.dom.find("<aside id=\"detail\"").expect("the panel")..];
    assert!(
        !panel[..panel.find('>').unwrap_or(0)].contains("hidden"),
        "the panel is open"
    );
    let (id, name) = open.rsplit_once('@').expect("id@name");
    assert!(
        panel.contains(id) && panel.contains("class=\"me\""),
        "the panel shows {id} for {name}"
    );
    for name in [
        "report.png",
        "report-detail.png",
        "report-agreement.png",
        "report-fails.png",
    ] {
        let size = std::fs::metadata(out.join(name))
            .map(|m| m.len())
            .unwrap_or(0);
        assert!(size > 10_000, "{name} was written ({size} bytes)");
    }
    eprintln!(
        "HTML report: {} ({} queries × {} implementations; screenshots report.png, \
         report-detail.png, report-agreement.png there) in {:.1} s",
        out.display(),
        queries,
        columns,
        started.elapsed().as_secs_f64()
    );
}

/// The first code span of `text`: what is between its first pair of backticks.
fn span(text: &str) -> Option<&str> {
    let open = text.find('`')?;
    let len = text[open + 1..].find('`')?;
    let inner = &text[open + 1..open + 1 + len];
    // Characters a DOM dump would write as references are left out of the comparison.
    (!inner.is_empty() && !inner.contains(['&', '<', '>', '"'])).then_some(inner)
}

/// The DOM of the loads [`maintainer_checks`] reads.
struct Loads<'a> {
    plain: &'a Load,
    detail: &'a Load,
    fails: &'a Load,
    agreement: &'a Load,
    why: &'a Load,
}

/// What a maintainer opens the page for (issue 23): `#fails=NAME` alone, the marked
/// column, the heatmap legend, code spans, uncut version labels, the counts' population,
/// the reference's deciding line.
fn maintainer_checks(
    report: &Report,
    loads: &Loads,
    (fails_col, fails_count): (usize, usize),
    (open_row, open_col, reference): (usize, usize, usize),
    why_query: &reptest::report::QueryEntry,
) {
    for (name, load) in [
        ("fails", loads.fails),
        ("agreement", loads.agreement),
        ("why", loads.why),
    ] {
        assert_eq!(
            body_attr(&load.dom, "data-ready").as_deref(),
            Some("1"),
            "{name}"
        );
        assert_eq!(
            body_attr(&load.dom, "data-errors").as_deref(),
            Some("0"),
            "{name}"
        );
    }
    // #fails=NAME alone: the matrix, NAME's failures only, NAME's column (only) marked.
    let dom = &loads.fails.dom;
    assert!(
        dom.contains("<section id=\"view-matrix\" class=\"view\">"),
        "#fails=NAME alone shows the matrix"
    );
    assert_eq!(
        body_attr(dom, "data-visible"),
        Some(fails_count.to_string())
    );
    let matrix = rows(dom);
    assert!(!matrix.is_empty());
    for (index, _, cells) in &matrix {
        for (i, class) in cells.iter().enumerate() {
            assert_eq!(
                class.ends_with(" fcol"),
                i == fails_col,
                "row {index}, column {i}: {class}"
            );
        }
    }
    assert_eq!(
        dom.matches("class=\"ih fcol\"").count(),
        1,
        "the column header is marked"
    );
    // The heatmap's legend: six steps of the scale and the grey of no common verdict.
    let legend = &loads.agreement.dom[loads
        .agreement
        .dom
        .find("class=\"hm-legend\"")
        .expect("a legend")..];
    assert_eq!(
        legend[..legend.find("</g>").unwrap_or(0)]
            .matches("class=\"hm-key\"")
            .count(),
        7
    );
    assert!(legend.contains("100%") && legend.contains("none answered by both"));
    // Backticks in question titles (the questions view) and in `why` (the detail panel).
    let question = report
        .questions
        .iter()
        .find_map(|q| span(&q.question))
        .expect("a question title with backticks");
    assert!(
        loads
            .plain
            .dom
            .contains(&format!("<code>{question}</code>")),
        "`{question}` in a question title is code"
    );
    let why = span(&why_query.why).expect("a code span");
    let panel = &loads.why.dom[loads
        .why
        .dom
        .find("<aside id=\"detail\"")
        .expect("the panel")..];
    assert!(
        panel.contains(&format!("<code>{why}</code>")),
        "`{why}` in the why of {} is code",
        why_query.id
    );
    // No version label in the header cut (one is long on purpose).
    assert_eq!(
        body_attr(&loads.plain.dom, "data-clipped").as_deref(),
        Some("0")
    );
    assert!(loads.plain.dom.contains(&report.implementations[1].version));
    // Each question's counts say whom they count: here every implementation is a parser.
    for q in &report.questions {
        let judged = q
            .per_impl
            .iter()
            .filter(|a| a.verdict != reptest::report::QuestionVerdict::NotJudged)
            .count();
        let words = if judged == 1 { "parser" } else { "parsers" };
        let summary = format!("<details class=\"question\" id=\"{}\">", q.id);
        let at = loads.plain.dom.find(&summary).expect("the question");
        let tail = &loads.plain.dom[at..];
        let summary = &tail[..tail.find("</summary>").unwrap_or(0)];
        assert!(
            summary.contains(&format!(">of {judged} {words}")),
            "{}: {summary}",
            q.id
        );
    }
    // The reference's deciding line beside the implementation's, with the line's text.
    let (case, query) = report
        .queries()
        .find(|(_, q)| q.index == open_row)
        .expect("the opened query");
    let lines: Vec<&str> = case.body.split('\n').collect();
    let panel = &loads.detail.dom[loads
        .detail
        .dom
        .find("<aside id=\"detail\"")
        .expect("the panel")..];
    let deciding = &panel[panel
        .find("class=\"deciding\"")
        .unwrap_or_else(|| panic!("a deciding-line block for {}", query.id))..];
    let ours = &report.outcomes[reference][open_row];
    let theirs = &report.outcomes[open_col][open_row];
    let ref_line = ours.line.expect("the reference names the deciding line");
    let pair = |line: usize| {
        format!(
            "line {line}<code class=\"dl\">{}</code>",
            escape_dom(lines[line - 1])
        )
    };
    let ref_at = deciding
        .find(&pair(ref_line))
        .expect("the reference's line");
    let name = &report.implementations[open_col].name;
    let their_at = deciding
        .find(&format!(
            "<div class=\"impl\"><div class=\"who\">{name} → <b>{}</b>",
            theirs.word.as_str()
        ))
        .expect("the implementation's side");
    assert!(ref_at < their_at, "the reference first");
    // Its own line where it reports one, else it says it reports none.
    let theirs_text = &deciding[their_at..];
    match theirs.line {
        Some(line) => assert!(theirs_text.contains(&pair(line)), "{theirs_text}"),
        None => assert!(
            theirs_text.contains("no deciding line reported"),
            "{theirs_text}"
        ),
    }
    assert!(panel.contains(&format!("class=\"ln hl-ref\" data-n=\"{ref_line}\"")));
}

/// `text` as a DOM dump writes element text: `&`, `<`, `>` as references.
fn escape_dom(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
