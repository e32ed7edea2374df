//! The requirement index: `requirements.md`, a Markdown list of stable IDs and levels.
//!
//! Each requirement is a list item of the form ``- `ID` LEVEL — text``; profile items
//! (``- `profile-NAME` — text``) carry no level. An ID ending in `-*` names a family:
//! `profile-google-*` admits any `profile-google-<name>`.

use crate::model::Level;
use std::collections::BTreeMap;

/// The level of a requirement in the index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RequirementLevel {
    /// An RFC requirement with its BCP 14 level.
    Rfc(Level),
    /// Widely deployed behaviour described separately, not an RFC requirement.
    Profile,
}

impl RequirementLevel {
    /// `MUST`, `SHOULD`, `MAY` or `PROFILE`.
    pub fn as_str(self) -> &'static str {
        match self {
            RequirementLevel::Rfc(level) => level.as_str(),
            RequirementLevel::Profile => "PROFILE",
        }
    }
}

/// One entry of the index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requirement {
    /// The stable ID, e.g. `2.2.2-LONGEST` or `profile-google-*`.
    pub id: String,
    /// Its level.
    pub level: RequirementLevel,
    /// The paraphrase of the RFC text.
    pub text: String,
    /// The section heading it is listed under.
    pub section: String,
}

/// The parsed requirement index.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RequirementIndex {
    entries: BTreeMap<String, Requirement>,
    order: Vec<String>,
}

impl RequirementIndex {
    /// Parses the Markdown index. Errors name the 1-based line.
    pub fn parse(markdown: &str) -> Result<RequirementIndex, (usize, String)> {
        let mut index = RequirementIndex::default();
        let mut section = String::new();
        for (n, line) in markdown.lines().enumerate() {
            if let Some(heading) = line.strip_prefix("## ") {
                section = heading.trim().to_owned();
                continue;
            }
            let Some(item) = line.strip_prefix("- `") else {
                continue;
            };
            let Some((id, rest)) = item.split_once('`') else {
                return Err((n + 1, "an item's ID has no closing backtick".into()));
            };
            let rest = rest.trim_start();
            let (level, text) = match rest.split_once(' ') {
                Some((word, text)) if Level::parse(word).is_some() => (
                    RequirementLevel::Rfc(Level::parse(word).unwrap_or(Level::May)),
                    text,
                ),
                _ if id.starts_with("profile-") => (RequirementLevel::Profile, rest),
                _ => {
                    return Err((
                        n + 1,
                        format!("requirement `{id}` has no level (MUST, SHOULD or MAY)"),
                    ))
                }
            };
            let text = text.trim_start_matches(['—', '-', ' ']).trim().to_owned();
            if index.entries.contains_key(id) {
                return Err((n + 1, format!("requirement `{id}` is listed twice")));
            }
            index.order.push(id.to_owned());
            index.entries.insert(
                id.to_owned(),
                Requirement {
                    id: id.to_owned(),
                    level,
                    text,
                    section: section.clone(),
                },
            );
        }
        if index.entries.is_empty() {
            return Err((
                1,
                "no requirements found (expected items like - `ID` MUST — text)".into(),
            ));
        }
        Ok(index)
    }

    /// The entry an ID cited by a case belongs to: itself, or the family (`X-*`) it is a
    /// member of.
    pub fn resolve(&self, id: &str) -> Option<&Requirement> {
        if let Some(entry) = self.entries.get(id) {
            return Some(entry);
        }
        self.entries.values().find(|entry| {
            entry
                .id
                .strip_suffix('*')
                .is_some_and(|prefix| id.len() > prefix.len() && id.starts_with(prefix))
        })
    }

    /// Every entry, in index order.
    pub fn iter(&self) -> impl Iterator<Item = &Requirement> {
        self.order.iter().filter_map(|id| self.entries.get(id))
    }

    /// How many entries the index has.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether the index has no entries.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "# Index\n## 2.1 Protocol\n- `2.1-GROUP` MUST — A group.\n- `2.2-X` MAY — x.\n## Profiles\n- `profile-BOM` — BOM.\n- `profile-google-*` — Google.\n";

    #[test]
    fn parses_levels_profiles_and_families() {
        let index = RequirementIndex::parse(SAMPLE).unwrap();
        assert_eq!(index.len(), 4);
        let group = index.resolve("2.1-GROUP").unwrap();
        assert_eq!(group.level, RequirementLevel::Rfc(Level::Must));
        assert_eq!(group.text, "A group.");
        assert_eq!(group.section, "2.1 Protocol");
        assert_eq!(
            index.resolve("profile-BOM").unwrap().level,
            RequirementLevel::Profile
        );
        assert_eq!(
            index.resolve("profile-google-typos").unwrap().id,
            "profile-google-*"
        );
        assert!(index.resolve("profile-google-").is_none());
        assert!(index.resolve("2.1-GROUPS").is_none());
    }

    #[test]
    fn rejects_items_without_level_or_twice() {
        assert_eq!(
            RequirementIndex::parse("- `2.1-A` text\n").unwrap_err().0,
            1
        );
        assert!(RequirementIndex::parse("- `A` MUST x\n- `A` MUST y\n")
            .unwrap_err()
            .1
            .contains("twice"));
        assert!(RequirementIndex::parse("nothing here").is_err());
    }

    /// Where corpus 2.0.0's index departs from the shared one on a level, and why. The
    /// shared copy is kept outside this repository; until it is updated, every
    /// departure is listed here, so an unlisted one fails.
    const LEVEL_DEPARTURES: &[(&str, &str, &str)] = &[(
        "2.2.2-ENCODE-RESERVED",
        "MAY",
        "§2.2.2: reserved octets \"MUST be percent-encoded … prior to comparison\", and \
         Figure 4 row 2 is that case (issue 11, item 3)",
    )];

    #[test]
    fn the_shipped_index_parses_and_keeps_every_shared_id() {
        let ours = std::fs::read_to_string(crate::default_dir().join("requirements.md")).unwrap();
        let index = RequirementIndex::parse(&ours).unwrap();
        assert!(index.len() >= 40);
        let shared = crate::default_dir().join("../../shared/rfc9309-requirements.md");
        let Ok(theirs) = std::fs::read_to_string(&shared) else {
            eprintln!("note: {} not found; sync check skipped", shared.display());
            return;
        };
        let theirs = RequirementIndex::parse(&theirs).unwrap();
        // IDs are stable: ours only adds. A level changes only as a listed departure.
        let mut problems = Vec::new();
        for requirement in theirs.iter() {
            match index.entries.get(&requirement.id) {
                None => problems.push(format!("`{}` is missing", requirement.id)),
                Some(mine) if mine.level != requirement.level => {
                    let listed = LEVEL_DEPARTURES.iter().any(|(id, was, _)| {
                        *id == requirement.id && *was == requirement.level.as_str()
                    });
                    if !listed {
                        problems.push(format!(
                            "`{}` is {} here but {} in {}: list the departure and its reason",
                            requirement.id,
                            mine.level.as_str(),
                            requirement.level.as_str(),
                            shared.display()
                        ));
                    }
                }
                Some(_) => {}
            }
        }
        for (id, was, _) in LEVEL_DEPARTURES {
            let still = theirs
                .entries
                .get(*id)
                .is_some_and(|r| r.level.as_str() == *was);
            let differs =
                theirs.entries.get(*id).map(|r| r.level) != index.entries.get(*id).map(|r| r.level);
            if !(still && differs) {
                problems.push(format!(
                    "departure `{id}` (was {was}) no longer holds: remove it"
                ));
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}
