//! External adapter protocol v1 against v2, side by side: the per-query cost of real
//! external adapters on one robots.txt body with 20 queries, over v1 (one request per
//! query: the adapter decodes and parses the body 20 times) and over v2 (one batch
//! request: one parse, 20 checks).
//!
//! `cargo bench -p reptest --bench protocol -- --warm-up-time 1 --measurement-time 5`.
//! Adapters: python-protego, node-robots-parser, go-temoto-robotstxt,
//! java-crawler-commons (those installed; `REPTEST_BENCH_ADAPTERS=a,b` picks others).
//! Each benchmark is one case of 20 queries; criterion's throughput is in queries/s, and
//! the per-query time is the case's time / 20. Before measuring, the two protocols'
//! outcomes are checked to be identical. `fixture-v2` is the no-op fixture adapter in
//! mode `v2` (answers at once, parses nothing): the protocol's own cost, v1 and v2.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use reptest::impls::external::{self, Persistent};
use reptest::{Availability, CaseInput, Implementation, Outcome, QueryInput};
use std::sync::Arc;
use std::time::Duration;

/// The benchmarks' own environment (REPTEST_STATE, REPTEST_ADAPTERS, PATH), read here as the
/// command line reads it: the libraries take it as a value.
fn environment() -> reptest::Environment {
    reptest::Environment::from_lookup(|name| std::env::var_os(name))
}

const DEFAULT_ADAPTERS: [&str; 4] = [
    "python-protego",
    "node-robots-parser",
    "go-temoto-robotstxt",
    "java-crawler-commons",
];

/// A robots.txt of the usual shape and size (about 2 KB): a few named groups, a large
/// `*` group with wildcards and `$`, sitemaps and comments.
fn body() -> Vec<u8> {
    let mut text = String::from("# robots.txt for www.example.com\n\n");
    text.push_str("User-agent: Googlebot\nUser-agent: Bingbot\nDisallow: /search\nDisallow: /*?session=\nAllow: /search/about\n\n");
    text.push_str("User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\n");
    text.push_str("User-agent: *\n");
    for dir in [
        "admin", "cart", "checkout", "account", "login", "register", "api", "private", "tmp",
        "cgi-bin", "print", "compare", "wishlist", "review", "feed", "export", "internal",
        "staging", "preview", "drafts",
    ] {
        text.push_str(&format!("Disallow: /{dir}/\n"));
    }
    for pattern in [
        "/*.pdf$",
        "/*?sort=",
        "/*&filter=",
        "/*/print$",
        "/search*",
        "/*.json$",
        "/tag/*/page/",
        "/*?utm_",
    ] {
        text.push_str(&format!("Disallow: {pattern}\n"));
    }
    for allow in [
        "/api/public/",
        "/account/help",
        "/private/press/",
        "/feed/news$",
    ] {
        text.push_str(&format!("Allow: {allow}\n"));
    }
    text.push_str("Crawl-delay: 5\n\nSitemap: https://www.example.com/sitemap.xml\nSitemap: https://www.example.com/news-sitemap.xml\n");
    text.into_bytes()
}

/// 20 queries: four agents, five URLs each.
fn queries() -> Vec<(String, String)> {
    let paths = [
        "/products/shoes?sort=price",
        "/private/press/2024.html",
        "/docs/manual.pdf",
        "/api/public/v1/items",
        "/blog/2024/05/robots",
    ];
    [
        "Googlebot",
        "GPTBot",
        "examplebot",
        "Mozilla/5.0 (compatible; ExampleBot/1.0)",
    ]
    .iter()
    .flat_map(|agent| {
        paths
            .iter()
            .map(move |path| (agent.to_string(), format!("https://www.example.com{path}")))
    })
    .collect()
}

fn adapters() -> Vec<String> {
    match std::env::var("REPTEST_BENCH_ADAPTERS") {
        Ok(list) if !list.trim().is_empty() => {
            list.split(',').map(|s| s.trim().to_string()).collect()
        }
        _ => std::iter::once("fixture-v2")
            .chain(DEFAULT_ADAPTERS)
            .map(str::to_string)
            .collect(),
    }
}

const FIXTURE: &str = env!("CARGO_BIN_EXE_reptest-fixture-adapter");

fn protocol(c: &mut Criterion) {
    let mut registry = external::config::load(
        &external::config::default_files(&environment()),
        &environment(),
    );
    let fixture_dir = tempfile::tempdir().unwrap();
    let fixture_toml = fixture_dir.path().join("adapters.toml");
    std::fs::write(
        &fixture_toml,
        format!("[[adapter]]\nname = \"fixture-v2\"\nlanguage = \"Rust\"\ncommand = [{FIXTURE:?}, \"v2\"]\n"),
    )
    .unwrap();
    registry
        .adapters
        .extend(external::config::load(&[fixture_toml], &environment()).adapters);
    let robots = body();
    let owned = queries();
    let queries: Vec<QueryInput<'_>> = owned
        .iter()
        .map(|(agent, url)| QueryInput { agent, url })
        .collect();
    let case = CaseInput {
        robots: &robots,
        fetch: None,
        queries: &queries,
    };
    let mut group = c.benchmark_group("protocol");
    group.throughput(Throughput::Elements(queries.len() as u64));
    for name in adapters() {
        let Some(spec) = registry.adapters.iter().find(|a| a.name == name) else {
            eprintln!("protocol bench: {name} is not registered; skipped");
            continue;
        };
        let handshakes = Arc::new(external::Handshakes::default());
        let v1 = Persistent::with_max_protocol(spec.clone(), Arc::clone(&handshakes), 1);
        let v2 = Persistent::with_max_protocol(spec.clone(), handshakes, 2);
        if v2.availability() != Availability::Available {
            eprintln!(
                "protocol bench: {name} is unavailable; skipped ({:?})",
                v2.availability()
            );
            continue;
        }
        if v2.protocol() != Some(2) {
            eprintln!("protocol bench: {name} speaks protocol 1 only; skipped");
            continue;
        }
        let (one, two) = (v1.evaluate(&case), v2.evaluate(&case));
        assert_eq!(one, two, "{name}: v1 and v2 outcomes differ");
        assert!(
            two.iter().all(|o| matches!(o, Outcome::Verdict { .. })),
            "{name}: {two:?}"
        );
        for (label, implementation) in [("v1", &v1), ("v2", &v2)] {
            group.bench_function(BenchmarkId::new(&name, label), |b| {
                b.iter(|| implementation.evaluate(&case))
            });
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
        .sample_size(30);
    targets = protocol
}
criterion_main!(benches);
