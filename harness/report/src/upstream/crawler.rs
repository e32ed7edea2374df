//! Reproducers for crawlers: no public API shows what a crawler does with a robots.txt,
//! so the reproducer is the loopback HTTP exchange itself, as a Python script. It serves
//! the case the way reptest's loopback site does (`reptest_site::scenario_for`: the
//! status, the redirect hops, across a second origin, gzip, a reset or a refused
//! connection; a start page linking the queried pages), runs the crawler with the
//! command line reptest runs it with, prints every request it made in order, and judges
//! as reptest does: a queried page it fetched is `allowed`, one it did not, `disallowed`.
//!
//! The crawlers with a self-contained command line get one: wget and httrack (Debian)
//! and Scrapy (PyPI, with reptest's spider written beside the script). Colly runs as a
//! Go program of reptest's own, so its reports keep the `reptest run` that replays them.

use super::{literal, BugReport, Language, Reproducer};
use reptest_corpus::Case;
use reptest_site::crawl::Crawler;
use reptest_site::{Fault, Scenario};

/// The crawler `name` as a self-contained command line, with its one-line install.
fn crawler(name: &str) -> Option<(Crawler, String)> {
    let environment = reptest_core::Environment::default();
    let crawler = match name {
        "crawler-wget" => reptest_site::crawl::wget(),
        "crawler-httrack" => reptest_site::crawl::httrack(),
        "crawler-scrapy" => reptest_site::crawl::scrapy(&environment),
        _ => return None,
    };
    let install = match crawler.package() {
        Some(package) => package.install_command(),
        None => format!(
            "pip install scrapy=={}",
            crawler.version().unwrap_or_default()
        ),
    };
    Some((crawler, install))
}

/// The command line with the program by its name (`scrapy` from PATH, not reptest's
/// venv) and reptest's spider as the file the script writes.
fn command(crawler: &Crawler) -> Vec<String> {
    crawler
        .command()
        .iter()
        .map(|arg| {
            if arg.ends_with("/bin/scrapy") {
                "scrapy".to_string()
            } else if arg == reptest_site::crawl::SCRAPY_SPIDER {
                "{workdir}/reptest_spider.py".to_string()
            } else {
                arg.clone()
            }
        })
        .collect()
}

/// The reproducer of `bug`, a crawler's report on `case`, when the crawler has a
/// self-contained command line and one fetch can show the case.
pub fn reproducer(bug: &BugReport<'_>, case: &Case) -> Option<Reproducer> {
    let (crawler, install) = crawler(&bug.implementation.name)?;
    let scenario = reptest_site::scenario_for(case.fetch.as_ref(), &case.body).ok()?;
    fault_name(&scenario).ok()?;
    let page = reptest_site::served_case::page_of(&bug.query.url);
    let pages: Vec<String> = case
        .queries
        .iter()
        .filter(|q| q.agent == bug.query.agent)
        .map(|q| reptest_site::served_case::page_of(&q.url))
        .filter(|p| p != "/robots.txt")
        .fold(Vec::new(), |mut seen, p| {
            if !seen.contains(&p) {
                seen.push(p);
            }
            seen
        });
    let file = format!("{}.py", bug.question.id);
    let run = format!("python3 {file}");
    let header = super::markdown::reproducer_header(bug, &install, &run);
    let source = render(&header, bug, &crawler, &scenario, (&page, &pages));
    Some(Reproducer {
        language: Language::Python,
        file,
        body_file: None,
        install,
        source,
    })
}

/// The script's name of the scenario's fault (`None` with no fault); `Err` for a fault
/// the script cannot serve.
fn fault_name(scenario: &Scenario) -> Result<Option<&'static str>, ()> {
    match scenario.fault {
        None => Ok(None),
        Some(Fault::ConnectionRefused) => Ok(Some("refused")),
        Some(Fault::ResetMidBody) => Ok(Some("reset")),
        Some(Fault::NeverCompletes) => Ok(Some("never-completes")),
        Some(_) => Err(()),
    }
}

/// [`fault_name`] of a servable scenario.
fn fault(scenario: &Scenario) -> Option<&'static str> {
    fault_name(scenario).ok().flatten()
}

/// The script's source.
fn render(
    header: &[String],
    bug: &BugReport<'_>,
    crawler: &Crawler,
    scenario: &Scenario,
    (page, pages): (&str, &[String]),
) -> String {
    let py = |s: &str| literal::string(Language::Python, s);
    let list = |items: &[String]| {
        let quoted: Vec<String> = items.iter().map(|s| py(s)).collect();
        format!("[{}]", quoted.join(", "))
    };
    let redirects: Vec<String> = scenario
        .redirects
        .iter()
        .map(|r| {
            format!(
                "({}, {})",
                r.status,
                if r.cross_origin { "True" } else { "False" }
            )
        })
        .collect();
    let fault = fault(scenario).map_or("None".into(), py);
    let env: Vec<String> = crawler
        .env()
        .iter()
        .map(|(k, v)| format!("{}: {}", py(k), py(v)))
        .collect();
    let spider = if bug.implementation.name == "crawler-scrapy" {
        literal::body(Language::Python, SPIDER.as_bytes(), "    ")
    } else {
        "None".into()
    };
    let header: Vec<String> = header
        .iter()
        .map(|l| format!("# {l}").trim_end().to_string())
        .collect();
    let values = [
        ("AGENT", py(&bug.query.agent)),
        ("PAGE", py(page)),
        ("EXPECTED", py(bug.expected)),
        ("PAGES", list(pages)),
        (
            "BODY",
            literal::body(Language::Python, scenario.response.body.as_bytes(), "    "),
        ),
        ("STATUS", scenario.response.status.to_string()),
        ("CONTENT_TYPE", py(&scenario.response.content_type)),
        (
            "GZIP",
            if scenario.response.gzip {
                "True"
            } else {
                "False"
            }
            .into(),
        ),
        ("REDIRECTS", format!("[{}]", redirects.join(", "))),
        ("FAULT", fault),
        ("COMMAND", list(&command(crawler))),
        ("ENV", format!("{{{}}}", env.join(", "))),
        ("TIME_LIMIT", crawler.time_limit().as_secs().to_string()),
        ("SPIDER", spider),
    ];
    let mut source = header.join("\n") + "\n" + DATA_HEAD;
    for (name, value) in values {
        source.push_str(&format!("{name} = {value}\n"));
    }
    source + SCRIPT
}

/// reptest's Scrapy spider, which the Scrapy script writes beside itself.
const SPIDER: &str = include_str!("../../../site/crawlers/scrapy_spider.py");

const DATA_HEAD: &str =
    "# The case as reptest's loopback site serves it, and the crawler as reptest runs it.\n";

/// The part of the script that serves, crawls and judges.
const SCRIPT: &str = include_str!("crawler_script.py");
