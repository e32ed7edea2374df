//! Query names and ids (corpus 3.0.0; `corpus/README.md`, *Query names and ids*).
//!
//! Every query has a **name** unique within its case, and its **id** is `case/name`.
//! Case ids have no `/`, so an id splits at its first `/` ([`split_id`]); a name may hold
//! `/` itself.
//!
//! A name is given (`name = "..."` on the query, [`check_given`]) or derived from the
//! query's agent and URL ([`derived`]): `agent:target`, where the target is the URL's
//! path and query when the URL is `https://example.com/...` (the corpus's usual origin),
//! else the URL as written. Both parts are escaped so that a name is one line of
//! printable text: see [`derived`]. A derived name depends on nothing but its own query,
//! so inserting, removing or reordering other queries never changes it.
//!
//! Given names are ASCII letters, digits, `.`, `_` and `-` and never hold `:`, while a
//! derived name always does: a given name never equals a derived one. A name of digits
//! only is refused: such ids (`case/3`) were the positional ids of corpus 1.x and 2.x,
//! which [`is_positional`] recognises.

/// The usual origin of corpus URLs: a URL under it is named by its path and query.
pub const USUAL_ORIGIN: &str = "https://example.com";

/// The longest derived name, in characters, the loader accepts: a longer one (a URL of
/// thousands of octets) is unreadable, and the query needs a given `name`.
pub const MAX_DERIVED: usize = 100;

/// The longest given name, in characters.
pub const MAX_GIVEN: usize = 64;

/// The name derived from a query's agent and URL: `agent:target`.
///
/// The target is the path and query of a URL under [`USUAL_ORIGIN`] (`https://example.com`
/// followed by `/`), else the whole URL as written (another scheme, host or port, or a
/// path-only URL such as `/a?b`, which already is a path). In both parts a character is
/// kept when it is a printable ASCII character allowed in a URI (RFC 3986 §2: the
/// unreserved and reserved characters and `%`) or a non-ASCII letter or digit; every other
/// character (controls, space, `"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}`, other
/// non-ASCII characters such as combining marks or invisible ones) is written as the
/// percent-escapes of its UTF-8 octets, uppercase hex, as a URL would carry it. In the
/// agent, `:` is escaped too (`%3A`), so the first `:` of a derived name always ends the
/// agent.
///
/// ```
/// use reptest_corpus::names::derived;
/// assert_eq!(derived("examplebot", "https://example.com/a?b=1"), "examplebot:/a?b=1");
/// assert_eq!(derived("examplebot", "/a"), "examplebot:/a");
/// assert_eq!(derived("foobot", "https://example.com:8443/x"), "foobot:https://example.com:8443/x");
/// assert_eq!(derived("examplebot", "https://example.com/ツ/a b"), "examplebot:/ツ/a%20b");
/// assert_eq!(derived("a:b", "/e\u{301}"), "a%3Ab:/e%CC%81");
/// ```
pub fn derived(agent: &str, url: &str) -> String {
    let target = url
        .strip_prefix(USUAL_ORIGIN)
        .filter(|rest| rest.starts_with('/'))
        .unwrap_or(url);
    let mut name = String::with_capacity(agent.len() + 1 + target.len());
    escape_into(&mut name, agent, true);
    name.push(':');
    escape_into(&mut name, target, false);
    name
}

/// Whether a derived name is short enough to read ([`MAX_DERIVED`] characters at most):
/// a longer one needs a given name instead.
pub fn fits(name: &str) -> bool {
    name.chars().count() <= MAX_DERIVED
}

/// Appends `text` to `out`, escaping what [`derived`] escapes (`:` too when `agent`).
fn escape_into(out: &mut String, text: &str, agent: bool) {
    for c in text.chars() {
        let keep = if c.is_ascii() {
            c.is_ascii_graphic() && !"\"<>\\^`{|}".contains(c) && !(agent && c == ':')
        } else {
            c.is_alphanumeric()
        };
        if keep {
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for byte in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{byte:02X}"));
            }
        }
    }
}

/// Why a given name is refused, or `Ok`: a given name is 1 to [`MAX_GIVEN`] ASCII
/// letters, digits, `.`, `_` and `-`, starts with a letter or digit, and is not digits
/// only.
///
/// ```
/// use reptest_corpus::names::check_given;
/// assert!(check_given("whole-rule").is_ok());
/// assert!(check_given("3").is_err());
/// assert!(check_given("a b").is_err());
/// assert!(check_given("-a").is_err());
/// ```
pub fn check_given(name: &str) -> Result<(), GivenNameError> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || ".-_".contains(c);
    if name.is_empty() || name.chars().count() > MAX_GIVEN {
        Err(GivenNameError::Length)
    } else if !name.chars().all(allowed) {
        Err(GivenNameError::Character)
    } else if !name.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        Err(GivenNameError::Start)
    } else if name.bytes().all(|b| b.is_ascii_digit()) {
        Err(GivenNameError::Digits)
    } else {
        Ok(())
    }
}

/// Why [`check_given`] refuses a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum GivenNameError {
    /// Empty, or longer than [`MAX_GIVEN`] characters.
    Length,
    /// A character other than ASCII letters, digits, `.`, `_` and `-`.
    Character,
    /// Starts with `.`, `_` or `-`.
    Start,
    /// Digits only: the form of the positional ids of corpus 2.x.
    Digits,
}

impl std::fmt::Display for GivenNameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GivenNameError::Length => write!(f, "a name is 1 to {MAX_GIVEN} characters"),
            GivenNameError::Character => {
                f.write_str("a name is ASCII letters, digits, `.`, `_` and `-`")
            }
            GivenNameError::Start => f.write_str("a name starts with a letter or a digit"),
            GivenNameError::Digits => f.write_str(
                "a name of digits only would read as a positional id of corpus 2.x (`case/3`)",
            ),
        }
    }
}

impl std::error::Error for GivenNameError {}

/// The case id and the name of a query id: the parts before and after its first `/`.
///
/// ```
/// use reptest_corpus::names::split_id;
/// assert_eq!(split_id("star/examplebot:/a/b"), Some(("star", "examplebot:/a/b")));
/// assert_eq!(split_id("star"), None);
/// ```
pub fn split_id(id: &str) -> Option<(&str, &str)> {
    id.split_once('/')
}

/// The id of the query `name` of case `case`: `case/name`.
pub fn id(case: &str, name: &str) -> String {
    format!("{case}/{name}")
}

/// Whether `id` has the form of a positional id of corpus 1.x and 2.x, `case/N` (the
/// N-th query of the case): a name of ASCII digits only, which no name of corpus 3.0.0
/// can be.
///
/// ```
/// use reptest_corpus::names::is_positional;
/// assert!(is_positional("star-in-middle/2"));
/// assert!(!is_positional("star-in-middle/examplebot:/2"));
/// assert!(!is_positional("star-in-middle/"));
/// ```
pub fn is_positional(id: &str) -> bool {
    split_id(id)
        .is_some_and(|(_, name)| !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_names_are_one_printable_line() {
        let cases = [
            ("examplebot", "https://example.com/", "examplebot:/"),
            (
                "examplebot",
                "https://example.com",
                "examplebot:https://example.com",
            ),
            (
                "examplebot",
                "https://example.com?x",
                "examplebot:https://example.com?x",
            ),
            (
                "examplebot",
                "https://example.com.test/a",
                "examplebot:https://example.com.test/a",
            ),
            (
                "examplebot",
                "http://example.com/a",
                "examplebot:http://example.com/a",
            ),
            (
                "examplebot/1.0",
                "https://example.com/a",
                "examplebot/1.0:/a",
            ),
            (
                "examplebot",
                "https://example.com/a%2Fb",
                "examplebot:/a%2Fb",
            ),
            (
                "examplebot",
                "https://example.com/a\tb\r\n",
                "examplebot:/a%09b%0D%0A",
            ),
            (
                "examplebot",
                "https://example.com/\"<x>\\",
                "examplebot:/%22%3Cx%3E%5C",
            ),
            ("examplebot", "https://example.com/café", "examplebot:/café"),
            (
                "examplebot",
                "https://example.com/\u{200b}\u{a0}",
                "examplebot:/%E2%80%8B%C2%A0",
            ),
            ("example bot", "/\u{7f}", "example%20bot:/%7F"),
            ("", "", ":"),
        ];
        for (agent, url, want) in cases {
            let name = derived(agent, url);
            assert_eq!(name, want, "{agent:?} {url:?}");
            assert!(
                !name.chars().any(|c| c.is_whitespace() || c.is_control()),
                "{name:?}"
            );
            assert!(
                check_given(&name).is_err(),
                "a derived name is never a given one"
            );
        }
    }

    #[test]
    fn given_names() {
        for ok in ["a", "whole-rule", "x.1", "A_b-2", &"a".repeat(MAX_GIVEN)] {
            assert_eq!(check_given(ok), Ok(()), "{ok}");
        }
        let refused = [
            ("", GivenNameError::Length),
            (&*"a".repeat(MAX_GIVEN + 1), GivenNameError::Length),
            ("a b", GivenNameError::Character),
            ("a:b", GivenNameError::Character),
            ("a/b", GivenNameError::Character),
            ("ä", GivenNameError::Character),
            ("-a", GivenNameError::Start),
            ("12", GivenNameError::Digits),
        ];
        for (name, why) in refused {
            assert_eq!(check_given(name), Err(why), "{name}");
        }
    }
}
