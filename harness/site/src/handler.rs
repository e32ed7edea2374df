//! The answers: each request is logged, then answered from the plan (a redirect hop, the
//! robots.txt whole or cut by its fault, the start page, a page, or 404).

use std::fmt;

use bytes::Bytes;
use http::header::{CONTENT_ENCODING, CONTENT_LENGTH, CONTENT_TYPE, LOCATION, USER_AGENT};
use http::{HeaderValue, StatusCode};
use hyper::body::Incoming;

use crate::faults;
use crate::log::Admission;
use crate::pages;
use crate::plan::Route;
use crate::response_body::SiteBody;
use crate::scenario::Fault;
use crate::site::{Shared, StopReason};

/// A request past the bound: hyper closes the connection without an answer.
#[derive(Debug)]
pub(crate) struct OverLimit;

/// The answer to one request (logged first), or no answer past the request bound.
pub(crate) fn answer(
    shared: &Shared,
    origin: usize,
    handle: Option<&std::net::TcpStream>,
    request: &http::Request<Incoming>,
) -> Result<http::Response<SiteBody>, OverLimit> {
    let path = request
        .uri()
        .path_and_query()
        .map_or("", http::uri::PathAndQuery::as_str);
    let user_agent = request
        .headers()
        .get(USER_AGENT)
        .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned());
    let origin_name = shared.origins.get(origin).map_or("", String::as_str);
    match shared
        .log
        .admit(request.method().as_str(), origin_name, path, user_agent)
    {
        Admission::OverLimit => return Err(OverLimit),
        Admission::Admitted { last: true } => shared.stop(StopReason::RequestLimit),
        Admission::Admitted { last: false } => {}
    }
    Ok(match shared.plan.route(origin, path) {
        None => simple(
            StatusCode::NOT_FOUND,
            "text/plain; charset=utf-8",
            Bytes::from_static(pages::NOT_FOUND.as_bytes()),
        ),
        Some(Route::Redirect { status, location }) => {
            let mut response = http::Response::new(SiteBody::empty());
            *response.status_mut() = *status;
            response.headers_mut().insert(LOCATION, location.clone());
            response
        }
        Some(Route::Start) => simple(
            StatusCode::OK,
            "text/html; charset=utf-8",
            shared.plan.start_page.clone(),
        ),
        Some(Route::Page) => simple(
            StatusCode::OK,
            "text/html; charset=utf-8",
            Bytes::from(pages::page(path)),
        ),
        Some(Route::Robots) => robots(shared, handle),
    })
}

/// A whole response with a static content type.
fn simple(status: StatusCode, content_type: &'static str, body: Bytes) -> http::Response<SiteBody> {
    let mut response = http::Response::new(SiteBody::whole(body));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

/// The final robots.txt response, whole or cut by the scenario's fault.
fn robots(shared: &Shared, handle: Option<&std::net::TcpStream>) -> http::Response<SiteBody> {
    let robots = &shared.plan.robots;
    let mut response = http::Response::new(SiteBody::empty());
    *response.status_mut() = robots.status;
    let headers = response.headers_mut();
    if let Some(content_type) = &robots.content_type {
        headers.insert(CONTENT_TYPE, content_type.clone());
    }
    if robots.gzip {
        headers.insert(CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    }
    let status = robots.status;
    if status == StatusCode::NO_CONTENT || status == StatusCode::NOT_MODIFIED {
        return response;
    }
    let length = robots.body.len() as u64;
    let ending = match robots.fault {
        Some(Fault::ResetMidBody) => {
            if let Some(handle) = handle {
                // If this fails, the close is an orderly FIN: the body is still cut short.
                let _ = faults::reset_on_close(handle);
            }
            Some(faults::reset_ending())
        }
        Some(Fault::NeverCompletes) => Some(faults::stall_ending(shared.shutdown.subscribe())),
        Some(Fault::ConnectionRefused) | None => None,
    };
    *response.body_mut() = match ending {
        Some(ending) => {
            headers_length(&mut response, length);
            SiteBody::cut(faults::first_part(&robots.body), length, ending)
        }
        None => SiteBody::whole(robots.body.clone()),
    };
    response
}

/// Announces the full length of a body that will be cut short.
fn headers_length(response: &mut http::Response<SiteBody>, length: u64) {
    response
        .headers_mut()
        .insert(CONTENT_LENGTH, HeaderValue::from(length));
}

impl fmt::Display for OverLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("reptest-site: request bound reached")
    }
}

impl std::error::Error for OverLimit {}
