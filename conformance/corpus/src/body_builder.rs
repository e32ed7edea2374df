//! Builds a case body from `robots` or from generator segments.

use crate::toml_shape::Segment;
use crate::unescape::unescape;

/// The largest body a case may generate.
pub(crate) const MAX_BODY: usize = 4 << 20;
/// The longest comment line `pad_to` writes, LF included.
const PAD_LINE: usize = 100;

/// A string of a case file, unescaped when the case says so.
pub(crate) fn text(value: &str, unescaped: bool) -> Result<Vec<u8>, String> {
    text_at(value, unescaped).map_err(|(_, message)| message)
}

/// [`text`], an error also giving the byte offset of the bad escape in `value`.
pub(crate) fn text_at(value: &str, unescaped: bool) -> Result<Vec<u8>, (usize, String)> {
    if unescaped {
        unescape(value)
    } else {
        Ok(value.as_bytes().to_vec())
    }
}

/// Concatenates the segments.
pub(crate) fn generate(segments: &[Segment], unescaped: bool) -> Result<Vec<u8>, String> {
    let mut body = Vec::new();
    for (n, segment) in segments.iter().enumerate() {
        let at = |message: String| format!("body segment {}: {message}", n + 1);
        match (
            &segment.text,
            &segment.repeat,
            segment.count,
            segment.pad_to,
        ) {
            (Some(value), None, None, None) => body.extend(text(value, unescaped).map_err(at)?),
            (None, Some(value), Some(count), None) => {
                let unit = text(value, unescaped).map_err(at)?;
                if unit.len().saturating_mul(count) > MAX_BODY {
                    return Err(at(format!("repeat makes more than {MAX_BODY} bytes")));
                }
                body.extend(unit.repeat(count));
            }
            (None, None, None, Some(target)) => pad(&mut body, target).map_err(at)?,
            _ => {
                return Err(at(
                    "a segment is exactly one of `text`, `repeat` with `count`, or `pad_to`".into(),
                ))
            }
        }
        if body.len() > MAX_BODY {
            return Err(at(format!("the body exceeds {MAX_BODY} bytes")));
        }
    }
    Ok(body)
}

/// Appends comment lines until `body` is exactly `target` bytes long.
fn pad(body: &mut Vec<u8>, target: usize) -> Result<(), String> {
    if target > MAX_BODY {
        return Err(format!("pad_to {target} exceeds the {MAX_BODY}-byte limit"));
    }
    if body.len() > target {
        return Err(format!(
            "pad_to {target}, but the body is already {} bytes long",
            body.len()
        ));
    }
    while body.len() < target {
        let line = (target - body.len()).min(PAD_LINE);
        if line == 1 {
            body.push(b'\n');
        } else {
            body.push(b'#');
            body.extend(std::iter::repeat_n(b'.', line - 2));
            body.push(b'\n');
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(
        text: Option<&str>,
        repeat: Option<&str>,
        count: Option<usize>,
        pad: Option<usize>,
    ) -> Segment {
        Segment {
            text: text.map(str::to_owned),
            repeat: repeat.map(str::to_owned),
            count,
            pad_to: pad,
        }
    }

    #[test]
    fn pad_reaches_the_exact_length_with_whole_lines() {
        for target in [14, 15, 16, 113, 114, 115, 511_980] {
            let body = generate(
                &[
                    seg(Some("User-agent: *\n"), None, None, None),
                    seg(None, None, None, Some(target)),
                ],
                false,
            )
            .unwrap();
            assert_eq!(body.len(), target);
            assert!(body.ends_with(b"\n"));
            assert!(body[14..]
                .split(|&b| b == b'\n')
                .all(|l| l.is_empty() || l[0] == b'#'));
        }
    }

    #[test]
    fn repeat_and_text_concatenate() {
        let body = generate(
            &[
                seg(Some("Disallow: /"), None, None, None),
                seg(None, Some("a"), Some(5), None),
                seg(Some(r"\n"), None, None, None),
            ],
            true,
        )
        .unwrap();
        assert_eq!(body, b"Disallow: /aaaaa\n");
    }

    #[test]
    fn bad_segments_are_errors() {
        assert!(generate(&[seg(Some("x"), Some("y"), Some(1), None)], false).is_err());
        assert!(generate(&[seg(None, Some("y"), None, None)], false).is_err());
        assert!(generate(
            &[
                seg(Some("abc"), None, None, None),
                seg(None, None, None, Some(2))
            ],
            false
        )
        .unwrap_err()
        .contains("already 3 bytes"));
        assert!(generate(&[seg(None, Some("ab"), Some(MAX_BODY), None)], false).is_err());
    }
}
