//! Bounds and stopping: after N requests, after T seconds, on stop() and on drop, nothing
//! listens any more; garbage from a client does not break the site.

use crate::common;

use std::io::{Read as _, Write as _};
use std::time::Duration;

use common::{agent, assert_refused, connect, get};
use reptest_site::{Options, Redirect, Scenario, Site, StopReason};

const BODY: &str = "User-agent: *\nDisallow: /\n";

#[test]
fn the_site_stops_by_itself_after_n_requests() {
    let site = Options::new()
        .max_requests(3)
        .start(&Scenario::new(200, BODY).with_redirects([Redirect::cross_origin(301)]))
        .unwrap();
    let (first, second) = (
        site.origin().to_owned(),
        site.second_origin().unwrap().to_owned(),
    );
    let agent = agent();
    for _ in 0..3 {
        // The third answer is still delivered whole.
        assert_eq!(get(&agent, &site.start_url()).status, 200);
    }
    let stopped = site.wait();
    assert_eq!(stopped.reason, StopReason::RequestLimit);
    assert_eq!(stopped.requests.len(), 3);
    assert_refused(&first);
    assert_refused(&second);
}

#[test]
fn a_request_past_the_bound_gets_no_answer() {
    let site = Options::new()
        .max_requests(1)
        .lifetime(Duration::from_secs(5))
        .start(&Scenario::new(200, BODY))
        .unwrap();
    // Two requests pipelined on one connection: the first is answered, the second not.
    let mut stream = connect(site.origin()).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(3)))
        .unwrap();
    let host = site.origin().trim_start_matches("http://").to_owned();
    let request = format!("GET /robots.txt HTTP/1.1\r\nHost: {host}\r\n\r\n");
    stream
        .write_all(format!("{request}{request}").as_bytes())
        .unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer);
    assert_eq!(answer.matches("HTTP/1.1 200 OK").count(), 1, "{answer}");
    let stopped = site.wait();
    assert_eq!(stopped.requests.len(), 1);
}

#[test]
fn the_site_stops_by_itself_after_its_lifetime() {
    let site = Options::new()
        .lifetime(Duration::from_millis(300))
        .start(&Scenario::new(200, BODY))
        .unwrap();
    let origin = site.origin().to_owned();
    assert_eq!(get(&agent(), &site.robots_url()).status, 200);
    let stopped = site.wait();
    assert_eq!(stopped.reason, StopReason::Lifetime);
    assert_eq!(stopped.requests.len(), 1);
    assert_refused(&origin);
}

#[test]
fn is_stopped_turns_true_by_itself() {
    let site = Options::new()
        .lifetime(Duration::from_millis(200))
        .start(&Scenario::new(200, BODY))
        .unwrap();
    assert!(!site.is_stopped());
    let deadline = std::time::Instant::now() + Duration::from_secs(3);
    while !site.is_stopped() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(site.is_stopped());
    assert_refused(site.origin());
}

#[test]
fn after_stop_nothing_listens_even_with_an_idle_connection_open() {
    let site = Site::start(&Scenario::new(200, BODY).with_redirects([Redirect::cross_origin(302)]))
        .unwrap();
    let (first, second) = (
        site.origin().to_owned(),
        site.second_origin().unwrap().to_owned(),
    );
    let idle = connect(&first).unwrap();
    assert_eq!(get(&agent(), &site.robots_url()).status, 302);
    let stopped = site.stop();
    assert_eq!(stopped.reason, StopReason::Stopped);
    assert_refused(&first);
    assert_refused(&second);
    drop(idle);
}

#[test]
fn after_drop_nothing_listens() {
    let site = Site::start(&Scenario::new(200, BODY)).unwrap();
    let origin = site.origin().to_owned();
    drop(site);
    assert_refused(&origin);
}

#[test]
fn garbage_from_a_client_does_not_break_the_site() {
    let site = Site::start(&Scenario::new(200, BODY)).unwrap();
    for garbage in [
        &b"\x00\x01\x02 not http at all\r\n\r\n"[..],
        b"GET / HTTP/9.9\r\n\r\n",
        b"GET /robots.txt HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n",
        b"GET /robots.txt HTTP/1.1\r\nHost",
        &[0xff; 70_000][..],
    ] {
        let mut stream = connect(site.origin()).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(2)))
            .unwrap();
        let _ = stream.write_all(garbage);
        let _ = stream.shutdown(std::net::Shutdown::Write);
        let mut sink = Vec::new();
        let _ = stream.read_to_end(&mut sink);
    }
    assert_eq!(get(&agent(), &site.robots_url()).body, BODY.as_bytes());
}

#[test]
fn zero_bounds_are_refused() {
    let scenario = Scenario::new(200, BODY);
    assert!(Options::new()
        .max_requests(0)
        .start(&scenario)
        .unwrap_err()
        .is_invalid_scenario());
    assert!(Options::new()
        .lifetime(Duration::ZERO)
        .start(&scenario)
        .unwrap_err()
        .is_invalid_scenario());
}
