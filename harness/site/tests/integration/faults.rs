//! Network faults (RFC 9309 §2.3.1.4, "unreachable due to server or network errors"):
//! connection refused, reset mid-body, a response that never completes.

use crate::common;

use std::io::{self, Read as _};
use std::time::Duration;

use common::{agent, assert_refused, binary_body, get};
use reptest_site::{Fault, Options, Redirect, Scenario, Site};

/// The body of a faulty response as far as a client reads it: the status, the bytes read
/// and the error that ended the read.
fn read_until_error(agent: &ureq::Agent, url: &str) -> (u16, Vec<u8>, io::Error) {
    let response = agent
        .get(url)
        .call()
        .expect("the status line and headers arrive");
    let status = response.status();
    let length: usize = response.header("content-length").unwrap().parse().unwrap();
    let mut reader = response.into_reader();
    let mut body = Vec::new();
    let mut chunk = [0; 8192];
    loop {
        match reader.read(&mut chunk) {
            Ok(0) => panic!("{url}: the body ended cleanly after {} bytes", body.len()),
            Ok(n) => body.extend_from_slice(&chunk[..n]),
            Err(error) => {
                assert!(body.len() < length, "the body is cut short");
                return (status, body, error);
            }
        }
    }
}

#[test]
fn connection_refused_makes_connecting_fail() {
    let site = Site::start(&Scenario::new(200, "x").with_fault(Fault::ConnectionRefused)).unwrap();
    let error = agent().get(&site.robots_url()).call().unwrap_err();
    assert_eq!(error.kind(), ureq::ErrorKind::ConnectionFailed, "{error}");
    assert_refused(site.origin());
    assert!(site.stop().requests.is_empty());
}

#[test]
fn connection_refused_after_a_cross_origin_redirect() {
    let scenario = Scenario::new(200, "x")
        .with_redirects([Redirect::new(301), Redirect::cross_origin(302)])
        .with_fault(Fault::ConnectionRefused);
    let site = Site::start(&scenario).unwrap();
    let agent = agent();
    let hop = get(&agent, &site.robots_url());
    let hop = get(&agent, hop.location.as_deref().unwrap());
    assert_eq!(hop.status, 302);
    let location = hop.location.unwrap();
    let second = site.second_origin().unwrap();
    assert_eq!(location, format!("{second}/hop/2/robots.txt"));
    let error = agent.get(&location).call().unwrap_err();
    assert_eq!(error.kind(), ureq::ErrorKind::ConnectionFailed, "{error}");
    assert_refused(second);
}

#[test]
fn connection_refused_must_be_the_second_origin_after_redirects() {
    let scenario = Scenario::new(200, "x")
        .with_redirects([Redirect::new(301)])
        .with_fault(Fault::ConnectionRefused);
    let error = Site::start(&scenario).unwrap_err();
    assert!(error.is_invalid_scenario(), "{error}");
}

#[test]
fn reset_mid_body_gives_a_body_read_error() {
    let body = binary_body(64 * 1024);
    let site =
        Site::start(&Scenario::new(200, body.clone()).with_fault(Fault::ResetMidBody)).unwrap();
    let (status, received, error) = read_until_error(&agent(), &site.robots_url());
    assert_eq!(status, 200);
    assert_eq!(error.kind(), io::ErrorKind::ConnectionReset, "{error}");
    assert!(
        body.starts_with(&received),
        "what arrived is the body's start"
    );
}

#[test]
fn reset_mid_body_on_a_503_with_gzip() {
    let body = binary_body(10_000);
    let scenario = Scenario::new(503, body)
        .with_gzip(true)
        .with_fault(Fault::ResetMidBody);
    let site = Site::start(&scenario).unwrap();
    let error = agent().get(&site.robots_url()).call().unwrap_err();
    let ureq::Error::Status(503, response) = error else {
        panic!("{error}");
    };
    assert_eq!(response.header("content-encoding"), Some("gzip"));
    let mut sink = Vec::new();
    let error = response.into_reader().read_to_end(&mut sink).unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::ConnectionReset, "{error}");
}

#[test]
fn never_completes_gives_a_client_timeout() {
    let body = binary_body(4096);
    let site = Options::new()
        .lifetime(Duration::from_secs(3))
        .start(&Scenario::new(200, body.clone()).with_fault(Fault::NeverCompletes))
        .unwrap();
    let agent = ureq::AgentBuilder::new()
        .redirects(0)
        .timeout(Duration::from_secs(1))
        .build();
    let (status, received, error) = read_until_error(&agent, &site.robots_url());
    assert_eq!(status, 200);
    assert!(
        matches!(
            error.kind(),
            io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
        ),
        "{error}"
    );
    assert_eq!(received, body[..2048]);
    let origin = site.origin().to_owned();
    site.stop();
    assert_refused(&origin);
}

#[test]
fn a_stalled_response_ends_when_the_site_stops() {
    let site = Options::new()
        .lifetime(Duration::from_millis(700))
        .start(&Scenario::new(200, binary_body(100)).with_fault(Fault::NeverCompletes))
        .unwrap();
    let agent = ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(4))
        .build();
    let (_, received, error) = read_until_error(&agent, &site.robots_url());
    assert_eq!(received.len(), 50);
    assert_ne!(error.kind(), io::ErrorKind::TimedOut, "{error}");
    assert_eq!(site.wait().reason, reptest_site::StopReason::Lifetime);
}
