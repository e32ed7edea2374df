//! The body of a synthetic `200` record: a real file, varied so that the copies of one
//! file differ, as the same CMS's file differs from site to site.
//!
//! Each variation is decided by the record's seeded random numbers (SplitMix64 seeded
//! from the seed and the record's index), in this order:
//!
//! 1. the real host, wherever the body names it (a `Sitemap` line), becomes the record's
//!    host (ASCII case ignored; hosts shorter than 4 octets are left alone);
//! 2. one time in 8, the key of one `key: value` line changes case (`Disallow` becomes
//!    `DISALLOW`, an upper-case key lower case);
//! 3. one time in 8, one `allow` / `disallow` path gets one more letter at its end (before
//!    a final `$`): `/private` may become `/privatek`; `/` and `/$` alone are never
//!    changed, so a whole-site block stays one;
//! 4. one time in 16, a blank line is inserted after one line;
//! 5. always, a last line `# reptest synth record <index>` (after a line end if the body
//!    lacked one), so no two records' bodies are identical;
//! 6. one time in 10, every line end becomes CRLF.
//!
//! Steps 2 to 4 change what some parsers decide (a blank line ends a group for some, a
//! longer path matches less), as real variation does.

use crate::queries::rng::Rng;

/// The body of record `index`: `body` (the real file of host `original`) varied for the
/// record's host `host`, by `rng` (see the module's documentation).
pub(crate) fn vary(body: &[u8], original: &str, host: &str, index: u64, rng: &mut Rng) -> Vec<u8> {
    let renamed = replace_host(body, original.as_bytes(), host.as_bytes());
    let mut lines: Vec<Vec<u8>> = renamed
        .split_inclusive(|&b| b == b'\n')
        .map(<[u8]>::to_vec)
        .collect();
    // Each choice draws its numbers whether or not it applies, so one choice never
    // shifts another's.
    let (key_case, path, blank, crlf) = (
        rng.below(8) == 0,
        rng.below(8) == 0,
        rng.below(16) == 0,
        rng.below(10) == 0,
    );
    let (pick_key, pick_path, pick_blank, letter) = (
        rng.next_u64(),
        rng.next_u64(),
        rng.next_u64(),
        rng.below(26),
    );
    if key_case {
        if let Some(line) = nth_matching(&mut lines, pick_key, |l| key_end(l).is_some()) {
            flip_key_case(line);
        }
    }
    if path {
        if let Some(line) = nth_matching(&mut lines, pick_path, |l| path_end(l).is_some()) {
            extend_path(line, b'a' + letter as u8);
        }
    }
    if blank && !lines.is_empty() {
        let at = (pick_blank % lines.len() as u64) as usize;
        if !lines[at].ends_with(b"\n") {
            lines[at].push(b'\n');
        }
        lines.insert(at + 1, b"\n".to_vec());
    }
    let mut out = lines.concat();
    if !out.is_empty() && !out.ends_with(b"\n") {
        out.push(b'\n');
    }
    out.extend_from_slice(format!("# reptest synth record {index}\n").as_bytes());
    if crlf {
        out = to_crlf(&out);
    }
    out
}

/// `body` with every occurrence of `from` (ASCII case ignored) replaced by `to`.
fn replace_host(body: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    if from.len() < 4 {
        return body.to_vec();
    }
    let mut out = Vec::with_capacity(body.len());
    let mut at = 0;
    while at < body.len() {
        if body[at..].len() >= from.len() && body[at..at + from.len()].eq_ignore_ascii_case(from) {
            out.extend_from_slice(to);
            at += from.len();
        } else {
            out.push(body[at]);
            at += 1;
        }
    }
    out
}

/// The line chosen by `pick` among those for which `wanted` holds, if any.
fn nth_matching(
    lines: &mut [Vec<u8>],
    pick: u64,
    wanted: impl Fn(&[u8]) -> bool,
) -> Option<&mut Vec<u8>> {
    let count = lines.iter().filter(|l| wanted(l)).count();
    if count == 0 {
        return None;
    }
    let n = (pick % count as u64) as usize;
    lines.iter_mut().filter(|l| wanted(l)).nth(n)
}

/// The end of a line's key, when the line is `key: value` with a key of ASCII letters and
/// `-` after optional spaces.
fn key_end(line: &[u8]) -> Option<(usize, usize)> {
    let start = line.iter().position(|&b| b != b' ' && b != b'\t')?;
    let len = line[start..]
        .iter()
        .take_while(|&&b| b.is_ascii_alphabetic() || b == b'-')
        .count();
    let rest = &line[start + len..];
    let colon = rest.iter().position(|&b| b != b' ' && b != b'\t');
    (len > 0 && colon.is_some_and(|c| rest[c] == b':')).then_some((start, start + len))
}

/// Upper-cases the line's key, or lower-cases it when it is upper case already.
fn flip_key_case(line: &mut [u8]) {
    let Some((start, end)) = key_end(line) else {
        return;
    };
    let key = &mut line[start..end];
    if key.iter().any(u8::is_ascii_lowercase) {
        key.make_ascii_uppercase();
    } else {
        key.make_ascii_lowercase();
    }
}

/// Where an `allow` / `disallow` line's path ends (before a final `$`), when its value is
/// a path starting with `/` other than `/` or `/$` alone.
fn path_end(line: &[u8]) -> Option<usize> {
    let (start, end) = key_end(line)?;
    let key = &line[start..end];
    if !key.eq_ignore_ascii_case(b"allow") && !key.eq_ignore_ascii_case(b"disallow") {
        return None;
    }
    let colon = end + line[end..].iter().position(|&b| b == b':')?;
    let value = colon
        + 1
        + line[colon + 1..]
            .iter()
            .position(|&b| b != b' ' && b != b'\t')?;
    if line[value] != b'/' {
        return None;
    }
    let len = line[value..]
        .iter()
        .take_while(|&&b| !b.is_ascii_whitespace() && b != b'#')
        .count();
    let end = value + len;
    let end = if line[end - 1] == b'$' { end - 1 } else { end };
    // `/` alone (and `/$`) stays: a whole-site block is what consent studies count.
    (end > value + 1).then_some(end)
}

/// Inserts `letter` at the end of the line's path.
fn extend_path(line: &mut Vec<u8>, letter: u8) {
    if let Some(at) = path_end(line) {
        line.insert(at, letter);
    }
}

/// `body` with every LF not after a CR made CRLF.
fn to_crlf(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + body.len() / 16);
    for (i, &b) in body.iter().enumerate() {
        if b == b'\n' && (i == 0 || body[i - 1] != b'\r') {
            out.push(b'\r');
        }
        out.push(b);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_real_host_is_replaced_whatever_its_case() {
        let body = b"Sitemap: https://WWW.Example.com/sitemap.xml\nDisallow: /www.example.comx\n";
        let out = replace_host(body, b"www.example.com", b"s1.ab.example");
        assert_eq!(
            out,
            b"Sitemap: https://s1.ab.example/sitemap.xml\nDisallow: /s1.ab.examplex\n"
        );
        assert_eq!(replace_host(b"a.b c", b"a.b", b"x"), b"a.b c", "too short");
    }

    #[test]
    fn keys_flip_case() {
        let mut line = b"  Disallow : /x\n".to_vec();
        flip_key_case(&mut line);
        assert_eq!(line, b"  DISALLOW : /x\n");
        flip_key_case(&mut line);
        assert_eq!(line, b"  disallow : /x\n");
        assert_eq!(key_end(b"# Disallow: /x"), None);
        assert_eq!(key_end(b"Disallow /x"), None);
    }

    #[test]
    fn paths_grow_before_a_final_dollar() {
        for (line, grown) in [
            (&b"Disallow: /private\n"[..], &b"Disallow: /privatek\n"[..]),
            (b"allow:/a.pdf$ # pdf\n", b"allow:/a.pdfk$ # pdf\n"),
            (b"Disallow: /a", b"Disallow: /ak"),
        ] {
            let mut line = line.to_vec();
            extend_path(&mut line, b'k');
            assert_eq!(
                String::from_utf8_lossy(&line),
                String::from_utf8_lossy(grown)
            );
        }
        for untouched in [
            &b"Disallow: *.php\n"[..],
            b"Disallow:\n",
            b"Sitemap: /x\n",
            b"Disallow: /\n",
            b"Disallow: /$\n",
        ] {
            assert_eq!(path_end(untouched), None, "{untouched:?}");
        }
    }

    #[test]
    fn crlf_is_not_doubled() {
        assert_eq!(to_crlf(b"a\nb\r\nc\n"), b"a\r\nb\r\nc\r\n");
        assert_eq!(to_crlf(b"\n"), b"\r\n");
    }

    #[test]
    fn every_body_ends_with_its_record_line() {
        let mut rng = Rng::new(1);
        let out = vary(
            b"User-agent: *\nDisallow: /x",
            "example.com",
            "s5.x.example",
            5,
            &mut rng,
        );
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.ends_with("# reptest synth record 5\n")
                || text.ends_with("# reptest synth record 5\r\n"),
            "{text:?}"
        );
        assert!(
            text.contains("User-agent: *") || text.contains("USER-AGENT: *"),
            "{text:?}"
        );
    }

    #[test]
    fn each_variation_happens_at_about_its_rate() {
        let body = b"User-agent: *\nDisallow: /private\n";
        let (mut upper, mut longer, mut blank, mut crlf) = (0, 0, 0, 0);
        let n = 16_000;
        for index in 0..n {
            let out = vary(
                body,
                "a.example",
                "b.example",
                index,
                &mut super::super::mix::body_rng(1, index),
            );
            let text = String::from_utf8(out).unwrap();
            upper += usize::from(text.contains("USER-AGENT") || text.contains("DISALLOW"));
            longer += usize::from(!text.contains("/private\r\n") && !text.contains("/private\n"));
            blank += usize::from(text.contains("\n\n") || text.contains("\n\r\n"));
            crlf += usize::from(text.contains("\r\n"));
        }
        let near = |count: usize, every: usize| {
            let expected = n as usize / every;
            count.abs_diff(expected) < expected / 5
        };
        assert!(near(upper, 8), "{upper}");
        assert!(near(longer, 8), "{longer}");
        assert!(near(blank, 16), "{blank}");
        assert!(near(crlf, 10), "{crlf}");
    }
}
