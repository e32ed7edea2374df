//! Source literals for the reproducers: a robots.txt body as exact bytes, and the agent,
//! URL and texts as strings, in each reproducer language's own syntax. A body is split
//! after each LF into one literal piece per line, so the reproducer reads like the file.

use super::Language;

/// The body as an expression of the language's byte type (`bytes`, `Buffer`, `[]byte`,
/// `byte[]`, a Perl or Ruby byte string, `&[u8]`), with `indent` before each line piece.
pub fn body(language: Language, bytes: &[u8], indent: &str) -> String {
    if language == Language::Rust {
        return rust_bytes(bytes, indent);
    }
    let quoted: Vec<String> = lines(bytes)
        .iter()
        .map(|p| bytes_piece(language, p))
        .collect();
    // What joins two pieces: Python concatenates adjacent literals; Ruby does too,
    // across a line continuation.
    let separator = match language {
        Language::Python => "",
        Language::Ruby => " \\",
        Language::Perl => " .",
        _ => " +",
    };
    let pieces = quoted.join(&format!("{separator}\n{indent}"));
    match language {
        Language::Python => format!("(\n{indent}{pieces}\n)"),
        Language::JavaScript => format!("Buffer.from(\n{indent}{pieces},\n{indent}'latin1')"),
        Language::Go => format!("[]byte(\n{indent}{pieces})"),
        Language::Java => {
            format!("(\n{indent}{pieces})\n{indent}.getBytes(StandardCharsets.ISO_8859_1)")
        }
        _ => pieces,
    }
}

/// The expression that reads the body from `file`, beside the reproducer (Python, Ruby
/// and JavaScript find it beside their source, Rust at compile time; Go, Java and Perl in
/// the working folder, where their run line is).
pub fn read_file(language: Language, file: &str) -> String {
    let name = string(language, file);
    match language {
        Language::Python => {
            format!("(__import__(\"pathlib\").Path(__file__).parent / {name}).read_bytes()")
        }
        Language::JavaScript => {
            format!("require('fs').readFileSync(require('path').join(__dirname, {name}))")
        }
        Language::Go => format!("mustRead({name})"),
        Language::Java => format!("file({name})"),
        Language::Perl => {
            format!("do {{ local $/; open my $fh, '<:raw', {name} or die \"{file}: $!\"; <$fh> }}")
        }
        Language::Ruby => format!("File.binread(File.join(__dir__, {name}))"),
        Language::Rust => format!("include_bytes!({name})"),
    }
}

/// `text` as a string literal of the language (UTF-8 text; in Perl as its UTF-8 bytes,
/// which is what its libraries take).
pub fn string(language: Language, text: &str) -> String {
    match language {
        Language::Perl => bytes_piece(language, text.as_bytes()),
        _ => {
            let mut out = String::from("\"");
            for c in text.chars() {
                push_char(&mut out, language, c);
            }
            out.push('"');
            out
        }
    }
}

/// The body cut after every LF (the last piece may lack one); an empty body is one empty
/// piece.
fn lines(bytes: &[u8]) -> Vec<&[u8]> {
    let mut pieces: Vec<&[u8]> = bytes.split_inclusive(|b| *b == b'\n').collect();
    if pieces.is_empty() {
        pieces.push(b"");
    }
    pieces
}

/// One piece of bytes as a double-quoted literal whose characters are the bytes: printable
/// ASCII as itself, the rest escaped.
fn bytes_piece(language: Language, bytes: &[u8]) -> String {
    let mut out = String::from(match language {
        Language::Python => "b\"",
        _ => "\"",
    });
    for &b in bytes {
        push_byte(&mut out, language, b);
    }
    out.push('"');
    out
}

/// One byte inside a double-quoted literal of `language`.
fn push_byte(out: &mut String, language: Language, b: u8) {
    match b {
        b'\n' => out.push_str("\\n"),
        b'\r' => out.push_str("\\r"),
        b'\t' => out.push_str("\\t"),
        b'"' | b'\\' => {
            out.push('\\');
            out.push(b as char);
        }
        b'$' | b'@' if language == Language::Perl => {
            out.push('\\');
            out.push(b as char);
        }
        b'#' if language == Language::Ruby => out.push_str("\\#"),
        0x20..=0x7e => out.push(b as char),
        // Java has no \x escape: an octal escape is one char of the ISO-8859-1 string.
        _ if language == Language::Java => out.push_str(&format!("\\{b:03o}")),
        _ => out.push_str(&format!("\\x{b:02X}")),
    }
}

/// One character inside a double-quoted string literal of `language` (not Perl).
fn push_char(out: &mut String, language: Language, c: char) {
    match c {
        ' '..='~' if c.is_ascii() => push_byte(out, language, c as u8),
        '\n' | '\r' | '\t' => push_byte(out, language, c as u8),
        _ => {
            let code = c as u32;
            match language {
                Language::Rust | Language::Ruby => out.push_str(&format!("\\u{{{code:x}}}")),
                _ if code <= 0xFFFF => out.push_str(&format!("\\u{code:04x}")),
                Language::Python | Language::Go => out.push_str(&format!("\\U{code:08x}")),
                _ => {
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        out.push_str(&format!("\\u{unit:04x}"));
                    }
                }
            }
        }
    }
}

/// A Rust byte string over several source lines: after each LF a `\` line continuation,
/// whose next line's leading white space Rust skips, so a piece that starts with white
/// space has it escaped.
fn rust_bytes(bytes: &[u8], indent: &str) -> String {
    let mut out = String::from("b\"");
    for (i, piece) in lines(bytes).into_iter().enumerate() {
        if i > 0 {
            out.push_str("\\\n");
            out.push_str(indent);
        }
        for (j, &b) in piece.iter().enumerate() {
            if j == 0 && i > 0 && b.is_ascii_whitespace() {
                out.push_str(&format!("\\x{b:02X}"));
            } else {
                push_byte(&mut out, Language::Rust, b);
            }
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const ODD: &[u8] = b"\xEF\xBB\xBFUser-agent: *\r\n Disallow: /$x@y#{z}\"\\\t\x00\xFF\n";

    #[test]
    fn python_body_is_a_bytes_literal_per_line() {
        assert_eq!(
            body(Language::Python, b"a\nb", "    "),
            "(\n    b\"a\\n\"\n    b\"b\"\n)"
        );
        let text = body(Language::Python, ODD, "");
        assert!(
            text.contains(r#"b"\xEF\xBB\xBFUser-agent: *\r\n""#),
            "{text}"
        );
        assert!(
            text.contains(r#"b" Disallow: /$x@y#{z}\"\\\t\x00\xFF\n""#),
            "{text}"
        );
    }

    #[test]
    fn each_language_escapes_its_own_specials() {
        let perl = body(Language::Perl, ODD, "");
        assert!(perl.contains(r"/\$x\@y#{z}"), "{perl}");
        let ruby = body(Language::Ruby, ODD, "");
        assert!(
            ruby.contains(r"/$x@y\#{z}") && ruby.contains(" \\\n"),
            "{ruby}"
        );
        let java = body(Language::Java, ODD, "");
        assert!(
            java.contains(r"\357\273\277User") && java.contains(r"\000\377"),
            "{java}"
        );
        let rust = body(Language::Rust, ODD, "    ");
        assert!(
            rust.starts_with("b\"\\xEF") && rust.contains("\\\n    \\x20Disallow"),
            "{rust}"
        );
        assert_eq!(body(Language::Go, b"", ""), "[]byte(\n\"\")");
    }

    #[test]
    fn strings_escape_non_ascii_per_language() {
        assert_eq!(
            string(Language::Python, "é/\u{1F600}"),
            "\"\\u00e9/\\U0001f600\""
        );
        assert_eq!(
            string(Language::JavaScript, "\u{1F600}"),
            "\"\\ud83d\\ude00\""
        );
        assert_eq!(string(Language::Rust, "é"), "\"\\u{e9}\"");
        assert_eq!(string(Language::Perl, "é$"), "\"\\xC3\\xA9\\$\"");
    }
}
