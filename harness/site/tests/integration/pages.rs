//! The start page and the linked pages: a crawler that obeys nothing reaches every page.

use crate::common;

use common::{agent, get, hrefs};
use reptest_site::{Scenario, Site};

#[test]
fn the_start_page_links_every_page_and_each_answers_200() {
    let pages = [
        "/private/a.html",
        "/public",
        "/search?q=1&x=%20y",
        "/a%2Fb",
        "/%E2%82%AC/",
        "/fish*.php$",
        "/",
    ];
    let site =
        Site::start(&Scenario::new(200, "User-agent: *\nDisallow: /private\n").with_pages(pages))
            .unwrap();
    let agent = agent();
    let start = get(&agent, &site.start_url());
    assert_eq!(start.status, 200);
    assert_eq!(
        start.content_type.as_deref(),
        Some("text/html; charset=utf-8")
    );
    let links = hrefs(std::str::from_utf8(&start.body).unwrap());
    assert_eq!(links, pages);
    for link in &links {
        let got = get(&agent, &site.page_url(link));
        assert_eq!(got.status, 200, "{link}");
        assert_eq!(
            got.content_type.as_deref(),
            Some("text/html; charset=utf-8")
        );
        assert!(std::str::from_utf8(&got.body).unwrap().contains("<html>"));
    }
    let paths: Vec<String> = site.log().into_iter().map(|r| r.path).collect();
    assert_eq!(paths[1..], links);
}

#[test]
fn any_other_path_answers_404() {
    let site = Site::start(&Scenario::new(200, "").with_pages(["/a?b=1"])).unwrap();
    let agent = agent();
    for path in [
        "/a",
        "/a?b=2",
        "/b",
        "/index.html",
        "/hop/1/robots.txt",
        "/robots.txt/x",
    ] {
        assert_eq!(get(&agent, &site.page_url(path)).status, 404, "{path}");
    }
    assert_eq!(get(&agent, &site.page_url("/a?b=1")).status, 200);
}

#[test]
fn reserved_or_malformed_pages_are_refused() {
    for page in [
        "/robots.txt",
        "/robots.txt?x",
        "/hop/1/robots.txt",
        "a",
        "",
        "/a b",
        "/a#b",
        "/ü",
    ] {
        let error = Site::start(&Scenario::new(200, "").with_pages([page])).unwrap_err();
        assert!(error.is_invalid_scenario(), "{page:?}: {error}");
    }
}
