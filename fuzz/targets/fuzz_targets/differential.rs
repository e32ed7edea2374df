//! Differential fuzzing: the reference against the in-process implementations.
//!
//! Each input becomes a robots.txt body with queries: by `reptest_fuzz_gen::generate`
//! (structure-aware; the default `generator` feature), or, built with
//! `--no-default-features --features differential`, by the small line grammar in
//! [`fallback`] below. Every implementation answers every query through the harness
//! (`reptest_impls::select`), exactly as `reptest run` would ask it, and each verdict
//! is compared with the reference's.
//!
//! A divergence (a verdict that differs from the reference's) is expected: the crates
//! fail part of the corpus too. They are counted, per implementation, and the counts
//! are printed to stderr every `REPTEST_FUZZ_REPORT_EVERY` inputs (default 5,000). With
//! `REPTEST_FUZZ_STRICT=1` the first divergence panics, so libFuzzer saves the input
//! under fuzz/targets/artifacts/differential/ (minimize it with `cargo fuzz tmin`). Errors,
//! timeouts and panics of a library (caught by the harness) are counted apart, never as
//! divergences.
#![no_main]

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use reptest_impls as impls;
use reptest_core::{Availability, CaseInput, Implementation, Outcome, QueryInput};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// The most implementations compared (the counters' size; `impls::in_process()` has 8).
const MAX: usize = 8;

struct State {
    implementations: Vec<Box<dyn Implementation>>,
    strict: bool,
    report_every: u64,
}

static INPUTS: AtomicU64 = AtomicU64::new(0);
static QUERIES: AtomicU64 = AtomicU64::new(0);
/// Queries on which at least one implementation's verdict differs from the reference's.
static DIVERGENT: AtomicU64 = AtomicU64::new(0);
/// Per implementation (index into `State::implementations`): verdicts that differ.
static DIFFERS: [AtomicU64; MAX] = [const { AtomicU64::new(0) }; MAX];
/// Per implementation: no verdict (error, timeout, crash, unsupported).
static NO_VERDICT: [AtomicU64; MAX] = [const { AtomicU64::new(0) }; MAX];

fn state() -> &'static State {
    static STATE: OnceLock<State> = OnceLock::new();
    STATE.get_or_init(|| {
        // Every in-process implementation (the reference first), `google` when linked.
        let implementations: Vec<_> = impls::in_process()
            .into_iter()
            .filter(|implementation| match implementation.availability() {
                Availability::Available => true,
                Availability::Unavailable { why, .. } => {
                    eprintln!(
                        "differential: skipping {}: {}",
                        implementation.name(),
                        why.lines().next().unwrap_or("")
                    );
                    false
                }
            })
            .take(MAX)
            .collect();
        assert_eq!(implementations[0].name(), "reference");
        let names: Vec<&str> = implementations.iter().map(|i| i.name()).collect();
        eprintln!("differential: comparing {}", names.join(", "));
        State {
            implementations,
            strict: std::env::var("REPTEST_FUZZ_STRICT").is_ok_and(|v| v == "1"),
            report_every: std::env::var("REPTEST_FUZZ_REPORT_EVERY")
                .ok()
                .and_then(|v| v.parse().ok())
                .filter(|&n| n > 0)
                .unwrap_or(5_000),
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let state = state();
    let mut u = Unstructured::new(data);
    let Ok((body, queries)) = input(&mut u) else {
        return;
    };
    if queries.is_empty() {
        return;
    }
    let query_inputs: Vec<QueryInput<'_>> = queries
        .iter()
        .map(|(agent, url)| QueryInput { agent, url })
        .collect();
    let case = CaseInput {
        robots: &body,
        fetch: None,
        queries: &query_inputs,
    };
    let answers: Vec<Vec<Outcome>> = state
        .implementations
        .iter()
        .map(|i| i.evaluate(&case))
        .collect();

    for (q, query) in query_inputs.iter().enumerate() {
        QUERIES.fetch_add(1, Ordering::Relaxed);
        let Some(expected) = answers[0][q].allowed() else {
            panic!("the reference gave no verdict: {}", answers[0][q]);
        };
        let mut divergent = Vec::new();
        for (i, outcome) in answers.iter().enumerate().skip(1) {
            match outcome[q].allowed() {
                Some(allowed) if allowed != expected => {
                    DIFFERS[i].fetch_add(1, Ordering::Relaxed);
                    divergent.push(i);
                }
                Some(_) => {}
                None => {
                    NO_VERDICT[i].fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        if !divergent.is_empty() {
            DIVERGENT.fetch_add(1, Ordering::Relaxed);
            if state.strict {
                let who: Vec<String> = answers
                    .iter()
                    .zip(&state.implementations)
                    .map(|(outcome, i)| format!("  {}: {}", i.name(), outcome[q]))
                    .collect();
                panic!(
                    "divergence (REPTEST_FUZZ_STRICT=1)\nbody: {:?}\nagent: {:?}\nurl: {:?}\n{}",
                    String::from_utf8_lossy(&body),
                    query.agent,
                    query.url,
                    who.join("\n")
                );
            }
        }
    }

    let inputs = INPUTS.fetch_add(1, Ordering::Relaxed) + 1;
    if inputs % state.report_every == 0 {
        report(state, inputs);
    }
});

fn report(state: &State, inputs: u64) {
    let queries = QUERIES.load(Ordering::Relaxed);
    let divergent = DIVERGENT.load(Ordering::Relaxed);
    let per: Vec<String> = state
        .implementations
        .iter()
        .enumerate()
        .skip(1)
        .map(|(i, implementation)| {
            format!(
                "{} {}/{}",
                implementation.name(),
                DIFFERS[i].load(Ordering::Relaxed),
                NO_VERDICT[i].load(Ordering::Relaxed)
            )
        })
        .collect();
    eprintln!(
        "differential: {inputs} inputs, {queries} queries, {divergent} divergent queries \
         ({:.1}%); per implementation differs/no-verdict: {}",
        100.0 * divergent as f64 / queries.max(1) as f64,
        per.join(", ")
    );
}

/// A body and its queries (product token, absolute URL).
type Input = (Vec<u8>, Vec<(String, String)>);

#[cfg(feature = "generator")]
fn input(u: &mut Unstructured<'_>) -> arbitrary::Result<Input> {
    let generated = reptest_fuzz_gen::generate(u)?;
    let queries = generated
        .queries
        .into_iter()
        .map(|q| (q.agent, q.url))
        .collect();
    Ok((generated.body, queries))
}

#[cfg(not(feature = "generator"))]
fn input(u: &mut Unstructured<'_>) -> arbitrary::Result<Input> {
    fallback::input(u)
}

/// A few `User-agent:` / `Allow:` / `Disallow:` lines with small values, and queries
/// over the same small alphabets, so rules and URLs meet often.
#[cfg(not(feature = "generator"))]
mod fallback {
    use super::Input;
    use arbitrary::Unstructured;

    const KEYS: &[&str] = &["User-agent", "user-agent", "Disallow", "disallow", "Allow"];
    const AGENTS: &[&str] = &["*", "foobot", "FooBot", "barbot", "foobot/1.0", ""];
    const TOKENS: &[&str] = &["foobot", "barbot", "FOOBOT"];
    const PATH: &[u8] = b"/ab*$%2F?=";
    const URL: &[u8] = b"/ab%2F?=";
    const SEPARATORS: &[&str] = &[": ", ":", " : ", ":\t"];
    const ENDINGS: &[&str] = &["\n", "\r\n", "\r"];

    fn path(u: &mut Unstructured<'_>, alphabet: &[u8]) -> arbitrary::Result<String> {
        let len = u.int_in_range(0..=6)?;
        let mut path = String::from("/");
        for _ in 0..len {
            path.push(char::from(*u.choose(alphabet)?));
        }
        Ok(path)
    }

    pub fn input(u: &mut Unstructured<'_>) -> arbitrary::Result<Input> {
        let mut body = String::new();
        for _ in 0..u.int_in_range(1..=8)? {
            let key = *u.choose(KEYS)?;
            let value = if key.eq_ignore_ascii_case("user-agent") {
                (*u.choose(AGENTS)?).to_string()
            } else if u.ratio(1, 8)? {
                String::new()
            } else {
                path(u, PATH)?
            };
            body.push_str(key);
            body.push_str(u.choose(SEPARATORS)?);
            body.push_str(&value);
            body.push_str(u.choose(ENDINGS)?);
        }
        let mut queries = Vec::new();
        for _ in 0..u.int_in_range(1..=3)? {
            let agent = (*u.choose(TOKENS)?).to_string();
            let url = format!("https://example.com{}", path(u, URL)?);
            queries.push((agent, url));
        }
        Ok((body.into_bytes(), queries))
    }
}
