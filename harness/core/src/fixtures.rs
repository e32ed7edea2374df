//! What the unit tests of the runner and the scores share: a small corpus written here,
//! with queries of every level, one the profiles disagree on, a fetch case and an
//! undecided finding, and implementations that answer from a table.

use crate::{CaseInput, ImplInfo, Implementation, Outcome};
use reptest_corpus::Corpus;

/// The requirement index: one requirement per level, and the profile IDs.
const INDEX: &str = "## 2\n- `2.1-GROUP` MUST — groups.\n- `2.2.2-TIE-ALLOW` SHOULD — tie.\n\
                     - `2.2.1-UA-VALUE` MAY — values.\n## Profiles\n- `profile-google-*` — google.\n";

/// The first case file: `must` (two MUST queries) and `should` (one SHOULD query).
const FIRST: &str = r#"
[[case]]
id = "must"
title = "MUST"
dimensions = ["group-merging"]
requirements = ["2.1-GROUP"]
level = "MUST"
robots = "User-agent: *\nDisallow: /private\n"

[[case.query]]
agent = "bot"
url = "/private"
expect = "disallowed"
why = "disallowed"

[[case.query]]
agent = "bot"
url = "/public"
expect = "allowed"
why = "no rule"

[[case]]
id = "should"
title = "SHOULD"
dimensions = ["group-merging"]
requirements = ["2.2.2-TIE-ALLOW"]
level = "SHOULD"
robots = "User-agent: *\nDisallow: /tie\nAllow: /tie\n"

[[case.query]]
agent = "bot"
url = "/tie"
expect = "allowed"
why = "a tie"
"#;

/// The second case file: `may` (a MAY query expecting `either` under RFC 9309 and
/// `disallowed` under Google's profile), `fetched` (a MUST query on a 503 response) and
/// `finding` (an undecided finding).
const SECOND: &str = r#"
[[case]]
id = "may"
title = "MAY"
dimensions = ["group-merging"]
requirements = ["2.2.1-UA-VALUE", "profile-google-agent"]
level = "MAY"
robots = "User-agent: bot/1.0\nDisallow: /either\n"

[[case.query]]
agent = "bot"
url = "/either"
expect = "either"
profiles = { google = "disallowed" }
why = "a MAY"

[[case]]
id = "fetched"
title = "503"
dimensions = ["group-merging"]
requirements = ["2.1-GROUP"]
level = "MUST"
robots = "User-agent: *\nAllow: /\n"
[case.fetch]
status = 503

[[case.query]]
agent = "bot"
url = "/unreachable"
expect = "disallowed"
why = "unreachable"

[[case]]
id = "finding"
title = "finding"
dimensions = ["group-merging"]
requirements = ["2.1-GROUP"]
level = "MUST"
robots = "User-agent: *\n"

[[case.query]]
agent = "bot"
url = "/finding"
expect = "either"
triage = "awaiting a verdict"
why = "a finding"
[case.query.observed]
reference = "allowed"
"#;

/// The query ids of [`corpus`], in corpus order: the first file's three, then the
/// second's.
pub const QUERIES: [&str; 6] = [
    "must/bot:/private",
    "must/bot:/public",
    "should/bot:/tie",
    "may/bot:/either",
    "fetched/bot:/unreachable",
    "finding/bot:/finding",
];

/// The whole corpus ([`FIRST`], then [`SECOND`]), and each file's cases alone (two
/// shards), loaded from a temporary folder.
pub fn corpora() -> [Corpus; 3] {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (index, rfc) = (dir.path().join("requirements.md"), dir.path().join("rfc"));
    std::fs::create_dir(&rfc).expect("rfc/");
    std::fs::write(&index, INDEX).expect("the index");
    let files = [rfc.join("1.toml"), rfc.join("2.toml")];
    for (file, text) in files.iter().zip([FIRST, SECOND]) {
        std::fs::write(file, text).expect("a case file");
    }
    [&files[..], &files[..1], &files[1..]]
        .map(|files| Corpus::load_files(&index, files).unwrap_or_else(|e| panic!("{e}")))
}

/// The whole corpus of [`corpora`].
pub fn corpus() -> Corpus {
    let [whole, _, _] = corpora();
    whole
}

/// A verdict without a line.
pub fn verdict(allowed: bool) -> Outcome {
    Outcome::Verdict {
        allowed,
        line: None,
    }
}

/// An implementation that answers each query by its URL from a table (`error` for a URL
/// not in it), and describes fetch outcomes only with `fetch_outcomes`.
pub struct Table {
    info: ImplInfo,
    answers: Vec<(&'static str, Outcome)>,
}

/// The description of an in-process implementation `name`, which describes fetch
/// outcomes only with `fetch_outcomes`.
pub fn info(name: &str, fetch_outcomes: bool) -> ImplInfo {
    let mut info = ImplInfo {
        name: name.into(),
        version: "1".into(),
        language: "rust".into(),
        capabilities: Default::default(),
        kind: Default::default(),
    };
    info.capabilities.fetch_outcomes = fetch_outcomes;
    info
}

impl Table {
    /// `name`, answering `answers` (URL, outcome).
    pub fn new(name: &str, fetch_outcomes: bool, answers: Vec<(&'static str, Outcome)>) -> Self {
        let info = info(name, fetch_outcomes);
        Table { info, answers }
    }

    /// Boxed, as the runner takes implementations.
    pub fn boxed(self) -> Box<dyn Implementation> {
        Box::new(self)
    }
}

impl Implementation for Table {
    fn info(&self) -> &ImplInfo {
        &self.info
    }

    fn evaluate(&self, case: &CaseInput<'_>) -> Vec<Outcome> {
        let answer = |url: &str| {
            self.answers.iter().find(|(u, _)| *u == url).map_or_else(
                || Outcome::Error(format!("no answer for {url}")),
                |(_, o)| o.clone(),
            )
        };
        case.queries.iter().map(|q| answer(q.url)).collect()
    }
}

/// Conforms under RFC 9309: every decided query as expected, `allowed` where either
/// conforms, and the fetch case described to it.
pub fn conforming() -> Table {
    Table::new(
        "conforming",
        true,
        vec![
            ("/private", verdict(false)),
            ("/public", verdict(true)),
            ("/tie", verdict(true)),
            ("/either", verdict(true)),
            ("/unreachable", verdict(false)),
            ("/finding", verdict(true)),
        ],
    )
}

/// Gets one MUST query wrong and times out on the other, cannot express the SHOULD
/// query, gives no verdict where either conforms, and takes no fetch outcome.
pub fn faulty() -> Table {
    Table::new(
        "faulty",
        false,
        vec![
            ("/private", verdict(true)),
            ("/public", Outcome::Timeout("1 s".into())),
            ("/tie", Outcome::Unsupported("no ties".into())),
            ("/either", Outcome::Crash("exit 1".into())),
            ("/finding", verdict(false)),
        ],
    )
}
