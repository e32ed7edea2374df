//! The syntax layer against the text of RFC 9309 §2.2 (ABNF) and §2.2.4.

use super::*;

fn texts(body: &[u8]) -> Vec<(usize, &[u8])> {
    lines(body).map(|l| (l.number(), l.text())).collect()
}

fn one(text: &[u8]) -> Record<'_> {
    Record::parse(1, text)
}

/// `(kind, key, value, misspelt, missing colon)` of one line.
fn reading(text: &[u8]) -> (Option<Key>, &[u8], &[u8], bool, bool) {
    let r = one(text);
    (
        r.key_kind(),
        r.key(),
        r.value(),
        r.misspelt(),
        r.missing_colon(),
    )
}

// `EOL = %x0A / %x0D / %x0D.0A`

#[test]
fn cr_lf_and_crlf_each_end_one_line_and_mix() {
    assert_eq!(
        texts(b"a\nb\rc\r\nd"),
        [(1, &b"a"[..]), (2, b"b"), (3, b"c"), (4, b"d")]
    );
    let ends: Vec<_> = lines(b"a\nb\rc\r\nd").map(|l| l.line_end()).collect();
    use LineEnd::*;
    assert_eq!(ends, [Some(Lf), Some(Cr), Some(CrLf), None]);
}

#[test]
fn lf_cr_is_two_line_ends_and_cr_cr_lf_is_two() {
    assert_eq!(texts(b"a\n\rb"), [(1, &b"a"[..]), (2, b""), (3, b"b")]);
    assert_eq!(texts(b"a\r\r\nb"), [(1, &b"a"[..]), (2, b""), (3, b"b")]);
}

#[test]
fn empty_lines_count_and_a_trailing_line_end_adds_none() {
    assert!(texts(b"").is_empty());
    assert_eq!(texts(b"\n\n"), [(1, &b""[..]), (2, b"")]);
    assert_eq!(texts(b"a\r\n"), [(1, &b"a"[..])]);
    assert_eq!(texts(b"a\r"), [(1, &b"a"[..])]);
    // `emptyline = EOL`: blank, no record.
    let r = one(b"");
    assert!(r.is_blank() && r.key_kind().is_none());
}

#[test]
fn spans_and_line_ends_rebuild_the_body() {
    let body = b"\xEF\xBB\xBFab\r\ncd\re\n\nf";
    let all: Vec<Line<'_>> = lines(body).collect();
    let spans: Vec<_> = all.iter().map(Line::span).collect();
    assert_eq!(spans, [0..5, 7..9, 10..11, 12..12, 13..14]);
    let joined: Vec<u8> = all
        .iter()
        .flat_map(|l| l.with_line_end(body))
        .copied()
        .collect();
    assert_eq!(joined, body);
    assert_eq!(all[0].raw(), b"\xEF\xBB\xBFab");
}

// Byte order mark: RFC 9309 is silent; the file's first three octets only.

#[test]
fn a_bom_at_byte_0_is_reported_and_skipped_by_default() {
    let body = b"\xEF\xBB\xBFUser-agent: a\nb";
    let first = records(body).next().unwrap();
    assert!(first.line().bom());
    assert_eq!(first.text(), b"User-agent: a");
    assert_eq!(first.key_kind(), Some(Key::UserAgent));
    assert!(!lines(body).nth(1).unwrap().bom());
    let kept = lines(body).keep_bom().records().next().unwrap();
    assert!(kept.line().bom());
    assert_eq!(kept.key(), b"\xEF\xBB\xBFUser-agent");
    assert_eq!(kept.key_kind(), Some(Key::Unknown));
}

#[test]
fn a_partial_or_later_bom_is_no_bom() {
    let first = lines(b"\xEF\xBBa").next().unwrap();
    assert!(!first.bom());
    assert_eq!(first.text(), b"\xEF\xBBa");
    let second = lines(b"a\n\xEF\xBB\xBFb").nth(1).unwrap();
    assert!(!second.bom());
    assert_eq!(second.text(), b"\xEF\xBB\xBFb");
}

// `rule = *WS ("allow" / "disallow") *WS ":" *WS (path-pattern / empty-pattern) EOL`

#[test]
fn white_space_around_key_colon_and_value_is_dropped() {
    let r = one(b" \tDisallow \t: \t/x y \t");
    assert_eq!((r.key(), r.value()), (&b"Disallow"[..], &b"/x y"[..]));
    assert!(r.leading_whitespace() && r.whitespace_before_colon() && r.trailing_whitespace());
    assert_eq!(
        r.colon_split(),
        Some((&b" \tDisallow \t"[..], &b" \t/x y \t"[..]))
    );
    let tight = one(b"allow:/a");
    assert!(!tight.leading_whitespace() && !tight.whitespace_before_colon());
    assert!(!tight.trailing_whitespace());
    // `WS = %x20 / %x09` only: a form feed is no white space.
    assert_eq!(one(b"allow:\x0c/a").value(), b"\x0c/a");
}

#[test]
fn keys_are_case_insensitive_and_the_value_keeps_later_colons() {
    assert_eq!(reading(b"USER-AGENT:foo").0, Some(Key::UserAgent));
    assert_eq!(reading(b"aLLoW: /a:b").2, b"/a:b");
    assert_eq!(reading(b"Sitemap: https://e.com/s").0, Some(Key::Sitemap));
    assert_eq!(reading(b"crawl-delay: 1").0, Some(Key::Extension));
    assert_eq!(
        reading(b"Foo: bar"),
        (Some(Key::Unknown), &b"Foo"[..], &b"bar"[..], false, false)
    );
    assert_eq!(
        reading(b"disallow:"),
        (
            Some(Key::Disallow),
            &b"disallow"[..],
            &b""[..],
            false,
            false
        )
    );
}

// `comment = "#" *(UTF8-char-noctl / WS / "#")`

#[test]
fn a_comment_runs_from_the_first_hash_to_the_end_of_the_line() {
    let r = one(b"disallow: /a#b # c");
    assert_eq!(r.value(), b"/a");
    assert_eq!(r.comment(), Some(&b"#b # c"[..]));
    assert_eq!(r.content(), b"disallow: /a");
    for blank in [&b"# only"[..], b"  \t", b"  # x: y"] {
        let r = one(blank);
        assert!(r.is_blank() && r.key_kind().is_none(), "{blank:?}");
    }
    // A colon inside the comment is no separator.
    let r = one(b"disallow # : /a");
    assert_eq!(r.colon(), None);
    assert_eq!(r.key_kind(), Some(Key::Disallow));
    assert!(r.missing_colon());
    assert_eq!(r.value(), b"");
}

// RFC 9309 §2.2.4: "Crawlers MAY interpret other records that are not part of the
// robots.txt protocol -- for example, 'Sitemaps' [SITEMAPS]. Crawlers MAY be lenient when
// interpreting other records. For example, crawlers may accept common misspellings of
// the record." The syntax reads them and flags them.

#[test]
fn misspelt_keys_are_read_and_flagged() {
    for key in [&b"disalow"[..], b"Dissallow", b"DISSALOW", b"disallaw"] {
        let mut line = key.to_vec();
        line.extend_from_slice(b": /x");
        assert_eq!(
            reading(&line),
            (Some(Key::Disallow), key, &b"/x"[..], true, false)
        );
    }
    for line in [&b"useragent: a"[..], b"User Agent: a", b"user \t agent:a"] {
        let (kind, _, value, misspelt, _) = reading(line);
        assert_eq!(
            (kind, value, misspelt),
            (Some(Key::UserAgent), &b"a"[..], true)
        );
    }
    assert_eq!(reading(b"useragnt: a").0, Some(Key::Unknown));
    assert!(!one(b"useragnt: a").misspelt());
}

#[test]
fn a_known_key_followed_by_white_space_is_a_missing_colon() {
    assert_eq!(
        reading(b"Disallow \t /x"),
        (
            Some(Key::Disallow),
            &b"Disallow"[..],
            &b"/x"[..],
            false,
            true
        )
    );
    // The first colon is then part of the value.
    assert_eq!(
        reading(b"Disallow /a:b"),
        (
            Some(Key::Disallow),
            &b"Disallow"[..],
            &b"/a:b"[..],
            false,
            true
        )
    );
    assert_eq!(one(b"Disallow /a:b").colon(), Some(11));
    assert_eq!(
        reading(b"disalow /x"),
        (Some(Key::Disallow), &b"disalow"[..], &b"/x"[..], true, true)
    );
    assert_eq!(
        reading(b"user-agent"),
        (
            Some(Key::UserAgent),
            &b"user-agent"[..],
            &b""[..],
            false,
            true
        )
    );
    // An empty key is a key, unknown.
    assert_eq!(
        reading(b" : x"),
        (Some(Key::Unknown), &b""[..], &b"x"[..], false, false)
    );
    // No white space separator, an unknown first word, or an extension: no record.
    for line in [
        &b"Disallow/x"[..],
        b"hello world",
        b"foo bar: baz",
        b"Sitemap /s",
    ] {
        let r = one(line);
        assert!(r.key_kind().is_none() && !r.is_blank(), "{line:?}");
        assert_eq!((r.key(), r.value()), (&b""[..], &b""[..]));
    }
}

// `UTF8-char-noctl`: "UTF8 derived from RFC 3629, but excluding control characters".

#[test]
fn control_octets() {
    for value in [&b"/a\0b"[..], b"/\x01", b"/a\x1f", b"/a\x7f", b"\x0b/a"] {
        assert!(has_control(value), "{value:?}");
    }
    for value in [&b"/a b"[..], b"/a\tb", b"/%00", b"/\x80\xff", b""] {
        assert!(!has_control(value), "{value:?}");
    }
    assert!(one(b"allow: /a\x00").has_control());
    assert!(!one(b"allow:\t/a").has_control());
}

#[test]
fn trim_drops_spaces_and_tabs_only() {
    assert_eq!(trim(b" \t a b \t"), b"a b");
    assert_eq!(trim(b"   "), b"");
    assert_eq!(trim(b"\x0ba\x0c"), b"\x0ba\x0c");
}

#[test]
fn key_names() {
    assert_eq!(Key::UserAgent.name(), Some("user-agent"));
    assert_eq!(Key::Sitemap.name(), Some("sitemap"));
    assert_eq!(Key::Unknown.name(), None);
    assert!(Key::Allow.is_rfc9309() && !Key::Sitemap.is_rfc9309());
}

#[test]
fn odd_bytes_never_panic() {
    for text in [
        &b"\0"[..],
        b":",
        b"::",
        b"\xff\xfe: \x80",
        b"#",
        b"user",
        b" : ",
    ] {
        let r = one(text);
        let _ = (
            r.key(),
            r.value(),
            r.content(),
            r.comment(),
            r.colon_split(),
        );
        let _ = (
            r.leading_whitespace(),
            r.trailing_whitespace(),
            r.whitespace_before_colon(),
        );
    }
}
