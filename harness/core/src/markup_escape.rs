//! Escaping for markup: the JUnit XML of `reptest gate` and the HTML report.

/// Escapes `text` for XML and HTML text and quoted attribute values: `& < > " '` become entities, line
/// breaks and tabs become character references (so attributes keep them), and characters
/// XML 1.0 cannot hold (other C0 controls, U+FFFE, U+FFFF) become U+FFFD.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escapes_markup_and_controls() {
        assert_eq!(escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&apos;");
        assert_eq!(escape("x\ny\tz\r"), "x&#10;y&#9;z&#13;");
        assert_eq!(escape("\u{1}\u{FFFF}"), "\u{FFFD}\u{FFFD}");
        assert_eq!(escape("plain ツ"), "plain ツ");
    }
}
