//! Benchmarks for the reference matcher. Targets (see BENCHMARKS.md):
//! parse+check of a small file < 7 µs; parse of a 512,000-byte file of
//! 12,000 rules < 2.3 ms; the 50-wildcard pattern far below 1.7 ms.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use reptest_reference::Robots;

/// An ~800-byte file with 30 rules in three groups.
fn small_file() -> Vec<u8> {
    let mut s = String::from("# robots.txt for example.com\nUser-agent: examplebot\n");
    let rules = [
        "Disallow: /private/",
        "Allow: /private/public/",
        "Disallow: /*.pdf$",
        "Disallow: /search?q=",
        "Allow: /search/about",
        "Disallow: /cgi-bin/",
        "Disallow: /tmp/*/cache",
        "Allow: /tmp/public",
        "Disallow: /admin",
        "Disallow: /users/*/settings",
    ];
    for r in rules {
        s.push_str(r);
        s.push('\n');
    }
    s.push_str("\nUser-agent: otherbot\nUser-agent: thirdbot\n");
    for i in 0..10 {
        s.push_str(&format!("Disallow: /s{i}/*/draft\n"));
    }
    s.push_str("\nUser-agent: *\nCrawl-delay: 10\n");
    for i in 0..10 {
        s.push_str(&format!("Disallow: /a/{i}/old*.htm$\n"));
    }
    s.push_str("Sitemap: https://example.com/sitemap.xml\n");
    s.into_bytes()
}

/// A 512,000-byte file of 12,000 Disallow lines.
fn big_file() -> Vec<u8> {
    let mut body = b"User-agent: *\n".to_vec();
    let extra = 512_000 - body.len() - 12_000 * 42;
    for i in 0..12_000 {
        let len = if i < 12_000 - extra { 42 } else { 43 };
        let mut line = if i % 10 == 0 {
            format!("Disallow: /d{i}/*/p")
        } else {
            format!("Disallow: /dir{i}/page")
        };
        while line.len() < len - 1 {
            line.push('x');
        }
        line.push('\n');
        body.extend_from_slice(line.as_bytes());
    }
    assert_eq!(body.len(), 512_000);
    body
}

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

    let mut pattern = String::from("/");
    for _ in 0..50 {
        pattern.push_str("*a");
    }
    let mut path = String::from("/");
    path.push_str(&"a".repeat(10_000));
    path.push('b');
    for anchored in [false, true] {
        let body = format!(
            "User-agent: *\nDisallow: {pattern}{}\n",
            if anchored { "$" } else { "" }
        );
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
