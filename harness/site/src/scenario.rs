//! The scenario model: what one origin serves at `/robots.txt`, and which pages it links.

use std::fmt;
use std::str::FromStr;

use base64::Engine as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::Error;

/// What one origin serves for one fetch of its robots.txt (RFC 9309 §2.3.1), and the pages
/// its start page links to.
///
/// A request for `/robots.txt` walks the [`redirects`](Self::redirects) (hop *k* answers
/// its 3xx status with an absolute `Location` naming `/hop/k/robots.txt`, on the other
/// origin when the hop has [`cross_origin`](Redirect::cross_origin)), then gets the
/// [`response`](Self::response), delivered as the [`fault`](Self::fault) says, if any.
///
/// Every field has a default, so the corpus can describe a scenario in TOML with only what
/// matters:
///
/// ```
/// use reptest_site::{Fault, Scenario};
///
/// let scenario: Scenario = toml::from_str(
///     r#"
///     pages = ["/private/a", "/public?q=1"]
///     fault = "reset-mid-body"
///
///     [[redirects]]
///     status = 301
///
///     [[redirects]]
///     status = 308
///     cross_origin = true
///
///     [response]
///     body = "User-agent: *\nDisallow: /private\n"
///     content_type = "text/html"
///     gzip = true
///     "#,
/// )?;
/// assert_eq!(scenario.redirects.len(), 2);
/// assert_eq!(scenario.response.status, 200);
/// assert_eq!(scenario.fault, Some(Fault::ResetMidBody));
/// assert_eq!(scenario, Scenario::new(200, "User-agent: *\nDisallow: /private\n")
///     .with_redirects([reptest_site::Redirect::new(301), reptest_site::Redirect::cross_origin(308)])
///     .with_content_type("text/html")
///     .with_gzip(true)
///     .with_fault(Fault::ResetMidBody)
///     .with_pages(["/private/a", "/public?q=1"]));
/// # Ok::<(), toml::de::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Scenario {
    /// URL paths (with an optional query) that answer 200 with a small HTML page, each
    /// linked from the start page ([`START_PATH`](crate::START_PATH)). Reserved, hence
    /// refused: `/robots.txt`, the start page and anything under `/hop/`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pages: Vec<String>,
    /// A network fault that replaces or cuts the final response.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fault: Option<Fault>,
    /// The redirect hops in front of the final response, in order (§2.3.1.2).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub redirects: Vec<Redirect>,
    /// The final response to the robots.txt request.
    pub response: Response,
}

/// One redirect hop (RFC 9309 §2.3.1.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Redirect {
    /// The redirect status, 300–399 (default 301).
    pub status: u16,
    /// The `Location` names the *other* origin (from the first to the second, or back),
    /// a different loopback address and port: a redirect "across authorities".
    pub cross_origin: bool,
}

/// The final response to the robots.txt request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Response {
    /// The HTTP status, 200–999 (default 200). A 204 or 304 carries no body.
    pub status: u16,
    /// The body, byte for byte (before gzip).
    pub body: Body,
    /// The `Content-Type` (default `text/plain`); empty for none at all.
    pub content_type: String,
    /// The server gzips the body itself and sends `Content-Encoding: gzip` (whatever the
    /// request's `Accept-Encoding`).
    pub gzip: bool,
}

/// A network fault in place of a clean final response (RFC 9309 §2.3.1.4, "unreachable due
/// to server or network errors").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Fault {
    /// Connecting to the origin of the final response fails: its port is bound but never
    /// listens. Without redirects that is the site's only origin (the start page is then
    /// unreachable too); with redirects, exactly the last hop must cross to the second
    /// origin, which then serves nothing.
    ConnectionRefused,
    /// The status line, the headers (with the full `Content-Length`) and the first half of
    /// the body, then a TCP reset (`SO_LINGER` 0).
    ResetMidBody,
    /// The status line, the headers (with the full `Content-Length`) and the first half of
    /// the body, then silence until the site stops.
    NeverCompletes,
}

/// A body: any bytes. In TOML, a string (UTF-8 text) or `{ base64 = "..." }` (any bytes).
#[derive(Clone, PartialEq, Eq, Default)]
pub struct Body(Vec<u8>);

impl Scenario {
    /// A scenario whose robots.txt answers `status` with `body` (`text/plain`), no
    /// redirects, no fault, no pages.
    pub fn new(status: u16, body: impl Into<Body>) -> Self {
        Self {
            response: Response {
                status,
                body: body.into(),
                ..Response::default()
            },
            ..Self::default()
        }
    }

    /// The same scenario with these redirect hops in front of the final response.
    pub fn with_redirects(mut self, redirects: impl IntoIterator<Item = Redirect>) -> Self {
        self.redirects = redirects.into_iter().collect();
        self
    }

    /// The same scenario with this fault.
    pub fn with_fault(mut self, fault: Fault) -> Self {
        self.fault = Some(fault);
        self
    }

    /// The same scenario with these pages linked from the start page.
    pub fn with_pages<S: Into<String>>(mut self, pages: impl IntoIterator<Item = S>) -> Self {
        self.pages = pages.into_iter().map(Into::into).collect();
        self
    }

    /// The same scenario with the body gzipped by the server (or not).
    pub fn with_gzip(mut self, gzip: bool) -> Self {
        self.response.gzip = gzip;
        self
    }

    /// The same scenario with this `Content-Type` (empty: none).
    pub fn with_content_type(mut self, content_type: impl Into<String>) -> Self {
        self.response.content_type = content_type.into();
        self
    }

    /// Whether some hop crosses to the second origin.
    pub fn crosses_origin(&self) -> bool {
        self.redirects.iter().any(|hop| hop.cross_origin)
    }

    /// Checks that the scenario can be served as written ([`Site::start`] does too).
    ///
    /// [`Site::start`]: crate::Site::start
    pub fn validate(&self) -> Result<(), Error> {
        let status = self.response.status;
        if !(200..=999).contains(&status) {
            return Err(Error::invalid(format!(
                "response.status {status} is not a final HTTP status (200-999)"
            )));
        }
        for (index, hop) in self.redirects.iter().enumerate() {
            if !(300..=399).contains(&hop.status) {
                return Err(Error::invalid(format!(
                    "redirects[{index}].status {} is not a redirect status (300-399)",
                    hop.status
                )));
            }
        }
        if http::HeaderValue::from_str(&self.response.content_type).is_err() {
            return Err(Error::invalid(format!(
                "response.content_type {:?} is not a header value",
                self.response.content_type
            )));
        }
        for page in &self.pages {
            check_page(page)?;
        }
        if self.fault == Some(Fault::ConnectionRefused) {
            if let Some((last, before)) = self.redirects.split_last() {
                if !last.cross_origin || before.iter().any(|hop| hop.cross_origin) {
                    return Err(Error::invalid(
                        "fault connection-refused after redirects: exactly the last hop must \
                         cross to the second origin (the one that refuses)",
                    ));
                }
            }
        }
        Ok(())
    }
}

/// A page path: an origin-form request target, not reserved (what [`Scenario::validate`]
/// asks of each of `pages`).
pub(crate) fn check_page(page: &str) -> Result<(), Error> {
    let parsed = http::uri::PathAndQuery::from_str(page).ok();
    let well_formed = page.starts_with('/')
        && page
            .bytes()
            .all(|byte| byte.is_ascii_graphic() && byte != b'#')
        && parsed.is_some_and(|parsed| parsed.as_str() == page);
    if !well_formed {
        return Err(Error::invalid(format!(
            "page {page:?} is not a URL path with an optional query (printable ASCII, \
             starting with '/')"
        )));
    }
    let path = page.split('?').next().unwrap_or(page);
    if path == "/robots.txt" || path == crate::pages::START_PATH || path.starts_with("/hop/") {
        return Err(Error::invalid(format!(
            "page {page:?} is reserved (/robots.txt and /hop/... serve the robots.txt, {} is \
             the start page)",
            crate::pages::START_PATH
        )));
    }
    Ok(())
}

impl Default for Redirect {
    fn default() -> Self {
        Self::new(301)
    }
}

impl Redirect {
    /// A same-origin hop with this status.
    pub fn new(status: u16) -> Self {
        Self {
            status,
            cross_origin: false,
        }
    }

    /// A hop with this status whose `Location` names the other origin.
    pub fn cross_origin(status: u16) -> Self {
        Self {
            status,
            cross_origin: true,
        }
    }
}

impl Default for Response {
    fn default() -> Self {
        Self {
            status: 200,
            body: Body::default(),
            content_type: "text/plain".to_owned(),
            gzip: false,
        }
    }
}

impl Body {
    /// The body's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The body's bytes, owned.
    pub fn into_bytes(self) -> Vec<u8> {
        self.0
    }

    /// Its length in bytes.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether it has no bytes.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl From<Vec<u8>> for Body {
    fn from(bytes: Vec<u8>) -> Self {
        Self(bytes)
    }
}

impl From<&[u8]> for Body {
    fn from(bytes: &[u8]) -> Self {
        Self(bytes.to_vec())
    }
}

impl<const N: usize> From<&[u8; N]> for Body {
    fn from(bytes: &[u8; N]) -> Self {
        Self(bytes.to_vec())
    }
}

impl From<String> for Body {
    fn from(text: String) -> Self {
        Self(text.into_bytes())
    }
}

impl From<&str> for Body {
    fn from(text: &str) -> Self {
        Self(text.as_bytes().to_vec())
    }
}

impl fmt::Debug for Body {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHOWN: usize = 64;
        match std::str::from_utf8(&self.0) {
            Ok(text) if text.len() <= SHOWN => write!(f, "Body({text:?})"),
            _ => write!(f, "Body({} bytes)", self.0.len()),
        }
    }
}

/// How a [`Body`] is written in serde formats.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum BodyRepr {
    Text(String),
    Base64 { base64: String },
}

impl Serialize for Body {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match std::str::from_utf8(&self.0) {
            Ok(text) => BodyRepr::Text(text.to_owned()),
            Err(_) => BodyRepr::Base64 {
                base64: base64::engine::general_purpose::STANDARD.encode(&self.0),
            },
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Body {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match BodyRepr::deserialize(deserializer)? {
            BodyRepr::Text(text) => Ok(Self(text.into_bytes())),
            BodyRepr::Base64 { base64 } => base64::engine::general_purpose::STANDARD
                .decode(base64.as_bytes())
                .map(Self)
                .map_err(|error| serde::de::Error::custom(format!("body.base64: {error}"))),
        }
    }
}
