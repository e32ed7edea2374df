//! `reptest policy`: a site owner's CI check that their robots.txt says what they mean.
//!
//! One job per file: `expect` reads the expectations file, `source` reads or fetches the
//! robots.txt (`fetch` over HTTP, `body` decoding and bounding a body), `judge` asks the
//! reference and the other implementations; the report crate renders the report
//! (`reptest::report::policy`: text, JUnit or GitHub annotations) and this prints it.

#[cfg(feature = "fetch")]
mod decoded_body;
mod expect;
#[cfg(feature = "fetch")]
mod fetch;
mod judge;
mod source;

use super::CommandResult;
use reptest::report::policy::{self, Report};
use reptest_reference::{Config, Robots};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

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

`*` stands for a crawler no group names. URLs are paths (or absolute URLs). The same
agent and URL expected both allowed and disallowed is refused, naming both lines.

Exit codes: 0 every expectation holds, 1 the reference (RFC 9309) reads one otherwise,
2 a usage, input or fetch error (a URL whose server cannot be reached at all).

Example: reptest policy --robots public/robots.txt --expect robots-policy.toml
docs/policy.md has a worked example and a CI job to copy.")]
pub struct Args {
    /// The robots.txt: a file, `-` for stdin, or an http(s) URL to fetch (its redirects,
    /// status and body then decide what applies, RFC 9309 §2.3.1).
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
    /// With a URL: how long the whole fetch may take, redirects and body included, in
    /// seconds (fractions allowed, at most 600). A server that has not sent the whole
    /// file by then is unreachable: everything is disallowed (RFC 9309 §2.3.1.4).
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_timeout)]
    timeout: Duration,
}

/// A `--timeout`: seconds, more than 0 and at most 600.
fn parse_timeout(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds <= 600.0 => Ok(Duration::from_secs_f64(seconds)),
        _ => Err(format!(
            "`{text}` is not a number of seconds above 0 and at most 600"
        )),
    }
}

pub fn run(args: Args) -> CommandResult {
    let expectations = expect::load(&args.expect)?;
    let source = source::read(&args.robots, args.timeout)?;
    expect::refuse_contradictions(&expectations, &args.expect, |url| {
        judge::absolute(url, &source.origin)
    })?;
    let config = Config::rfc9309();
    let mut judged = judge::judge(&expectations, &source, &config);
    let parsed = source.parsed(&config);
    let mut warnings = Vec::new();
    let mut compared = Vec::new();
    if let Some(body) = parsed {
        let _ = Robots::parse_with_warnings(body, &config, &mut |w| warnings.push(w.clone()));
        compared = judge::compare(&args.implementations, body, &mut judged)?;
    }
    let report = Report {
        robots: &args.robots,
        expect: &args.expect,
        notes: &source.notes,
        warnings,
        judged,
        compared,
    };
    out!(
        "{}",
        match args.format.as_str() {
            "junit" => policy::junit(&report),
            "github" => policy::github(&report),
            _ => policy::text(&report),
        }
    );
    Ok(if report.failed() == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
