//! Redirect chains (RFC 9309 §2.3.1.2), hop by hop with redirects off, followed with them
//! on, and across origins.

use crate::common;

use common::{agent, following, get, socket_addr};
use reptest_site::{Redirect, Scenario, Site};

const BODY: &str = "User-agent: *\nDisallow: /private\n";
const STATUSES: [u16; 5] = [301, 302, 303, 307, 308];

/// A chain of `hops` hops cycling through every redirect status.
fn chain(hops: usize) -> Scenario {
    Scenario::new(200, BODY)
        .with_redirects((0..hops).map(|k| Redirect::new(STATUSES[k % STATUSES.len()])))
}

/// Walks the chain from the robots.txt, checking each hop's status and Location; returns
/// the URLs visited after the first.
fn walk(site: &Site, scenario: &Scenario) -> Vec<String> {
    let agent = agent();
    let mut url = site.robots_url();
    let mut visited = Vec::new();
    for (k, hop) in scenario.redirects.iter().enumerate() {
        let got = get(&agent, &url);
        assert_eq!(got.status, hop.status, "hop {}", k + 1);
        let location = got.location.expect("a hop has a Location");
        assert!(
            location.ends_with(&format!("/hop/{}/robots.txt", k + 1)),
            "hop {}: {location}",
            k + 1
        );
        url = location;
        visited.push(url.clone());
    }
    let got = get(&agent, &url);
    assert_eq!(got.status, 200);
    assert_eq!(got.body, BODY.as_bytes());
    visited
}

#[test]
fn chains_of_1_5_6_and_7_hops_are_served_hop_by_hop() {
    for hops in [1, 5, 6, 7] {
        let scenario = chain(hops);
        let site = Site::start(&scenario).unwrap();
        assert_eq!(site.second_origin(), None);
        let visited = walk(&site, &scenario);
        assert_eq!(visited.len(), hops);
        assert!(visited.iter().all(|url| url.starts_with(site.origin())));
        let stopped = site.stop();
        assert_eq!(stopped.requests.len(), hops + 1);
        assert_eq!(stopped.requests[0].path, "/robots.txt");
        assert_eq!(
            stopped.requests[hops].path,
            format!("/hop/{hops}/robots.txt")
        );
    }
}

#[test]
fn a_client_following_redirects_reaches_the_body_through_7_hops() {
    let site = Site::start(&chain(7)).unwrap();
    let got = get(&following(10), &site.robots_url());
    assert_eq!(got.status, 200);
    assert_eq!(got.body, BODY.as_bytes());
    assert_eq!(site.log().len(), 8);
}

#[test]
fn a_client_with_a_redirect_limit_gives_up_on_a_longer_chain() {
    let site = Site::start(&chain(6)).unwrap();
    let error = following(5).get(&site.robots_url()).call().unwrap_err();
    assert_eq!(error.kind(), ureq::ErrorKind::TooManyRedirects, "{error}");
    assert_eq!(
        get(&following(10), &site.robots_url()).body,
        BODY.as_bytes()
    );
}

#[test]
fn a_chain_crosses_to_a_second_origin_and_back() {
    let scenario = Scenario::new(200, BODY).with_redirects([
        Redirect::new(301),
        Redirect::cross_origin(302),
        Redirect::new(307),
        Redirect::cross_origin(308),
        Redirect::cross_origin(301),
    ]);
    let site = Site::start(&scenario).unwrap();
    let first = site.origin().to_owned();
    let second = site.second_origin().expect("a second origin").to_owned();
    let (a, b) = (socket_addr(&first), socket_addr(&second));
    assert_ne!(a.ip(), b.ip(), "another loopback address");
    assert_ne!(a.port(), b.port(), "another port");
    assert!(a.ip().is_loopback() && b.ip().is_loopback());

    let visited = walk(&site, &scenario);
    let on_second: Vec<bool> = visited.iter().map(|url| url.starts_with(&second)).collect();
    assert_eq!(on_second, [false, true, true, false, true]);

    let log = site.stop().requests;
    let origins: Vec<&str> = log.iter().map(|r| r.origin.as_str()).collect();
    assert_eq!(
        origins,
        [&first, &first, &second, &second, &first, &second].map(String::as_str)
    );
}

#[test]
fn a_client_following_redirects_crosses_origins() {
    let scenario =
        Scenario::new(200, BODY).with_redirects([Redirect::new(302), Redirect::cross_origin(301)]);
    let site = Site::start(&scenario).unwrap();
    let got = get(&following(5), &site.robots_url());
    assert_eq!(got.body, BODY.as_bytes());
    let log = site.log();
    assert_eq!(log.last().map(|r| r.origin.as_str()), site.second_origin());
}

#[test]
fn a_chain_serves_nothing_else_at_its_hop_paths_on_the_other_origin() {
    let site = Site::start(&Scenario::new(200, BODY).with_redirects([Redirect::cross_origin(301)]))
        .unwrap();
    let second = site.second_origin().unwrap().to_owned();
    let agent = agent();
    assert_eq!(get(&agent, &format!("{second}/robots.txt")).status, 404);
    assert_eq!(get(&agent, &format!("{second}/")).status, 404);
    assert_eq!(
        get(&agent, &format!("{}/hop/1/robots.txt", site.origin())).status,
        404
    );
}
