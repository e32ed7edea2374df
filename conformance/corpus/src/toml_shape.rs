//! The TOML shape of a case file, exactly as written (validated in `load`).

use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct File {
    #[serde(default)]
    pub(crate) case: Vec<Case>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Case {
    pub(crate) id: Spanned<String>,
    pub(crate) title: String,
    pub(crate) robots: Option<Spanned<String>>,
    pub(crate) body: Option<Vec<Segment>>,
    #[serde(default)]
    pub(crate) unescape: bool,
    #[serde(default)]
    pub(crate) dimensions: Vec<String>,
    pub(crate) requirements: Option<Vec<String>>,
    pub(crate) level: Option<String>,
    pub(crate) question: Option<String>,
    pub(crate) fetch: Option<Fetch>,
    #[serde(default)]
    pub(crate) query: Vec<Query>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Query {
    pub(crate) name: Option<Spanned<String>>,
    pub(crate) agent: Spanned<String>,
    pub(crate) url: String,
    pub(crate) expect: String,
    pub(crate) requirements: Option<Vec<String>>,
    pub(crate) level: Option<String>,
    pub(crate) why: String,
    #[serde(default)]
    pub(crate) profiles: BTreeMap<String, String>,
    pub(crate) triage: Option<String>,
    pub(crate) question: Option<String>,
    pub(crate) hits: Option<u64>,
    #[serde(default)]
    pub(crate) observed: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Segment {
    pub(crate) text: Option<String>,
    pub(crate) repeat: Option<String>,
    pub(crate) count: Option<usize>,
    pub(crate) pad_to: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Fetch {
    pub(crate) status: Option<u16>,
    #[serde(default)]
    pub(crate) network_error: bool,
    pub(crate) fault: Option<String>,
    #[serde(default)]
    pub(crate) redirects: u32,
    #[serde(default)]
    pub(crate) cross_origin: bool,
    pub(crate) content_encoding: Option<String>,
    pub(crate) content_type: Option<String>,
    pub(crate) cache: Option<Cache>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Cache {
    pub(crate) age_hours: u32,
    pub(crate) robots: String,
}
