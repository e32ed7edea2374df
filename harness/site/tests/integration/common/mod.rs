//! Helpers shared by the integration tests: real HTTP clients (ureq; hyper for raw bytes)
//! and connection checks.
#![allow(dead_code)]

use std::io::{self, Read};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use http_body_util::BodyExt as _;
use hyper_util::rt::TokioIo;

/// The user-agent every test client sends.
pub const AGENT: &str = "reptest-site-test/1.0";

/// A ureq agent that follows no redirect, with a short timeout.
pub fn agent() -> ureq::Agent {
    ureq::AgentBuilder::new()
        .redirects(0)
        .timeout(Duration::from_secs(3))
        .user_agent(AGENT)
        .build()
}

/// A ureq agent that follows up to `redirects` redirects.
pub fn following(redirects: u32) -> ureq::Agent {
    ureq::AgentBuilder::new()
        .redirects(redirects)
        .timeout(Duration::from_secs(3))
        .user_agent(AGENT)
        .build()
}

/// A response as a test sees it.
#[derive(Debug)]
pub struct Got {
    pub status: u16,
    pub location: Option<String>,
    pub content_type: Option<String>,
    pub content_encoding: Option<String>,
    pub body: Vec<u8>,
}

/// GETs `url` with `agent`; any status is a response (4xx/5xx included).
pub fn get(agent: &ureq::Agent, url: &str) -> Got {
    let response = match agent.get(url).call() {
        Ok(response) | Err(ureq::Error::Status(_, response)) => response,
        Err(error) => panic!("GET {url}: {error}"),
    };
    let header = |name: &str| response.header(name).map(str::to_owned);
    let (status, location, content_type, content_encoding) = (
        response.status(),
        header("location"),
        header("content-type"),
        header("content-encoding"),
    );
    let mut body = Vec::new();
    response
        .into_reader()
        .read_to_end(&mut body)
        .unwrap_or_else(|error| panic!("GET {url}: body: {error}"));
    Got {
        status,
        location,
        content_type,
        content_encoding,
        body,
    }
}

/// GETs `url` with hyper's client connection: the bytes exactly as on the wire (no
/// decoding), with the headers.
pub fn raw_get(url: &str) -> (http::StatusCode, http::HeaderMap, Vec<u8>) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        tokio::time::timeout(Duration::from_secs(3), async {
            let uri: http::Uri = url.parse().unwrap();
            let authority = uri.authority().unwrap().clone();
            let stream = tokio::net::TcpStream::connect(authority.as_str())
                .await
                .unwrap();
            let (mut sender, connection) =
                hyper::client::conn::http1::handshake(TokioIo::new(stream))
                    .await
                    .unwrap();
            tokio::spawn(connection);
            let request = http::Request::get(uri.path_and_query().unwrap().as_str())
                .header(http::header::HOST, authority.as_str())
                .header(http::header::USER_AGENT, AGENT)
                .body(http_body_util::Empty::<bytes::Bytes>::new())
                .unwrap();
            let response = sender.send_request(request).await.unwrap();
            let (parts, body) = response.into_parts();
            let body = body.collect().await.unwrap().to_bytes();
            (parts.status, parts.headers, body.to_vec())
        })
        .await
        .expect("raw GET timed out")
    })
}

/// The socket address of `http://127.a.b.c:PORT`.
pub fn socket_addr(origin: &str) -> SocketAddr {
    origin
        .strip_prefix("http://")
        .unwrap()
        .parse()
        .unwrap_or_else(|_| panic!("origin {origin}"))
}

/// Connecting to `origin` now: the error, if it fails.
pub fn connect(origin: &str) -> io::Result<TcpStream> {
    TcpStream::connect_timeout(&socket_addr(origin), Duration::from_secs(1))
}

/// Asserts nothing listens on `origin` (the connection is refused).
pub fn assert_refused(origin: &str) {
    match connect(origin) {
        Ok(_) => panic!("{origin} still accepts connections"),
        Err(error) => assert_eq!(error.kind(), io::ErrorKind::ConnectionRefused, "{origin}"),
    }
}

/// The `href` values of a page, HTML-unescaped (enough for the start page's own output).
pub fn hrefs(html: &str) -> Vec<String> {
    html.split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(|href| {
            href.replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&")
        })
        .collect()
}

/// Bytes 0..=255 repeated up to `len`: not UTF-8, every octet present.
pub fn binary_body(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 7 % 256) as u8).collect()
}
