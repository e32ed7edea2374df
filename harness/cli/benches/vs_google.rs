//! The reference matcher and Google's C++ robotstxt side by side, in one run (results in
//! `harness/BENCHMARKS-google.md`):
//!
//! ```sh
//! ROBOTSTXT_CPP_PREFIX=/opt/robotstxt cargo bench -p reptest --bench vs_google -- \
//!     --warm-up-time 1 --measurement-time 3
//! ```
//!
//! Four workloads, each a criterion group with one function per implementation
//! (`reference`: `Robots::parse` then `check`; `reference-once`: `check_once`, the
//! reference's one-query path; `google`):
//! parse + check of an ~800-byte file of 30 rules; parse + check of a 512,000-byte file
//! of 12,000 Disallow lines; the pattern `/` + 50 × `*a` against `/` + 10,000 `a` + `b`,
//! without and with a final `$`. Every workload parses and checks, because Google has no
//! parse-once API: `RobotsMatcher` parses the body on every query.
//!
//! The reference is called through `reptest_reference` directly; Google through the
//! `google` adapter (`Implementation::evaluate` with one query: a fresh `RobotsMatcher`
//! per query, the body passed by pointer, the agent and URL copied into `std::string`).
//! The inputs are the reference's own benchmark workloads
//! (`conformance/reference/benches/workloads`). When Google's library is not linked, only
//! the reference is measured.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use reptest::{impls, Availability, CaseInput, Implementation, Outcome, QueryInput};
use reptest_reference::{check_once, Config, Robots};

#[path = "../../../conformance/reference/benches/workloads/mod.rs"]
mod workloads;
use workloads::{big_file, small_file, wildcard_path, wildcard_pattern};

/// One workload: a body and one query.
struct Workload {
    group: &'static str,
    robots: Vec<u8>,
    agent: &'static str,
    url: String,
    /// The verdict both implementations must give (checked before measuring).
    allowed: bool,
}

fn workloads() -> Vec<Workload> {
    let origin = "https://example.com";
    let mut all = vec![
        Workload {
            group: "parse+check small (30 rules)",
            robots: small_file(),
            agent: "examplebot",
            url: format!("{origin}/users/42/settings/x"),
            allowed: false,
        },
        Workload {
            group: "parse+check 512000 bytes / 12000 rules",
            robots: big_file(),
            agent: "examplebot",
            url: format!("{origin}/dir11999/pagexxxxxxxxxxxxxxxxxxxxxx"),
            allowed: false,
        },
    ];
    let path = wildcard_path();
    for anchored in [false, true] {
        all.push(Workload {
            group: if anchored {
                "parse+check wildcards 50x*a$ vs 10001 octets"
            } else {
                "parse+check wildcards 50x*a vs 10001 octets"
            },
            robots: format!("User-agent: *\nDisallow: {}\n", wildcard_pattern(anchored))
                .into_bytes(),
            agent: "examplebot",
            url: format!("{origin}{path}"),
            allowed: anchored,
        });
    }
    all
}

/// The `google` adapter, or `None` (with a note) when its library is not linked.
fn google() -> Option<Box<dyn Implementation>> {
    let google = impls::all()
        .into_iter()
        .find(|i| i.info().name == "google")?;
    match google.availability() {
        Availability::Available => Some(google),
        Availability::Unavailable { why, .. } => {
            eprintln!("vs_google: measuring the reference only: {why}");
            None
        }
    }
}

/// One query through an adapter.
fn evaluate(implementation: &dyn Implementation, robots: &[u8], agent: &str, url: &str) -> Outcome {
    let queries = [QueryInput { agent, url }];
    let case = CaseInput {
        robots,
        fetch: None,
        queries: &queries,
    };
    implementation
        .evaluate(&case)
        .pop()
        .expect("one outcome per query")
}

fn benches(c: &mut Criterion) {
    let google = google();
    let config = Config::default();
    for w in workloads() {
        let reference = Robots::parse(&w.robots).check(w.agent, &w.url);
        assert_eq!(
            reference.is_allowed(),
            w.allowed,
            "reference on {}",
            w.group
        );
        let once = check_once(&w.robots, &config, w.agent, &w.url);
        assert_eq!(once, reference, "reference-once on {}", w.group);
        if let Some(google) = &google {
            let outcome = evaluate(google.as_ref(), &w.robots, w.agent, &w.url);
            assert_eq!(outcome.allowed(), Some(w.allowed), "google on {}", w.group);
        }

        let mut group = c.benchmark_group(w.group);
        group.bench_function("reference", |b| {
            b.iter(|| {
                let robots = Robots::parse(black_box(&w.robots));
                black_box(robots.check(black_box(w.agent), black_box(&w.url)))
            })
        });
        group.bench_function("reference-once", |b| {
            b.iter(|| {
                black_box(check_once(
                    black_box(&w.robots),
                    &config,
                    black_box(w.agent),
                    black_box(&w.url),
                ))
            })
        });
        if let Some(google) = &google {
            group.bench_function("google", |b| {
                b.iter(|| {
                    black_box(evaluate(
                        google.as_ref(),
                        black_box(&w.robots),
                        black_box(w.agent),
                        black_box(&w.url),
                    ))
                })
            });
        }
        group.finish();
    }
}

criterion_group!(vs_google, benches);
criterion_main!(vs_google);
