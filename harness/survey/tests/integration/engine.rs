//! The survey engine on handmade files with small implementations written here: counts
//! add up, the pairwise matrix is symmetric, statuses other than 2xx are only counted,
//! and shards merge into exactly the whole survey.

use reptest_core::{CaseInput, ImplInfo, ImplKind, Implementation, Outcome};
use reptest_survey::engine::{survey_files, Options, Quiet, Setup, Survey};
use reptest_survey::partial::{self, Partial, PartialError};
use reptest_survey::provenance::{Build, CorpusPrint, Provenance};
use reptest_survey::{Shard, SurveyFile};
use reptest_triage::attribution::Attribution;

/// Answers with the reference matcher, or always `allowed`, or `error` on every other
/// query.
struct Fake {
    info: ImplInfo,
    kind: Kind,
}

#[derive(Clone, Copy)]
enum Kind {
    Reference,
    AllowAll,
    Flaky,
}

impl Fake {
    fn new(name: &str, kind: Kind) -> Fake {
        Fake {
            info: ImplInfo {
                name: name.into(),
                version: "1".into(),
                language: "Rust".into(),
                capabilities: Default::default(),
                kind: ImplKind::InProcess,
            },
            kind,
        }
    }
}

impl Implementation for Fake {
    fn info(&self) -> &ImplInfo {
        &self.info
    }

    fn evaluate(&self, case: &CaseInput<'_>) -> Vec<Outcome> {
        let robots = reptest_reference::Robots::parse(case.robots);
        case.queries
            .iter()
            .enumerate()
            .map(|(i, q)| match self.kind {
                Kind::Reference => Outcome::Verdict {
                    allowed: robots.is_allowed(q.agent, q.url),
                    line: None,
                },
                Kind::AllowAll => Outcome::Verdict {
                    allowed: true,
                    line: None,
                },
                Kind::Flaky if i % 2 == 1 => Outcome::Error("odd".into()),
                Kind::Flaky => Outcome::Verdict {
                    allowed: !robots.is_allowed(q.agent, q.url),
                    line: None,
                },
            })
            .collect()
    }
}

fn files() -> Vec<SurveyFile> {
    let bodies: [&[u8]; 6] = [
        b"User-agent: *\nDisallow: /private/\n",
        b"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
        b"User-agent: *\nDisallow: /*.pdf$\nAllow: /public/\n",
        b"",
        b"User-agent: *\nDisallow: /caf%C3%A9\n",
        b"User-agent: examplebot\nDisallow: /x\n",
    ];
    let mut files: Vec<SurveyFile> = bodies
        .iter()
        .enumerate()
        .map(|(i, body)| SurveyFile {
            source: format!("in/host{i}.example"),
            ..SurveyFile::new(format!("host{i}.example"), body.to_vec())
        })
        .collect();
    for (i, status) in [(0, 404), (1, 503), (2, 301), (3, 200)] {
        files.push(SurveyFile {
            status: Some(status),
            source: format!("in@{i}"),
            ..SurveyFile::new(
                format!("warc{i}.example"),
                b"User-agent: *\nDisallow: /\n".to_vec(),
            )
        });
    }
    files
}

fn run(shard: Shard) -> Survey {
    run_with(shard, None)
}

fn run_with(shard: Shard, limit: Option<u64>) -> Survey {
    survey_of(files(), shard, limit)
}

/// The survey of `files` by the three fakes.
fn survey_of(files: Vec<SurveyFile>, shard: Shard, limit: Option<u64>) -> Survey {
    let reference = Fake::new("reference", Kind::Reference);
    let allow = Fake::new("allow-all", Kind::AllowAll);
    let flaky = Fake::new("flaky", Kind::Flaky);
    let implementations: [&dyn Implementation; 3] = [&reference, &allow, &flaky];
    let attribution = Attribution::default();
    let setup = Setup {
        implementations: &implementations,
        decider: &reference,
        attribution: &attribution,
        questions: Vec::new(),
        provenance: provenance(),
    };
    let options = Options {
        shard,
        limit,
        ..Options::default()
    };
    survey_files(files.into_iter().map(Ok), "in", &options, &setup, &Quiet).unwrap()
}

/// The provenance the fakes survey with: flaky "runs on" a Python.
fn provenance() -> Provenance {
    Provenance {
        reptest: Build {
            version: "0.1.0".into(),
            commit: "c".repeat(40),
            dirty: Some(false),
            rustc: "rustc 1.90.0".into(),
        },
        corpus: CorpusPrint::default(),
        runtimes: [("flaky".to_string(), "Python 3.11.7".to_string())].into(),
    }
}

#[test]
fn counts_add_up() {
    let survey = run(Shard::WHOLE);
    let t = &survey.tally;
    assert_eq!(t.files.read, 10);
    assert_eq!(t.files.surveyed, 7, "6 without a status and the 200");
    assert_eq!(t.files.not_surveyed, 3);
    assert_eq!(t.status["none"].files, 6);
    assert_eq!(t.status["2xx"].files, 1);
    assert_eq!(t.status["4xx"].queries, 0);
    assert_eq!(t.status["5xx"].branch, "unreachable");
    assert!(t.queries <= 7 * 20 && t.queries > 0);
    for (i, imp) in t.implementations.iter().enumerate() {
        assert_eq!(imp.asked, t.queries);
        assert_eq!(imp.verdicts + imp.missing.total(), imp.asked);
        assert_eq!(t.pairwise[i][i].queries_disagree, 0);
        for j in 0..3 {
            assert_eq!(t.pairwise[i][j], t.pairwise[j][i]);
        }
    }
    assert_eq!(t.implementations[0].decided.queries_disagree, 0);
    assert_eq!(t.implementations[2].missing.error, t.queries / 2);
    // flaky contradicts the reference on every query it answers.
    let flaky = &t.implementations[2].decided;
    assert_eq!(flaky.queries_disagree, flaky.queries);
    assert_eq!(t.agreement.compared, t.queries);
    assert_eq!(
        t.agreement.unanimous + t.agreement.split,
        t.agreement.compared
    );
    let new: u64 = t.new.values().map(|g| g.queries).sum();
    assert_eq!(new + t.agreement.attributed, t.agreement.split);
}

#[test]
fn shards_merge_into_the_whole_survey() {
    let whole = run(Shard::WHOLE);
    let partials: Vec<(String, Partial)> = (0..3)
        .rev()
        .map(|i| {
            let shard = Shard::new(i, 3).unwrap();
            let partial = Partial::new(shard, run(shard));
            // Through JSON, as the files are.
            let text = serde_json::to_string(&partial).unwrap();
            let name = Partial::file_name(shard);
            let read = Partial::parse(&text, &name).unwrap();
            (name, read)
        })
        .collect();
    let merged = partial::merge(partials.clone()).unwrap();
    // The pages are a function of the survey: the report crate's tests render a merged
    // one (harness/report/tests/integration/survey.rs).
    assert_eq!(merged, whole);

    let err = partial::merge(partials[1..].to_vec())
        .unwrap_err()
        .to_string();
    assert!(err.contains("missing: 2/3"), "{err}");
    let mut twice = partials.clone();
    twice.push(partials[0].clone());
    let err = partial::merge(twice).unwrap_err().to_string();
    assert!(
        err.contains("twice") && err.contains("the same partial"),
        "{err}"
    );
    let mut seeds = partials.clone();
    reseal(&mut seeds[0].1, |s| s.header.seed = 9);
    assert!(partial::merge(seeds)
        .unwrap_err()
        .to_string()
        .contains("seed"));
    let mut breakers = partials;
    reseal(&mut breakers[1].1, |s| s.header.breaker.trip_after = 0);
    let refused = partial::merge(breakers).unwrap_err().to_string();
    assert!(refused.contains("--trip-after 0"), "{refused}");
}

/// Changes `partial` and takes its checksums again, as if a survey had made it so.
fn reseal(partial: &mut Partial, change: impl FnOnce(&mut Survey)) {
    let mut survey = partial.survey.clone();
    change(&mut survey);
    *partial = Partial::new(partial.shard, survey);
}

fn shards(count: u32) -> Vec<(String, Partial)> {
    (0..count)
        .map(|i| {
            let shard = Shard::new(i, count).unwrap();
            (Partial::file_name(shard), Partial::new(shard, run(shard)))
        })
        .collect()
}

/// Every shard records the fingerprint of the whole input (what it read before
/// sharding), the unsharded run too; another input has another.
#[test]
fn every_shard_records_the_fingerprint_of_the_whole_input() {
    let whole = run(Shard::WHOLE).header.input;
    assert_eq!(whole.entries, 10);
    for (_, partial) in shards(3) {
        assert_eq!(partial.survey.header.input, whole);
    }
    let mut other = files();
    other[3].body = b"User-agent: *\nDisallow: /d\n".to_vec();
    let changed = survey_of(other, Shard::WHOLE, None);
    assert_ne!(changed.header.input, whole);
    assert_eq!(run_with(Shard::WHOLE, Some(5)).header.input.entries, 5);
}

/// What `merge` refuses in a partial, as typed errors naming the file and the count.
#[test]
fn merge_refuses_edited_damaged_and_overflowing_partials() {
    let mut edited = shards(2);
    edited[1].1.survey.tally.files.read += 1;
    let err = partial::merge(edited).unwrap_err();
    assert!(
        matches!(&err, PartialError::Edited { file, part: "counts", .. } if file == "partial-1-of-2.json"),
        "{err}"
    );

    let mut larger = shards(2);
    reseal(&mut larger[0].1, |s| {
        s.tally.agreement.unanimous = 1_000_000_000
    });
    let err = partial::merge(larger).unwrap_err();
    assert!(
        matches!(&err, PartialError::Inconsistent { field, .. } if field == "agreement.unanimous"),
        "{err}"
    );
    assert!(err.to_string().contains("partial-0-of-2.json"), "{err}");

    let mut over = shards(2);
    reseal(&mut over[0].1, |s| s.tally.files.skipped = u64::MAX);
    reseal(&mut over[1].1, |s| s.tally.files.skipped = 1);
    let err = partial::merge(over).unwrap_err().to_string();
    assert!(
        err.contains("partial-1-of-2.json")
            && err.contains("files.skipped")
            && err.contains("overflows"),
        "{err}"
    );

    let mut inputs = shards(2);
    reseal(&mut inputs[1].1, |s| s.header.input.entries += 1);
    let err = partial::merge(inputs).unwrap_err();
    assert!(
        matches!(err, PartialError::Differ { what: "input", .. }),
        "{err}"
    );

    let mut probes = shards(2);
    reseal(&mut probes[1].1, |s| s.header.attribution = "0".repeat(32));
    let err = partial::merge(probes).unwrap_err().to_string();
    assert!(err.contains("probes"), "{err}");

    let mut runs = shards(2);
    runs.push((
        "again.json".into(),
        Partial::new(Shard::new(1, 2).unwrap(), run(Shard::WHOLE)),
    ));
    let err = partial::merge(runs).unwrap_err();
    assert!(
        matches!(
            err,
            PartialError::Twice {
                identical: false,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn partials_of_another_kind_are_refused() {
    for text in [
        "{}",
        "[1]",
        "not json",
        "{\"kind\": \"reptest-survey-partial\", \"format\": 99}",
    ] {
        assert!(Partial::parse(text, "x.json").is_err(), "{text}");
    }
}

/// `--limit` counts the input's files before sharding, so limited shards merge into the
/// limited whole.
#[test]
fn a_limit_applies_before_sharding() {
    let whole = run_with(Shard::WHOLE, Some(5));
    assert_eq!(whole.tally.files.read, 5);
    let partials = (0..2)
        .map(|i| {
            let shard = Shard::new(i, 2).unwrap();
            (
                Partial::file_name(shard),
                Partial::new(shard, run_with(shard, Some(5))),
            )
        })
        .collect();
    assert_eq!(partial::merge(partials).unwrap(), whole);
    let mut other = run_with(Shard::new(0, 2).unwrap(), Some(4));
    other.header.limit = Some(4);
    let mixed = vec![
        (
            "a".to_string(),
            Partial::new(Shard::new(0, 2).unwrap(), other),
        ),
        (
            "b".to_string(),
            Partial::new(
                Shard::new(1, 2).unwrap(),
                run_with(Shard::new(1, 2).unwrap(), Some(5)),
            ),
        ),
    ];
    let err = partial::merge(mixed).unwrap_err().to_string();
    assert!(err.contains("--limit"), "{err}");
}

/// Counts no survey gives are refused even with matching checksums, naming the count;
/// the counts of a real survey pass.
#[test]
fn counts_no_survey_gives_are_refused() {
    type Change = fn(&mut Survey);
    let cases: [(&str, Change); 7] = [
        ("files.surveyed + not_surveyed", |s| {
            s.tally.files.surveyed += 1
        }),
        ("status.*.queries", |s| s.tally.queries += 1),
        ("implementations[1].allowed", |s| {
            let i = &mut s.tally.implementations[1];
            i.allowed = i.verdicts + 1
        }),
        ("implementations[2].verdicts + missing.*", |s| {
            s.tally.implementations[2].missing.error += 1
        }),
        ("pairwise[0][2]", |s| {
            s.tally.pairwise[0][2].files_disagree = 0
        }),
        ("agreement.unanimous + split", |s| {
            s.tally.agreement.split -= 1
        }),
        ("implementations[0].breaker.opened", |s| {
            s.tally.implementations[0].breaker.opened = 2
        }),
    ];
    let shard = Shard::new(0, 1).unwrap();
    let real = Partial::new(shard, run(shard));
    real.verify("whole.json").unwrap();
    assert!(real.survey.tally.pairwise[0][2].files_disagree > 0);
    assert!(real.survey.tally.agreement.split > 0);
    for (field, change) in cases {
        let mut partial = real.clone();
        reseal(&mut partial, change);
        let err = partial.verify("whole.json").unwrap_err();
        assert!(
            matches!(&err, PartialError::Inconsistent { field: f, .. } if f == field),
            "{field}: {err}"
        );
    }
}

/// Site-level classes: the reference's decide; an implementation that allows everything
/// classes every restricted file otherwise, and the AI-crawler headline counts them.
#[test]
fn site_classes_confusion_and_the_ai_headline() {
    let t = run(Shard::WHOLE).tally;
    let gpt = &t.sites.crawlers["GPTBot"];
    // Six directory files and the one WARC record with a 200 are classed.
    assert_eq!(gpt.files, 7);
    let (reference, allow) = (&gpt.implementations[0], &gpt.implementations[1]);
    // Fully: host1 (GPTBot's own `Disallow: /`), warc3; partially: host0 (/private/),
    // host2 (`/*.pdf$`, asked as /.pdf), host4 (/caf%C3%A9); unrestricted: host3 (empty),
    // host5 (only examplebot's group).
    assert_eq!(reference.classes, [2, 3, 2]);
    assert_eq!(allow.classes, [0, 0, 7]);
    assert_eq!(allow.confusion, [[0, 0, 2], [0, 0, 3], [0, 0, 2]]);
    assert_eq!((allow.differ, reference.differ), (5, 0));
    // flaky, which inverts the reference's verdicts or errs, differs on every file.
    assert_eq!(gpt.disagree, 7);
    // Googlebot is not named by host1: it falls to `*`, which allows everything there.
    assert_eq!(
        t.sites.crawlers["Googlebot"].implementations[0].classes,
        [1, 3, 3]
    );
    let headline = &t.sites.ai[1];
    assert_eq!((headline.compared, headline.changed), (7, 5));
    let example = headline.example.as_ref().unwrap();
    assert_eq!(
        (example.decided.as_str(), example.theirs.as_str()),
        ("partial", "none")
    );
    assert_eq!(example.example.host, "host0.example");
    // The strata and the agent classes each split the derived queries.
    let sum = |m: &std::collections::BTreeMap<String, reptest_survey::tally::Slice>| {
        m.values().map(|s| s.queries).sum::<u64>()
    };
    assert_eq!(sum(&t.strata), t.queries);
    assert_eq!(sum(&t.agents), t.queries);
    assert!(t.strata["natural"].queries > t.strata["probe"].queries);
    // Every share has its interval, drawn from the seed.
    assert!(t.bootstrap.interval("sites/ai/allow-all", 1).is_some());
}

/// Partials made by another reptest, corpus or runtime are refused, naming what differs
/// with both values (issue 22: provenance); every shard records the provenance it was
/// given, and partials with the same one merge.
#[test]
fn merge_refuses_partials_of_another_provenance() {
    let partials = shards(2);
    for (_, partial) in &partials {
        assert_eq!(partial.survey.header.provenance, provenance());
    }
    assert_eq!(
        partial::merge(partials.clone()).unwrap().header.provenance,
        provenance()
    );
    type Change = fn(&mut Provenance);
    let cases: [(&str, Change, &str, &str); 5] = [
        (
            "reptest",
            |p| p.reptest.commit = "d".repeat(40),
            "commit dddd",
            "commit cccc",
        ),
        (
            "reptest",
            |p| p.reptest.dirty = Some(true),
            "(dirty)",
            "commit",
        ),
        (
            "corpus",
            |p| p.corpus.fingerprint = "f".repeat(32),
            "fingerprint ffff",
            "fingerprint unknown",
        ),
        (
            "corpus",
            |p| p.corpus.questions_fingerprint = "q".repeat(32),
            "qqqq",
            "fingerprint unknown)",
        ),
        (
            "runtime",
            |p| {
                p.runtimes.insert("flaky".into(), "Python 3.12.1".into());
            },
            "flaky: Python 3.12.1",
            "flaky: Python 3.11.7",
        ),
    ];
    for (what, change, theirs, ours) in cases {
        let mut differ = partials.clone();
        reseal(&mut differ[1].1, |s| change(&mut s.header.provenance));
        let err = partial::merge(differ).unwrap_err();
        let text = err.to_string();
        assert!(
            matches!(&err, PartialError::Differ { what: w, file, .. } if *w == what && file == "partial-1-of-2.json"),
            "{what}: {text}"
        );
        assert!(text.contains(theirs) && text.contains(ours), "{text}");
    }
    // A runtime for an implementation that ran in process in the other partial.
    let mut added = partials;
    reseal(&mut added[0].1, |s| {
        s.header
            .provenance
            .runtimes
            .insert("allow-all".into(), "Node.js v20.20.2".into());
    });
    let text = partial::merge(added).unwrap_err().to_string();
    assert!(
        text.contains("runtime allow-all: in process vs allow-all: Node.js v20.20.2"),
        "{text}"
    );
}
