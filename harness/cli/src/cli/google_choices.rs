//! Where the Google profile departs from RFC 9309, and which departures decided a
//! verdict: `check --profile google` cites Google's choice, not an RFC section, when the
//! verdict comes from a reading RFC 9309 does not make.

use reptest_reference::{Config, Robots, Verdict};

/// One option of [`Config::google`] that may differ from [`Config::rfc9309`].
struct Departure {
    /// Google's reading, for the explanation.
    choice: &'static str,
    /// Whether `google` reads differently from `rfc` on this option.
    differs: fn(google: &Config, rfc: &Config) -> bool,
    /// Sets the option of `config` to `rfc`'s reading.
    undo: fn(config: &mut Config, rfc: &Config),
}

/// The options of the reference's [`Config`] that a profile may set apart from RFC 9309.
fn departures() -> [Departure; 4] {
    [
        Departure {
            choice: "misspelt record names such as `dissallow` and a missing colon are accepted, which RFC 9309 §2.2.4 leaves open",
            differs: |g, r| g.accept_typos != r.accept_typos,
            undo: |c, r| c.accept_typos = r.accept_typos,
        },
        Departure {
            choice: "a line's octets beyond its first 16,663 are dropped, where RFC 9309 sets no limit",
            differs: |g, r| g.max_line_length != r.max_line_length,
            undo: |c, r| c.max_line_length = r.max_line_length,
        },
        Departure {
            choice: "a pattern starting with neither `/` nor `*` (`x`) is kept as a rule that matches no path and ends the run of user-agent lines, where strictly it is no rule of RFC 9309 §2.2 and is ignored",
            differs: |g, r| g.pattern_without_slash != r.pattern_without_slash,
            undo: |c, r| c.pattern_without_slash = r.pattern_without_slash,
        },
        Departure {
            choice: "an `Allow:` of `/dir/index.html` (any name starting with `index.htm`) also allows `/dir/` exactly, as the rule `/dir/$`, where RFC 9309 §2.2.2 matches the rule as written",
            differs: |g, r| g.index_html_allows_directory != r.index_html_allows_directory,
            undo: |c, r| c.index_html_allows_directory = r.index_html_allows_directory,
        },
    ]
}

/// Google's choices that decided `verdict`, the verdict of `agent` and `url` on `body`
/// under `config`: each option of `config` that departs from RFC 9309 and without which
/// the verdict or its reason would change. Empty when `config` is RFC 9309's.
pub fn deciding(
    config: &Config,
    body: &[u8],
    agent: &str,
    url: &str,
    verdict: &Verdict,
) -> Vec<&'static str> {
    let rfc = Config::rfc9309();
    departures()
        .into_iter()
        .filter(|d| (d.differs)(config, &rfc))
        .filter(|d| {
            let mut without = config.clone();
            (d.undo)(&mut without, &rfc);
            Robots::parse_with(body, &without).check(agent, url) != *verdict
        })
        .map(|d| d.choice)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choices(body: &str, url: &str) -> Vec<&'static str> {
        let config = Config::google();
        let verdict = Robots::parse_with(body.as_bytes(), &config).check("examplebot", url);
        deciding(&config, body.as_bytes(), "examplebot", url, &verdict)
    }

    #[test]
    fn each_departure_is_found_when_it_decides() {
        let typo = choices("User-agent: *\nDissallow: /p\n", "/p");
        assert!(typo[0].starts_with("misspelt"), "{typo:?}");
        let between = "User-agent: examplebot\nDisallow: p\nUser-agent: otherbot\nDisallow: /p\n";
        let slash = choices(between, "/p");
        assert!(slash[0].contains("matches no path"), "{slash:?}");
        let long = format!("User-agent: *\nDisallow: /p{}\n", "a".repeat(20_000));
        let cut = choices(&long, &format!("/p{}", "a".repeat(16_660)));
        assert!(cut[0].contains("16,663"), "{cut:?}");
        let index = choices("User-agent: *\nDisallow: /\nAllow: /d/index.html\n", "/d/");
        assert!(index[0].contains("index.htm"), "{index:?}");
    }

    #[test]
    fn a_reading_both_profiles_make_cites_nothing() {
        assert!(choices("User-agent: *\nDisallow: /p\n", "/p").is_empty());
        assert!(choices("User-agent: *\nDisallow: p\n", "/q").is_empty());
        let index = "User-agent: *\nDisallow: /\nAllow: /d/index.html\n";
        assert!(choices(index, "/d/index.html").is_empty());
        let verdict = Robots::parse(b"User-agent: *\nDissallow: /p\n").check("a", "/p");
        let rfc = Config::rfc9309();
        assert!(deciding(&rfc, b"User-agent: *\nDissallow: /p\n", "a", "/p", &verdict).is_empty());
    }
}
