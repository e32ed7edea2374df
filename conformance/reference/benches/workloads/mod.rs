//! The benchmark workloads, shared by this crate's `matcher` bench and the harness's
//! `vs_google` bench (`harness/cli/benches/vs_google.rs`, through `#[path]`), so that both
//! measure the same inputs.

/// An ~800-byte file with 30 rules in three groups.
pub fn small_file() -> Vec<u8> {
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
pub fn big_file() -> Vec<u8> {
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

/// The pattern `/` followed by 50 × `*a`, and `$` when `anchored`.
pub fn wildcard_pattern(anchored: bool) -> String {
    let mut pattern = String::from("/");
    for _ in 0..50 {
        pattern.push_str("*a");
    }
    if anchored {
        pattern.push('$');
    }
    pattern
}

/// The path `/` followed by 10,000 `a` and one `b`: every `*a` matches, `$` does not.
pub fn wildcard_path() -> String {
    let mut path = String::from("/");
    path.push_str(&"a".repeat(10_000));
    path.push('b');
    path
}
