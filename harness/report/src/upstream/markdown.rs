//! A bug report as Markdown (`upstream/NAME/QUESTION.md`), the index of the folder, and
//! the header comment of a reproducer.

use super::{literal, BugReport, Language};
use crate::pieces::markdown as md;
use std::fmt::Write as _;

/// The report's title: what the library answers, where RFC 9309 says otherwise.
pub fn title(bug: &BugReport<'_>) -> String {
    let section = bug
        .question
        .rfc
        .first()
        .map_or(String::new(), |(s, _)| format!(" §{s}"));
    format!(
        "{} is {} for user-agent {}, where RFC 9309{section} says {}",
        bug.query.url, bug.actual, bug.query.agent, bug.expected
    )
}

/// The bug report.
pub fn render(bug: &BugReport<'_>) -> String {
    let mut page = String::new();
    let name = &bug.implementation.name;
    let _ = writeln!(page, "# {}: {}\n", md::text(name), md::text(&title(bug)));
    let _ = writeln!(
        page,
        "{} {} answers **{}** where RFC 9309 says **{}** ({}). The question: {}\n",
        md::text(name),
        md::text(&bug.implementation.version),
        bug.actual,
        bug.expected,
        bug.query.level,
        md::text(&bug.question.question),
    );
    body(&mut page, bug);
    expectation(&mut page, bug);
    reproducer(&mut page, bug);
    reach(&mut page, bug);
    threads(&mut page, bug);
    let _ = writeln!(
        page,
        "---\nFrom reptest {} on corpus {} (fingerprint {}): question {}, query `{}` in {}:{}.",
        bug.meta.reptest_version,
        bug.meta
            .corpus_version
            .as_deref()
            .unwrap_or("(unversioned)"),
        bug.meta.corpus_fingerprint,
        bug.question.id,
        bug.query.id,
        bug.case.file,
        bug.query.line,
    );
    page
}

/// The robots.txt as exact bytes, the agent and the URL.
fn body(page: &mut String, bug: &BugReport<'_>) {
    let _ = writeln!(page, "## The robots.txt\n");
    if bug.body.len() > super::BODY_FILE_OVER {
        let _ = writeln!(
            page,
            "{} octets, too many to show whole: beside this report as `{}` (exact \
             bytes). Its head and tail in visible notation (→ tab, ← CR, ↵ LF, ⇔ BOM, ␣ \
             trailing space, \\xHH any other byte):\n\n{}\n",
            bug.body.len(),
            super::body_file_name(bug),
            md::fenced(&reptest_core::visible_notation::render(&bug.body))
        );
    } else {
        let raw = String::from_utf8_lossy(&bug.body);
        let fence = md::fence(&raw);
        let _ = writeln!(page, "{fence}text\n{}", raw.trim_end_matches('\n'));
        let _ = writeln!(page, "{fence}\n");
        if has_invisible(&bug.body) {
            let _ = writeln!(
                page,
                "It holds bytes a code block cannot show ({}), so here it is as exact \
                 bytes (a Python bytes literal):\n\n```python\n{}\n```\n",
                invisible_kinds(&bug.body).join(", "),
                literal::body(Language::Python, &bug.body, "    ")
            );
        }
    }
    let _ = writeln!(
        page,
        "- user-agent (product token): `{}`\n- URL: `{}`\n- body: {} octets\n",
        bug.query.agent,
        bug.query.url,
        bug.body.len()
    );
}

/// The expected verdict with its RFC sentences, then the library's answer.
fn expectation(page: &mut String, bug: &BugReport<'_>) {
    let _ = writeln!(
        page,
        "## Expected: {} ({})\n",
        bug.expected, bug.query.level
    );
    for (section, text) in &bug.question.rfc {
        let _ = writeln!(page, "> RFC 9309 §{section}: \"{}\"\n", md::text(text));
    }
    let _ = writeln!(page, "{}\n", md::text(&bug.query.why));
    let _ = writeln!(
        page,
        "## Actual: {}\n\n{} {} answers {}{}.\n",
        bug.actual,
        md::text(&bug.implementation.name),
        md::text(&bug.implementation.version),
        bug.actual,
        deciding_line(&bug.body, bug.actual_line),
    );
    let reference = match bug.reference_line {
        Some(_) => deciding_line(&bug.body, bug.reference_line),
        None => " because no rule applies (or the fetch outcome decides)".into(),
    };
    let _ = writeln!(
        page,
        "The reference matcher (RFC 9309 as written) answers {}{reference}.\n",
        bug.expected
    );
    latest(page, bug);
}

/// Whether the newest release still answers so.
fn latest(page: &mut String, bug: &BugReport<'_>) {
    let text = match &bug.latest {
        Some((version, true)) => format!("Still in {version} (latest)."),
        Some((version, false)) => {
            format!("Fixed in {version} (latest): it answers the question right.")
        }
        None => format!(
            "The newest release was not run: `bash harness/external/setup --latest`, then \
             `reptest report --impl {0},{0}@latest`.",
            bug.implementation.name
        ),
    };
    let _ = writeln!(page, "{text}\n");
}

/// The reproducer, or why there is none.
fn reproducer(page: &mut String, bug: &BugReport<'_>) {
    let _ = writeln!(page, "## Reproduce\n");
    let Some(r) = &bug.reproducer else {
        let why = if bug.case.fetch.is_some() {
            format!(
                "this failure shows only when the robots.txt is fetched (RFC 9309 §2.3); \
                 `reptest run --impl {}` serves case `{}` on a loopback site and replays \
                 the fetch",
                bug.implementation.name, bug.case.id
            )
        } else {
            "reptest has no recipe for this library's API yet".into()
        };
        let _ = writeln!(page, "No reproducer in the library's language: {why}.\n");
        return;
    };
    let fence = md::fence(&r.source);
    let _ = writeln!(
        page,
        "Install: `{}`\n\nRun: `{}` (the file is beside this report). It prints the \
         expected and the actual answer and exits 1 while they differ:\n\n{fence}{}\n{}{fence}\n",
        r.install,
        r.language.run(&r.file, r.body_file.as_deref()),
        r.language.fence(),
        r.source,
    );
    let _ = writeln!(
        page,
        "Output:\n\n```text\nexpected: {}\nactual:   {}\n```\n",
        bug.expected, bug.actual
    );
}

/// How much of the corpus and of the survey the question touches for the library.
fn reach(page: &mut String, bug: &BugReport<'_>) {
    let a = &bug.answer;
    let _ = writeln!(
        page,
        "## Reach\n\n- corpus: {} of the question's {} decided queries fail, {} pass{}",
        a.fail,
        a.judged(),
        a.pass,
        if a.no_verdict > 0 {
            format!(", {} without a verdict", a.no_verdict)
        } else {
            String::new()
        }
    );
    let survey = match bug.survey_files {
        Some((files, surveyed)) => format!(
            "{files} of {surveyed} real robots.txt files surveyed have a query of this \
             question (derived from the file's rules: natural and probe queries) that it \
             answers against the decided verdict"
        ),
        None => {
            "not measured in this run (`reptest report --survey SURVEY_DIR/survey.json`)".into()
        }
    };
    let _ = writeln!(page, "- survey: {survey}\n");
}

/// The known upstream threads, or the sentence that says this is the report to file.
fn threads(page: &mut String, bug: &BugReport<'_>) {
    let known = bug.question.threads_for(&bug.implementation.name);
    let _ = writeln!(page, "## Upstream\n");
    if known.is_empty() {
        let _ = writeln!(
            page,
            "No upstream issue known: this is the report to file.\n"
        );
    }
    for thread in known {
        let _ = writeln!(
            page,
            "- [{}](<{}>): {}",
            md::text(&thread.title),
            thread.url,
            thread.describe_checked()
        );
    }
    if !page.ends_with("\n\n") {
        page.push('\n');
    }
}

/// ` by line N: `TEXT`` for a deciding line of `body`, else empty.
fn deciding_line(body: &[u8], line: Option<usize>) -> String {
    let Some(n) = line else {
        return String::new();
    };
    let text = String::from_utf8_lossy(body);
    let shown = text
        .split('\n')
        .nth(n.saturating_sub(1))
        .map(|l| format!(": {}", md::code(l.trim_end_matches('\r'))))
        .unwrap_or_default();
    format!(" by line {n}{shown}")
}

/// Whether a code block would hide some byte of `body`.
fn has_invisible(body: &[u8]) -> bool {
    !invisible_kinds(body).is_empty()
}

/// The kinds of bytes of `body` a code block cannot show.
fn invisible_kinds(body: &[u8]) -> Vec<&'static str> {
    let text = String::from_utf8_lossy(body);
    let mut kinds = Vec::new();
    let mut add = |yes: bool, kind| {
        if yes {
            kinds.push(kind);
        }
    };
    add(body.starts_with(b"\xEF\xBB\xBF"), "a byte order mark");
    add(body.contains(&b'\r'), "CR");
    add(body.contains(&b'\t'), "tabs");
    add(text.lines().any(|l| l.ends_with(' ')), "trailing spaces");
    add(std::str::from_utf8(body).is_err(), "invalid UTF-8");
    add(
        body.iter()
            .any(|b| b.is_ascii_control() && !matches!(b, b'\r' | b'\n' | b'\t')),
        "control bytes",
    );
    add(
        text.chars().any(|c| !c.is_ascii() && c != '\u{FEFF}'),
        "non-ASCII characters",
    );
    add(
        !body.is_empty() && !body.ends_with(b"\n"),
        "no final line end",
    );
    kinds
}

/// The header comment of the reproducer of `bug` (lines without comment markers).
pub fn reproducer_header(bug: &BugReport<'_>, install: &str, run: &str) -> Vec<String> {
    let mut lines = vec![
        format!("{}: {}", bug.implementation.name, title(bug)),
        format!(
            "reptest {}, question {}, query {}",
            bug.meta.reptest_version, bug.question.id, bug.query.id
        ),
        format!("Install: {install}"),
        format!("Run: {run}"),
    ];
    if let Some((section, text)) = bug.question.rfc.first() {
        lines.push(format!("RFC 9309 §{section}: \"{text}\""));
    }
    lines.push("Prints the expected and the actual answer; exits 1 while they differ.".into());
    lines
}

/// `upstream/README.md`: per implementation, its bug reports.
pub fn index(bugs: &[BugReport<'_>]) -> String {
    let (implementations, with) = super::counts(bugs);
    let mut page = format!(
        "# Bug reports to file upstream\n\n{} reports for {} implementations, {} with a \
         reproducer in the library's own language. Each names the smallest corpus query \
         that shows the question, the RFC 9309 sentence that decides it and the known \
         upstream threads.\n\n| implementation | question | example | expected | actual | reproducer | upstream | newest release |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n",
        bugs.len(),
        implementations,
        with
    );
    for bug in bugs {
        let dir = crate::folder::file_name(&bug.implementation.name);
        let threads = bug.question.threads_for(&bug.implementation.name).len();
        let _ = writeln!(
            page,
            "| {} | [{}]({dir}/{}.md) | {} | {} | {} | {} | {} | {} |",
            md::cell(&bug.implementation.name),
            bug.question.id,
            bug.question.id,
            md::code_cell(&bug.query.id),
            bug.expected,
            bug.actual,
            bug.reproducer
                .as_ref()
                .map_or("—".into(), |r| format!("[{}]({dir}/{})", r.file, r.file)),
            if threads > 0 {
                format!("{threads} thread(s)")
            } else {
                "none known".into()
            },
            match &bug.latest {
                Some((version, true)) => format!("still in {version}"),
                Some((version, false)) => format!("fixed in {version}"),
                None => "not run".into(),
            },
        );
    }
    page
}
