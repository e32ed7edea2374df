//! Markdown that no input can break: text, table cells, code spans and fenced blocks.
//!
//! Two families. The conformance report's ([`text`], [`cell`], [`code`], [`code_cell`],
//! [`fenced`]) escapes Markdown's punctuation and shows agents, URLs and bodies in
//! visible-character notation ([`reptest_core::visible_notation`]). The survey's
//! ([`plain_cell`], [`plain_code`]) only keeps a value from ending its cell or code span:
//! its values (host names, agents, URLs, question texts) are shown as they are. Both
//! family's fences come from [`fence`], longer than any backtick run inside.

/// Bodies whose visible rendering is longer than this are shown by [`fenced`] as head
/// and tail.
const BODY_LIMIT: usize = 4096;

/// Text outside code spans with Markdown's punctuation escaped, balanced code spans kept
/// as written, line breaks as spaces.
pub fn text(input: &str) -> String {
    let input = input.replace(['\r', '\n'], " ");
    let bytes = input.as_bytes();
    let mut out = String::with_capacity(input.len() + 8);
    let mut i = 0;
    while i < input.len() {
        let c = input[i..].chars().next().unwrap_or(' ');
        if c == '`' {
            let run = bytes[i..].iter().take_while(|b| **b == b'`').count();
            // A closing run of exactly the same length keeps the span.
            let mut j = i + run;
            let mut close = None;
            while j < bytes.len() {
                if bytes[j] == b'`' {
                    let other = bytes[j..].iter().take_while(|b| **b == b'`').count();
                    if other == run {
                        close = Some(j);
                        break;
                    }
                    j += other;
                } else {
                    j += 1;
                }
            }
            match close {
                Some(j) => {
                    out.push_str(&input[i..j + run]);
                    i = j + run;
                }
                None => {
                    for _ in 0..run {
                        out.push_str("\\`");
                    }
                    i += run;
                }
            }
            continue;
        }
        if matches!(
            c,
            '\\' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' | '&' | '#'
        ) {
            out.push('\\');
        }
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// [`text`] for a table cell: `|` escaped inside code spans too.
pub fn cell(input: &str) -> String {
    text(input).replace("\\|", "|").replace('|', "\\|")
}

/// `input` as an inline code span in visible-character notation, on one line, with a
/// backtick fence longer than any run inside; `(empty)` for the empty string.
pub fn code(input: &str) -> String {
    if input.is_empty() {
        return "(empty)".into();
    }
    let visible = reptest_core::visible_notation::render(input.as_bytes()).replace('\n', "");
    let fence = "`".repeat(longest_run(&visible, '`') + 1);
    let pad = if visible.starts_with(['`', ' ']) || visible.ends_with(['`', ' ']) {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{visible}{pad}{fence}")
}

/// [`code`] for a table cell: `|` escaped (GFM tables split on it even in code spans).
pub fn code_cell(input: &str) -> String {
    code(input).replace('|', "\\|")
}

/// The longest run of `c` in `text`.
fn longest_run(text: &str, c: char) -> usize {
    let (mut longest, mut run) = (0, 0);
    for x in text.chars() {
        if x == c {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    longest
}

/// A body (already in visible notation) as a fenced block whose fence is longer than any
/// backtick run inside; a long body is shown as its head and tail.
pub fn fenced(body: &str) -> String {
    let shown = if body.len() > BODY_LIMIT {
        let head: String = body.chars().take(1024).collect();
        let tail_chars = body.chars().count().saturating_sub(512);
        let tail: String = body.chars().skip(tail_chars.max(1024)).collect();
        format!(
            "{head}\n[... {} characters in all; `reptest corpus show` prints every byte ...]\n{tail}",
            body.chars().count()
        )
    } else {
        body.to_string()
    };
    fence_block(shown.strip_suffix('\n').unwrap_or(&shown))
}

/// `shown` as it is in a fenced `text` block (no final line break), its fence from
/// [`fence`].
pub fn fence_block(shown: &str) -> String {
    let fence = fence(shown);
    format!("{fence}text\n{shown}\n{fence}")
}

/// A code fence longer than any run of backticks in `text`, and at least three long.
pub fn fence(text: &str) -> String {
    "`".repeat(longest_run(text, '`').max(2) + 1)
}

/// Text for a table cell, shown as it is: `|` escaped, line breaks as spaces (the
/// survey's cells; [`cell`] escapes Markdown's punctuation too).
pub fn plain_cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// Text for a code span between single backticks, shown as it is: a backtick cannot end
/// the span (it becomes `'`), line breaks become spaces (the survey's values; [`code`]
/// shows them in visible notation with a longer fence instead).
pub fn plain_code(text: &str) -> String {
    text.replace('`', "'").replace(['\n', '\r'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_escapes_outside_code_spans() {
        assert_eq!(text("a `*` b*c | d"), "a `*` b\\*c \\| d");
        assert_eq!(text("odd ` tick"), "odd \\` tick");
        assert_eq!(text("two\nlines"), "two lines");
        assert_eq!(cell("a `x|y` b|c"), "a `x\\|y` b\\|c");
    }

    #[test]
    fn code_spans_outgrow_backtick_runs() {
        assert_eq!(code("/a"), "`/a`");
        assert_eq!(code("a``b"), "```a``b```");
        assert_eq!(code("`x"), "`` `x ``");
        assert_eq!(code(""), "(empty)");
        assert_eq!(code("a\tb"), "`a→b`");
        assert_eq!(code_cell("a|b"), "`a\\|b`");
    }

    #[test]
    fn fences_outgrow_backtick_runs() {
        assert_eq!(fenced("a↵\n"), "```text\na↵\n```");
        assert_eq!(fenced("````x"), "`````text\n````x\n`````");
        let long = "é".repeat(5000);
        let shown = fenced(&long);
        assert!(shown.contains("5000 characters in all"));
        assert!(shown.len() < 8000);
    }

    #[test]
    fn plain_values_cannot_break_the_markup() {
        assert_eq!(fence("a ``` b"), "````");
        assert_eq!(fence("plain"), "```");
        assert_eq!(plain_cell("a|b\nc"), "a\\|b c");
        assert_eq!(plain_code("a`b\r"), "a'b ");
        assert_eq!(fence_block("x```"), "````text\nx```\n````");
    }
}
