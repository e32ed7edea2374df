//! A fixture adapter for reptest's tests and overhead benchmarks; it tests nothing.
//!
//! ```text
//! reptest-fixture-adapter noop              protocol v1; answers `allowed` at once
//! reptest-fixture-adapter faulty            like noop, but for agent `crash-now` exits,
//!                                           `hang-now` sleeps forever, `garbage-now`
//!                                           prints a line that is not JSON,
//!                                           `double-now` answers twice, `skip-now`
//!                                           does not answer
//! reptest-fixture-adapter paths             like noop, announcing `full_urls: false`,
//!                                           and answers `disallowed` for a URL that is
//!                                           not a path
//! reptest-fixture-adapter v2                protocol v2: answers batch requests
//!                                           (`queries`) with one `answers` line and v1
//!                                           requests as `faulty` does. Per query:
//!                                           agent `disallowbot` is `disallowed`, others
//!                                           `allowed`; `line` is the number the URL ends
//!                                           with (none without one), or for agent
//!                                           `batch-size` the number of queries in the
//!                                           request. Any query of a batch with agent
//!                                           `crash-now`, `hang-now` or `garbage-now`
//!                                           does that for the whole request;
//!                                           `short-now` drops the request's last answer
//! reptest-fixture-adapter v3                writes a handshake of protocol 3
//! reptest-fixture-adapter bad-handshake     writes a line that is not a handshake
//! reptest-fixture-adapter slow-big          like noop, but a request line over 100,000
//!                                           bytes takes 30 s (a slow library on the
//!                                           corpus's 500 KiB bodies)
//! reptest-fixture-adapter hang              handshakes, starts `sleep 1000` (a child in
//!                                           its process group), then never reads or
//!                                           answers
//! reptest-fixture-adapter die-mid-write     reads part of the first request, writes half
//!                                           an answer, and exits
//! reptest-fixture-adapter flood-stale       after the handshake, `{"id":0,...}` lines
//!                                           forever (stale ids), never reading stdin
//! reptest-fixture-adapter flood-garbage     after the handshake, lines that are not JSON
//!                                           (invalid UTF-8 among them) forever
//! reptest-fixture-adapter flood-100mb       after the handshake, 100 MB without a newline,
//!                                           then sleeps
//!
//! With `REPTEST_FIXTURE_PIDS=DIR`, every process (and the child of `hang`) leaves an
//! empty file named by its pid in DIR, so tests can check that none is left running.
//! reptest-fixture-adapter per-query ROBOTS_FILE AGENT URL
//!                                           one query, the spec-test convention: reads
//!                                           ROBOTS_FILE; agent `disallowbot` prints
//!                                           DISALLOWED and exits 1, anything else prints
//!                                           ALLOWED and exits 0 (2 if the file is
//!                                           unreadable)
//! ```
//!
//! Answers go through a buffered writer flushed when the input buffer holds no complete
//! request, so a pipelining client gets them in large writes.

use reptest::impls::external::protocol::{self, Handshake, HandshakeCapabilities};
use reptest::lines::{Line, LineReader, MAX_REQUEST_LINE};
use serde::Deserialize;
use std::borrow::Cow;
use std::io::{BufWriter, Write};
use std::process::ExitCode;

#[derive(Deserialize)]
struct Request<'a> {
    id: u64,
    #[serde(borrow, default)]
    agent: Cow<'a, str>,
    #[serde(borrow, default)]
    url: Cow<'a, str>,
    /// A batch request (protocol 2).
    #[serde(borrow, default)]
    queries: Option<Vec<Query<'a>>>,
}

#[derive(Deserialize)]
struct Query<'a> {
    #[serde(borrow)]
    agent: Cow<'a, str>,
    #[serde(borrow)]
    url: Cow<'a, str>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Noop,
    Faulty,
    Paths,
    SlowBig,
    V2,
}

/// Request lines longer than this take [`SLOW`] in `slow-big` mode.
const BIG_REQUEST: usize = 100_000;
const SLOW: std::time::Duration = std::time::Duration::from_secs(30);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    record_pid(std::process::id());
    let mode = match args.first().map(String::as_str) {
        Some("noop") => Mode::Noop,
        Some("faulty") => Mode::Faulty,
        Some("paths") => Mode::Paths,
        Some("slow-big") => Mode::SlowBig,
        Some("v2") => Mode::V2,
        Some("v3") => {
            println!("{{\"protocol\":3,\"name\":\"fixture\",\"version\":\"3\"}}");
            wait_for_a_line();
            return ExitCode::SUCCESS;
        }
        Some(
            fault @ ("hang" | "die-mid-write" | "flood-stale" | "flood-garbage" | "flood-100mb"),
        ) => {
            return match misbehave(fault) {
                Ok(()) => ExitCode::SUCCESS,
                Err(_) => ExitCode::from(1),
            };
        }
        Some("bad-handshake") => {
            println!("hello, I am not a handshake");
            wait_for_a_line();
            return ExitCode::SUCCESS;
        }
        Some("per-query") if args.len() == 4 => return per_query(&args[1], &args[2]),
        _ => {
            eprintln!("usage: reptest-fixture-adapter noop|faulty|paths|v2|v3|bad-handshake|slow-big|hang|die-mid-write|flood-stale|flood-garbage|flood-100mb|per-query ROBOTS_FILE AGENT URL");
            return ExitCode::from(2);
        }
    };
    match serve(mode) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fixture adapter: {e}");
            ExitCode::from(1)
        }
    }
}

/// With `REPTEST_FIXTURE_PIDS=DIR`, leaves an empty file named `pid` in DIR.
fn record_pid(pid: u32) {
    if let Some(dir) = std::env::var_os("REPTEST_FIXTURE_PIDS") {
        let _ = std::fs::write(std::path::Path::new(&dir).join(pid.to_string()), "");
    }
}

fn handshake(output: &mut impl Write, full_urls: bool) -> std::io::Result<()> {
    handshake_of(output, full_urls, protocol::VERSION)
}

fn handshake_of(output: &mut impl Write, full_urls: bool, version: u64) -> std::io::Result<()> {
    let handshake = Handshake {
        protocol: version,
        name: "fixture".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        language: "Rust".into(),
        capabilities: HandshakeCapabilities {
            full_urls,
            reports_line: false,
            fetches: false,
        },
    };
    protocol::write_line(output, &handshake)?;
    output.flush()
}

/// The fault modes: a valid handshake, then the fault.
fn misbehave(fault: &str) -> std::io::Result<()> {
    let mut output = std::io::stdout().lock();
    handshake(&mut output, true)?;
    let sleep_forever = || loop {
        std::thread::sleep(std::time::Duration::from_secs(3600));
    };
    match fault {
        "hang" => {
            let child = std::process::Command::new("sleep").arg("1000").spawn()?;
            record_pid(child.id());
            eprintln!("fixture adapter: hanging as asked");
            sleep_forever()
        }
        "die-mid-write" => {
            let mut part = [0u8; 100];
            std::io::Read::read_exact(&mut std::io::stdin().lock(), &mut part)?;
            output.write_all(b"{\"id\":1,\"ver")?;
            output.flush()?;
            eprintln!("fixture adapter: dying mid-write as asked");
            std::process::exit(4)
        }
        "flood-stale" => loop {
            output.write_all(b"{\"id\":0,\"verdict\":\"allowed\"}\n")?;
        },
        "flood-garbage" => {
            let mut n: u64 = 0;
            loop {
                n = n
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let bytes = n.to_le_bytes();
                output.write_all(&bytes)?;
                output.write_all(b" not JSON \xff\xfe\n")?;
            }
        }
        _ => {
            let block = vec![b'x'; 1 << 20];
            for _ in 0..100 {
                output.write_all(&block)?;
            }
            output.flush()?;
            sleep_forever()
        }
    }
}

/// Waits for one line of stdin (or its end), keeping none of it.
fn wait_for_a_line() {
    let _ = LineReader::new(std::io::stdin().lock(), MAX_REQUEST_LINE).next_line();
}

fn serve(mode: Mode) -> std::io::Result<()> {
    let mut input = LineReader::new(std::io::stdin().lock(), MAX_REQUEST_LINE);
    let mut output = BufWriter::with_capacity(64 << 10, std::io::stdout().lock());
    let version = if mode == Mode::V2 {
        protocol::BATCH_VERSION
    } else {
        protocol::VERSION
    };
    handshake_of(&mut output, mode != Mode::Paths, version)?;
    loop {
        let line = match input.next_line()? {
            None => return output.flush(),
            Some(Line::Complete(line) | Line::Unterminated(line)) => line,
            Some(Line::TooLong) => {
                protocol::write_line(
                    &mut output,
                    &serde_json::json!({"id": null, "error": "request line too long"}),
                )?;
                flush_if_idle(&input, &mut output)?;
                continue;
            }
        };
        let request: Request<'_> = match serde_json::from_slice(line) {
            Ok(request) => request,
            Err(e) => {
                protocol::write_line(
                    &mut output,
                    &serde_json::json!({"id": null, "error": e.to_string()}),
                )?;
                continue;
            }
        };
        if let (Mode::V2, Some(queries)) = (mode, &request.queries) {
            answer_batch(request.id, queries, &mut output)?;
            flush_if_idle(&input, &mut output)?;
            continue;
        }
        let mut verdict = "allowed";
        if mode == Mode::SlowBig && line.len() > BIG_REQUEST {
            eprintln!("fixture adapter: slow on a big request");
            std::thread::sleep(SLOW);
        }
        if mode == Mode::Faulty || mode == Mode::V2 {
            match &*request.agent {
                "crash-now" => {
                    output.flush()?;
                    eprintln!("fixture adapter: crashing as asked");
                    std::process::exit(3);
                }
                "hang-now" => {
                    output.flush()?;
                    loop {
                        std::thread::sleep(std::time::Duration::from_secs(3600));
                    }
                }
                "garbage-now" => {
                    output.write_all(b"this is not JSON\n")?;
                    flush_if_idle(&input, &mut output)?;
                    continue;
                }
                "double-now" => {
                    writeln!(
                        output,
                        "{{\"id\":{},\"verdict\":\"disallowed\"}}",
                        request.id
                    )?;
                }
                "skip-now" => {
                    flush_if_idle(&input, &mut output)?;
                    continue;
                }
                _ => {}
            }
        }
        if mode == Mode::Paths && !request.url.starts_with('/') {
            verdict = "disallowed";
        }
        if mode == Mode::V2 {
            let item = v2_answer(&request.agent, &request.url, 1);
            writeln!(
                output,
                "{{\"id\":{},{}}}",
                request.id,
                &item[1..item.len() - 1]
            )?;
            flush_if_idle(&input, &mut output)?;
            continue;
        }
        writeln!(
            output,
            "{{\"id\":{},\"verdict\":\"{verdict}\"}}",
            request.id
        )?;
        flush_if_idle(&input, &mut output)?;
    }
}

/// One answer object of mode `v2`: the verdict by agent, the line by URL (or batch size).
fn v2_answer(agent: &str, url: &str, batch: usize) -> String {
    let verdict = if agent == "disallowbot" {
        "disallowed"
    } else {
        "allowed"
    };
    let digits = url.len() - url.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let line = match agent {
        "batch-size" => Some(batch),
        _ => url[url.len() - digits..].parse::<usize>().ok(),
    };
    match line {
        Some(line) => format!("{{\"verdict\":\"{verdict}\",\"line\":{line}}}"),
        None => format!("{{\"verdict\":\"{verdict}\"}}"),
    }
}

/// Answers a batch request in mode `v2`.
fn answer_batch(id: u64, queries: &[Query<'_>], output: &mut impl Write) -> std::io::Result<()> {
    let has = |agent: &str| queries.iter().any(|q| q.agent == agent);
    if has("crash-now") {
        output.flush()?;
        eprintln!("fixture adapter: crashing in a batch as asked");
        std::process::exit(3);
    }
    if has("hang-now") {
        output.flush()?;
        loop {
            std::thread::sleep(std::time::Duration::from_secs(3600));
        }
    }
    if has("garbage-now") {
        return output.write_all(b"this is not JSON either\n");
    }
    let mut answers: Vec<String> = queries
        .iter()
        .map(|q| v2_answer(&q.agent, &q.url, queries.len()))
        .collect();
    if has("short-now") {
        answers.pop();
    }
    writeln!(
        output,
        "{{\"id\":{id},\"answers\":[{}]}}",
        answers.join(",")
    )
}

fn flush_if_idle(
    input: &LineReader<impl std::io::Read>,
    output: &mut impl Write,
) -> std::io::Result<()> {
    if !input.has_buffered_line() {
        output.flush()?;
    }
    Ok(())
}

fn per_query(robots: &str, agent: &str) -> ExitCode {
    if let Err(e) = std::fs::read(robots) {
        println!("ERROR cannot read {robots}: {e}");
        return ExitCode::from(2);
    }
    if agent == "disallowbot" {
        println!("DISALLOWED");
        ExitCode::from(1)
    } else {
        println!("ALLOWED");
        ExitCode::SUCCESS
    }
}
