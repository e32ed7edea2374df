//! `reptest policy`: a site owner's CI check that their robots.txt says what they mean.
//!
//! One job per file: `expect` reads the expectations file, `source` reads or fetches the
//! robots.txt (`fetch` over HTTP, `body` decoding and bounding a body), `judge` asks the
//! reference and the other implementations; `audit` classes every crawler of the
//! catalogue and runs the lints (`--audit`), `registry` reads the `crawler-user-agents`
//! package when installed; the report crate renders the report
//! (`reptest::report::policy`: text, JSON, JUnit or GitHub annotations) and this prints it.

mod audit;
#[cfg(feature = "fetch")]
mod decoded_body;
mod expect;
#[cfg(feature = "fetch")]
mod fetch;
mod judge;
mod registry;
mod source;

use super::CommandResult;
use reptest::report::policy::{self, lint, Report};
use reptest_reference::{Config, Robots};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Check that a robots.txt keeps the URLs you care about crawlable and the private ones
/// disallowed, for the crawlers you care about, as RFC 9309 reads it (the reference);
/// or audit it for 72 known crawlers and the mistakes guides warn about (`--audit`).
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("mode").required(true).args(["expect", "audit"])))]
#[command(after_help = "\
--audit needs no expectations file. For each known crawler (GPTBot, ClaudeBot,
Google-Extended, CCBot, PerplexityBot, Googlebot, Bingbot, AhrefsBot, ia_archiver, ...:
token, operator, purpose, the operator's page) it gives the site class RFC 9309 reads:

  fully restricted      `/` is disallowed
  partially restricted  `/` is allowed, a path a Disallow rule names is not
  unrestricted          neither

with the group and rule line that decide it, and the parsers that read another class.
Then the lints, each with a stable id and level (`--allow ID` silences one):

  reptest policy --audit --robots public/robots.txt
  reptest policy --audit --robots https://example.com/robots.txt --format json
  reptest policy --audit --robots robots.txt --allow crawl-delay-ignored,host-ignored

--expect checks your own list instead. The expectations file (TOML), one [[expect]]
table per set of agents:

  [[expect]]
  agents = [\"*\", \"Googlebot\", \"Bingbot\", \"GPTBot\", \"ClaudeBot\", \"CCBot\"]
  allowed = [\"/\", \"/products/\", \"/static/app.css\", \"/static/app.js\"]
  disallowed = [\"/admin/\", \"/cart\"]

`*` stands for a crawler no group names. URLs are paths (or absolute URLs). The same
agent and URL expected both allowed and disallowed is refused, naming both lines.

Exit codes: 0 every expectation holds (--audit: no lint at level error), 1 one does not
(--audit: an error-level lint), 2 a usage, input or fetch error (a URL whose server
cannot be reached at all).

Example: reptest policy --robots public/robots.txt --expect robots-policy.toml
docs/policy.md lists the lints, the JSON format and CI jobs to copy (GitHub Action,
pre-commit hook, GitLab CI).")]
pub struct Args {
    /// The robots.txt: a file, `-` for stdin, or an http(s) URL to fetch (its redirects,
    /// status and body then decide what applies, RFC 9309 §2.3.1).
    #[arg(long, value_name = "FILE|URL")]
    robots: String,
    /// The expectations file (TOML; see below).
    #[arg(long, value_name = "FILE")]
    expect: Option<PathBuf>,
    /// Audit the file for every known crawler, and lint it (no expectations file).
    #[arg(long)]
    audit: bool,
    /// With --audit: a lint to silence, by id (repeatable, or comma-separated).
    #[arg(long, value_name = "LINT", value_delimiter = ',')]
    allow: Vec<String>,
    /// With --audit: the `crawler-user-agents` JSON to cross-check the tokens with.
    /// Default: the pinned package `bash harness/external/setup crawler-list` installs.
    #[arg(long, value_name = "FILE")]
    registry: Option<PathBuf>,
    /// The other implementations to compare with, comma-separated (see `reptest
    /// impls`). Default: every available one; `none` for the reference alone.
    #[arg(long = "impl", value_name = "NAMES", value_delimiter = ',')]
    implementations: Vec<String>,
    /// The report format: `text`, `junit`, `github`, or (with --audit) `json`.
    #[arg(long, default_value = "text", value_parser = ["text", "junit", "github", "json"])]
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
    match &args.expect {
        Some(expect) if !args.audit => check(&args, expect),
        _ => run_audit(&args),
    }
}

/// `--audit`: the crawler table and the lints.
fn run_audit(args: &Args) -> CommandResult {
    for id in &args.allow {
        if lint::find(id).is_none() {
            let ids: Vec<&str> = lint::LINTS.iter().map(|l| l.id).collect();
            return Err(format!(
                "--allow {id}: no such lint (the lints: {})",
                ids.join(", ")
            ));
        }
    }
    let crawlers = policy::crawlers::builtin();
    let path = args.registry.clone().unwrap_or_else(|| {
        registry::default_path(&reptest::impls::external::config::state_dir(
            &super::environment(),
        ))
    });
    let patterns = registry::load(&path)?;
    if patterns.is_none() {
        eprintln!(
            "reptest policy: the crawler-user-agents package is not installed ({}); the audit uses the curated list alone. To cross-check the tokens: bash harness/external/setup crawler-list (crawler-user-agents {} from PyPI)",
            path.display(),
            registry::VERSION
        );
    }
    let source = source::read(&args.robots, args.timeout)?;
    let request = audit::Request {
        robots: &args.robots,
        crawlers,
        implementations: &args.implementations,
        allowed: &args.allow,
        registry: patterns,
    };
    let report = audit::audit(request, &source)?;
    out!(
        "{}",
        match args.format.as_str() {
            "junit" => policy::audit::junit(&report),
            "github" => policy::audit::github(&report),
            "json" => policy::audit::json(&report),
            _ => policy::audit::text(&report),
        }
    );
    Ok(if report.failed() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `--expect`: each expectation judged.
fn check(args: &Args, expect_path: &Path) -> CommandResult {
    if args.format == "json" {
        return Err(
            "--format json is the audit's (--audit); --expect reports as text, junit or github"
                .into(),
        );
    }
    if !args.allow.is_empty() {
        return Err("--allow silences a lint of --audit; --expect runs no lints".into());
    }
    let expectations = expect::load(expect_path)?;
    let source = source::read(&args.robots, args.timeout)?;
    expect::refuse_contradictions(&expectations, expect_path, |url| {
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
        expect: expect_path,
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
