//! Octets from an input shown in a message: never raw control characters (an escape
//! sequence in an archive must not reach a terminal), never an invalid UTF-8 sequence.

use std::fmt::Write;

/// `bytes` in visible notation: valid UTF-8 kept as it is, except control characters
/// (C0, DEL, C1) and other invisible ones (a right-to-left override, a zero-width
/// space), which are escaped as Rust escapes them (`\n`, `\u{1b}`, `\u{202e}`); invalid
/// octets are written `\xNN`. A backslash is doubled, so the notation cannot be forged:
/// the octets `a`, ESC, `[31m`, 0xFF are shown `a\u{1b}[31m\xff` (see the tests below).
pub(crate) fn printable(bytes: &[u8]) -> String {
    let mut shown = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            // What Rust's Debug escapes, but quotes: controls, bidirectional overrides,
            // zero-width and other invisible characters, and the backslash.
            let escaped = c.escape_debug();
            if escaped.len() > 1 && c != '"' && c != '\'' {
                shown.extend(escaped);
            } else {
                shown.push(c);
            }
        }
        for b in chunk.invalid() {
            let _ = write!(shown, "\\x{b:02x}");
        }
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::printable;

    #[test]
    fn controls_and_invalid_octets_are_escaped() {
        assert_eq!(printable(b"a\x1b[31m\xff"), "a\\u{1b}[31m\\xff");
        assert_eq!(printable(b"tab\there\r\n"), "tab\\there\\r\\n");
        assert_eq!(
            printable("h\u{e9}te \u{9b}".as_bytes()),
            "h\u{e9}te \\u{9b}"
        );
        assert_eq!(printable(b"back\\slash"), "back\\\\slash");
        assert_eq!(printable(b"plain.example"), "plain.example");
        assert_eq!(
            printable("a\u{202e}b\u{200b}\"'".as_bytes()),
            "a\\u{202e}b\\u{200b}\"'"
        );
    }
}
