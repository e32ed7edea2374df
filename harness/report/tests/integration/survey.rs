//! The survey's pages (`reptest_report::survey`) from a small survey run here: the
//! reference against an implementation that allows everything, on handmade files, one of
//! them served with a 5xx. `reports/survey/protego.snap` (the command line's tests) holds
//! a whole page byte for byte; these check what every page must hold, and that a survey
//! merged from its shards renders exactly as the whole one.

use reptest_core::{CaseInput, ImplInfo, Implementation, Outcome};
use reptest_impls::Reference;
use reptest_report::survey::{html, json, markdown};
use reptest_survey::engine::{survey_files, Options, Quiet, Setup, Survey};
use reptest_survey::partial::{self, Partial};
use reptest_survey::provenance::Provenance;
use reptest_survey::{Shard, SurveyFile};
use reptest_triage::attribution::Attribution;

/// Answers `allowed` to every query, or `disallowed` with `.1` false.
pub(crate) struct Always(pub(crate) ImplInfo, pub(crate) bool);

impl Always {
    /// An implementation named `name` that always answers `allowed`, or `disallowed`.
    pub(crate) fn new(name: &str, allowed: bool) -> Always {
        let info = ImplInfo {
            name: name.into(),
            version: "1".into(),
            ..Reference::rfc9309().info().clone()
        };
        Always(info, allowed)
    }
}

impl Implementation for Always {
    fn info(&self) -> &ImplInfo {
        &self.0
    }

    fn evaluate(&self, case: &CaseInput<'_>) -> Vec<Outcome> {
        let verdict = Outcome::Verdict {
            allowed: self.1,
            line: None,
        };
        vec![verdict; case.queries.len()]
    }
}

/// The survey of five files (one a `503`) by the reference and an implementation that
/// allows everything, named `allow|all`, or one shard of it.
fn survey(shard: Shard) -> Survey {
    let reference = Reference::rfc9309();
    let allow = Always::new("allow|all", true);
    survey_by(&[&reference, &allow], shard)
}

/// The survey of five files (one a `503`) by `implementations`, decided by the
/// reference, or one shard of it.
pub(crate) fn survey_by(implementations: &[&dyn Implementation], shard: Shard) -> Survey {
    let reference = Reference::rfc9309();
    let attribution = Attribution::default();
    let setup = Setup {
        implementations,
        decider: &reference,
        attribution: &attribution,
        questions: Vec::new(),
        // A runtime with characters the pages must escape.
        provenance: Provenance {
            runtimes: [("allow|all".to_string(), "<JS> | 1".to_string())].into(),
            ..Provenance::default()
        },
    };
    let bodies: [&[u8]; 4] = [
        b"User-agent: *\nDisallow: /private/\n",
        b"User-agent: GPTBot\nDisallow: /\n",
        b"User-agent: *\nDisallow: /*.pdf$\n",
        b"",
    ];
    let mut files: Vec<SurveyFile> = bodies
        .iter()
        .enumerate()
        .map(|(i, body)| SurveyFile::new(format!("host{i}.example"), body.to_vec()))
        .collect();
    files.push(SurveyFile {
        status: Some(503),
        ..SurveyFile::new("down.example", b"Disallow: /\n".to_vec())
    });
    let options = Options {
        shard,
        ..Options::default()
    };
    survey_files(files.into_iter().map(Ok), "in", &options, &setup, &Quiet)
        .expect("the survey runs")
}

#[test]
fn the_pages_hold_the_tables_and_escape_the_names() {
    let survey = survey(Shard::WHOLE);
    let md = markdown::render(&survey);
    assert!(md.starts_with("# reptest survey\n"), "{md}");
    assert!(md.contains("| 5xx | 1 | 20.0 % | unreachable:"), "{md}");
    // A `|` in a name cannot end its cell.
    assert!(md.contains("| allow\\|all | 1 |"), "{md}");
    assert!(md.contains("| 2 allow\\|all |"), "{md}");
    let html = html::render(&survey);
    assert!(html.starts_with("<!doctype html>") && html.ends_with("</body>\n</html>\n"));
    assert!(html.contains("<table>") && !html.contains("http"), "{html}");
    assert!(html.contains("style=\"background:hsl(0,80%,"), "{html}");
    let json: serde_json::Value = serde_json::from_str(&json::render(&survey)).unwrap();
    assert_eq!(json["files"]["read"], 5);
    assert_eq!(json["files"]["surveyed"], 4);
    assert_eq!(json["implementations"][1]["name"], "allow|all");
    assert_eq!(json["pairwise"]["implementations"][1], "allow|all");
    let disagree = &json["pairwise"]["queries_disagree"];
    assert_eq!(disagree[0][1], disagree[1][0]);
    assert!(disagree[0][1].as_u64() > Some(0), "{json}");
}

/// Every page has the provenance: a section of README.md and survey.html, and
/// survey.json's `provenance`; each implementation's runtime, escaped.
#[test]
fn the_pages_hold_the_provenance() {
    let survey = survey(Shard::WHOLE);
    let md = markdown::render(&survey);
    let section = &md[md.find("## Provenance\n").expect("a Provenance section")..];
    assert!(section.contains("| input | 5 entries, xxh3 "), "{section}");
    assert!(
        section.contains("| settings | --seed 1 --queries-per-file 20 --timeout 1 "),
        "{section}"
    );
    assert!(
        section.contains(
            "| runtimes | <JS> \\| 1: allow\\|all; in reptest's process (its rustc): reference |"
        ),
        "{section}"
    );
    assert!(
        section.contains("| reptest | unknown, commit unknown"),
        "{section}"
    );
    let html = html::render(&survey);
    assert!(html.contains("<h2>Provenance</h2>"), "{html}");
    assert!(html.contains("<td>&lt;JS&gt; | 1: allow|all;"), "{html}");
    let json: serde_json::Value = serde_json::from_str(&json::render(&survey)).unwrap();
    let provenance = &json["provenance"];
    assert_eq!(provenance["runtimes"]["allow|all"], "<JS> | 1", "{json}");
    assert_eq!(provenance["reptest"]["commit"], "unknown");
    assert_eq!(json["format"], 3);
    for key in provenance["top_level_keys"].as_array().unwrap() {
        assert!(
            !json[key.as_str().unwrap()].is_null() || key == "limit",
            "{key}"
        );
    }
}

/// A survey merged from its shards' partials, read back from their JSON as `reptest
/// survey merge` reads them, renders to the same octets as the whole survey.
#[test]
fn a_merged_survey_renders_as_the_whole_one() {
    let whole = survey(Shard::WHOLE);
    let partials = (0..2)
        .map(|i| {
            let shard = Shard::new(i, 2).unwrap();
            let text = serde_json::to_string(&Partial::new(shard, survey(shard))).unwrap();
            let name = Partial::file_name(shard);
            (name.clone(), Partial::parse(&text, &name).unwrap())
        })
        .collect();
    let merged = partial::merge(partials).unwrap();
    assert_eq!(json::render(&merged), json::render(&whole));
    assert_eq!(markdown::render(&merged), markdown::render(&whole));
    assert_eq!(html::render(&merged), html::render(&whole));
    // Every file of the output folder: the pages, the CSV tables, the figures.
    let names = |files: &[(std::path::PathBuf, Vec<u8>)]| -> Vec<String> {
        files.iter().map(|(p, _)| p.display().to_string()).collect()
    };
    let files = reptest_report::survey::files(&whole);
    assert!(names(&files).contains(&"csv/pairwise-queries.csv".to_string()));
    assert!(names(&files).contains(&"figures/pairwise.svg".to_string()));
    assert_eq!(reptest_report::survey::files(&merged), files);
}
