//! The `unescape = true` escape syntax of case bodies: `\xHH`, `\r`, `\n`, `\t`, `\0`, `\\`.

/// Turns an escaped string into bytes. Errors give the byte offset of the offending
/// escape and name it.
pub(crate) fn unescape(text: &str) -> Result<Vec<u8>, (usize, String)> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        let Some(&next) = bytes.get(i + 1) else {
            return Err((i, "a lone `\\` at the end of the string".into()));
        };
        match next {
            b'r' => out.push(b'\r'),
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'0' => out.push(0),
            b'\\' => out.push(b'\\'),
            b'x' => {
                let hex = bytes.get(i + 2..i + 4).unwrap_or_default();
                let value = std::str::from_utf8(hex)
                    .ok()
                    .filter(|h| h.len() == 2)
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| {
                        (
                            i,
                            format!(
                                "`\\x` must be followed by two hex digits, found `{}`",
                                String::from_utf8_lossy(hex)
                            ),
                        )
                    })?;
                out.push(value);
                i += 4;
                continue;
            }
            other => {
                return Err((
                    i,
                    format!(
                        "unknown escape `\\{}` (known: \\xHH \\r \\n \\t \\0 \\\\)",
                        char::from(other).escape_default()
                    ),
                ))
            }
        }
        i += 2;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::unescape;

    #[test]
    fn every_escape() {
        assert_eq!(
            unescape(r"a\r\n\t\0\\\xEF\xbb\xBFz").unwrap(),
            b"a\r\n\t\0\\\xEF\xBB\xBFz"
        );
    }

    #[test]
    fn plain_text_and_utf8_pass_through() {
        assert_eq!(
            unescape("Disallow: /ツ\n").unwrap(),
            "Disallow: /ツ\n".as_bytes()
        );
    }

    #[test]
    fn bad_escapes_are_errors() {
        assert!(unescape(r"\q").unwrap_err().1.contains("unknown escape"));
        assert!(unescape(r"\x4").unwrap_err().1.contains("two hex digits"));
        assert!(unescape(r"\xZZ").unwrap_err().1.contains("two hex digits"));
        assert!(unescape("\\").unwrap_err().1.contains("lone"));
        assert!(unescape(r"\xツ").is_err());
    }
}
