//! The cost of talking to an external adapter, and of the whole corpus in process.
//!
//! - `protocol/persistent-*`: the no-op fixture adapter through protocol v1 (one process,
//!   pipelined requests): one case of 1,000 queries, and one case of 3 queries (a
//!   typical corpus case: the round trip dominates).
//! - `protocol/per-query`: the same fixture in per-query mode (one process per query).
//! - `corpus/in-process`: every corpus query through every in-process implementation
//!   (the reference, the Rust crates, Google's library when built).
//!
//! `cargo bench -p reptest --bench overhead`; medians in harness/BENCHMARKS.md.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use reptest::impls::external;
use reptest::{impls, runner, Availability, CaseInput, Implementation, QueryInput};
use std::time::Duration;

/// The benchmarks' own environment (REPTEST_STATE, REPTEST_ADAPTERS, PATH), read here as the
/// command line reads it: the libraries take it as a value.
fn environment() -> reptest::Environment {
    reptest::Environment::from_lookup(|name| std::env::var_os(name))
}

const FIXTURE: &str = env!("CARGO_BIN_EXE_reptest-fixture-adapter");

fn fixture(dir: &tempfile::TempDir, toml: &str) -> Box<dyn Implementation> {
    std::fs::write(dir.path().join("adapters.toml"), toml).unwrap();
    let mut adapters = external::from_dirs(&[dir.path().to_path_buf()], &environment());
    let adapter = adapters.pop().unwrap();
    assert_eq!(adapter.availability(), Availability::Available);
    adapter
}

fn queries(n: usize) -> Vec<QueryInput<'static>> {
    (0..n)
        .map(|i| QueryInput {
            agent: if i % 2 == 0 { "examplebot" } else { "otherbot" },
            url: "https://example.com/private/page?x=1",
        })
        .collect()
}

const ROBOTS: &[u8] = b"User-agent: *\nDisallow: /private\nAllow: /private/open\n\nUser-agent: examplebot\nDisallow: /x\n";

fn protocol(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let persistent = fixture(
        &dir,
        &format!("[[adapter]]\nname = \"noop\"\nlanguage = \"Rust\"\ncommand = [{FIXTURE:?}, \"noop\"]\n"),
    );
    let dir2 = tempfile::tempdir().unwrap();
    let per_query = fixture(
        &dir2,
        &format!("[[adapter]]\nname = \"noop-per-query\"\nlanguage = \"Rust\"\nmode = \"per-query\"\ncommand = [{FIXTURE:?}, \"per-query\", \"%robots%\", \"%user-agent%\", \"%url%\"]\n"),
    );
    let mut group = c.benchmark_group("protocol");
    for (label, implementation, n) in [
        ("persistent-1000", &persistent, 1000),
        ("persistent-3", &persistent, 3),
        ("per-query", &per_query, 10),
    ] {
        let queries = queries(n);
        let case = CaseInput {
            robots: ROBOTS,
            fetch: None,
            queries: &queries,
        };
        assert!(implementation
            .evaluate(&case)
            .iter()
            .all(|o| o.allowed() == Some(true)));
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(BenchmarkId::new(label, n), |b| {
            b.iter(|| implementation.evaluate(&case))
        });
    }
    group.finish();
}

fn corpus(c: &mut Criterion) {
    let corpus = reptest_corpus::Corpus::load(reptest_corpus::default_dir()).unwrap();
    let external: Vec<String> = external::all(&environment())
        .iter()
        .map(|i| i.name().to_string())
        .collect();
    let mut in_process = impls::all();
    in_process.retain(|i| !external.iter().any(|name| name == i.name()));
    let available = impls::availabilities(&in_process);
    let mut available = available.iter();
    in_process.retain(|_| available.next() == Some(&Availability::Available));
    let names: Vec<&str> = in_process.iter().map(|i| i.name()).collect();
    eprintln!("corpus/in-process: {}", names.join(", "));
    let mut group = c.benchmark_group("corpus");
    group.throughput(Throughput::Elements(
        (corpus.stats().queries * in_process.len()) as u64,
    ));
    group.bench_function(BenchmarkId::new("in-process", in_process.len()), |b| {
        b.iter(|| runner::run(&corpus, &in_process))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
        .sample_size(20);
    targets = protocol, corpus
}
criterion_main!(benches);
