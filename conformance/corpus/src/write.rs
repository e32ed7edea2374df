//! The case writer: the inverse of the loader. [`case_toml`] turns a [`Case`] back into
//! the TOML of a case file (`corpus/README.md`), byte-exact bodies included, so that
//! loading the text gives the same case again (file and line aside). The fuzzing
//! campaign writes its findings with it; other tools can write cases they make.
//!
//! Bodies are written with `unescape = true`: printable ASCII as it is, LF as a line
//! break, everything else as an escape (`\r`, `\t`, `\0`, `\\`, `\x27`, `\xHH`). A body
//! longer than [`SEGMENT_THRESHOLD`] is written as `[[case.body]]` segments, with runs
//! (a line repeated 4 times or more, a byte 64 times or more) as `repeat`/`count`.
//!
//! ```
//! use reptest_corpus::write::case_toml;
//! let dir = reptest_corpus::default_dir();
//! let corpus = reptest_corpus::Corpus::load(&dir).unwrap();
//! let text = case_toml(&corpus.cases()[0]);
//! assert!(text.starts_with("[[case]]\nid = "));
//! ```

use crate::model::{Cache, Case, Fetch, Query};
use std::fmt::Write as _;

/// Bodies longer than this are written as `[[case.body]]` segments, runs compressed.
pub const SEGMENT_THRESHOLD: usize = 4096;

/// One case as the TOML of a case file (ending in a blank line).
pub fn case_toml(case: &Case) -> String {
    let mut out = String::new();
    let dimensions: Vec<String> = case
        .dimensions
        .iter()
        .map(|d| toml_string(d.as_str()))
        .collect();
    let _ = writeln!(out, "[[case]]");
    let _ = writeln!(out, "id = {}", toml_string(&case.id));
    let _ = writeln!(out, "title = {}", toml_string(&case.title));
    let _ = writeln!(out, "dimensions = [{}]", dimensions.join(", "));
    let _ = writeln!(out, "unescape = true");
    if case.body.len() <= SEGMENT_THRESHOLD {
        let _ = writeln!(out, "robots = '''\n{}'''", escape_body(&case.body));
    } else {
        for segment in segments(&case.body) {
            let _ = writeln!(out, "\n[[case.body]]");
            match segment {
                Segment::Text(text) => {
                    let _ = writeln!(out, "text = '{}'", escape_line(text));
                }
                Segment::Repeat(unit, count) => {
                    let _ = writeln!(out, "repeat = '{}'\ncount = {count}", escape_line(unit));
                }
            }
        }
    }
    if let Some(fetch) = &case.fetch {
        write_fetch(&mut out, fetch);
    }
    let _ = writeln!(out);
    for query in &case.queries {
        write_query(&mut out, query);
    }
    out
}

fn write_fetch(out: &mut String, fetch: &Fetch) {
    let _ = writeln!(out, "\n[case.fetch]");
    if let Some(status) = fetch.status {
        let _ = writeln!(out, "status = {status}");
    }
    if let Some(fault) = fetch.fault {
        let _ = writeln!(out, "fault = {}", toml_string(fault.as_str()));
    } else if fetch.network_error {
        let _ = writeln!(out, "network_error = true");
    }
    if fetch.redirects > 0 {
        let _ = writeln!(out, "redirects = {}", fetch.redirects);
    }
    if fetch.cross_origin {
        let _ = writeln!(out, "cross_origin = true");
    }
    if let Some(encoding) = fetch.content_encoding {
        let _ = writeln!(out, "content_encoding = {}", toml_string(encoding.as_str()));
    }
    if let Some(content_type) = &fetch.content_type {
        let _ = writeln!(out, "content_type = {}", toml_string(content_type));
    }
    if let Some(Cache { age_hours, body }) = &fetch.cache {
        let _ = writeln!(out, "\n[case.fetch.cache]");
        let _ = writeln!(out, "age_hours = {age_hours}");
        let _ = writeln!(out, "robots = '''\n{}'''", escape_body(body));
    }
}

fn write_query(out: &mut String, query: &Query) {
    let requirements: Vec<String> = query.requirements.iter().map(|r| toml_string(r)).collect();
    let _ = writeln!(out, "[[case.query]]");
    if query.name != crate::names::derived(&query.agent, &query.url) {
        let _ = writeln!(out, "name = {}", toml_string(&query.name));
    }
    let _ = writeln!(out, "agent = {}", toml_string(&query.agent));
    let _ = writeln!(out, "url = {}", toml_string(&query.url));
    let _ = writeln!(out, "expect = {}", toml_string(query.expect.as_str()));
    let _ = writeln!(out, "requirements = [{}]", requirements.join(", "));
    let _ = writeln!(out, "level = {}", toml_string(query.level.as_str()));
    let _ = writeln!(out, "why = {}", toml_string(&query.why));
    if !query.profiles.is_empty() {
        let profiles: Vec<String> = query
            .profiles
            .iter()
            .map(|(profile, expect)| format!("{profile} = {}", toml_string(expect.as_str())))
            .collect();
        let _ = writeln!(out, "profiles = {{ {} }}", profiles.join(", "));
    }
    if let Some(question) = &query.question {
        let _ = writeln!(out, "question = {}", toml_string(question));
    }
    if let Some(hits) = query.hits {
        let _ = writeln!(out, "hits = {hits}");
    }
    if let Some(triage) = &query.triage {
        let _ = writeln!(out, "triage = {}", toml_string(triage));
    }
    let _ = writeln!(out);
    if !query.observed.is_empty() {
        let _ = writeln!(out, "[case.query.observed]");
        for (name, word) in &query.observed {
            let _ = writeln!(out, "{} = {}", toml_key(name), toml_string(word.as_str()));
        }
        let _ = writeln!(out);
    }
}

/// A body as the inside of a TOML literal multi-line string with `unescape = true`:
/// LF stays a line break, printable ASCII stays (except `'` and `\`), everything else is
/// an escape.
///
/// ```
/// assert_eq!(reptest_corpus::write::escape_body(b"a\r\n\xEF'"), "a\\r\n\\xEF\\x27");
/// ```
pub fn escape_body(body: &[u8]) -> String {
    let mut out = String::with_capacity(body.len());
    for &b in body {
        match b {
            b'\n' => out.push('\n'),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0 => out.push_str("\\0"),
            b'\\' => out.push_str("\\\\"),
            b'\'' => out.push_str("\\x27"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\x{b:02X}");
            }
        }
    }
    out
}

/// [`escape_body`] for a single-line literal string: LF too becomes `\n`.
fn escape_line(bytes: &[u8]) -> String {
    escape_body(bytes).replace('\n', "\\n")
}

/// `text` as a TOML basic string.
pub fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

/// `name` as a TOML key: bare when it can be, quoted otherwise.
fn toml_key(name: &str) -> String {
    let bare = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if bare {
        name.to_string()
    } else {
        toml_string(name)
    }
}

/// A part of a long body.
#[derive(Debug, PartialEq, Eq)]
pub enum Segment<'a> {
    /// Bytes as they are.
    Text(&'a [u8]),
    /// A unit (a line, or one byte) repeated this many times.
    Repeat(&'a [u8], usize),
}

/// A long body as segments: a line repeated 4 times or more, or a byte repeated 64 times
/// or more within a line, becomes a `repeat`; the rest is text. Case files write long
/// bodies this way, and summaries show them so.
///
/// ```
/// use reptest_corpus::write::{segments, Segment};
/// let body = [&b"#"[..], &[b'p'; 100], b"\nDisallow: /\n"].concat();
/// assert_eq!(
///     segments(&body),
///     [
///         Segment::Text(b"#"),
///         Segment::Repeat(b"p", 100),
///         Segment::Text(b"\nDisallow: /\n"),
///     ]
/// );
/// ```
pub fn segments(body: &[u8]) -> Vec<Segment<'_>> {
    let lines = split_lines(body);
    let mut out = Vec::new();
    let mut text_start = 0;
    let mut offset = 0;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let same = lines[i..].iter().take_while(|l| **l == line).count();
        if same >= 4 {
            if text_start < offset {
                out.push(Segment::Text(&body[text_start..offset]));
            }
            out.push(Segment::Repeat(line, same));
            offset += line.len() * same;
            text_start = offset;
            i += same;
            continue;
        }
        // Runs of one byte inside the line.
        let mut j = 0;
        while j < line.len() {
            let run = line[j..].iter().take_while(|b| **b == line[j]).count();
            if run >= 64 {
                let at = offset + j;
                if text_start < at {
                    out.push(Segment::Text(&body[text_start..at]));
                }
                out.push(Segment::Repeat(&line[j..=j], run));
                text_start = at + run;
            }
            j += run;
        }
        offset += line.len();
        i += 1;
    }
    if text_start < body.len() {
        out.push(Segment::Text(&body[text_start..]));
    }
    out
}

/// Splits a body into lines, each with its terminator (LF, CRLF or a lone CR).
pub fn split_lines(body: &[u8]) -> Vec<&[u8]> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < body.len() {
        match body[i] {
            b'\n' => {
                lines.push(&body[start..=i]);
                start = i + 1;
            }
            b'\r' => {
                let end = if body.get(i + 1) == Some(&b'\n') {
                    i + 1
                } else {
                    i
                };
                lines.push(&body[start..=end]);
                i = end;
                start = end + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if start < body.len() {
        lines.push(&body[start..]);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Corpus;

    /// Every case of the real corpus, written and loaded back, is the same case.
    #[test]
    fn the_writer_is_the_inverse_of_the_loader() {
        let dir = crate::default_dir();
        let corpus = Corpus::load(&dir).expect("the corpus loads");
        let text: String = corpus.cases().iter().map(case_toml).collect();
        let out = tempfile_dir();
        let file = out.join("all.toml");
        std::fs::write(&file, &text).unwrap();
        let again = Corpus::load_files(&dir.join("requirements.md"), &[file])
            .unwrap_or_else(|e| panic!("the written cases load: {e}"));
        assert_eq!(again.cases().len(), corpus.cases().len());
        for (before, after) in corpus.cases().iter().zip(again.cases()) {
            let strip = |case: &Case| {
                let mut case = case.clone();
                case.file = Default::default();
                case.line = 0;
                for query in &mut case.queries {
                    query.line = 0;
                }
                case
            };
            assert_eq!(strip(before), strip(after), "{}", before.id);
        }
    }

    /// The model serializes for export: words as in case files.
    #[test]
    fn cases_serialize_with_the_words_of_case_files() {
        let corpus = Corpus::load(crate::default_dir()).expect("the corpus loads");
        let case = corpus
            .cases()
            .iter()
            .find(|c| !c.queries[0].profiles.is_empty())
            .expect("a case with a profile override");
        let json = serde_json::to_value(case).unwrap();
        let query = &json["queries"][0];
        assert!(["allowed", "disallowed", "either"].contains(&query["expect"].as_str().unwrap()));
        assert!(["MUST", "SHOULD", "MAY"].contains(&query["level"].as_str().unwrap()));
        assert!(query["profiles"]["google"].is_string(), "{query}");
        assert_eq!(json["body"].as_array().unwrap().len(), case.body.len());
    }

    fn tempfile_dir() -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("reptest-corpus-write-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn bodies_escape_everything_but_printable_ascii_and_lf() {
        assert_eq!(
            escape_body(b"\xEF\xBB\xBFa\tb\r\n'\\\0\xFF"),
            "\\xEF\\xBB\\xBFa\\tb\\r\n\\x27\\\\\\0\\xFF"
        );
    }

    #[test]
    fn long_bodies_compress_runs() {
        let mut body = b"User-agent: *\nDisallow: /x".to_vec();
        body.extend(std::iter::repeat_n(b'l', 100));
        body.extend_from_slice(b"\n");
        body.extend("#pad\n".repeat(5).bytes());
        body.extend_from_slice(b"Allow: /");
        let segments = segments(&body);
        assert_eq!(
            segments,
            vec![
                Segment::Text(b"User-agent: *\nDisallow: /x"),
                Segment::Repeat(b"l", 100),
                Segment::Text(b"\n"),
                Segment::Repeat(b"#pad\n", 5),
                Segment::Text(b"Allow: /"),
            ]
        );
        let joined: Vec<u8> = segments
            .iter()
            .flat_map(|s| match s {
                Segment::Text(t) => t.to_vec(),
                Segment::Repeat(u, n) => u.repeat(*n),
            })
            .collect();
        assert_eq!(joined, body);
        assert_eq!(escape_line(b"a\nb'"), "a\\nb\\x27");
    }
}
