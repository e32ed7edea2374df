//! `reptest policy`: a site owner's CI check that their robots.txt says what they mean.

use super::Outcome;
use reptest::markup::escape as xml_escape;
use reptest::{CaseInput, QueryInput};
use reptest_reference::access::Fetch;
use reptest_reference::{check_fetch, Config, Robots};
use serde::Deserialize;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

/// Check that a robots.txt keeps the URLs you care about crawlable and the private ones
/// disallowed, for the crawlers you care about, as RFC 9309 reads it (the reference);
/// and see which of the other parsers read any of it differently.
#[derive(clap::Args)]
#[command(after_help = "\
The expectations file (TOML), one [[expect]] table per set of agents:

  [[expect]]
  agents = [\"*\", \"Googlebot\", \"Bingbot\", \"GPTBot\", \"ClaudeBot\", \"CCBot\"]
  allowed = [\"/\", \"/products/\", \"/static/app.css\", \"/static/app.js\"]
  disallowed = [\"/admin/\", \"/cart\"]

`*` stands for a crawler no group names. URLs are paths (or absolute URLs).

Exit codes: 0 every expectation holds, 1 the reference (RFC 9309) reads one otherwise,
2 a usage, input or fetch error.

Example: reptest policy --robots public/robots.txt --expect robots-policy.toml
docs/policy.md has a worked example and a CI job to copy.")]
pub struct Args {
    /// The robots.txt: a file, `-` for stdin, or an http(s) URL to fetch (its status
    /// and content type then decide what applies, RFC 9309 §2.3.1).
    #[arg(long, value_name = "FILE|URL")]
    robots: String,
    /// The expectations file (TOML; see below).
    #[arg(long, value_name = "FILE")]
    expect: PathBuf,
    /// The other implementations to compare with, comma-separated (see `reptest
    /// impls`). Default: every available one; `none` for the reference alone.
    #[arg(long = "impl", value_name = "NAMES", value_delimiter = ',')]
    implementations: Vec<String>,
    /// The report format: `text`, `junit` or `github`.
    #[arg(long, default_value = "text", value_parser = ["text", "junit", "github"])]
    format: String,
}

/// The expectations file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Expectations {
    expect: Vec<ExpectTable>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExpectTable {
    agents: Vec<String>,
    #[serde(default)]
    allowed: Vec<String>,
    #[serde(default)]
    disallowed: Vec<String>,
}

/// The product token used for `*`: a crawler that no group names.
const ANY_CRAWLER: &str = "reptest-any-crawler";

/// One expectation, judged.
struct Judged {
    agent: String,
    url: String,
    allowed: bool,
    holds: bool,
    /// Why the reference decided as it did.
    reason: String,
    /// The implementations that read it otherwise than the reference (name: their
    /// outcome).
    others: Vec<String>,
}

/// What was fetched, and what the access method makes of it.
struct Source {
    fetch_note: Option<String>,
    status: Option<u16>,
    network_error: bool,
    body: Vec<u8>,
    origin: String,
}

pub fn run(args: Args) -> Outcome {
    let text = reptest::lines::read_text(&args.expect, reptest::lines::MAX_TEXT_FILE)
        .map_err(|e| format!("cannot read {}: {e}", args.expect.display()))?;
    let expectations: Expectations = toml::from_str(&text).map_err(|e| {
        let line = e
            .span()
            .map(|s| format!(":{}", reptest_corpus::line_of(&text, s.start)))
            .unwrap_or_default();
        format!("{}{line}: {}", args.expect.display(), e.message().trim())
    })?;
    let source = source(&args.robots)?;
    let config = Config::rfc9309();
    let mut warnings = Vec::new();
    let _ = Robots::parse_with_warnings(&source.body, &config, &mut |w| warnings.push(w.clone()));
    let fetch = Fetch {
        status: source.status,
        network_error: source.network_error,
        body: &source.body,
        ..Fetch::default()
    };
    let mut judged = Vec::new();
    for table in &expectations.expect {
        for agent in &table.agents {
            let token = if agent == "*" { ANY_CRAWLER } else { agent };
            if !token
                .chars()
                .all(|c| c.is_ascii_alphabetic() || c == '_' || c == '-')
            {
                return Err(format!(
                    "{}: agent `{agent}` is not a product token (RFC 9309 §2.2.1: letters, `_` and `-`; `*` for any crawler)",
                    args.expect.display()
                ));
            }
            for (urls, allowed) in [(&table.allowed, true), (&table.disallowed, false)] {
                for url in urls {
                    let url = absolute(url, &source.origin);
                    let verdict = check_fetch(&fetch, &config, token, &url);
                    judged.push(Judged {
                        agent: agent.clone(),
                        url,
                        allowed,
                        holds: verdict.is_allowed() == allowed,
                        reason: super::check::explain(verdict.reason(), &source.body),
                        others: Vec::new(),
                    });
                }
            }
        }
    }
    let compared = compare(&args, &source, &mut judged)?;
    let report = match args.format.as_str() {
        "junit" => junit(&args, &judged),
        "github" => github(&args, &judged),
        _ => text_report(&args, &source, &warnings, &judged, &compared),
    };
    out!("{report}");
    Ok(if judged.iter().all(|j| j.holds) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The robots.txt from a file, stdin or a URL.
fn source(robots: &str) -> Result<Source, String> {
    if robots.starts_with("http://") || robots.starts_with("https://") {
        return fetch(robots);
    }
    let body = if robots == "-" {
        let mut body = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut body)
            .map_err(|e| format!("reading stdin: {e}"))?;
        body
    } else {
        std::fs::read(robots).map_err(|e| format!("cannot read {robots}: {e}"))?
    };
    Ok(Source {
        fetch_note: None,
        status: Some(200),
        network_error: false,
        body,
        origin: reptest::url::DEFAULT_ORIGIN.to_string(),
    })
}

/// Without the `fetch` feature there is no HTTP client.
#[cfg(not(feature = "fetch"))]
fn fetch(url: &str) -> Result<Source, String> {
    Err(format!(
        "cannot fetch {url}: this reptest was built without its `fetch` feature; save the file and give its path"
    ))
}

/// Fetches a robots.txt: at most 5 redirects (RFC 9309 §2.3.1.2), 10 s, and the first
/// 2 MB of the body (the reference parses the first 500 KiB, §2.5).
#[cfg(feature = "fetch")]
fn fetch(url: &str) -> Result<Source, String> {
    let origin = reptest::url::QueryUrl::new(url).origin().to_string();
    let mut builder = ureq::AgentBuilder::new()
        .redirects(5)
        .timeout(std::time::Duration::from_secs(10));
    if let Ok(tls) = native_tls::TlsConnector::new() {
        builder = builder.tls_connector(std::sync::Arc::new(tls));
    }
    let agent = builder.build();
    let response = match agent.get(url).call() {
        Ok(response) => response,
        Err(ureq::Error::Status(_, response)) => response,
        Err(ureq::Error::Transport(e)) => {
            return Ok(Source {
                fetch_note: Some(format!(
                    "fetching {url} failed ({e}): the file is unreachable, so everything is disallowed (RFC 9309 §2.3.1.4)"
                )),
                status: None,
                network_error: true,
                body: Vec::new(),
                origin,
            })
        }
    };
    let status = response.status();
    let content_type = response.content_type().to_string();
    let mut body = Vec::new();
    std::io::Read::read_to_end(
        &mut std::io::Read::take(response.into_reader(), 2 << 20),
        &mut body,
    )
    .map_err(|e| format!("reading {url}: {e}"))?;
    let meaning = match status {
        200..=299 if content_type.contains("html") => {
            "served as HTML: RFC 9309 parses it as rules anyway; lines that are not rules are ignored (§2.3.1.1, §2.3.1.5)".to_string()
        }
        200..=299 => "its rules apply (RFC 9309 §2.3.1.1)".to_string(),
        400..=499 => "unavailable: crawlers MAY access everything (RFC 9309 §2.3.1.3)".to_string(),
        500..=599 => {
            "unreachable: crawlers MUST assume everything is disallowed (RFC 9309 §2.3.1.4)".to_string()
        }
        _ => "neither success nor an error: treated as unreachable".to_string(),
    };
    Ok(Source {
        fetch_note: Some(format!(
            "fetched {url}: HTTP {status}, {content_type}, {} bytes: {meaning}",
            body.len()
        )),
        status: Some(status),
        network_error: false,
        body,
        origin,
    })
}

/// A path under `origin`, or an absolute URL as given.
fn absolute(url: &str, origin: &str) -> String {
    if url.contains("://") {
        url.to_string()
    } else if url.starts_with('/') {
        format!("{origin}{url}")
    } else {
        format!("{origin}/{url}")
    }
}

/// Runs the expectations through the other implementations (the body as fetched) and
/// notes who reads each otherwise; returns the names compared.
fn compare(args: &Args, source: &Source, judged: &mut [Judged]) -> Result<Vec<String>, String> {
    if args.implementations.iter().any(|n| n == "none") || source.status != Some(200) {
        return Ok(Vec::new());
    }
    let implementations =
        super::selected_for_bodies(&reptest::impls::Registry::default(), &args.implementations)?;
    let queries: Vec<(String, String)> = judged
        .iter()
        .map(|j| {
            let agent = if j.agent == "*" {
                ANY_CRAWLER
            } else {
                &j.agent
            };
            (agent.to_string(), j.url.clone())
        })
        .collect();
    let inputs: Vec<QueryInput<'_>> = queries
        .iter()
        .map(|(agent, url)| QueryInput { agent, url })
        .collect();
    let case = CaseInput {
        robots: &source.body,
        fetch: None,
        queries: &inputs,
    };
    let mut names = Vec::new();
    for implementation in implementations.iter().filter(|i| i.name() != "reference") {
        names.push(implementation.name().to_string());
        let outcomes = reptest::runner::evaluate(implementation.as_ref(), &case);
        for (j, outcome) in judged.iter_mut().zip(outcomes) {
            // The reference's reading: the expectation when it holds, else the other.
            let reference = j.allowed == j.holds;
            if outcome.allowed() != Some(reference) {
                j.others
                    .push(format!("{}: {}", implementation.name(), outcome.word()));
            }
        }
    }
    Ok(names)
}

fn verdict_word(allowed: bool) -> &'static str {
    if allowed {
        "allowed"
    } else {
        "disallowed"
    }
}

fn text_report(
    args: &Args,
    source: &Source,
    warnings: &[reptest_reference::Warning],
    judged: &[Judged],
    compared: &[String],
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "reptest policy: {} against {}",
        args.robots,
        args.expect.display()
    );
    if let Some(note) = &source.fetch_note {
        let _ = writeln!(out, "{note}");
    }
    let failed = judged.iter().filter(|j| !j.holds).count();
    let _ = writeln!(
        out,
        "\n{} expectations, {} hold under RFC 9309 (the reference), {failed} do not:",
        judged.len(),
        judged.len() - failed
    );
    for j in judged {
        let _ = writeln!(
            out,
            "  {} {:<10} {:<20} {}: {}",
            if j.holds { "ok  " } else { "FAIL" },
            verdict_word(j.allowed),
            j.agent,
            j.url,
            j.reason
        );
    }
    if !compared.is_empty() {
        let differ: Vec<&Judged> = judged.iter().filter(|j| !j.others.is_empty()).collect();
        let _ = writeln!(
            out,
            "\nas {} other parsers read the file: {} expectation(s) read otherwise than RFC 9309 by some",
            compared.len(),
            differ.len()
        );
        for j in differ {
            let _ = writeln!(
                out,
                "  {} {}: RFC 9309 {}; {}",
                j.agent,
                j.url,
                verdict_word(j.allowed == j.holds),
                j.others.join(", ")
            );
        }
    }
    if !warnings.is_empty() {
        let _ = writeln!(out, "\nlint warnings:");
        for w in warnings {
            let text = reptest::visible::render(w.to_string().as_bytes());
            let _ = writeln!(out, "  {}", text.trim_end_matches(['↵', '\n']));
        }
    }
    let _ = writeln!(
        out,
        "\n{}",
        if failed == 0 {
            "PASS: every expectation holds".to_string()
        } else {
            format!("FAIL: {failed} expectation(s) do not hold")
        }
    );
    out
}

fn junit(args: &Args, judged: &[Judged]) -> String {
    let failures = judged.iter().filter(|j| !j.holds).count();
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"{n}\" failures=\"{failures}\">\n  <testsuite name=\"reptest policy: {}\" tests=\"{n}\" failures=\"{failures}\">\n",
        xml_escape(&args.robots),
        n = judged.len()
    );
    for j in judged {
        let name = format!("{} {} {}", verdict_word(j.allowed), j.agent, j.url);
        let _ = write!(
            out,
            "    <testcase classname=\"reptest.policy\" name=\"{}\"",
            xml_escape(&name)
        );
        if j.holds {
            out.push_str("/>\n");
        } else {
            let _ = write!(
                out,
                ">\n      <failure message=\"{}\">{}</failure>\n    </testcase>\n",
                xml_escape(&format!(
                    "expected {}, RFC 9309 reads {}",
                    verdict_word(j.allowed),
                    verdict_word(!j.allowed)
                )),
                xml_escape(&j.reason)
            );
        }
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

fn github(args: &Args, judged: &[Judged]) -> String {
    use reptest::gate::{github_data, github_property};
    let mut out = String::new();
    for j in judged.iter().filter(|j| !j.holds) {
        let _ = writeln!(
            out,
            "::error file={},title={}::{}",
            github_property(&args.robots),
            github_property(&format!("reptest policy: {} {}", j.agent, j.url)),
            github_data(&format!(
                "expected {}, RFC 9309 reads {}: {}",
                verdict_word(j.allowed),
                verdict_word(!j.allowed),
                j.reason
            ))
        );
    }
    let failed = judged.iter().filter(|j| !j.holds).count();
    let _ = writeln!(
        out,
        "::notice title=reptest policy::{}",
        github_data(&format!(
            "{} of {} expectations hold",
            judged.len() - failed,
            judged.len()
        ))
    );
    out
}
