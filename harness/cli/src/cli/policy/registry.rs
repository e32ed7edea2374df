//! The `crawler-user-agents` package (pinned; `bash harness/external/setup
//! crawler-list` installs it under harness/external/.state): its user-agent patterns
//! cross-check the curated catalogue's tokens. Never committed, read at run time only.

use reptest::report::policy::audit::Registry;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The pinned version `harness/external/crawler-list/setup.sh` installs.
pub(super) const VERSION: &str = "1.67.0";

/// One entry of the package's JSON.
#[derive(Deserialize)]
struct Entry {
    pattern: String,
    #[serde(default)]
    instances: Vec<String>,
}

/// The package's patterns, compiled (those the `regex` crate cannot compile are left
/// out), with the instances of each.
pub(super) struct Patterns {
    entries: Vec<(String, regex::Regex, Vec<String>)>,
    /// What the report says of the package.
    pub info: Registry,
}

impl Patterns {
    /// The patterns that match `token` itself, or one of whose example user agents
    /// holds it (compared without regard to case, as RFC 9309 §2.2.1 compares tokens).
    pub fn matching(&self, token: &str) -> Vec<String> {
        let lower = token.to_ascii_lowercase();
        self.entries
            .iter()
            .filter(|(_, re, instances)| {
                re.is_match(token)
                    || instances
                        .iter()
                        .any(|i| i.to_ascii_lowercase().contains(&lower))
            })
            .map(|(p, _, _)| p.clone())
            .collect()
    }
}

/// Where the setup script puts the package's JSON, under the state folder.
pub(super) fn default_path(state: &Path) -> PathBuf {
    state
        .join("crawler-user-agents")
        .join("crawleruseragents")
        .join("crawler-user-agents.json")
}

/// Loads the JSON at `path`: `Ok(None)` when the file does not exist.
pub(super) fn load(path: &Path) -> Result<Option<Patterns>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let entries: Vec<Entry> = serde_json::from_str(&text)
        .map_err(|e| format!("{} is not crawler-user-agents' JSON: {e}", path.display()))?;
    let patterns = entries.len();
    let entries = entries
        .into_iter()
        .filter_map(|e| {
            let re = regex::Regex::new(&e.pattern).ok()?;
            Some((e.pattern, re, e.instances))
        })
        .collect();
    Ok(Some(Patterns {
        entries,
        info: Registry {
            version: version_of(path).unwrap_or_else(|| "(unknown version)".to_string()),
            patterns,
        },
    }))
}

/// The installed version, from the `crawler_user_agents-VERSION.dist-info` folder beside
/// the package.
fn version_of(json: &Path) -> Option<String> {
    let site = json.parent()?.parent()?;
    std::fs::read_dir(site).ok()?.flatten().find_map(|entry| {
        let name = entry.file_name().to_string_lossy().into_owned();
        let rest = name.strip_prefix("crawler_user_agents-")?;
        rest.strip_suffix(".dist-info").map(str::to_string)
    })
}
