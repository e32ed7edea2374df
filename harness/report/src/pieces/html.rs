//! HTML escaping: every page escapes with [`escape`] (the one escaper of the workspace,
//! [`reptest_core::markup_escape::escape`], which the JUnit XML uses too).

pub use reptest_core::markup_escape::escape;

/// `text` escaped for a `<pre>` block: as [`escape`], but line breaks kept as they are
/// (inside `<pre>` a line break is shown, a character reference would be too).
pub fn pre(text: &str) -> String {
    escape(text).replace("&#10;", "\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preformatted_text_keeps_its_lines() {
        assert_eq!(pre("a<b\nc\r\n"), "a&lt;b\nc&#13;\n");
        assert_eq!(escape("a\nb"), "a&#10;b");
    }
}
