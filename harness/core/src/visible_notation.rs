//! Visible-character notation for bodies in terminal output and reports (after
//! yaml-test-suite): white space, line ends and odd bytes shown as symbols.
//!
//! | byte(s) | shown as |
//! | --- | --- |
//! | tab | `→` |
//! | CR | `←` |
//! | LF | `↵` then a real line break |
//! | UTF-8 BOM (EF BB BF) | `⇔` |
//! | trailing space | `␣` |
//! | NUL and other controls, invalid UTF-8 | `\xHH` |

/// Renders `body` so that every byte that matters is visible.
///
/// ```
/// assert_eq!(reptest_core::visible_notation::render(b"\xEF\xBB\xBFa\tb \r\n\xFF"), "⇔a→b␣←↵\n\\xFF");
/// ```
pub fn render(body: &[u8]) -> String {
    let mut out = String::with_capacity(body.len() + 16);
    let mut rest = body;
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(text) => {
                push_text(&mut out, text);
                break;
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                push_text(&mut out, std::str::from_utf8(good).unwrap_or_default());
                let bad_len = e.error_len().unwrap_or(bad.len());
                for byte in &bad[..bad_len] {
                    out.push_str(&format!("\\x{byte:02X}"));
                }
                rest = &bad[bad_len..];
            }
        }
    }
    out
}

fn push_text(out: &mut String, text: &str) {
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        match c {
            '\t' => out.push('→'),
            '\r' => out.push('←'),
            '\n' => out.push_str("↵\n"),
            '\u{FEFF}' => out.push('⇔'),
            ' ' if matches!(chars.get(i + 1), None | Some('\r' | '\n')) => out.push('␣'),
            c if c.is_ascii_control() => out.push_str(&format!("\\x{:02X}", c as u32)),
            c if c.is_control() => out.push_str(&format!("\\u{{{:04X}}}", c as u32)),
            c => out.push(c),
        }
    }
}
