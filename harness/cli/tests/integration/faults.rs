//! A slow, dying, hanging or flooding adapter never kills a run, and reptest itself ends
//! cleanly whatever ends it: every test runs the `reptest` binary as a user would, with
//! the fixture adapter (`reptest-fixture-adapter`) misbehaving on purpose, and checks the
//! exit code, what was printed, the peak memory, and that no adapter process is left.
//! A test that measures peak memory runs alone in a process of its own (`alone`).

use crate::{alone, common};

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const FIXTURE: &str = env!("CARGO_BIN_EXE_reptest-fixture-adapter");
const REPTEST: &str = env!("CARGO_BIN_EXE_reptest");

fn temp_dir(name: &str) -> PathBuf {
    common::temp_dir("faults", name)
}

/// A folder with an `adapters.toml` registering the fixture adapter in `mode` as `name`.
fn adapters(name: &str, mode: &str, extra: &str) -> PathBuf {
    let dir = temp_dir(&format!("{name}-adapters"));
    let toml = format!(
        "[[adapter]]\nname = \"{name}\"\nlanguage = \"Rust\"\ncommand = [{FIXTURE:?}, \"{mode}\"]\n{extra}\n"
    );
    std::fs::write(dir.join("adapters.toml"), toml).unwrap();
    dir
}

/// A corpus folder: a `big` case (a body of 150,000 bytes, two queries) when `big`, then
/// cases `small-1` .. `small-3` of two queries each.
fn corpus(name: &str, big: bool) -> PathBuf {
    let dir = temp_dir(&format!("{name}-corpus"));
    std::fs::copy(
        reptest_corpus::default_dir().join("requirements.md"),
        dir.join("requirements.md"),
    )
    .unwrap();
    let query = |n: usize| {
        format!(
            "[[case.query]]\nagent = \"bot{n}\"\nurl = \"https://example.com/x{n}\"\nexpect = \"allowed\"\nrequirements = [\"2.2.2-PREFIX\"]\nlevel = \"MUST\"\nwhy = \"w\"\n"
        )
    };
    let mut text = String::new();
    if big {
        text.push_str("[[case]]\nid = \"big\"\ntitle = \"t\"\n[[case.body]]\ntext = \"User-agent: nobody\\n\"\n[[case.body]]\npad_to = 150000\n");
        text.push_str(&query(1));
        text.push_str(&query(2));
    }
    for case in 1..=3 {
        text.push_str(&format!(
            "[[case]]\nid = \"small-{case}\"\ntitle = \"t\"\nrobots = \"User-agent: nobody\\nDisallow: /\\n\"\n"
        ));
        text.push_str(&query(1));
        text.push_str(&query(2));
    }
    std::fs::write(dir.join("cases.toml"), text).unwrap();
    dir
}

/// What one `reptest` process did.
struct Finished {
    /// The exit code, or 128 + the signal that ended it.
    code: i32,
    stdout: String,
    stderr: String,
    /// Peak resident memory of reptest and the adapters it reaped, in bytes.
    max_rss: u64,
}

/// Starts `reptest args` with `pids` as the fixture's pid folder.
fn start(args: &[&str], adapters: &Path, pids: &Path) -> std::process::Child {
    Command::new(REPTEST)
        .args(args)
        .env("REPTEST_ADAPTERS", adapters)
        .env("REPTEST_STATE", pids.with_extension("state"))
        .env("REPTEST_FIXTURE_PIDS", pids)
        .env_remove("REPTEST_CORPUS")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("reptest starts")
}

/// Waits for `child` (killing it after `limit`, which fails the test), collecting its
/// output and its peak memory (`wait4`'s rusage).
fn finish(mut child: std::process::Child, limit: Duration) -> Finished {
    let out = common::read_in_background(child.stdout.take().unwrap());
    let err = common::read_in_background(child.stderr.take().unwrap());
    let pid = child.id() as i32;
    let started = Instant::now();
    let (status, usage) = loop {
        let mut status = 0;
        // SAFETY: an all-zero rusage is a valid value; wait4 writes into both pointers.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: waits for our own child without blocking; pointers are valid.
        let got = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if got == pid {
            break (status, usage);
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            panic!("reptest did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        128 + libc::WTERMSIG(status)
    };
    Finished {
        code,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
        max_rss: usage.ru_maxrss as u64 * 1024,
    }
}

/// The pids the fixture recorded in `pids`.
fn recorded(pids: &Path) -> BTreeSet<i32> {
    std::fs::read_dir(pids)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse().ok())
        .collect()
}

/// Whether `pid` is a running (not zombie) process.
fn running(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command name in parentheses.
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with(['Z', 'X'])),
        Err(_) => false,
    }
}

/// Asserts that every process the fixture recorded is gone (given a moment to go).
fn assert_none_left(pids: &Path) {
    let all = recorded(pids);
    assert!(
        !all.is_empty(),
        "the fixture recorded no process in {}",
        pids.display()
    );
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        let left: Vec<i32> = all.iter().copied().filter(|&p| running(p)).collect();
        if left.is_empty() {
            return;
        }
        if Instant::now() > deadline {
            for &pid in &left {
                // SAFETY: cleaning up the processes this test is failing over.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
            }
            panic!("adapter processes left running: {left:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs the fixture in `mode` (registered with `extra`, e.g. a `timeout_ms`) through
/// `reptest run` and checks the run finishes with a verdict table, within 200 MB,
/// leaving no process.
fn survives_with(mode: &str, extra: &str, big: bool) -> Finished {
    let name = format!("fixture-{mode}");
    let adapters = adapters(&name, mode, extra);
    let corpus = corpus(mode, big);
    let pids = temp_dir(&format!("{mode}-pids"));
    let child = start(
        &["run", "--impl", &name, "--corpus", corpus.to_str().unwrap()],
        &adapters,
        &pids,
    );
    let done = finish(child, Duration::from_secs(120));
    eprintln!("{mode}: peak memory {:.1} MB", done.max_rss as f64 / 1e6);
    assert_eq!(
        done.code, 1,
        "{mode}: the run finishes with failed queries\n{}{}",
        done.stdout, done.stderr
    );
    assert!(
        done.stdout.contains(&name),
        "{mode}: the table names the adapter\n{}",
        done.stdout
    );
    assert!(!done.stderr.contains("panicked"), "{mode}: {}", done.stderr);
    assert!(
        done.max_rss < 200 << 20,
        "{mode}: peak memory {} MB",
        done.max_rss >> 20
    );
    assert_none_left(&pids);
    done
}

/// [`survives_with`] a per-request timeout of 300 ms.
fn survives(mode: &str, big: bool) -> Finished {
    survives_with(mode, "timeout_ms = 300", big)
}

#[test]
fn an_adapter_that_hangs_is_timed_out_and_its_children_are_killed() {
    if alone::elsewhere("faults::an_adapter_that_hangs_is_timed_out_and_its_children_are_killed") {
        return;
    }
    let done = survives("hang", false);
    assert!(
        done.stdout.contains("timeouts and crashes"),
        "{}",
        done.stdout
    );
    assert!(
        done.stdout
            .contains("small-1/bot1:/x1: timeout: fixture-hang: request 1 (agent `bot1`"),
        "the query in flight and the adapter are named:\n{}",
        done.stdout
    );
    assert!(
        done.stdout.contains("hanging as asked"),
        "stderr is shown:\n{}",
        done.stdout
    );
}

#[test]
fn an_adapter_that_dies_mid_write_is_a_crash_for_the_query_in_flight() {
    if alone::elsewhere("faults::an_adapter_that_dies_mid_write_is_a_crash_for_the_query_in_flight")
    {
        return;
    }
    let done = survives("die-mid-write", true);
    assert!(
        done.stdout
            .contains("crash: fixture-die-mid-write: request 1")
            && done.stdout.contains("dying mid-write as asked"),
        "{}",
        done.stdout
    );
}

#[test]
fn a_flood_of_stale_ids_is_bounded_by_the_request_timeout() {
    if alone::elsewhere("faults::a_flood_of_stale_ids_is_bounded_by_the_request_timeout") {
        return;
    }
    let done = survives("flood-stale", false);
    assert!(
        done.stdout.contains("no answer within 0.3 s"),
        "{}",
        done.stdout
    );
}

#[test]
fn a_flood_of_garbage_is_an_error_per_query() {
    if alone::elsewhere("faults::a_flood_of_garbage_is_an_error_per_query") {
        return;
    }
    let done = survives("flood-garbage", false);
    assert!(
        done.stdout.contains("fixture-flood-garbage") && done.stdout.contains("0/6"),
        "{}",
        done.stdout
    );
}

#[test]
fn a_hundred_megabytes_without_a_newline_cost_bounded_memory() {
    if alone::elsewhere("faults::a_hundred_megabytes_without_a_newline_cost_bounded_memory") {
        return;
    }
    let done = survives("flood-100mb", false);
    assert!(
        done.stdout.contains("fixture-flood-100mb"),
        "{}",
        done.stdout
    );
}

/// The maintainer's first run: a library that takes longer than the default timeout (5 s)
/// on big bodies. While it sleeps on the first big request, reptest is still writing the
/// second into its full pipe; the kill after the timeout made that write raise SIGPIPE,
/// which killed reptest (exit 141, nothing printed).
#[test]
fn a_slow_adapter_completes_the_run_with_the_default_timeout() {
    if alone::elsewhere("faults::a_slow_adapter_completes_the_run_with_the_default_timeout") {
        return;
    }
    let done = survives_with("slow-big", "", true);
    let out = &done.stdout;
    for query in ["big/bot1:/x1", "big/bot2:/x2"] {
        assert!(
            out.contains(&format!("{query}: timeout: fixture-slow-big: request")),
            "{query} is named as a timeout:\n{out}"
        );
    }
    assert!(out.contains("no answer within 5 s"), "{out}");
    assert!(
        out.contains("slow on a big request"),
        "the adapter's stderr is shown:\n{out}"
    );
    assert!(
        out.contains("fixture-slow-big: 2 timeout, 0 crash"),
        "{out}"
    );
    assert!(
        out.contains("MUST") && out.contains("6/8 75.0%"),
        "the small cases are answered after the timeouts:\n{out}"
    );
    let slowest = out
        .lines()
        .find(|l| l.trim_start().starts_with("fixture-slow-big") && l.contains(" s,"))
        .unwrap_or_else(|| panic!("a slowest-cases line:\n{out}"));
    assert!(
        slowest.contains("big 1"),
        "the big case is the slowest: {slowest}"
    );
}

/// Sends `signal` to a run whose adapter is busy (hangs, timeout 60 s) and checks the exit
/// code, that no process is left, and that the `--matrix` file is untouched.
fn interrupted(signal: i32, expected: i32) {
    let name = format!("fixture-hang-{signal}");
    let adapters = adapters(&name, "hang", "timeout_ms = 60000");
    let corpus = corpus(&name, false);
    let pids = temp_dir(&format!("{name}-pids"));
    let out = temp_dir(&format!("{name}-out"));
    let matrix = out.join("matrix.tsv");
    std::fs::write(&matrix, "old\n").unwrap();
    let child = start(
        &[
            "run",
            "--impl",
            &name,
            "--corpus",
            corpus.to_str().unwrap(),
            "--matrix",
            matrix.to_str().unwrap(),
        ],
        &adapters,
        &pids,
    );
    // Busy: the adapter and the child it started are running.
    let deadline = Instant::now() + Duration::from_secs(30);
    while recorded(&pids).iter().filter(|&&p| running(p)).count() < 2 {
        assert!(Instant::now() < deadline, "the adapter did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    // SAFETY: signals our own child.
    unsafe {
        libc::kill(child.id() as i32, signal);
    }
    let done = finish(child, Duration::from_secs(20));
    assert_eq!(done.code, expected, "{}{}", done.stdout, done.stderr);
    assert!(done.stderr.contains("interrupted by"), "{}", done.stderr);
    assert_none_left(&pids);
    assert_eq!(std::fs::read_to_string(&matrix).unwrap(), "old\n");
    let files: Vec<_> = std::fs::read_dir(&out).unwrap().flatten().collect();
    assert_eq!(files.len(), 1, "no temporary file is left: {files:?}");
}

#[test]
fn sigint_stops_busy_adapters_and_exits_130() {
    interrupted(libc::SIGINT, 130);
}

#[test]
fn sigterm_stops_busy_adapters_and_exits_143() {
    interrupted(libc::SIGTERM, 143);
}

/// The reference on a 10 MiB body of 1 MiB lines (20 times the parse limit, lines 60
/// times the longest corpus rule) stays under a fixed memory ceiling.
#[test]
fn ten_mebibytes_of_one_mebibyte_lines_stay_under_a_memory_ceiling() {
    if alone::elsewhere("faults::ten_mebibytes_of_one_mebibyte_lines_stay_under_a_memory_ceiling") {
        return;
    }
    let dir = temp_dir("memory");
    let robots = dir.join("robots.txt");
    let mut body = b"User-agent: *\n".to_vec();
    for i in 0..10 {
        body.extend_from_slice(if i % 2 == 0 {
            b"Disallow: /"
        } else {
            b"Allow: /*"
        });
        body.extend(std::iter::repeat_n(b'a', (1 << 20) - 12));
        body.push(b'\n');
    }
    std::fs::write(&robots, &body).unwrap();
    // One argument may hold at most 128 KiB (Linux MAX_ARG_STRLEN).
    let url = format!("/{}", "a".repeat(100_000));
    let child = Command::new(REPTEST)
        .args([
            "check",
            "--robots",
            robots.to_str().unwrap(),
            "--agent",
            "bot",
            "--url",
            &url,
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let done = finish(child, Duration::from_secs(60));
    eprintln!(
        "10 MiB body: peak memory {:.1} MB",
        done.max_rss as f64 / 1e6
    );
    assert_eq!(done.code, 0, "{}{}", done.stdout, done.stderr);
    assert!(done.stdout.contains("parse limit"), "{}", done.stdout);
    assert!(
        done.max_rss < 100 << 20,
        "peak memory {} MB",
        done.max_rss >> 20
    );
}

/// `program args` fed 256 MiB without a newline, then one request: the overlong line is
/// answered with an error, the request after it with a verdict, and the peak memory
/// stays far below the line's size (the line limit is 16 MiB, harness/PROTOCOL.md).
fn an_overlong_request_line_is_skipped_in_bounded_memory(program: &str, args: &[&str]) {
    use std::io::Write as _;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let block = vec![b'a'; 1 << 20];
        for _ in 0..256 {
            stdin.write_all(&block)?;
        }
        stdin.write_all(
            b"\n{\"id\":1,\"robots\":\"User-agent: *\\nDisallow: /x\",\"agent\":\"a\",\"url\":\"http://h/x\"}\n",
        )
    });
    let done = finish(child, Duration::from_secs(120));
    writer.join().unwrap().expect("every byte is read");
    eprintln!(
        "{program} {args:?}: peak memory {:.1} MB",
        done.max_rss as f64 / 1e6
    );
    let answers: Vec<&str> = done
        .stdout
        .lines()
        .filter(|l| !l.contains("\"protocol\""))
        .collect();
    assert_eq!(answers.len(), 2, "{}{}", done.stdout, done.stderr);
    let overlong = ["longer than", "too long"];
    assert!(
        answers[0].contains("\"error\"") && overlong.iter().any(|w| answers[0].contains(w)),
        "{}",
        answers[0]
    );
    assert!(answers[1].contains("\"id\":1"), "{}", answers[1]);
    assert!(answers[1].contains("disallowed"), "{}", answers[1]);
    assert!(
        done.max_rss < 64 << 20,
        "peak memory {} MB",
        done.max_rss >> 20
    );
}

#[test]
fn eval_skips_an_overlong_line_in_bounded_memory() {
    if alone::elsewhere("faults::eval_skips_an_overlong_line_in_bounded_memory") {
        return;
    }
    an_overlong_request_line_is_skipped_in_bounded_memory(
        REPTEST,
        &["eval", "--impl", "reference"],
    );
}

#[test]
fn serve_skips_an_overlong_line_in_bounded_memory() {
    if alone::elsewhere("faults::serve_skips_an_overlong_line_in_bounded_memory") {
        return;
    }
    an_overlong_request_line_is_skipped_in_bounded_memory(
        REPTEST,
        &["serve", "--impl", "reference"],
    );
}

#[test]
fn the_fixture_adapter_skips_an_overlong_line_in_bounded_memory() {
    if alone::elsewhere("faults::the_fixture_adapter_skips_an_overlong_line_in_bounded_memory") {
        return;
    }
    an_overlong_request_line_is_skipped_in_bounded_memory(FIXTURE, &["paths"]);
}

/// A file reptest reads whole that never ends (`/dev/zero` as a gate baseline, a policy's
/// expectations, a robots.txt to check or an `adapters.toml`) is refused once it passes 16 MiB, in bounded memory.
#[test]
fn an_endless_input_file_is_refused_in_bounded_memory() {
    if alone::elsewhere("faults::an_endless_input_file_is_refused_in_bounded_memory") {
        return;
    }
    let dir = temp_dir("endless");
    let adapters = dir.join("adapters");
    std::fs::create_dir_all(&adapters).unwrap();
    let toml = adapters.join("adapters.toml");
    let _ = std::fs::remove_file(&toml);
    std::os::unix::fs::symlink("/dev/zero", &toml).unwrap();
    let robots = dir.join("robots.txt");
    std::fs::write(&robots, "User-agent: *\nDisallow: /x\n").unwrap();
    let robots = robots.to_str().unwrap();
    let expect = dir.join("expect.toml");
    std::fs::write(&expect, "[[expect]]\nagents = [\"*\"]\nallowed = [\"/\"]\n").unwrap();
    let expect = expect.to_str().unwrap();
    let runs: [&[&str]; 5] = [
        &["gate", "--impl", "reference", "--baseline", "/dev/zero"],
        &[
            "check",
            "--robots",
            "/dev/zero",
            "--agent",
            "a",
            "--url",
            "/",
        ],
        &[
            "policy",
            "--robots",
            "/dev/zero",
            "--expect",
            expect,
            "--impl",
            "none",
        ],
        &[
            "policy",
            "--robots",
            robots,
            "--expect",
            "/dev/zero",
            "--impl",
            "none",
        ],
        &["impls"],
    ];
    for args in runs {
        let child = start(args, &adapters, &dir.join("pids"));
        let done = finish(child, Duration::from_secs(60));
        eprintln!("{args:?}: peak memory {:.1} MB", done.max_rss as f64 / 1e6);
        let said = format!("{}{}", done.stdout, done.stderr);
        assert!(
            said.contains("larger than 16777216 bytes"),
            "{args:?}: {said}"
        );
        assert!(
            done.max_rss < 100 << 20,
            "{args:?}: peak {} MB",
            done.max_rss >> 20
        );
    }
}
