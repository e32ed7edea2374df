//! HTML escaping: every page escapes with [`escape`] (the one escaper of the workspace,
//! [`reptest_core::markup_escape::escape`], which the JUnit XML uses too).

pub use reptest_core::markup_escape::escape;

/// `text` escaped for a `<pre>` block: as [`escape`], but line breaks kept as they are
/// (inside `<pre>` a line break is shown, a character reference would be too).
pub fn pre(text: &str) -> String {
    escape(text).replace("&#10;", "\n")
}

/// `text` escaped, then each pair of backticks made a code span: `` `x` `` becomes
/// `<code>x</code>` (the escaping comes first, so the span holds escaped text only). A
/// lone backtick stays as it is.
pub fn code_spans(text: &str) -> String {
    let escaped = escape(text);
    let mut out = String::with_capacity(escaped.len() + 16);
    let mut rest = escaped.as_str();
    while let Some(open) = rest.find('`') {
        let Some(len) = rest[open + 1..].find('`') else {
            break;
        };
        out.push_str(&rest[..open]);
        let inner = &rest[open + 1..open + 1 + len];
        if inner.is_empty() {
            out.push_str("``");
        } else {
            out.push_str("<code>");
            out.push_str(inner);
            out.push_str("</code>");
        }
        rest = &rest[open + len + 2..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backticks_become_code_after_escaping() {
        assert_eq!(
            code_spans("is `<b>` a `Disallow:` line? a ` lone one"),
            "is <code>&lt;b&gt;</code> a <code>Disallow:</code> line? a ` lone one"
        );
        assert_eq!(code_spans("no code"), "no code");
        assert_eq!(code_spans("``"), "``");
    }

    #[test]
    fn preformatted_text_keeps_its_lines() {
        assert_eq!(pre("a<b\nc\r\n"), "a&lt;b\nc&#13;\n");
        assert_eq!(escape("a\nb"), "a&#10;b");
    }
}
