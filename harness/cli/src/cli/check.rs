//! `reptest check`: one verdict from the reference matcher, explained.

use super::CommandResult;
use reptest::report::check;
use reptest_corpus::Profile;
use reptest_reference::syntax::is_product_token;
use reptest_reference::{Config, Robots};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Check one URL against one robots.txt with the reference matcher and explain the
/// verdict: the deciding rule and its line, or why no rule applied.
#[derive(clap::Args)]
pub struct Args {
    /// The robots.txt file, read as bytes (`-` reads stdin).
    #[arg(long, value_name = "FILE")]
    robots: PathBuf,
    /// The crawler's product token, e.g. `examplebot`: letters, `-` and `_` only (RFC
    /// 9309 §2.2.1); anything else is refused, with the token it most likely meant.
    #[arg(long, value_name = "TOKEN")]
    agent: std::ffi::OsString,
    /// The URL to check: absolute (https://example.com/a?b) or a path (/a?b). A URL that
    /// is neither is checked by its path, and the output says what was assumed.
    #[arg(long)]
    url: std::ffi::OsString,
    /// The reference configuration: `rfc9309` (strict defaults) or `google` (the choices
    /// google/robotstxt makes where the RFC allows one).
    #[arg(long, default_value = "rfc9309", value_parser = super::profile_parser())]
    profile: Profile,
    /// Also print the lint warnings found while parsing (unknown records, typos, ...).
    #[arg(long)]
    warnings: bool,
}

pub fn run(args: Args) -> CommandResult {
    let agent = utf8_arg("--agent", &args.agent)?;
    let url = utf8_arg("--url", &args.url)?;
    check_product_token(agent)?;
    let body = read_body(&args.robots)?;
    let config = if args.profile == Profile::Google {
        Config::google()
    } else {
        Config::rfc9309()
    };
    let mut warnings = Vec::new();
    let robots = Robots::parse_with_warnings(&body, &config, &mut |w| warnings.push(w.clone()));
    let verdict = robots.check(agent, url);
    let choices = super::google_choices::deciding(&config, &body, agent, url, &verdict);
    out!(
        "{}",
        check::render(&check::Check {
            body: &body,
            url,
            config: &config,
            verdict: &verdict,
            warnings: &warnings,
            google_choices: &choices,
            show_warnings: args.warnings,
        })
    );
    Ok(ExitCode::SUCCESS)
}

/// The text of argument `name`, or an error naming it when it is not UTF-8.
fn utf8_arg<'a>(name: &str, value: &'a std::ffi::OsStr) -> Result<&'a str, String> {
    value.to_str().ok_or_else(|| {
        format!(
            "{name} is not valid UTF-8: {} (give the URL percent-encoded, e.g. %FF)",
            reptest::visible_notation::render(value.as_encoded_bytes())
        )
    })
}

/// Refuses an agent that is not an RFC 9309 product token (§2.2.1: `1*(ALPHA / "_" /
/// "-")`), naming the token it most likely meant (in a whole User-Agent header, the
/// crawler's): no group could name such a value, so only `*` groups would apply, silently.
fn check_product_token(agent: &str) -> Result<(), String> {
    if is_product_token(agent.as_bytes()) {
        return Ok(());
    }
    let shown = reptest::visible_notation::render(agent.as_bytes());
    let fix = match super::user_agent::crawler_token(agent) {
        None => "give a token such as `examplebot`".to_string(),
        Some(meant) => format!("give the token alone: --agent {meant}"),
    };
    Err(format!(
        "--agent `{shown}` is not a product token (RFC 9309 §2.2.1: letters, `_` and `-` only, as in the `User-agent:` lines it is matched against); {fix}"
    ))
}

/// The robots.txt body from a file or stdin (`-`), at most
/// [`reptest::lines::MAX_TEXT_FILE`] bytes: an endless input is refused in bounded memory.
pub(crate) fn read_body(path: &Path) -> Result<Vec<u8>, String> {
    use reptest::lines::{read_bytes, MAX_TEXT_FILE};
    if path.as_os_str() == "-" {
        return read_bytes(std::io::stdin().lock(), MAX_TEXT_FILE)
            .map_err(|e| format!("reading stdin: {e}"));
    }
    std::fs::File::open(path)
        .and_then(|file| read_bytes(file, MAX_TEXT_FILE))
        .map_err(|e| format!("cannot read {}: {e}", path.display()))
}
