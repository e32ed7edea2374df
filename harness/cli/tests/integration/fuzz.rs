//! The fuzzing campaign, the minimizer and the findings: reproducible campaigns,
//! signature-preserving minimization, findings that round-trip through the corpus
//! loader, and recorded findings that still answer as recorded.

use reptest::fuzz::campaign::{run_split, CampaignOptions, CampaignReport, Example, Found};
use reptest::fuzz::findings;
use reptest::triage::minimize::{evaluate_one, minimize_with_budget, Stop};
use reptest::triage::signature::{partition, Signature};
use reptest::triage::Query;
use reptest::{impls, Availability, CaseInput, ImplInfo, Implementation, Outcome};
use reptest_corpus::{Corpus, Dimension, Expect, OutcomeWord};
use std::path::Path;
use std::time::Instant;

/// Every available implementation that runs in process.
fn in_process() -> Vec<Box<dyn Implementation>> {
    impls::in_process()
        .into_iter()
        .filter(|i| i.availability() == Availability::Available)
        .collect()
}

fn campaign(
    implementations: &[Box<dyn Implementation>],
    inputs: u64,
    chunk: u64,
) -> CampaignReport {
    let inside: Vec<&dyn Implementation> = implementations.iter().map(|i| i.as_ref()).collect();
    let options = CampaignOptions {
        seed: 7,
        inputs: Some(inputs),
        chunk,
        ..CampaignOptions::default()
    };
    run_split(&options, &inside, &[], &|_| {})
}

/// What must not depend on thread timing or chunking.
fn digest(report: &CampaignReport) -> Vec<(String, u64, Example, Vec<Example>)> {
    report
        .signatures
        .iter()
        .map(|f| {
            (
                f.signature.to_string(),
                f.hits,
                f.minimized.clone(),
                f.raw.clone(),
            )
        })
        .collect()
}

#[test]
fn a_campaign_is_reproducible_finds_divergences_and_minimizes_them() {
    let implementations = in_process();
    let first = campaign(&implementations, 400, 64);
    let second = campaign(&implementations, 400, 150);
    assert_eq!(first.inputs, 400);
    assert_eq!(first.queries, second.queries);
    assert_eq!(first.execs, second.execs);
    assert_eq!(digest(&first), digest(&second), "same seed, same findings");
    assert!(
        !first.signatures.is_empty(),
        "{} in-process implementations found no divergence in 400 inputs",
        implementations.len()
    );
    eprintln!(
        "{} inputs, {} execs, {:.0} execs/s, {} signatures, minimizing {:.2} s",
        first.inputs,
        first.execs,
        first.execs_per_second(),
        first.signatures.len(),
        first.minimize_seconds
    );

    // Every minimized example still splits the implementations as its signature says,
    // and is no larger than the raw input it came from.
    let chosen: Vec<&dyn Implementation> = implementations.iter().map(|i| i.as_ref()).collect();
    let names: Vec<String> = chosen.iter().map(|i| i.name().to_string()).collect();
    for found in &first.signatures {
        let m = &found.minimized;
        let query = Query {
            agent: m.agent.clone(),
            url: m.url.clone(),
        };
        let outcomes = evaluate_one(&chosen, &m.body, &query);
        assert_eq!(
            partition(&names, &outcomes),
            found.signature.partition,
            "{}",
            found.signature
        );
        assert!(found.signature.is_divergent());
        let raw = &found.raw[0];
        assert!(m.body.len() <= raw.body.len() && m.url.len() <= raw.url.len());
    }
}

/// Answers the opposite of the reference, 100 ms per query: every query diverges, and a
/// minimization takes seconds.
struct SlowContrarian {
    info: ImplInfo,
    reference: Box<dyn Implementation>,
}

impl Implementation for SlowContrarian {
    fn info(&self) -> &ImplInfo {
        &self.info
    }

    fn evaluate(&self, case: &CaseInput<'_>) -> Vec<Outcome> {
        std::thread::sleep(std::time::Duration::from_millis(100) * case.queries.len() as u32);
        self.reference
            .evaluate(case)
            .into_iter()
            .map(|o| match o.allowed() {
                Some(allowed) => Outcome::Verdict {
                    allowed: !allowed,
                    line: None,
                },
                None => o,
            })
            .collect()
    }
}

#[test]
fn a_time_budget_covers_minimization() {
    let reference = impls::in_process()
        .into_iter()
        .find(|i| i.name() == "reference")
        .unwrap();
    let contrarian = SlowContrarian {
        info: ImplInfo {
            name: "slow-contrarian".into(),
            ..reference.info().clone()
        },
        reference: impls::in_process()
            .into_iter()
            .find(|i| i.name() == "reference")
            .unwrap(),
    };
    // Chunks of 4 inputs (about 0.6 s here), so minimization starts before the deadline.
    let options = CampaignOptions {
        seconds: 2.0,
        chunk: 4,
        ..CampaignOptions::default()
    };
    let started = Instant::now();
    let report = run_split(&options, &[reference.as_ref(), &contrarian], &[], &|_| {});
    let took = started.elapsed().as_secs_f64();
    // Without the deadline the minimizations alone (dozens of 100-ms candidates each)
    // take over 10 s; with it the run ends within what is in flight at the deadline
    // (one input or one candidate per thread).
    assert!(took < 5.0, "the 2-s campaign took {took:.1} s");
    assert!(report.inputs > 0, "{}", report.inputs);
    assert!(!report.signatures.is_empty());
    assert!(
        report
            .signatures
            .iter()
            .any(|f| f.minimize_stop == Stop::Deadline),
        "a minimization was cut by the deadline"
    );
    assert!(report.unminimized > 0, "dissents left when time ran out");
}

#[test]
fn minimizing_keeps_the_signature_shrinks_and_is_quick() {
    let implementations = in_process();
    let chosen: Vec<&dyn Implementation> = implementations.iter().map(|i| i.as_ref()).collect();
    let names: Vec<String> = chosen.iter().map(|i| i.name().to_string()).collect();
    let body = b"# a comment\r\nUser-agent: otherbot\r\nDisallow: /\r\n\r\nUser-agent: *\r\nAllow: /public # ok\r\nDisallow: /a*b$\r\nDisallow: /private/stuff\r\n";
    let query = Query {
        agent: "examplebot".into(),
        url: "https://example.com/a/x/yb".into(),
    };
    let outcomes = evaluate_one(&chosen, body, &query);
    let signature = Signature::of(body, &query.agent, &query.url, &names, &outcomes);
    let started = Instant::now();
    let m = minimize_with_budget(body, &query, &chosen, &signature, 2_000);
    let took = started.elapsed();
    eprintln!(
        "minimized {} -> {} bytes in {} evaluations, {took:?}",
        body.len(),
        m.body.len(),
        m.evaluations
    );
    assert!(m.evaluations <= 2_000);
    let after = evaluate_one(&chosen, &m.body, &m.query);
    assert_eq!(partition(&names, &after), signature.partition);
    assert!(
        m.body.len() < body.len() / 2,
        "{:?}",
        String::from_utf8_lossy(&m.body)
    );
    assert!(!m.body.windows(2).any(|w| w == b"\r\n"), "CRLF became LF");
}

fn sample_report() -> CampaignReport {
    let example = |input: u64, body: &[u8], url: &str| Example {
        input,
        body: body.to_vec(),
        agent: "examplebot".into(),
        url: url.into(),
        observed: vec![
            ("a-impl".into(), OutcomeWord::Allowed),
            ("b-impl".into(), OutcomeWord::Disallowed),
            ("c-impl".into(), OutcomeWord::Error),
        ],
    };
    let signature = |dimensions: &[Dimension], kind: &str| Signature {
        partition: vec![
            (OutcomeWord::Allowed, vec!["a-impl".into()]),
            (OutcomeWord::Disallowed, vec!["b-impl".into()]),
            (OutcomeWord::Error, vec!["c-impl".into()]),
        ],
        dimensions: dimensions.iter().copied().collect(),
        rule_kind: Some(kind.into()),
    };
    let found = |signature: Signature, hits: u64, example: Example| Found {
        signature,
        hits,
        minimized: example.clone(),
        minimize_evaluations: 10,
        minimize_stop: Stop::Done,
        raw: vec![example],
        question: None,
    };
    CampaignReport {
        seed: 1,
        inputs: 1000,
        queries: 3000,
        execs: 9000,
        seconds: 1.5,
        minimize_seconds: 0.5,
        unminimized: 0,
        per_question: Vec::new(),
        questions_known: 0,
        threads: 2,
        in_process: vec!["a-impl".into(), "b-impl".into(), "c-impl".into()],
        external: Vec::new(),
        signatures: vec![
            found(
                signature(&[Dimension::Bom, Dimension::LineEndings], "rule-disallow"),
                12,
                example(
                    3,
                    b"\xEF\xBB\xBFUser-agent: *\r\nDisallow: /a'b \\ \t\n",
                    "https://example.com/a'b",
                ),
            ),
            found(
                signature(
                    &[Dimension::Wildcards, Dimension::PercentEncoding],
                    "no-match",
                ),
                2,
                example(
                    40,
                    b"User-agent: *\nAllow: /%E3%83*\nDisallow: /\xFF```",
                    "https://example.com/%E3%83%84",
                ),
            ),
        ],
    }
}

#[test]
fn findings_round_trip_through_the_corpus_loader() {
    let mut report = sample_report();
    // A long body is written as segments with its runs compressed.
    let mut long = report.signatures[0].clone();
    long.signature.rule_kind = Some("no-match".into());
    let mut body = b"User-agent: *\r\nDisallow: /x".to_vec();
    body.extend(std::iter::repeat_n(b'l', 20_000));
    body.extend("\n".bytes());
    body.extend("# padding\n".repeat(2_000).bytes());
    body.extend_from_slice(b"\xEF\xBB\xBFAllow: /'\\\n");
    long.minimized.body = body;
    report.signatures.push(long);
    let dir = tempfile::tempdir().unwrap();
    let corpus_dir = dir.path().join("corpus");
    let reports_dir = dir.path().join("reports");
    std::fs::create_dir_all(&corpus_dir).unwrap();
    std::fs::copy(
        reptest_corpus::default_dir().join("requirements.md"),
        corpus_dir.join("requirements.md"),
    )
    .unwrap();
    let written = findings::write(&corpus_dir, &reports_dir, "sample", &report).unwrap();
    assert_eq!(written.added, 3);
    assert!(std::fs::metadata(&written.toml).unwrap().len() < 8_000);
    // Writing again adds nothing.
    assert_eq!(
        findings::write(&corpus_dir, &reports_dir, "sample", &report)
            .unwrap()
            .added,
        0
    );
    let corpus = Corpus::load(&corpus_dir).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(corpus.cases().len(), 3);
    for (case, found) in corpus.cases().iter().zip(&report.signatures) {
        assert_eq!(case.id, findings::case_id(&found.signature));
        assert_eq!(case.body, found.minimized.body);
        let query = &case.queries[0];
        assert_eq!(query.url, found.minimized.url);
        assert_eq!(query.agent, found.minimized.agent);
        assert_eq!(query.expect, Expect::Either, "never the reference's answer");
        assert!(query
            .triage
            .as_deref()
            .unwrap_or("")
            .starts_with("finding: "));
        let observed: Vec<(String, OutcomeWord)> = query
            .observed
            .iter()
            .map(|(k, v)| (k.clone(), *v))
            .collect();
        assert_eq!(observed, found.minimized.observed);
        let dims: Vec<Dimension> = found.signature.dimensions.iter().copied().collect();
        assert_eq!(case.dimensions, dims);
    }
    assert!(written.markdown.exists());
}

/// Compared with `tests/snapshots/fuzz__*.snap` (named as when this module was a test
/// binary of its own, so that the files outlive the module's path).
#[test]
fn findings_write_up_snapshot() {
    let report = sample_report();
    insta::with_settings!({
        snapshot_path => "../snapshots",
        prepend_module_to_snapshot => false,
    }, {
        insta::assert_snapshot!(
            "fuzz__findings_markdown",
            findings::render_markdown("sample", &report)
        );
        insta::assert_snapshot!(
            "fuzz__findings_toml",
            findings::findings_toml("sample", &report, "", &Default::default())
        );
    });
}

/// Every finding promoted to corpus/findings/ still gets the answers it recorded from
/// the in-process implementations available here: a change of behaviour is a reviewed
/// change (update the `observed` table, or decide the case's expectation).
#[test]
fn recorded_findings_still_answer_as_recorded() {
    let corpus = Corpus::load(reptest_corpus::default_dir()).unwrap_or_else(|e| panic!("{e}"));
    let implementations = in_process();
    let mut checked = 0;
    let mut changed = Vec::new();
    for case in corpus.cases() {
        if case.file.parent().and_then(Path::file_name) != Some("findings".as_ref()) {
            continue;
        }
        for query in &case.queries {
            let fuzz_query = Query {
                agent: query.agent.clone(),
                url: query.url.clone(),
            };
            for (name, word) in &query.observed {
                let Some(implementation) = implementations.iter().find(|i| i.name() == name) else {
                    continue;
                };
                let outcome = evaluate_one(&[implementation.as_ref()], &case.body, &fuzz_query);
                checked += 1;
                let now = outcome.first().map_or("none", |o| o.word());
                if now != word.as_str() {
                    changed.push(format!(
                        "{} ({}:{}): {name} recorded {word}, now {now}",
                        query.id,
                        case.file.display(),
                        query.line
                    ));
                }
            }
        }
    }
    eprintln!("{checked} recorded answers checked");
    assert!(
        changed.is_empty(),
        "behaviour changed:\n{}",
        changed.join("\n")
    );
}

/// Every committed findings file has its write-up in `reports/findings/`, and the
/// write-up is the rendering of the corpus as it is (its decisions, questions and
/// recorded answers): `reptest corpus write-ups` rewrites it after a change.
#[test]
fn committed_write_ups_match_the_committed_findings() {
    let corpus_dir = reptest_corpus::default_dir();
    let corpus = Corpus::load(&corpus_dir).unwrap_or_else(|e| panic!("{e}"));
    let reports = corpus_dir.join("../reports/findings");
    let mut campaigns: Vec<String> = corpus
        .cases()
        .iter()
        .filter(|c| c.file.parent().and_then(Path::file_name) == Some("findings".as_ref()))
        .map(|c| c.file.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    campaigns.dedup();
    assert!(!campaigns.is_empty());
    for campaign in campaigns {
        let path = reports.join(format!("{campaign}.md"));
        let committed = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (run `reptest corpus write-ups`)", path.display()));
        let rendered = findings::render_corpus_write_up(&corpus, &campaign);
        assert!(
            committed == rendered,
            "{} is not the rendering of the corpus: run `cargo run -p reptest -- corpus write-ups`",
            path.display()
        );
        for case in corpus
            .cases()
            .iter()
            .filter(|c| c.file.file_stem().unwrap().to_string_lossy() == campaign)
        {
            assert!(
                committed.contains(&format!("### `{}`", case.id)),
                "{}",
                case.id
            );
        }
    }
}

/// Attribution measured on recorded answers: every committed finding that names a
/// question, with itself left out of the question's examples, is attributed from the
/// other findings' recorded `observed` tables (no implementation runs). Most must go to
/// their own question; the figure is printed.
#[test]
fn findings_are_attributed_to_their_own_questions() {
    use reptest::triage::attribution::{Attribution, QuestionProbe};
    use reptest::triage::signature::rule_kind;
    let corpus = Corpus::load(reptest_corpus::default_dir()).unwrap_or_else(|e| panic!("{e}"));
    let recorded: Vec<(&reptest_corpus::Case, &reptest_corpus::Query)> = corpus
        .queries()
        .filter(|(_, q)| !q.observed.is_empty() && q.question.is_some())
        .collect();
    if recorded.is_empty() {
        return;
    }
    let probes = reptest::triage::attribution::probes_of(&corpus);
    let observed_of = |id: &str| {
        recorded
            .iter()
            .find(|(_, q)| q.id == id)
            .map(|(_, q)| q.observed.clone())
    };
    let (mut right, mut wrong) = (0usize, Vec::new());
    for (case, query) in &recorded {
        // The probes without this finding, each example with its recorded answers.
        let mut kept: Vec<QuestionProbe> = Vec::new();
        let mut answers = Vec::new();
        for probe in &probes {
            let examples: Vec<_> = probe
                .examples
                .iter()
                .filter(|e| e.query != query.id)
                .filter_map(|e| observed_of(&e.query).map(|o| (e.clone(), o)))
                .collect();
            kept.push(QuestionProbe {
                id: probe.id.clone(),
                features: probe.features.clone(),
                examples: examples.iter().map(|(e, _)| e.clone()).collect(),
            });
            answers.push(examples.into_iter().map(|(_, o)| o).collect());
        }
        let attribution = Attribution::from_answers(&kept, answers);
        let names: Vec<String> = query.observed.keys().cloned().collect();
        let outcomes: Vec<reptest::Outcome> = query
            .observed
            .values()
            .map(|w| match w.verdict() {
                Some(allowed) => reptest::Outcome::Verdict {
                    allowed,
                    line: None,
                },
                None => reptest::Outcome::Error(w.to_string()),
            })
            .collect();
        let signature = Signature {
            partition: partition(&names, &outcomes),
            dimensions: reptest::triage::dimensions(&case.body, &query.agent, &query.url),
            rule_kind: rule_kind(&case.body, &query.agent, &query.url),
        };
        let got = attribution.of_signature(&signature, &case.body, &query.agent, &query.url);
        if got == query.question.as_deref() {
            right += 1;
        } else {
            wrong.push(format!(
                "{}: {} attributed to {}",
                query.id,
                query.question.as_deref().unwrap_or("-"),
                got.unwrap_or("new")
            ));
        }
    }
    let share = right as f64 / recorded.len() as f64;
    eprintln!(
        "attribution, leave-one-out on {} recorded findings: {right} to their own question ({:.0} %)\n{}",
        recorded.len(),
        100.0 * share,
        wrong.join("\n")
    );
    assert!(
        share >= 0.6,
        "only {:.0} % attributed to their own question",
        100.0 * share
    );
}

/// Every question names known features (`reptest::triage::features::Feature`), and each
/// of its examples (findings and cases alike) shows them: else attribution could never
/// send its own divergences to it. A question about fetch outcomes (every example has a
/// `[case.fetch]`, RFC 9309 §2.3.1, §2.4) names none: campaigns generate bodies only, so
/// no divergence of theirs is about it, and features are read from bytes, which hold no
/// status or network fault.
#[test]
fn questions_name_features_their_examples_show() {
    use reptest::triage::features::{features, is_feature, Feature};
    let corpus = Corpus::load(reptest_corpus::default_dir()).unwrap_or_else(|e| panic!("{e}"));
    let mut problems = Vec::new();
    for question in corpus.questions() {
        let about_fetches = !question.examples.is_empty()
            && question.examples.iter().all(|example| {
                corpus
                    .queries()
                    .any(|(case, query)| query.id == *example && case.fetch.is_some())
            });
        match (question.features.is_empty(), about_fetches) {
            (true, false) => problems.push(format!("{}: no features", question.id)),
            (false, true) => problems.push(format!(
                "{}: its examples all have fetch outcomes, which no feature can show",
                question.id
            )),
            _ => {}
        }
        for feature in &question.features {
            if !is_feature(feature) {
                problems.push(format!("{}: unknown feature `{feature}`", question.id));
            }
        }
        for example in &question.examples {
            let Some((case, query)) = corpus.queries().find(|(_, q)| q.id == *example) else {
                continue;
            };
            let shown = features(&case.body, &query.agent, &query.url);
            for feature in &question.features {
                if !Feature::from_name(feature).is_some_and(|f| shown.contains(&f)) {
                    problems.push(format!(
                        "{}: example {example} does not show `{feature}` (it shows {shown:?})",
                        question.id
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A differential run with fewer than two implementations is a usage error that says
/// why, not a campaign that can find nothing.
#[test]
fn fuzz_with_one_implementation_says_it_needs_two() {
    for names in ["reference", "reference,reference"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_reptest"))
            .args(["fuzz", "--impl", names, "--inputs", "3"])
            .env_remove("REPTEST_ADAPTERS")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{names}: {stderr}");
        assert!(
            stderr.contains("a differential run needs two implementations"),
            "{names}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{names}");
    }
}
