//! Reproducers for crawlers: no public API shows what a crawler does with a robots.txt,
//! so the reproducer is the loopback HTTP exchange itself, as a Python script. It serves
//! the case the way reptest's loopback site does (`reptest_site::scenario_for`: the
//! status, the redirect hops, across a second origin, gzip, a reset or a refused
//! connection; a start page linking the queried pages), runs the crawler with the
//! command line reptest runs it with, prints every request it made in order, and judges
//! as reptest does: a queried page it fetched is `allowed`, one it did not, `disallowed`.
//!
//! The crawlers with a self-contained command line get one: wget, wget2, httrack,
//! LinkChecker and LWP::RobotUA (Debian), Scrapy, the MCP fetch server and Crawlee for Python (PyPI), Crawlee for
//! JavaScript and simplecrawler (npm). The driver script reptest runs one with (its
//! Scrapy spider, its MCP client, its Crawlee, simplecrawler or LWP script) is written beside
//! the reproducer. Colly and spider run as programs of reptest's own (Go, Rust), so
//! their reports keep the `reptest run` that replays them.

use super::{literal, BugReport, Language, Reproducer};
use reptest_corpus::Case;
use reptest_site::crawl::{self, Crawler};
use reptest_site::{Fault, Scenario};

/// How a crawler is replayed outside reptest.
struct Replay {
    crawler: Crawler,
    /// The one-line install.
    install: String,
    /// The driver script reptest runs it with: its path in reptest's sources, the name
    /// the reproducer writes it under, and its source.
    driver: Option<(&'static str, &'static str, &'static str)>,
    /// Whether it runs on Node (its packages are found through `NODE_PATH`).
    node: bool,
}

/// The crawler `name` as a self-contained command line, with its one-line install.
fn replay(name: &str) -> Option<Replay> {
    let environment = reptest_core::Environment::default();
    let pip = |crawler: &Crawler, package: &str| {
        format!(
            "pip install {package}=={}",
            crawler.version().unwrap_or_default()
        )
    };
    let npm = |crawler: &Crawler, package: &str| {
        format!(
            "npm install {package}@{}",
            crawler.version().unwrap_or_default()
        )
    };
    // A driver script written under its own file name.
    let script = |path: &'static str, source: &'static str| {
        Some((path, path.rsplit('/').next().unwrap_or(path), source))
    };
    let (crawler, install, driver, node) = match name {
        "crawler-wget" => (crawl::wget(), None, None, false),
        "crawler-httrack" => (crawl::httrack(), None, None, false),
        "crawler-wget2" => (crawl::wget2(), None, None, false),
        "crawler-linkchecker" => (crawl::linkchecker(), None, None, false),
        "crawler-lwp-robotua" => {
            let driver = script(crawl::fetchers::LWP_ROBOTUA_SCRIPT, LWP_ROBOTUA_DRIVER);
            (crawl::lwp_robotua(), None, driver, false)
        }
        "crawler-scrapy" => {
            let crawler = crawl::scrapy(&environment);
            let install = pip(&crawler, "scrapy");
            let driver = (crawl::SCRAPY_SPIDER, "reptest_spider.py", SCRAPY_DRIVER);
            (crawler, Some(install), Some(driver), false)
        }
        "crawler-mcp-fetch" => {
            let crawler = crawl::mcp_fetch(&environment);
            let install = pip(&crawler, "mcp-server-fetch");
            let driver = script(crawl::fetchers::MCP_FETCH_CLIENT, MCP_DRIVER);
            (crawler, Some(install), driver, false)
        }
        "crawler-crawlee-python" => {
            let install = format!(
                "pip install 'crawlee[beautifulsoup]=={}'",
                crawl::CRAWLEE_PYTHON_VERSION
            );
            let driver = script(
                crawl::fetchers::CRAWLEE_PYTHON_SCRIPT,
                CRAWLEE_PYTHON_DRIVER,
            );
            (
                crawl::crawlee_python(&environment),
                Some(install),
                driver,
                false,
            )
        }
        "crawler-crawlee-js" => {
            let crawler = crawl::crawlee_js(&environment);
            let install = npm(&crawler, "@crawlee/cheerio");
            let driver = script(crawl::fetchers::CRAWLEE_JS_SCRIPT, CRAWLEE_JS_DRIVER);
            (crawler, Some(install), driver, true)
        }
        "crawler-trafilatura" => {
            let crawler = crawl::trafilatura(&environment);
            let install = pip(&crawler, "trafilatura");
            let driver = script(crawl::fetchers::TRAFILATURA_SCRIPT, TRAFILATURA_DRIVER);
            (crawler, Some(install), driver, false)
        }
        "crawler-simplecrawler" => {
            let crawler = crawl::simplecrawler(&environment);
            let install = npm(&crawler, "simplecrawler");
            let driver = script(crawl::fetchers::SIMPLECRAWLER_SCRIPT, SIMPLECRAWLER_DRIVER);
            (crawler, Some(install), driver, true)
        }
        _ => return None,
    };
    let install = install.or_else(|| crawler.package().map(|p| p.install_command()))?;
    Some(Replay {
        crawler,
        install,
        driver,
        node,
    })
}

/// The command line with each program by its name (`scrapy`, `python3`,
/// `mcp-server-fetch` from PATH, not reptest's venvs) and the driver script as the file
/// the reproducer writes.
fn command(replay: &Replay) -> Vec<String> {
    replay
        .crawler
        .command()
        .iter()
        .map(|arg| match replay.driver {
            Some((path, file, _)) if arg == path => format!("{{workdir}}/{file}"),
            _ => ["scrapy", "python", "mcp-server-fetch"]
                .into_iter()
                .find(|program| arg.ends_with(&format!("/bin/{program}")))
                .map_or_else(
                    || arg.clone(),
                    |program| program.replace("python", "python3"),
                ),
        })
        .collect()
}

/// The reproducer of `bug`, a crawler's report on `case`, when the crawler has a
/// self-contained command line and one fetch can show the case.
pub fn reproducer(bug: &BugReport<'_>, case: &Case) -> Option<Reproducer> {
    let replay = replay(&bug.implementation.name)?;
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
    let run = if replay.node {
        format!("NODE_PATH=$PWD/node_modules python3 {file}")
    } else {
        format!("python3 {file}")
    };
    let header = super::markdown::reproducer_header(bug, &replay.install, &run);
    let source = render(&header, bug, &replay, &scenario, (&page, &pages));
    Some(Reproducer {
        language: Language::Python,
        file,
        body_file: None,
        install: replay.install,
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
    replay: &Replay,
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
    let crawler = &replay.crawler;
    // NODE_PATH (reptest's node_modules) is the caller's to set, as the run line says.
    let env: Vec<String> = crawler
        .env()
        .iter()
        .filter(|(k, _)| k != "NODE_PATH")
        .map(|(k, v)| format!("{}: {}", py(k), py(v)))
        .collect();
    let (driver_file, driver) = match replay.driver {
        Some((_, file, source)) => (
            py(file),
            literal::body(Language::Python, source.as_bytes(), "    "),
        ),
        None => ("None".into(), "None".into()),
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
        ("COMMAND", list(&command(replay))),
        ("ENV", format!("{{{}}}", env.join(", "))),
        ("TIME_LIMIT", crawler.time_limit().as_secs().to_string()),
        ("DRIVER_FILE", driver_file),
        ("DRIVER", driver),
    ];
    let mut source = header.join("\n") + "\n" + DATA_HEAD;
    for (name, value) in values {
        source.push_str(&format!("{name} = {value}\n"));
    }
    source + SCRIPT
}

/// reptest's Scrapy spider, which the Scrapy script writes beside itself.
const SCRAPY_DRIVER: &str = include_str!("../../../site/crawlers/scrapy_spider.py");
/// reptest's MCP client for the fetch server.
const MCP_DRIVER: &str = include_str!("../../../site/crawlers/mcp_fetch_client.py");
/// reptest's Crawlee for Python script.
const CRAWLEE_PYTHON_DRIVER: &str = include_str!("../../../site/crawlers/crawlee_crawler.py");
/// reptest's Crawlee for JavaScript script.
const CRAWLEE_JS_DRIVER: &str = include_str!("../../../site/crawlers/crawlee_crawler.js");
/// reptest's trafilatura spider script.
const TRAFILATURA_DRIVER: &str = include_str!("../../../site/crawlers/trafilatura_crawler.py");
/// reptest's LWP::RobotUA script.
const LWP_ROBOTUA_DRIVER: &str = include_str!("../../../site/crawlers/lwp_robotua.pl");
/// reptest's simplecrawler script.
const SIMPLECRAWLER_DRIVER: &str = include_str!("../../../site/crawlers/simplecrawler_crawler.js");

const DATA_HEAD: &str =
    "# The case as reptest's loopback site serves it, and the crawler as reptest runs it.\n";

/// The part of the script that serves, crawls and judges.
const SCRIPT: &str = include_str!("crawler_script.py");
