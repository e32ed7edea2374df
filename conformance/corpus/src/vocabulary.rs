//! The two closed vocabularies every part of reptest shares: the words of an outcome and
//! the names of the profiles. Each is one enum, serialized as its lowercase word, so
//! nothing compares strings.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// What one implementation answered for one query, as a word: a verdict (`allowed`,
/// `disallowed`) or why it gave none.
///
/// ```
/// use reptest_corpus::OutcomeWord;
/// assert_eq!("timeout".parse::<OutcomeWord>(), Ok(OutcomeWord::Timeout));
/// assert_eq!(OutcomeWord::Disallowed.to_string(), "disallowed");
/// assert_eq!(OutcomeWord::Allowed.verdict(), Some(true));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OutcomeWord {
    /// The URL may be crawled.
    Allowed,
    /// The URL must not be crawled.
    Disallowed,
    /// The implementation cannot express the query (e.g. a fetch outcome).
    Unsupported,
    /// The implementation failed on the input.
    Error,
    /// No answer in time.
    Timeout,
    /// The implementation's process died.
    Crash,
}

impl OutcomeWord {
    /// Every word, in this order.
    pub const ALL: [OutcomeWord; 6] = [
        OutcomeWord::Allowed,
        OutcomeWord::Disallowed,
        OutcomeWord::Unsupported,
        OutcomeWord::Error,
        OutcomeWord::Timeout,
        OutcomeWord::Crash,
    ];

    /// The word: `allowed`, `disallowed`, `unsupported`, `error`, `timeout`, `crash`.
    pub fn as_str(self) -> &'static str {
        match self {
            OutcomeWord::Allowed => "allowed",
            OutcomeWord::Disallowed => "disallowed",
            OutcomeWord::Unsupported => "unsupported",
            OutcomeWord::Error => "error",
            OutcomeWord::Timeout => "timeout",
            OutcomeWord::Crash => "crash",
        }
    }

    /// The verdict (`true` = allowed) when the word is one.
    pub fn verdict(self) -> Option<bool> {
        match self {
            OutcomeWord::Allowed => Some(true),
            OutcomeWord::Disallowed => Some(false),
            _ => None,
        }
    }

    /// The word of a verdict.
    pub fn of_verdict(allowed: bool) -> OutcomeWord {
        if allowed {
            OutcomeWord::Allowed
        } else {
            OutcomeWord::Disallowed
        }
    }
}

/// Words sort alphabetically, like the strings they serialize to (partitions, maps and
/// identifiers derived from them stay as they were when they were strings).
impl Ord for OutcomeWord {
    fn cmp(&self, other: &OutcomeWord) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl PartialOrd for OutcomeWord {
    fn partial_cmp(&self, other: &OutcomeWord) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// A word that is not one of [`OutcomeWord::ALL`] or [`Profile::ALL`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownWord {
    word: String,
    expected: Vec<&'static str>,
}

impl fmt::Display for UnknownWord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not one of {}",
            self.word,
            self.expected.join(", ")
        )
    }
}

impl std::error::Error for UnknownWord {}

impl FromStr for OutcomeWord {
    type Err = UnknownWord;

    fn from_str(word: &str) -> Result<OutcomeWord, UnknownWord> {
        OutcomeWord::ALL
            .into_iter()
            .find(|w| w.as_str() == word)
            .ok_or_else(|| UnknownWord {
                word: word.to_string(),
                expected: OutcomeWord::ALL.iter().map(|w| w.as_str()).collect(),
            })
    }
}

impl fmt::Display for OutcomeWord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A named set of expectations: `rfc9309` (the default, the `expect` field itself) or
/// `google` (google/robotstxt's choices where the RFC leaves one).
///
/// ```
/// use reptest_corpus::Profile;
/// assert_eq!("google".parse::<Profile>(), Ok(Profile::Google));
/// assert_eq!(Profile::default().as_str(), "rfc9309");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Profile {
    /// RFC 9309 as written (the default).
    #[default]
    Rfc9309,
    /// Google's documented choices.
    Google,
}

impl Profile {
    /// Every profile, the default first.
    pub const ALL: [Profile; 2] = [Profile::Rfc9309, Profile::Google];

    /// The name: `rfc9309` or `google`.
    pub fn as_str(self) -> &'static str {
        match self {
            Profile::Rfc9309 => "rfc9309",
            Profile::Google => "google",
        }
    }

    /// Every profile's name, the default first (for command-line choices).
    pub fn names() -> [&'static str; 2] {
        Profile::ALL.map(Profile::as_str)
    }
}

/// Profiles sort by name (as map keys in reports, like the strings they serialize to).
impl Ord for Profile {
    fn cmp(&self, other: &Profile) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl PartialOrd for Profile {
    fn partial_cmp(&self, other: &Profile) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl FromStr for Profile {
    type Err = UnknownWord;

    fn from_str(name: &str) -> Result<Profile, UnknownWord> {
        Profile::ALL
            .into_iter()
            .find(|p| p.as_str() == name)
            .ok_or_else(|| UnknownWord {
                word: name.to_string(),
                expected: Profile::names().to_vec(),
            })
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Serialized as its word; read back through [`FromStr`], so an unknown word is an error
/// that lists the known ones.
macro_rules! serde_as_word {
    ($type:ty) => {
        impl Serialize for $type {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $type {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let word = String::deserialize(deserializer)?;
                word.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

serde_as_word!(OutcomeWord);
serde_as_word!(Profile);
