//! The CI gate for parser maintainers: a [`Baseline`] records which corpus queries one
//! implementation passes and which it is known to fail, and [`GateResult::compare`] judges
//! a new run against it.
//!
//! - A query that passed in the baseline and fails now is a **regression** (fatal).
//! - A query listed as a known failure that passes now is **stale** (fatal): the ratchet.
//!   The entry must be removed, so a fixed bug can never come back unnoticed.
//! - A failing query the baseline does not mention (a query added to the corpus since) is
//!   a **new failure**: reported, fatal only in strict mode.
//! - A baseline id the corpus no longer has is **missing**: a warning.
//!
//! Three renderers print a result: [`human`], [`junit`] (JUnit XML as Jenkins, GitLab and
//! GitHub test reporters read it) and [`github`] (GitHub Actions workflow commands).
//!
//! One file per concern: `baseline` (the file, and judging a run), `compare` (a run
//! against a baseline), `migrate` (a baseline of corpus 1.x or 2.x, whose ids were
//! positional, rewritten to today's `case/name` ids), `render` (the three output formats, JUnit and GitHub through the
//! crate's shared writers, [`crate::junit`] and [`crate::github`]).

mod baseline;
mod compare;
mod migrate;
mod render;

pub use baseline::{judge_all, Baseline, BaselineError, Judged, KnownFailure, HEADER};
pub use compare::{Counts, Entry, GateResult, Status};
pub use migrate::{migrate, MigrateError, Migration};
pub use render::{explain, github, human, junit, Context};

#[cfg(test)]
mod tests {
    use super::baseline::*;
    use super::compare::*;
    use super::render::*;
    use crate::github::{data as github_data, property as github_property};
    use reptest_core::markup_escape::escape as xml_escape;
    use reptest_core::runner::Run;
    use reptest_core::Outcome;
    use reptest_corpus::{Corpus, Expect};
    use reptest_corpus::{OutcomeWord, Profile};
    use std::path::Path;
    use std::time::Duration;

    /// A corpus from the real one: the baseline logic is tested on synthetic outcomes.
    fn corpus() -> Corpus {
        Corpus::load(reptest_corpus::default_dir()).expect("the corpus loads")
    }

    fn allowed(yes: bool) -> Outcome {
        Outcome::Verdict {
            allowed: yes,
            line: None,
        }
    }

    /// Outcomes that pass every query (flip: the indexes that get the wrong verdict).
    fn outcomes(corpus: &Corpus, flip: &[usize]) -> Vec<Outcome> {
        corpus
            .queries()
            .enumerate()
            .map(|(i, (_, q))| {
                let right = q.expect_for(Profile::Rfc9309) != Expect::Disallowed;
                allowed(if flip.contains(&i) { !right } else { right })
            })
            .collect()
    }

    /// A run of implementation `x`: `outcomes` for the first queries of the corpus.
    fn run_of(corpus: &Corpus, outcomes: Vec<Outcome>) -> Run {
        named_run(corpus, "x", outcomes)
    }

    /// A run of implementation `name`: `outcomes` for the first queries of the corpus.
    fn named_run(corpus: &Corpus, name: &str, outcomes: Vec<Outcome>) -> Run {
        Run {
            implementations: vec![name.into()],
            queries: corpus
                .queries()
                .take(outcomes.len())
                .map(|(_, q)| q.id.clone())
                .collect(),
            outcomes: vec![outcomes],
            elapsed: vec![Duration::ZERO],
            case_elapsed: vec![Vec::new()],
            evidence: Vec::new(),
        }
    }

    /// The index of the first `n` queries whose expectation is not `either` (so a flipped
    /// verdict fails).
    fn flippable(corpus: &Corpus, n: usize) -> Vec<usize> {
        corpus
            .queries()
            .enumerate()
            .filter(|(_, (case, q))| q.expect != Expect::Either && case.fetch.is_none())
            .map(|(i, _)| i)
            .take(n)
            .collect()
    }

    #[test]
    fn an_unchanged_run_passes() {
        let corpus = corpus();
        let flip = flippable(&corpus, 3);
        let run = outcomes(&corpus, &flip);
        let baseline = Baseline::from_run(
            &corpus,
            "x",
            &run_of(&corpus, run.clone()),
            Profile::Rfc9309,
        );
        assert_eq!(baseline.known_failures.len(), 3);
        // Every decided query is in one list; undecided findings and the queries where
        // either verdict conforms are in none.
        let either = corpus
            .queries()
            .filter(|(_, q)| !q.is_undecided_finding())
            .filter(|(_, q)| q.expect_for(Profile::Rfc9309) == Expect::Either)
            .count();
        let decided = corpus
            .queries()
            .filter(|(_, q)| !q.is_undecided_finding())
            .count()
            - either;
        assert!(
            either > 0,
            "the corpus has queries where either verdict conforms"
        );
        assert_eq!(
            baseline.passed.len() + 3 + baseline.unsupported.len(),
            decided
        );
        let result = GateResult::compare(&baseline, &corpus, &run_of(&corpus, run.clone()), true);
        assert!(result.is_ok(), "{}", result.verdict());
        assert_eq!(result.counts.known_failures, 3);
        assert_eq!(result.counts.choices, either);
        assert!(!result.corpus_changed());
    }

    /// A query where either verdict conforms is not gated: listed in an older baseline
    /// as passed, any answer (the other verdict, no verdict) is no regression; listed as
    /// a known failure, a verdict is not stale; a new recording lists it nowhere.
    #[test]
    fn either_queries_are_not_gated() {
        let corpus = corpus();
        let ids: Vec<String> = corpus.queries().map(|(_, q)| q.id.clone()).collect();
        let either: Vec<usize> = corpus
            .queries()
            .enumerate()
            .filter(|(_, (_, q))| {
                !q.is_undecided_finding() && q.expect_for(Profile::Rfc9309) == Expect::Either
            })
            .map(|(i, _)| i)
            .take(3)
            .collect();
        assert_eq!(either.len(), 3, "the corpus has queries expecting `either`");
        let before = outcomes(&corpus, &[]);
        let mut baseline = Baseline::from_run(
            &corpus,
            "x",
            &run_of(&corpus, before.clone()),
            Profile::Rfc9309,
        );
        for &i in &either {
            assert!(
                !baseline.passed.contains(&ids[i]),
                "{} is not gated",
                ids[i]
            );
        }
        // An older baseline that listed them.
        baseline.passed.push(ids[either[0]].clone());
        baseline.passed.push(ids[either[1]].clone());
        baseline.known_failures.push(KnownFailure {
            id: ids[either[2]].clone(),
            expected: "either".into(),
            got: OutcomeWord::Error,
            reason: None,
        });
        let mut now = before.clone();
        now[either[0]] = allowed(now[either[0]].allowed() != Some(true));
        now[either[1]] = Outcome::Crash("gone".into());
        let result = GateResult::compare(&baseline, &corpus, &run_of(&corpus, now), true);
        assert!(result.is_ok(), "{}", result.verdict());
        for &i in &either {
            let entry = result
                .entries
                .iter()
                .find(|e| e.query.id == ids[i])
                .unwrap();
            assert_eq!(entry.status, Status::Choice, "{}", ids[i]);
        }
        assert!(result.missing.is_empty());
    }

    #[test]
    fn regressions_stale_new_and_missing() {
        let corpus = corpus();
        let flip = flippable(&corpus, 4);
        let ids: Vec<String> = corpus.queries().map(|(_, q)| q.id.clone()).collect();
        let before = outcomes(&corpus, &flip[..2]);
        let mut baseline = Baseline::from_run(
            &corpus,
            "x",
            &run_of(&corpus, before.clone()),
            Profile::Rfc9309,
        );
        // flip[2]: passed before, fails now; flip[0]: known failure, passes now;
        // flip[3]: not in the baseline at all, fails.
        baseline.passed.retain(|id| *id != ids[flip[3]]);
        baseline.passed.push("gone/examplebot:/".into());
        let now = outcomes(&corpus, &flip[1..]);
        let result = GateResult::compare(&baseline, &corpus, &run_of(&corpus, now.clone()), false);
        let of = |entries: &[Entry]| -> Vec<String> {
            entries.iter().map(|e| e.query.id.clone()).collect()
        };
        assert_eq!(of(&result.regressions), vec![ids[flip[2]].clone()]);
        assert_eq!(of(&result.stale), vec![ids[flip[0]].clone()]);
        assert_eq!(of(&result.new_failures), vec![ids[flip[3]].clone()]);
        assert_eq!(result.missing, vec!["gone/examplebot:/".to_string()]);
        assert_eq!(result.counts.known_failures, 1);
        assert!(!result.is_ok());
        let regression = &result.regressions[0].query;
        assert!(regression.line > 0 && regression.file.extension() == Some("toml".as_ref()));
        // New failures alone: fatal only in strict mode.
        let mut only_new = baseline.clone();
        only_new.passed.retain(|id| *id != ids[flip[2]]);
        only_new.known_failures.retain(|k| k.id != ids[flip[0]]);
        only_new.passed.push(ids[flip[0]].clone());
        let lenient = GateResult::compare(&only_new, &corpus, &run_of(&corpus, now.clone()), false);
        assert!(lenient.is_ok(), "{}", human(&lenient, &Context::default()));
        assert!(
            !GateResult::compare(&only_new, &corpus, &run_of(&corpus, now.clone()), true).is_ok()
        );
    }

    #[test]
    fn no_verdict_is_a_failure_and_unsupported_is_neither() {
        let corpus = corpus();
        let mut run = outcomes(&corpus, &[]);
        // The first two decided queries (undecided findings and `either` are not gated).
        let decided: Vec<usize> = corpus
            .queries()
            .enumerate()
            .filter(|(_, (_, q))| {
                !q.is_undecided_finding() && q.expect_for(Profile::Rfc9309) != Expect::Either
            })
            .map(|(i, _)| i)
            .take(2)
            .collect();
        run[decided[0]] = Outcome::Timeout("no answer within 5 s".into());
        run[decided[1]] = Outcome::Unsupported("no".into());
        let baseline = Baseline::from_run(
            &corpus,
            "x",
            &run_of(&corpus, run.clone()),
            Profile::Rfc9309,
        );
        let first = corpus.queries().nth(decided[0]).unwrap().1.id.clone();
        assert_eq!(baseline.known_failures[0].id, first);
        assert_eq!(baseline.known_failures[0].got, OutcomeWord::Timeout);
        assert_eq!(baseline.unsupported.len(), 1);
        // An unsupported query that passes later is not stale.
        let result = GateResult::compare(
            &baseline,
            &corpus,
            &run_of(&corpus, outcomes(&corpus, &[])),
            false,
        );
        assert_eq!(result.stale.len(), 1, "only the timeout is stale");
        assert_eq!(result.counts.new_passes, 1);
        // A query with no outcome at all has no verdict.
        let short = GateResult::compare(&baseline, &corpus, &run_of(&corpus, Vec::new()), false);
        assert_eq!(short.regressions.len(), baseline.passed.len());
    }

    #[test]
    fn toml_round_trip_keeps_reasons_and_sorts() {
        let corpus = corpus();
        let run = outcomes(&corpus, &flippable(&corpus, 2));
        let mut baseline = Baseline::from_run(
            &corpus,
            "x",
            &run_of(&corpus, run.clone()),
            Profile::Rfc9309,
        );
        baseline.known_failures[0].reason = Some("upstream \"bug\" #12\nsee \\ notes".into());
        let text = baseline.to_toml();
        assert!(text.starts_with("# reptest gate baseline"));
        let back = Baseline::parse(&text, Path::new("b.toml")).unwrap();
        assert_eq!(back, baseline);
        let mut again = Baseline::from_run(
            &corpus,
            "x",
            &run_of(&corpus, run.clone()),
            Profile::Rfc9309,
        );
        again.keep_reasons(&baseline);
        assert_eq!(again, baseline);
        let mut ids = vec![
            "a-b/x:/".to_string(),
            "a/x:/b".into(),
            "a/x:/a/z".into(),
            "a/given".into(),
        ];
        sort_ids(&mut ids);
        assert_eq!(ids, ["a/given", "a/x:/a/z", "a/x:/b", "a-b/x:/"]);
    }

    #[test]
    fn invalid_baselines_name_file_and_line() {
        let path = Path::new("dir/base.toml");
        let err = Baseline::parse("implementation = \"x\"\nprofile = \n", path)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("dir/base.toml:2: "), "{err}");
        let err = Baseline::parse(
            "implementation = \"x\"\nprofile = \"rfc9309\"\ncorpus = \"\"\npassed = [\"a/1\"]\n[[known_failure]]\nid = \"a/1\"\nexpected = \"allowed\"\ngot = \"error\"\n",
            path,
        )
        .unwrap_err().to_string();
        assert!(err.contains("both `passed` and `known_failure`"), "{err}");
        let err = Baseline::parse(
            "implementation = \"x\"\nprofile = \"nope\"\ncorpus = \"\"\n",
            path,
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("`nope` is not one of rfc9309, google"),
            "{err}"
        );
        let err = Baseline::parse(
            "implementation = \"x\"\nprofile = \"rfc9309\"\ncorpus = \"\"\npased = []\n",
            path,
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("unknown field `pased`"), "{err}");
        for garbage in [
            "",
            "\u{0}",
            "[[known_failure]]",
            "passed = 3",
            "\"\"\"",
            "=",
        ] {
            assert!(Baseline::parse(garbage, path).is_err(), "{garbage:?}");
        }
        assert!(matches!(
            Baseline::load(Path::new("/nonexistent/reptest-baseline.toml")),
            Err(BaselineError::Missing(_))
        ));
    }

    #[test]
    fn the_fingerprint_is_the_corpus_fingerprint() {
        let corpus = corpus();
        let fingerprint = corpus.fingerprint();
        assert_eq!(fingerprint.len(), 16);
        assert!(fingerprint.chars().all(|c| c.is_ascii_hexdigit()));
    }

    #[test]
    fn escaping() {
        assert_eq!(
            xml_escape("a<b>&\"c\"'\n\t\u{1}\u{FFFF}é"),
            "a&lt;b&gt;&amp;&quot;c&quot;&apos;&#10;&#9;\u{FFFD}\u{FFFD}é"
        );
        assert_eq!(github_data("100%\r\nx: y, z"), "100%25%0D%0Ax: y, z");
        assert_eq!(
            github_property("100%\r\nx: y, z"),
            "100%25%0D%0Ax%3A y%2C z"
        );
    }

    #[test]
    fn renderers_escape_what_they_print() {
        let corpus = corpus();
        let flip = flippable(&corpus, 1);
        let mut run = outcomes(&corpus, &[]);
        let baseline = Baseline::from_run(
            &corpus,
            "x<&>",
            &named_run(&corpus, "x<&>", run.clone()),
            Profile::Rfc9309,
        );
        run[flip[0]] = Outcome::Error("boom: a, b\n<oops> 50%".into());
        let result = GateResult::compare(
            &baseline,
            &corpus,
            &named_run(&corpus, "x<&>", run.clone()),
            false,
        );
        let context = Context {
            baseline: "base,line.toml".into(),
            rerecord: "reptest gate --write-baseline".into(),
            root: None,
            elapsed: Duration::from_millis(1500),
        };
        let xml = junit(&result, &context);
        assert!(xml.contains("reptest gate: x&lt;&amp;&gt;"), "{xml}");
        assert!(xml.contains("type=\"regression\""));
        assert!(xml.contains("&lt;oops&gt; 50%"));
        assert!(xml.contains("time=\"1.500\""));
        let gh = github(&result, &context);
        let first = gh.lines().next().unwrap();
        assert!(first.starts_with("::error file="), "{gh}");
        assert!(first.contains("boom: a, b%0A<oops> 50%25"), "{first}");
        assert!(gh.lines().last().unwrap().starts_with("::notice "), "{gh}");
        assert_eq!(gh.lines().count(), 2, "{gh}");
        let text = human(&result, &context);
        assert!(text.contains("Regressions (passed in the baseline, fail now): 1"));
        assert!(text.contains("FAIL: 1 regression, 0 stale known failures"));
    }
}
