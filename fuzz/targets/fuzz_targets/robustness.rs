//! Robustness of the reference matcher on arbitrary bytes.
//!
//! The input is split with `arbitrary::Unstructured` into options (a `Config` built from
//! flag bits, a fetch outcome), a product token, a URL and, last, the robots.txt body
//! (the rest of the input, so mutating the body does not shift the other fields). One
//! size byte in 256 inflates the body past the 512,000-byte parse limit (a long comment
//! line moves the end of the body to just around the limit; rarely, the body is cycled
//! to 1,100,000 bytes), and one flag byte in 16 inflates the URL to 16,000+ bytes, so
//! the parse limit, lines straddling it and the linear-time matcher are reached from
//! small inputs.
//!
//! Each input is parsed with `Config::rfc9309()`, `Config::google()` and a `Config`
//! made from the flag bits, and checked as below; an inflated body is parsed once, with
//! the last one and warnings, and only its warnings and verdict are checked.
//!
//! Must never panic, and checks what the crate documents:
//! - `parse_with_warnings` gives the same verdicts as `parse_with` (warnings never
//!   change the result), and its warnings come in line order, within the file's lines,
//!   with at most one `BeyondParseLimit` and a `ByteOrderMark` only on line 1;
//! - a verdict agrees with its reason (a deciding `Allow` rule allows, a `Disallow`
//!   rule disallows, no group / no matching rule / `/robots.txt` allow), the deciding
//!   line lies in the file and after the user-agent line of a group that applied, and
//!   the applied groups are listed in file order;
//! - the product token is compared case-insensitively; `/robots.txt` is always allowed;
//! - `access::rules_in_force` follows its documented order (network error, redirects,
//!   cache, status class) and `check_fetch` equals parsing the body in force.
#![no_main]

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use reptest_reference::access::{self, Cached, Fetch, RulesInForce, MAX_CACHE_AGE_HOURS};
use reptest_reference::{
    check_fetch, AgentValueMatch, Config, PatternWithoutSlash, Reason, Robots, RuleKind, Verdict,
    Warning, WarningKind, MIN_PARSE_LIMIT,
};

fuzz_target!(|data: &[u8]| {
    let _ = run(data);
});

fn run(data: &[u8]) -> arbitrary::Result<()> {
    let mut u = Unstructured::new(data);
    let flags: u8 = u.arbitrary()?;
    let size: u8 = u.arbitrary()?;
    let max_line: u8 = u.arbitrary()?;
    let redirects: u8 = u.arbitrary()?;
    let status: u16 = u.arbitrary()?;
    let cache_age: u8 = u.arbitrary()?;
    let agent_len = usize::from(u.arbitrary::<u8>()? % 48);
    let agent = String::from_utf8_lossy(u.bytes(agent_len.min(u.len()))?).into_owned();
    let url_len: u8 = u.arbitrary()?;
    let url = String::from_utf8_lossy(u.bytes(usize::from(url_len).min(u.len()))?).into_owned();
    let rest = u.take_rest();

    // Bodies past the parse limit (1 in 256): the rest split in two around a long
    // comment line, so that the second part starts just before byte 512,000 (a line in
    // it straddles the limit); or, when `max_line` is 0xFF too, the rest cycled to
    // 1,100,000 bytes of many lines. Under the fuzzer's instrumentation such a parse
    // takes milliseconds to tens of them, so these are rare and parsed once (below).
    let inflated;
    let body: &[u8] = if size == 0xFF && !rest.is_empty() {
        let mut big = Vec::with_capacity(1_100_000);
        if max_line == 0xFF {
            while big.len() < 1_100_000 {
                big.extend_from_slice(&rest[..rest.len().min(1_100_000 - big.len())]);
            }
        } else {
            let split = usize::from(redirects) * rest.len() / 256;
            let second = MIN_PARSE_LIMIT - 128 + usize::from(max_line);
            big.extend_from_slice(&rest[..split]);
            big.extend_from_slice(b"\n#");
            big.resize(second.saturating_sub(1).max(big.len()), b'x');
            big.push(b'\n');
            big.extend_from_slice(&rest[split..]);
        }
        inflated = big;
        &inflated
    } else {
        rest
    };
    // Long URLs for the wildcard matcher (1 in 16).
    let url = if flags & 0x0F == 0x0F && !url.is_empty() {
        url.repeat(16_000 / url.len() + 1)
    } else {
        url
    };

    let mut custom = Config::default();
    custom.skip_bom = flags & 0x01 != 0;
    custom.accept_typos = flags & 0x02 != 0;
    if flags & 0x04 != 0 {
        custom.agent_value = AgentValueMatch::WholeValue;
    }
    if flags & 0x08 != 0 {
        custom.pattern_without_slash = PatternWithoutSlash::PrependSlash;
    }
    if flags & 0x10 != 0 {
        custom.max_line_length = Some(usize::from(max_line));
    }
    custom.unavailable_allows_all = flags & 0x20 != 0;
    custom.max_redirects = u32::from(redirects % 8);
    custom.parse_limit = match flags >> 6 {
        0 => MIN_PARSE_LIMIT,
        1 => usize::from(max_line), // raised to the minimum
        2 => MIN_PARSE_LIMIT + usize::from(max_line),
        _ => usize::MAX,
    };

    let lines = line_count(body);
    if body.len() > 100_000 {
        // Inflated: one parse, with the configuration from the flag bits.
        let mut warnings = Vec::new();
        let robots = Robots::parse_with_warnings(body, &custom, &mut |w| warnings.push(w));
        check_warnings(&warnings, lines);
        check_verdict(&robots.check(&agent, &url), lines);
        return Ok(());
    }
    for config in [Config::rfc9309(), Config::google(), custom] {
        let robots = Robots::parse_with(body, &config);
        let mut warnings = Vec::new();
        let linted = Robots::parse_with_warnings(body, &config, &mut |w| warnings.push(w));
        check_warnings(&warnings, lines);

        let verdict = robots.check(&agent, &url);
        check_verdict(&verdict, lines);
        assert_eq!(
            verdict,
            linted.check(&agent, &url),
            "warnings changed the verdict"
        );
        assert_eq!(
            verdict,
            robots.check(&agent.to_ascii_uppercase(), &url),
            "the product token is not compared case-insensitively"
        );
        assert_eq!(
            robots.check(&agent, "/robots.txt").reason(),
            &Reason::RobotsTxtPath
        );

        check_access(
            &config, body, &agent, &url, status, redirects, cache_age, flags,
        );
    }
    Ok(())
}

/// Lines as the crate counts them: CR, LF and CRLF each end one line.
fn line_count(body: &[u8]) -> usize {
    let mut lines = 1;
    let mut i = 0;
    while i < body.len() {
        match body[i] {
            b'\r' => {
                lines += 1;
                if body.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
            }
            b'\n' => lines += 1,
            _ => {}
        }
        i += 1;
    }
    lines
}

fn check_warnings(warnings: &[Warning], lines: usize) {
    let mut previous = 1;
    let mut beyond = 0;
    for w in warnings {
        assert!(
            (1..=lines).contains(&w.line),
            "warning on line {} of {lines}: {w:?}",
            w.line
        );
        assert!(
            w.line >= previous,
            "warnings out of line order: {warnings:?}"
        );
        previous = w.line;
        match w.kind {
            WarningKind::BeyondParseLimit => beyond += 1,
            WarningKind::ByteOrderMark => assert_eq!(w.line, 1, "BOM warning: {w:?}"),
            _ => {}
        }
    }
    assert!(beyond <= 1, "BeyondParseLimit reported {beyond} times");
}

fn check_verdict(verdict: &Verdict, lines: usize) {
    let sorted = |groups: &[usize]| {
        !groups.is_empty()
            && groups.windows(2).all(|w| w[0] < w[1])
            && groups.iter().all(|g| (1..=lines).contains(g))
    };
    match verdict.reason() {
        Reason::RobotsTxtPath | Reason::NoGroup => assert!(verdict.is_allowed()),
        Reason::NoMatchingRule { groups } => {
            assert!(verdict.is_allowed());
            assert!(sorted(groups), "groups {groups:?} of {lines} lines");
        }
        Reason::Rule { rule, groups } => {
            assert_eq!(
                verdict.is_allowed(),
                rule.kind == RuleKind::Allow,
                "{verdict:?}"
            );
            assert!(
                (1..=lines).contains(&rule.line),
                "{verdict:?} of {lines} lines"
            );
            assert_eq!(verdict.line(), Some(rule.line));
            assert!(sorted(groups), "groups {groups:?} of {lines} lines");
            assert!(
                groups.iter().any(|&g| g < rule.line),
                "deciding rule before every applied group: {verdict:?}"
            );
        }
        Reason::Access(_) => panic!("Robots::check answered from the access method"),
        _ => {}
    }
}

#[allow(clippy::too_many_arguments)]
fn check_access(
    config: &Config,
    body: &[u8],
    agent: &str,
    url: &str,
    status: u16,
    redirects: u8,
    cache_age: u8,
    flags: u8,
) {
    let network_error = status & 0x8000 != 0 && flags & 0x40 != 0;
    let status = match status & 0x7FFF {
        0 => None,
        s => Some(s % 700),
    };
    let cache = (flags & 0x80 != 0).then(|| Cached {
        age_hours: u32::from(cache_age) / 8,
        body: b"User-agent: *\nDisallow: /\n",
    });
    let fetch = Fetch {
        status,
        network_error,
        redirects: u32::from(redirects % 10),
        body,
        cache,
    };
    let in_force = access::rules_in_force(&fetch, config);
    let verdict = check_fetch(&fetch, config, agent, url);
    match in_force {
        RulesInForce::Parsed(parsed) => {
            assert_eq!(
                verdict,
                Robots::parse_with(parsed, config).check(agent, url)
            );
        }
        RulesInForce::AllowAll(reason) => {
            assert!(verdict.is_allowed());
            assert_eq!(verdict.reason(), &Reason::Access(reason));
        }
        RulesInForce::DisallowAll(reason) => {
            assert!(!verdict.is_allowed());
            assert_eq!(verdict.reason(), &Reason::Access(reason));
        }
    }
    // The documented order of decisions.
    let expected_class = if network_error {
        "disallow"
    } else if fetch.redirects > config.max_redirects {
        if config.unavailable_allows_all {
            "allow"
        } else {
            "disallow"
        }
    } else {
        match (status, cache) {
            (None, Some(c)) if c.age_hours <= MAX_CACHE_AGE_HOURS => "parsed",
            (None, Some(_)) => "disallow",
            (None, None) | (Some(200..=299), _) => "parsed",
            (Some(429), _) if config.too_many_requests_unreachable => "disallow",
            (Some(400..=499), _) if config.unavailable_allows_all => "allow",
            _ => "disallow",
        }
    };
    let class = match in_force {
        RulesInForce::Parsed(_) => "parsed",
        RulesInForce::AllowAll(_) => "allow",
        RulesInForce::DisallowAll(_) => "disallow",
    };
    assert_eq!(class, expected_class, "rules_in_force({fetch:?})");
}
