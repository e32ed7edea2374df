//! The final robots.txt response: every status, bodies of any bytes and size, gzip, the
//! content type, and the request log, checked with real HTTP clients.

use crate::common;

use std::io::Read as _;

use common::{agent, binary_body, get, raw_get, AGENT};
use reptest_site::{Options, Scenario, Site};

const BODY: &str = "User-agent: *\nDisallow: /private\n";

#[test]
fn each_status_is_served_as_is() {
    let statuses = [
        200, 204, 301, 302, 303, 307, 308, 401, 403, 404, 410, 429, 500, 502, 503, 299, 599, 999,
    ];
    let agent = agent();
    for status in statuses {
        let site = Site::start(&Scenario::new(status, BODY)).unwrap();
        let got = get(&agent, &site.robots_url());
        assert_eq!(got.status, status);
        if status == 204 {
            assert!(got.body.is_empty(), "a 204 has no body");
        } else {
            assert_eq!(got.body, BODY.as_bytes(), "status {status}");
            assert_eq!(got.content_type.as_deref(), Some("text/plain"));
        }
        // A final 3xx of the scenario's own carries no Location: it is not a hop.
        assert_eq!(got.location, None);
        let stopped = site.stop();
        assert_eq!(stopped.requests.len(), 1);
    }
}

#[test]
fn a_body_over_500_kib_arrives_byte_exact() {
    let body = binary_body(600 * 1024 + 17);
    let site = Site::start(&Scenario::new(200, body.clone())).unwrap();
    let got = get(&agent(), &site.robots_url());
    assert_eq!(got.status, 200);
    assert_eq!(got.body.len(), body.len());
    assert!(got.body == body, "the body differs");
}

#[test]
fn a_gzip_body_decodes_to_the_exact_bytes() {
    let body = binary_body(520 * 1024);
    let site = Site::start(&Scenario::new(200, body.clone()).with_gzip(true)).unwrap();
    let (status, headers, wire) = raw_get(&site.robots_url());
    assert_eq!(status, 200);
    assert_eq!(headers["content-encoding"], "gzip");
    assert_eq!(headers["content-length"], wire.len().to_string().as_str());
    assert_ne!(wire, body, "the body on the wire is gzipped");
    let mut decoded = Vec::new();
    flate2::read::GzDecoder::new(wire.as_slice())
        .read_to_end(&mut decoded)
        .unwrap();
    assert!(decoded == body, "the gunzipped body differs");
}

#[test]
fn the_content_type_is_the_scenarios() {
    let site = Site::start(
        &Scenario::new(200, "<html>User-agent: *</html>").with_content_type("text/html"),
    )
    .unwrap();
    let got = get(&agent(), &site.robots_url());
    assert_eq!(got.content_type.as_deref(), Some("text/html"));
    assert_eq!(got.body, b"<html>User-agent: *</html>");
    drop(site);

    let site = Site::start(&Scenario::new(200, BODY).with_content_type("")).unwrap();
    let (_, headers, _) = raw_get(&site.robots_url());
    assert!(!headers.contains_key("content-type"));
}

#[test]
fn a_query_on_the_robots_txt_still_reaches_it() {
    let site = Site::start(&Scenario::new(200, BODY)).unwrap();
    let got = get(&agent(), &format!("{}?x=1", site.robots_url()));
    assert_eq!(got.body, BODY.as_bytes());
    assert_eq!(site.log()[0].path, "/robots.txt?x=1");
}

#[test]
fn the_log_records_method_origin_path_and_user_agent() {
    let site = Site::start(&Scenario::new(200, BODY).with_pages(["/a?b=1"])).unwrap();
    let agent = agent();
    get(&agent, &site.robots_url());
    get(&agent, &site.page_url("/a?b=1"));
    let head = agent.head(&site.start_url()).call().unwrap();
    assert_eq!(head.status(), 200);
    ureq::AgentBuilder::new()
        .build()
        .get(&site.page_url("/nowhere"))
        .set("User-Agent", "OtherBot/2.0 (+http://example.com)")
        .call()
        .unwrap_err();

    let log = site.log();
    let seen: Vec<_> = log
        .iter()
        .map(|r| {
            (
                r.method.as_str(),
                r.origin.as_str(),
                r.path.as_str(),
                r.user_agent.as_deref(),
            )
        })
        .collect();
    let origin = site.origin();
    assert_eq!(
        seen,
        [
            ("GET", origin, "/robots.txt", Some(AGENT)),
            ("GET", origin, "/a?b=1", Some(AGENT)),
            ("HEAD", origin, reptest_site::START_PATH, Some(AGENT)),
            (
                "GET",
                origin,
                "/nowhere",
                Some("OtherBot/2.0 (+http://example.com)")
            ),
        ]
    );
    assert!(log.windows(2).all(|w| w[0].elapsed <= w[1].elapsed));
    let stopped = site.stop();
    assert_eq!(stopped.requests, log);
}

#[test]
fn a_request_without_user_agent_is_logged_with_none() {
    let site = Site::start(&Scenario::new(200, BODY)).unwrap();
    let status = {
        // hyper's client sends only what it is told; this request has no User-Agent.
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let address = common::socket_addr(site.origin());
            let stream = tokio::net::TcpStream::connect(address).await.unwrap();
            let (mut sender, connection) =
                hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
                    .await
                    .unwrap();
            tokio::spawn(connection);
            let request = http::Request::get("/robots.txt")
                .header(http::header::HOST, address.to_string())
                .body(http_body_util::Empty::<bytes::Bytes>::new())
                .unwrap();
            let response = sender.send_request(request).await.unwrap();
            response.status()
        })
    };
    assert_eq!(status, 200);
    assert_eq!(site.log()[0].user_agent, None);
}

#[test]
fn a_chosen_address_is_used() {
    let site = Options::new()
        .address(std::net::Ipv4Addr::new(127, 0, 0, 3))
        .start(&Scenario::new(200, BODY))
        .unwrap();
    assert!(
        site.origin().starts_with("http://127.0.0.3:"),
        "{}",
        site.origin()
    );
    assert_eq!(get(&agent(), &site.robots_url()).body, BODY.as_bytes());
}

#[test]
fn a_non_loopback_address_is_refused() {
    for address in [[0, 0, 0, 0], [10, 0, 0, 1], [192, 168, 1, 1], [8, 8, 8, 8]] {
        let error = Options::new()
            .address(address.into())
            .start(&Scenario::new(200, BODY))
            .unwrap_err();
        assert!(error.is_invalid_scenario(), "{error}");
        let error = Options::new()
            .second_address(address.into())
            .start(
                &Scenario::new(200, BODY)
                    .with_redirects([reptest_site::Redirect::cross_origin(301)]),
            )
            .unwrap_err();
        assert!(error.to_string().contains("loopback"), "{error}");
    }
}
