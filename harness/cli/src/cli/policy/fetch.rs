//! Fetching a robots.txt over HTTP(S) the way the access method (RFC 9309 §2.3.1) reads
//! a fetch, and as the reference's `access` module models it:
//!
//! - redirects are followed by hand, at most five (§2.3.1.2 "crawlers SHOULD follow at
//!   least five consecutive redirects"); a sixth means the file is unavailable ("If there
//!   are more than five consecutive redirects, crawlers MAY assume that the robots.txt
//!   file is unavailable."), as the reference answers;
//! - a body sent with a content coding is decoded, and at most [`MAX_BODY`] decoded bytes
//!   are read (`decoded_body.rs`);
//! - a response that breaks off or stalls after the server answered is a network error:
//!   the file is unreachable and everything is disallowed (§2.3.1.4), its first part is
//!   not the file;
//! - when the first URL cannot be reached at all (no such host, connection refused),
//!   nothing about the site was learned: that is a fetch error (exit 2), not a verdict.
//!
//! One deadline bounds the whole fetch, redirects and body included.

use super::decoded_body::{self, BodyError};
use super::source::Source;
use reptest_reference::Config;
use std::time::{Duration, Instant};
use ureq::ErrorKind;

/// The most decoded body bytes read: 2 MiB, four times the 500 KiB the reference parses
/// (RFC 9309 §2.5), so other parsers see more than the reference does.
pub(super) const MAX_BODY: u64 = 2 << 20;

/// §2.3.1.4, quoted in the note of a fetch that broke off.
const UNREACHABLE: &str = "RFC 9309 §2.3.1.4: \"If the robots.txt file is unreachable due to server or network errors, this means the robots.txt file is undefined and the crawler MUST assume complete disallow.\"";

/// §2.3.1.2, quoted in the note of a chain of more than five redirects.
const TOO_MANY: &str = "RFC 9309 §2.3.1.2: \"If there are more than five consecutive redirects, crawlers MAY assume that the robots.txt file is unavailable.\"";

/// Why a request got no response.
enum Failure {
    /// The server was never reached (DNS, connection refused, a bad URL).
    NotReached(String),
    /// The server was reached but the response broke off or never came.
    Broken(String),
}

/// Fetches `url` within `timeout`: the redirect chain, the final response and what the
/// access method makes of it; `Err` when the first URL cannot be reached at all.
pub(super) fn fetch(url: &str, timeout: Duration) -> Result<Source, String> {
    let deadline = Instant::now() + timeout;
    let agent = agent();
    let config = Config::rfc9309();
    let mut source = Source {
        origin: reptest::url::QueryUrl::new(url).origin().to_string(),
        status: None,
        network_error: false,
        redirects: 0,
        body: Vec::new(),
        notes: vec![format!("fetched {url}")],
    };
    let mut current = url.to_string();
    loop {
        let response = match get(&agent, &current, deadline) {
            Ok(response) => response,
            Err(Failure::NotReached(e)) if source.redirects == 0 => {
                return Err(format!("cannot fetch ({e}); nothing was learned about the file, so no expectation is judged"))
            }
            Err(Failure::NotReached(e) | Failure::Broken(e)) => {
                // `e` names the URL.
                broken(&mut source, &e);
                return Ok(source);
            }
        };
        let Some(next) = redirect_target(&agent, &current, &response) else {
            final_response(&mut source, response, &config)?;
            return Ok(source);
        };
        source.redirects += 1;
        if source.redirects > config.max_redirects {
            too_many(&mut source, response.status(), &next, &config);
            return Ok(source);
        }
        source
            .notes
            .push(format!("  {} redirect to {next}", response.status()));
        current = next;
    }
}

/// An HTTP agent that follows no redirect itself (they are counted here) and sends no
/// `Accept-Encoding` (a coding a server sends anyway is removed in `decoded_body.rs`).
fn agent() -> ureq::Agent {
    let mut builder = ureq::AgentBuilder::new().redirects(0);
    if let Ok(tls) = native_tls::TlsConnector::new() {
        builder = builder.tls_connector(std::sync::Arc::new(tls));
    }
    builder.build()
}

/// One GET of `url`, bounded by `deadline` (body reading included); a 4xx or 5xx is a
/// response like any other.
fn get(agent: &ureq::Agent, url: &str, deadline: Instant) -> Result<ureq::Response, Failure> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(Failure::Broken(
            "the time given to the fetch ran out".into(),
        ));
    }
    match agent.get(url).timeout(left).call() {
        Ok(response) | Err(ureq::Error::Status(_, response)) => Ok(response),
        Err(ureq::Error::Transport(e)) => Err(match e.kind() {
            ErrorKind::InvalidUrl
            | ErrorKind::UnknownScheme
            | ErrorKind::Dns
            | ErrorKind::ConnectionFailed
            | ErrorKind::InsecureRequestHttpsOnly
            | ErrorKind::InvalidProxyUrl
            | ErrorKind::ProxyConnect
            | ErrorKind::ProxyUnauthorized => Failure::NotReached(e.to_string()),
            _ => Failure::Broken(e.to_string()),
        }),
    }
}

/// The absolute URL a 3xx response redirects to, if it is one with a usable `Location`
/// (a 3xx without one is a final status, which the access method disallows).
fn redirect_target(agent: &ureq::Agent, url: &str, response: &ureq::Response) -> Option<String> {
    if !(300..=399).contains(&response.status()) {
        return None;
    }
    let location = response.header("location")?;
    let base = agent.get(url).request_url().ok()?;
    base.as_url().join(location).ok().map(String::from)
}

/// Reads the final response into `source`: status, decoded body, and notes.
fn final_response(
    source: &mut Source,
    response: ureq::Response,
    config: &Config,
) -> Result<(), String> {
    let status = response.status();
    let content_type = response.content_type().to_string();
    let coding = response.header("content-encoding").map(str::to_string);
    let length = response.header("content-length").map(str::to_string);
    let url = response.get_url().to_string();
    match decoded_body::read(response.into_reader(), coding.as_deref(), MAX_BODY) {
        Ok(body) => {
            source.status = Some(status);
            source.body = body.bytes;
            let decoded = coding.map_or(String::new(), |c| format!(" ({c}-decoded)"));
            let meaning = source.meaning(config, &content_type);
            source.notes.push(format!(
                "  HTTP {status}, {content_type}, {} bytes{decoded}: {meaning}",
                source.body.len()
            ));
            if body.cut {
                source.notes.push(cut_note());
            }
            Ok(())
        }
        Err(BodyError::Unsupported(coding)) => Err(format!(
            "cannot read {url}: its body is sent with `Content-Encoding: {coding}`, which reptest cannot decode (it asks for none; gzip and deflate are decoded)"
        )),
        Err(BodyError::Broken { error, read }) => {
            let of = length.map_or(String::new(), |l| format!(" of {l}"));
            broken(
                source,
                &format!("{url}: HTTP {status}, the body broke off after {read}{of} bytes ({error})"),
            );
            Ok(())
        }
    }
}

/// A fetch that broke off after the first server answered (a body cut short or stalled,
/// a redirect to a server that cannot be reached): a network error (§2.3.1.4).
fn broken(source: &mut Source, what: &str) {
    source.status = None;
    source.network_error = true;
    source.body.clear();
    source.notes.push(format!("  {what}"));
    source.notes.push(format!(
        "  a network error: {UNREACHABLE} Whatever arrived is not the file, so none of it is parsed (as the reference reads a fetch)."
    ));
}

/// A sixth redirect: not followed; the file is unavailable (§2.3.1.2, §2.3.1.3).
fn too_many(source: &mut Source, status: u16, next: &str, config: &Config) {
    source.notes.push(format!(
        "  {status} redirect to {next}: not followed, more than {} redirects",
        config.max_redirects
    ));
    source.notes.push(format!(
        "  {TOO_MANY} The reference does: the file is unavailable, so crawlers MAY access everything (§2.3.1.3)."
    ));
}

/// The note of a body longer than [`MAX_BODY`].
fn cut_note() -> String {
    format!(
        "  the body is longer than {MAX_BODY} bytes: reptest read that much and cut the rest; the reference parses the first {} bytes of it anyway (RFC 9309 §2.5), other parsers are compared on the cut body",
        Config::rfc9309().effective_parse_limit()
    )
}
