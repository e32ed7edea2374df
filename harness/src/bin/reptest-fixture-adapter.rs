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
//! reptest-fixture-adapter bad-handshake     writes a line that is not a handshake
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
use serde::Deserialize;
use std::borrow::Cow;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::ExitCode;

#[derive(Deserialize)]
struct Request<'a> {
    id: u64,
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
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = match args.first().map(String::as_str) {
        Some("noop") => Mode::Noop,
        Some("faulty") => Mode::Faulty,
        Some("paths") => Mode::Paths,
        Some("bad-handshake") => {
            println!("hello, I am not a handshake");
            let _ = std::io::stdin().lock().read_line(&mut String::new());
            return ExitCode::SUCCESS;
        }
        Some("per-query") if args.len() == 4 => return per_query(&args[1], &args[2]),
        _ => {
            eprintln!("usage: reptest-fixture-adapter noop|faulty|paths|bad-handshake|per-query ROBOTS_FILE AGENT URL");
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

fn serve(mode: Mode) -> std::io::Result<()> {
    let stdin = std::io::stdin().lock();
    let mut input = BufReader::with_capacity(64 << 10, stdin);
    let mut output = BufWriter::with_capacity(64 << 10, std::io::stdout().lock());
    let handshake = Handshake {
        protocol: protocol::VERSION,
        name: "fixture".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        language: "Rust".into(),
        capabilities: HandshakeCapabilities {
            full_urls: mode != Mode::Paths,
            reports_line: false,
        },
    };
    protocol::write_line(&mut output, &handshake)?;
    output.flush()?;
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return output.flush();
        }
        let request: Request<'_> = match serde_json::from_slice(&line) {
            Ok(request) => request,
            Err(e) => {
                protocol::write_line(
                    &mut output,
                    &serde_json::json!({"id": null, "error": e.to_string()}),
                )?;
                continue;
            }
        };
        let mut verdict = "allowed";
        if mode == Mode::Faulty {
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
        writeln!(
            output,
            "{{\"id\":{},\"verdict\":\"{verdict}\"}}",
            request.id
        )?;
        flush_if_idle(&input, &mut output)?;
    }
}

fn flush_if_idle(
    input: &BufReader<impl std::io::Read>,
    output: &mut impl Write,
) -> std::io::Result<()> {
    if !input.buffer().contains(&b'\n') {
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
