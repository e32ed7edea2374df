//! `reptest eval`: JSON lines in, one JSON line out per input, in order.
//!
//! Each input line is an object `{"id": any (optional), "robots": "..." or
//! "robots_b64": "...", "agent": "...", "url": "..."}`; each output line is
//! `{"id": ..., "verdict": "allowed"|"disallowed", "line": N}` (`line` only where the
//! implementation reports it), or `{"id": ..., "error": "..."}` for a line that could not
//! be read or answered. A bad line never stops the stream.

use crate::external::protocol::{self, Handshake};
use base64::Engine;
use reptest_core::lines::{Line, LineReader, MAX_REQUEST_LINE};
use reptest_core::{CaseInput, Implementation, Outcome, QueryInput};
use serde_json::{json, Map, Value};
use std::io::{BufWriter, Read, Write};

/// What a whole `eval` stream did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    /// Lines answered with a verdict.
    pub answered: usize,
    /// Lines answered with an error.
    pub errors: usize,
}

/// Reads requests from `input` until it ends and writes one answer per line to `output`.
/// Answers are ASCII-only JSON (non-ASCII escaped as `\uXXXX`, see
/// [`crate::external::protocol`]) and are flushed whenever no complete request is
/// waiting in the input buffer, so a caller can hold a persistent conversation while a
/// pipelining caller gets its answers in large writes. A blank line, or one longer than
/// [`MAX_REQUEST_LINE`], is answered with an error (an overlong line as soon as the
/// limit is passed; its rest is skipped, so memory stays bounded).
pub fn stream(
    implementation: &dyn Implementation,
    input: impl Read,
    output: impl Write,
) -> std::io::Result<Totals> {
    let mut input = LineReader::new(input, MAX_REQUEST_LINE);
    let mut output = BufWriter::with_capacity(64 << 10, output);
    let mut totals = Totals::default();
    let mut number = 0;
    while let Some(line) = input.next_line()? {
        number += 1;
        let text = match line {
            Line::Complete(text) | Line::Unterminated(text) => text,
            Line::TooLong => &[][..],
        };
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        // One line out for every line in, a blank or overlong one included: a caller
        // pairing answers with its requests by position never drifts.
        let answer = if line == Line::TooLong {
            error(
                Value::Null,
                format!(
                    "line {number}: longer than {MAX_REQUEST_LINE} bytes, the limit of a \
                     request line; skipped to the next newline"
                ),
            )
        } else if text.iter().all(u8::is_ascii_whitespace) {
            error(
                Value::Null,
                format!("line {number}: blank; a request is one JSON object per line"),
            )
        } else {
            answer(implementation, text, number)
        };
        if answer.get("error").is_some() {
            totals.errors += 1;
        } else {
            totals.answered += 1;
        }
        protocol::write_line(&mut output, &answer)?;
        if !input.has_buffered_line() {
            output.flush()?;
        }
    }
    output.flush()?;
    Ok(totals)
}

/// Serves `implementation` as an external adapter (protocol v1, `harness/PROTOCOL.md`):
/// the handshake line, then [`stream`] until the input ends.
pub fn serve(
    implementation: &dyn Implementation,
    input: impl Read,
    mut output: impl Write,
) -> std::io::Result<Totals> {
    protocol::write_line(&mut output, &Handshake::of(implementation.info()))?;
    output.flush()?;
    stream(implementation, input, output)
}

/// Answers one request line (`number` is 1-based, used in error messages).
pub fn answer(implementation: &dyn Implementation, line: &[u8], number: usize) -> Value {
    let request: Map<String, Value> = match serde_json::from_slice(line) {
        Ok(Value::Object(map)) => map,
        Ok(_) => {
            return error(
                Value::Null,
                format!("line {number}: expected a JSON object"),
            )
        }
        Err(e) => return error(Value::Null, format!("line {number}: invalid JSON: {e}")),
    };
    let id = request.get("id").cloned().unwrap_or(Value::Null);
    match verdict(implementation, &request) {
        Ok(Outcome::Verdict { allowed, line }) => {
            let mut out =
                json!({"id": id, "verdict": if allowed { "allowed" } else { "disallowed" }});
            if let Some(line) = line {
                out["line"] = json!(line);
            }
            out
        }
        Ok(other) => error(id, format!("line {number}: {other}")),
        Err(message) => error(id, format!("line {number}: {message}")),
    }
}

fn verdict(
    implementation: &dyn Implementation,
    request: &Map<String, Value>,
) -> Result<Outcome, String> {
    for key in request.keys() {
        if !["id", "robots", "robots_b64", "agent", "url"].contains(&key.as_str()) {
            return Err(format!(
                "unknown field `{key}` (known: id, robots, robots_b64, agent, url)"
            ));
        }
    }
    let robots = match (request.get("robots"), request.get("robots_b64")) {
        (Some(Value::String(text)), None) => text.as_bytes().to_vec(),
        (None, Some(Value::String(encoded))) => base64::engine::general_purpose::STANDARD
            .decode(encoded)
            .map_err(|e| format!("`robots_b64` is not valid base64: {e}"))?,
        (Some(_), Some(_)) => return Err("give `robots` or `robots_b64`, not both".into()),
        (None, None) => return Err("missing `robots` (or `robots_b64`)".into()),
        _ => return Err("`robots` and `robots_b64` must be strings".into()),
    };
    let agent = string_field(request, "agent")?;
    let url = string_field(request, "url")?;
    let queries = [QueryInput { agent, url }];
    let answers = implementation.evaluate(&CaseInput {
        robots: &robots,
        fetch: None,
        queries: &queries,
    });
    answers
        .into_iter()
        .next()
        .ok_or_else(|| "the implementation gave no answer".into())
}

fn string_field<'a>(request: &'a Map<String, Value>, key: &str) -> Result<&'a str, String> {
    match request.get(key) {
        Some(Value::String(text)) => Ok(text),
        Some(_) => Err(format!("`{key}` must be a string")),
        None => Err(format!("missing `{key}`")),
    }
}

fn error(id: Value, message: String) -> Value {
    json!({"id": id, "error": message})
}
