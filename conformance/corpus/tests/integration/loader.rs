//! The loader on malformed and well-formed case files: every error names the file, the
//! line and the case id.

use reptest_corpus::{Corpus, Dimension, Expect, Level};
use std::path::PathBuf;

const INDEX: &str = "## 2.1\n- `2.1-GROUP` MUST — groups.\n- `2.2.2-TIE-ALLOW` SHOULD — tie.\n- `2.2.1-UA-VALUE` MAY — values.\n## Profiles\n- `profile-BOM` — bom.\n- `profile-google-*` — google.\n";

/// A fresh corpus folder holding `files` (name, text).
fn corpus(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("reptest-loader-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("rfc")).unwrap();
    std::fs::write(dir.join("requirements.md"), INDEX).unwrap();
    for (file, text) in files {
        std::fs::write(dir.join("rfc").join(file), text).unwrap();
    }
    dir
}

fn error(name: &str, text: &str) -> String {
    let dir = corpus(name, &[("t.toml", text)]);
    Corpus::load(&dir)
        .expect_err("the corpus should not load")
        .to_string()
}

const GOOD: &str = r#"
[[case]]
id = "good"
title = "A good case"
dimensions = ["group-merging"]
requirements = ["2.1-GROUP"]
level = "MUST"
robots = '''
User-agent: *
Disallow: /
'''

[[case.query]]
agent = "examplebot"
url = "https://example.com/x"
expect = "disallowed"
why = "the star group disallows everything"

[[case.query]]
agent = "examplebot"
url = "/y"
expect = "either"
requirements = ["2.2.1-UA-VALUE", "profile-google-agent"]
level = "MAY"
why = "a MAY"
profiles = { google = "allowed" }
triage = "unclear"
"#;

#[test]
fn a_good_case_loads_with_defaults_applied() {
    let dir = corpus("good", &[("t.toml", GOOD)]);
    let corpus = Corpus::load(&dir).unwrap();
    let case = &corpus.cases()[0];
    assert_eq!(case.body, b"User-agent: *\nDisallow: /\n");
    assert_eq!(case.dimensions, vec![Dimension::GroupMerging]);
    assert_eq!(case.line, 3);
    let q = &case.queries;
    assert_eq!(q[0].id, "good/examplebot:/x");
    assert_eq!(q[0].name, "examplebot:/x");
    assert_eq!(q[1].id, "good/examplebot:/y");
    assert_eq!(q[0].requirements, vec!["2.1-GROUP"]);
    assert_eq!(q[0].level, Level::Must);
    assert_eq!(q[0].line, 14);
    assert_eq!(
        q[1].expect_for(reptest_corpus::Profile::Google),
        Expect::Allowed
    );
    assert_eq!(
        q[1].expect_for(reptest_corpus::Profile::Rfc9309),
        Expect::Either
    );
    assert_eq!(q[1].triage.as_deref(), Some("unclear"));
    let stats = corpus.stats();
    assert_eq!((stats.cases, stats.queries), (1, 2));
    assert_eq!(stats.uncovered, vec!["2.2.2-TIE-ALLOW", "profile-BOM"]);
    assert!(stats.under_covered.contains(&"2.1-GROUP".to_string()));
}

/// Two queries of a case with the same derived name are refused at the second, naming
/// the first's line and asking for `name`; a given name resolves it.
#[test]
fn colliding_names_are_refused_and_given_names_resolve_them() {
    let twin = GOOD.replace("url = \"/y\"", "url = \"/x\"");
    let e = error("collide", &twin);
    assert!(
        e.contains("t.toml:20: case `good`: query name `examplebot:/x` is also the name of the query at line 14")
            && e.contains("give one of them a `name`"),
        "{e}"
    );
    let named = twin.replace(
        "[[case.query]]\nagent = \"examplebot\"\nurl = \"/x\"",
        "[[case.query]]\nname = \"path-only\"\nagent = \"examplebot\"\nurl = \"/x\"",
    );
    let dir = corpus("named", &[("t.toml", &named)]);
    let corpus = Corpus::load(&dir).unwrap_or_else(|e| panic!("{e}"));
    let ids: Vec<&str> = corpus.queries().map(|(_, q)| q.id.as_str()).collect();
    assert_eq!(ids, ["good/examplebot:/x", "good/path-only"]);
}

/// A question example written as a positional id of corpus 2.x is refused with the id
/// meant: from the table of 2.1.0's ids, else the query at that place.
#[test]
fn positional_examples_are_refused_with_the_id_meant() {
    let dir = corpus("q-positional", &[("t.toml", GOOD)]);
    let question = |examples: &str| {
        format!(
            "[[question]]\nid = \"Q-X\"\nquestion = \"q?\"\nlevel = \"MUST\"\ndecision = \"d\"\nexamples = [{examples}]\n[[question.rfc]]\nsection = \"2.1\"\ntext = \"t\"\n"
        )
    };
    std::fs::write(dir.join("questions.toml"), question("\"good/1\"")).unwrap();
    let e = Corpus::load(&dir).unwrap_err().to_string();
    assert!(
        e.contains(
            "example `good/1` is not a query of the corpus (positional ids `case/N` are gone"
        ) && e.contains("the query at that place now is `good/examplebot:/x`"),
        "{e}"
    );
    std::fs::write(
        dir.join("questions.toml"),
        question("\"wild-star-middle/1\""),
    )
    .unwrap();
    let e = Corpus::load(&dir).unwrap_err().to_string();
    assert!(
        e.contains(
            "in corpus 2.1.0 it was the query now `wild-star-middle/examplebot:/shop/books/cart`"
        ),
        "{e}"
    );
}

#[test]
fn given_names_follow_the_rules_and_long_derived_names_need_one() {
    for (name, why) in [
        ("3", "digits only"),
        ("a b", "ASCII letters, digits"),
        ("-a", "starts with a letter or a digit"),
        ("x:/y", "ASCII letters, digits"),
    ] {
        let text = GOOD.replacen(
            "[[case.query]]\n",
            &format!("[[case.query]]\nname = {name:?}\n"),
            1,
        );
        let e = error("given", &text);
        assert!(
            e.contains(&format!(
                "t.toml:14: case `good`: name `{name}` is not allowed"
            )) && e.contains(why),
            "{e}"
        );
    }
    let long = GOOD.replace("url = \"/y\"", &format!("url = \"/{}\"", "y".repeat(200)));
    let e = error("long", &long);
    assert!(
        e.contains("t.toml:20: case `good`: the name derived from this query's agent and URL")
            && e.contains("characters long, over 100: give the query a short `name`"),
        "{e}"
    );
}

/// Without `level` on the query or its case, a query takes its RFC requirements' level,
/// `MAY` for profile IDs only, and must say it when they differ.
#[test]
fn levels_default_to_the_requirements_level() {
    let text = GOOD
        .replace("level = \"MUST\"\n", "")
        .replace("level = \"MAY\"\n", "");
    let dir = corpus("levels", &[("t.toml", &text)]);
    let loaded = Corpus::load(&dir).unwrap_or_else(|e| panic!("{e}"));
    let levels: Vec<Level> = loaded.queries().map(|(_, q)| q.level).collect();
    assert_eq!(levels, [Level::Must, Level::May]);
    let profile_only = text.replace(
        "[\"2.2.1-UA-VALUE\", \"profile-google-agent\"]",
        "[\"profile-google-agent\"]",
    );
    let dir = corpus("levels-profile", &[("t.toml", &profile_only)]);
    let loaded = Corpus::load(&dir).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded.cases()[0].queries[1].level, Level::May);
    let mixed = text.replace("[\"2.1-GROUP\"]", "[\"2.1-GROUP\", \"2.2.2-TIE-ALLOW\"]");
    let e = error("levels-mixed", &mixed);
    assert!(
        e.contains("t.toml:13: case `good`: query 1: the cited requirements are MUST and SHOULD: give `level`"),
        "{e}"
    );
}

#[test]
fn syntax_errors_name_file_and_line() {
    let e = error("syntax", "[[case]]\nid = \"x\"\ntitle = \n");
    assert!(e.contains("t.toml:3"), "{e}");
    assert!(e.contains("invalid case file"), "{e}");
}

#[test]
fn unknown_fields_are_rejected() {
    let e = error(
        "field",
        &GOOD.replace("why = \"a MAY\"", "why = \"a MAY\"\nexpected = \"allowed\""),
    );
    assert!(e.contains("unknown field `expected`"), "{e}");
}

#[test]
fn unknown_requirement_ids_name_the_case_and_line() {
    let e = error("req", &GOOD.replace("[\"2.1-GROUP\"]", "[\"2.1-GROOP\"]"));
    assert!(
        e.contains("t.toml:14: case `good`: query 1: unknown requirement ID `2.1-GROOP`"),
        "{e}"
    );
}

#[test]
fn levels_must_fit_the_cited_requirements() {
    let e = error(
        "level",
        &GOOD.replace("level = \"MUST\"", "level = \"SHOULD\""),
    );
    assert!(
        e.contains("level SHOULD is not the level of any cited requirement"),
        "{e}"
    );
    let e = error(
        "level2",
        &GOOD.replace("level = \"MUST\"", "level = \"must\""),
    );
    assert!(e.contains("level must be MUST, SHOULD or MAY"), "{e}");
}

#[test]
fn bad_values_are_each_reported() {
    let text = GOOD
        .replace("expect = \"disallowed\"", "expect = \"denied\"")
        .replace("google = \"allowed\"", "bing = \"maybe\"")
        .replace("\"group-merging\"", "\"groups\"")
        .replace("id = \"good\"", "id = \"Good Case\"");
    let e = error("values", &text);
    for needle in [
        "expect `denied` is not allowed, disallowed or either",
        "unknown profile `bing`",
        "profile verdict `maybe`",
        "unknown dimension `groups`",
        "the id must be lowercase",
    ] {
        assert!(e.contains(needle), "missing {needle:?} in {e}");
    }
}

#[test]
fn duplicate_ids_across_files_are_rejected() {
    let dir = corpus("dup", &[("a.toml", GOOD), ("b.toml", GOOD)]);
    let e = Corpus::load(&dir).unwrap_err().to_string();
    assert!(
        e.contains("b.toml:3: case `good`: duplicate case id, first used at"),
        "{e}"
    );
    assert!(e.contains("a.toml:3"), "{e}");
}

#[test]
fn bodies_need_exactly_one_source_and_valid_escapes() {
    let e = error(
        "nobody",
        &GOOD.replace("robots = '''\nUser-agent: *\nDisallow: /\n'''", ""),
    );
    assert!(e.contains("give exactly one of `robots` or `body`"), "{e}");
    let e = error(
        "escape",
        &GOOD.replace("robots = '''", "unescape = true\nrobots = '''\\q"),
    );
    assert!(e.contains("unknown escape `\\q`"), "{e}");
}

#[test]
fn escapes_and_generated_bodies_are_byte_exact() {
    let text = r#"
[[case]]
id = "bytes"
title = "escapes"
unescape = true
robots = '\xEF\xBB\xBFUser-agent: *\r\nDisallow: /\xFF\r'
[[case.query]]
agent = "a"
url = "/"
expect = "either"
requirements = ["profile-BOM"]
level = "MAY"
why = "bom"

[[case]]
id = "big"
title = "generated"
[[case.body]]
text = "User-agent: *\n"
[[case.body]]
pad_to = 512000
[[case.body]]
repeat = "ab"
count = 3
[case.fetch]
status = 503
redirects = 2
[case.fetch.cache]
age_hours = 30
robots = "Disallow: /old"
[[case.query]]
agent = "a"
url = "/"
expect = "disallowed"
requirements = ["2.1-GROUP"]
level = "MUST"
why = "x"
"#;
    let dir = corpus("bytes", &[("t.toml", text)]);
    let corpus = Corpus::load(&dir).unwrap();
    assert_eq!(
        corpus.cases()[0].body,
        b"\xEF\xBB\xBFUser-agent: *\r\nDisallow: /\xFF\r"
    );
    let big = &corpus.cases()[1];
    assert_eq!(big.body.len(), 512_006);
    assert!(big.body.ends_with(b"\nababab"));
    let fetch = big.fetch.as_ref().unwrap();
    assert_eq!(
        (fetch.status, fetch.redirects, fetch.network_error),
        (Some(503), 2, false)
    );
    assert_eq!(fetch.cache.as_ref().unwrap().body, b"Disallow: /old");
}

#[test]
fn a_missing_folder_or_index_is_a_clear_error() {
    let e = Corpus::load("/nonexistent/reptest")
        .unwrap_err()
        .to_string();
    assert!(e.contains("/nonexistent/reptest"), "{e}");
    let dir = corpus("noindex", &[("t.toml", GOOD)]);
    std::fs::remove_file(dir.join("requirements.md")).unwrap();
    let e = Corpus::load(&dir).unwrap_err().to_string();
    assert!(e.contains("cannot read the requirement index"), "{e}");
}

#[test]
fn the_shipped_corpus_loads() {
    Corpus::load(reptest_corpus::default_dir()).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn observed_records_take_outcome_words_only() {
    let good = format!(
        "{GOOD}\n[case.query.observed]\nreference = \"disallowed\"\nrust-cylon = \"error\"\n"
    );
    let corpus = Corpus::load(corpus("observed-good", &[("t.toml", &good)])).unwrap();
    let queries = &corpus.cases()[0].queries;
    assert!(queries[0].observed.is_empty());
    let query = &queries[1];
    assert_eq!(
        query.observed.get("reference").map(|w| w.as_str()),
        Some("disallowed")
    );
    assert_eq!(query.observed.len(), 2);
    let bad = format!("{GOOD}\n[case.query.observed]\nreference = \"maybe\"\n");
    let e = error("observed-bad", &bad);
    assert!(e.contains("observed `reference` = `maybe`"), "{e}");
}

/// A case dropped for one problem still takes its id: a second case with the same id is
/// reported as a duplicate.
#[test]
fn a_dropped_case_does_not_hide_a_duplicate_id() {
    let text = format!(
        "{}\n{}",
        GOOD.replace("[\"2.1-GROUP\"]", "[\"2.1-GROOP\"]"),
        GOOD
    );
    let e = error("dup-hidden", &text);
    assert!(e.contains("unknown requirement ID `2.1-GROOP`"), "{e}");
    assert!(e.contains("duplicate case id, first used at"), "{e}");
}

/// A bad escape in a multi-line `robots` is reported at its own line of the file.
#[test]
fn a_bad_escape_is_reported_at_its_line() {
    let text = GOOD
        .replace(
            "level = \"MUST\"\nrobots",
            "level = \"MUST\"\nunescape = true\nrobots",
        )
        .replace("Disallow: /\n'''", "Disallow: /\\q\n'''");
    // [[case]] is line 2; `unescape` line 8; `robots = '''` line 9; the bad line is 11.
    let e = error("escape-line", &text);
    assert!(
        e.contains("t.toml:11: case `good`: unknown escape `\\q`"),
        "{e}"
    );
}

/// `VERSION` beside the index gives the corpus version; a malformed one is an error.
#[test]
fn the_corpus_version_is_read_and_checked() {
    let dir = corpus("version", &[("t.toml", GOOD)]);
    assert_eq!(Corpus::load(&dir).unwrap().version(), None);
    std::fs::write(dir.join("VERSION"), "2.3.4\n").unwrap();
    let loaded = Corpus::load(&dir).unwrap();
    assert_eq!(loaded.version(), Some("2.3.4"));
    assert_eq!(loaded.major_version(), Some(2));
    std::fs::write(dir.join("VERSION"), "two\n").unwrap();
    let e = Corpus::load(&dir).unwrap_err().to_string();
    assert!(
        e.contains("VERSION:1") && e.contains("MAJOR.MINOR.PATCH"),
        "{e}"
    );
    assert!(
        Corpus::load(reptest_corpus::default_dir())
            .unwrap()
            .version()
            .is_some(),
        "the shipped corpus is versioned"
    );
}

/// `GOOD` with `[case.fetch]` lines after its body.
fn with_fetch(fetch: &str) -> String {
    GOOD.replacen(
        "Disallow: /\n'''\n",
        &format!("Disallow: /\n'''\n[case.fetch]\n{fetch}\n"),
        1,
    )
}

#[test]
fn fetch_faults_encodings_and_types_load_as_written() {
    let text = with_fetch(
        "fault = \"never-completes\"\nredirects = 1\ncross_origin = true\n\
         content_encoding = \"gzip\"\ncontent_type = \"text/html; charset=utf-8\"",
    );
    let dir = corpus("fetch-fields", &[("t.toml", &text)]);
    let loaded = Corpus::load(&dir).unwrap();
    let fetch = loaded.cases()[0].fetch.as_ref().unwrap();
    assert_eq!(
        fetch.fault,
        Some(reptest_corpus::NetworkFault::NeverCompletes)
    );
    assert!(fetch.network_error, "a fault is a network error (§2.3.1.4)");
    assert!(fetch.cross_origin);
    assert_eq!(
        fetch.content_encoding,
        Some(reptest_corpus::ContentEncoding::Gzip)
    );
    assert_eq!(
        fetch.content_type.as_deref(),
        Some("text/html; charset=utf-8")
    );
    // The older spelling stays: a network error of no particular kind.
    let dir = corpus(
        "fetch-network-error",
        &[("t.toml", &with_fetch("network_error = true"))],
    );
    let loaded = Corpus::load(&dir).unwrap();
    let fetch = loaded.cases()[0].fetch.as_ref().unwrap();
    assert!(fetch.network_error);
    assert_eq!(fetch.fault, None);
}

#[test]
fn bad_fetch_fields_are_each_reported() {
    for (fetch, needle) in [
        ("fault = \"timeout\"", "fetch.fault `timeout` is not one of"),
        (
            "fault = \"reset\"\nstatus = 200",
            "fetch.fault and fetch.status exclude each other",
        ),
        (
            "status = 200\ncross_origin = true",
            "fetch.cross_origin needs redirects",
        ),
        (
            "fault = \"refused\"\nredirects = 2",
            "fetch.fault `refused` after redirects needs cross_origin = true",
        ),
        (
            "status = 200\ncontent_encoding = \"br\"",
            "fetch.content_encoding `br` is not `gzip`",
        ),
        (
            "status = 200\ncontent_type = \"html\"",
            "fetch.content_type `html` is not a media type",
        ),
        (
            "status = 200\ncontent_type = \"text/ html\"",
            "is not a media type",
        ),
    ] {
        let e = error("bad-fetch", &with_fetch(fetch));
        assert!(e.contains(needle), "{fetch}: missing {needle:?} in {e}");
        assert!(e.contains("case `good`"), "{e}");
    }
}

/// An upstream thread carries its status: an unknown status is refused where it stands,
/// `fixed_in` goes with `fixed` only, `checked` is a date; a good one loads with its
/// status, release and kind (told by the URL when not given).
#[test]
fn upstream_threads_carry_a_checked_status() {
    let case = GOOD.replace(
        "why = \"the star group disallows everything\"",
        "why = \"the star group disallows everything\"\nquestion = \"Q-X\"",
    );
    let dir = corpus("q-upstream", &[("t.toml", &case)]);
    let question = |upstream: &str| {
        format!(
            "[[question]]\nid = \"Q-X\"\nquestion = \"q?\"\nlevel = \"MUST\"\ndecision = \"d\"\nexamples = [\"good/examplebot:/x\"]\n[[question.rfc]]\nsection = \"2.1\"\ntext = \"t\"\n[[question.upstream]]\nimplementation = \"python-protego\"\nurl = \"https://github.com/scrapy/protego/pull/84\"\ntitle = \"Follow RFC 9309\"\n{upstream}"
        )
    };
    let load = |upstream: &str| {
        std::fs::write(dir.join("questions.toml"), question(upstream)).unwrap();
        Corpus::load(&dir)
    };
    let e = load("status = \"closed\"\nchecked = \"2026-12-03\"\n")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("questions.toml:14") && e.contains("unknown variant `closed`"),
        "{e}"
    );
    let e = load("checked = \"2026-12-03\"\n").unwrap_err().to_string();
    assert!(e.contains("missing field `status`"), "{e}");
    let e = load("status = \"open\"\nfixed_in = \"1.0\"\nchecked = \"3 Dec\"\n")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("`fixed_in` is only for `status = \"fixed\"`")
            && e.contains("`checked = \"3 Dec\"` is not a date `YYYY-MM-DD`"),
        "{e}"
    );
    let loaded = load("status = \"fixed\"\nfixed_in = \"0.8.0\"\nchecked = \"2026-12-03\"\n")
        .unwrap_or_else(|e| panic!("{e}"));
    let thread = &loaded.questions()[0].upstream[0];
    assert_eq!(thread.status, reptest_corpus::ThreadStatus::Fixed);
    assert_eq!(thread.fixed_in.as_deref(), Some("0.8.0"));
    assert_eq!(thread.kind(), reptest_corpus::ThreadKind::Pr);
}
