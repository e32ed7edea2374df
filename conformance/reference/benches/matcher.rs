//! Benchmarks for the reference matcher. Targets (see BENCHMARKS.md):
//! parse+check of a small file < 7 µs; parse of a 512,000-byte file of
//! 12,000 rules < 2.3 ms; the 50-wildcard pattern far below 1.7 ms.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use reptest_reference::Robots;

mod workloads;
use workloads::{big_file, small_file, wildcard_path, wildcard_pattern};

fn benches(c: &mut Criterion) {
    let small = small_file();
    println!("small file: {} bytes", small.len());
    c.bench_function("parse+check small (30 rules)", |b| {
        b.iter(|| {
            let r = Robots::parse(black_box(&small));
            black_box(r.check("examplebot", "https://example.com/users/42/settings/x"))
        })
    });
    let parsed = Robots::parse(&small);
    c.bench_function("check only small (30 rules)", |b| {
        b.iter(|| {
            black_box(parsed.check(
                black_box("examplebot"),
                black_box("https://example.com/users/42/settings/x"),
            ))
        })
    });

    let big = big_file();
    c.bench_function("parse 512000 bytes / 12000 rules", |b| {
        b.iter(|| black_box(Robots::parse(black_box(&big))))
    });

    let path = wildcard_path();
    for anchored in [false, true] {
        let body = format!("User-agent: *\nDisallow: {}\n", wildcard_pattern(anchored));
        let r = Robots::parse(body.as_bytes());
        assert_eq!(r.is_allowed("x", &path), anchored);
        let name = if anchored {
            "wildcards 50x*a$ vs 10001 octets"
        } else {
            "wildcards 50x*a vs 10001 octets"
        };
        c.bench_function(name, |b| {
            b.iter(|| black_box(r.check("x", black_box(&path))))
        });
    }
}

criterion_group!(matcher, benches);
criterion_main!(matcher);
