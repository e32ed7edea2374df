//! Helpers shared by the integration tests that run processes.
#![allow(dead_code)]

use std::io::Read;
use std::path::PathBuf;
use std::thread::JoinHandle;

/// A fresh, empty folder `reptest-{suite}-{pid}-{name}` under the system's temporary
/// folder.
pub fn temp_dir(suite: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("reptest-{suite}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Reads `pipe` to its end on a thread of its own (so a child's stdout and stderr are
/// drained together and neither fills up), as lossy UTF-8.
pub fn read_in_background(mut pipe: impl Read + Send + 'static) -> JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// A command line written as one string: its words (no word may hold a space).
pub fn words(line: &str) -> Vec<String> {
    line.split_whitespace().map(str::to_string).collect()
}

/// The processes, other than `except`, whose environment carries `tag`, and that are not
/// zombies (Linux: read from /proc). A test sets `REPTEST_TEST_TAG=<tag>` on the reptest it
/// starts, which every process it starts inherits, to find what is left of a run.
pub fn tagged(tag: &str, except: u32) -> Vec<u32> {
    let needle = format!("REPTEST_TEST_TAG={tag}");
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| pid != except)
        .filter(|pid| {
            let environ = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
            let alive = std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|s| s.rsplit_once(')').map(|(_, r)| r.trim_start().to_string()))
                .is_some_and(|state| !state.starts_with(['Z', 'X']));
            alive
                && environ
                    .split(|&b| b == 0)
                    .any(|entry| entry == needle.as_bytes())
        })
        .collect()
}

/// Sends SIGINT to `child` (a reptest run started with `REPTEST_TEST_TAG=<tag>`), checks it
/// exits with 130 within 20 s, then that within 3 s no process carrying `tag` is left
/// (`what` names them in the failure: "crawler", "adapter").
pub fn interrupt_and_expect_nothing_left(child: &mut std::process::Child, tag: &str, what: &str) {
    use std::time::{Duration, Instant};
    // SAFETY: signals our own child.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "reptest did not exit after SIGINT"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130));
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        let left = tagged(tag, child.id());
        if left.is_empty() {
            break;
        }
        assert!(Instant::now() < deadline, "{what} processes left: {left:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Fails the test naming what is missing and `fix` (the command that installs it) when
/// `missing` is `Some`. A test that needs an optional component is also marked
/// `#[cfg_attr(reptest_skip_..., ignore = "...")]` (see build.rs): built with
/// `skip_var=1`, it is reported as ignored, with its reason, never run to a silent pass.
pub fn require(missing: Option<String>, skip_var: &str, fix: &str) {
    if let Some(missing) = missing {
        panic!("{missing}: {fix} (or build the tests with {skip_var}=1 to have them ignored)");
    }
}

/// A corpus folder `dir` of one file: cases of (id, agents), each query of URL
/// `https://example.com/x` against a body that disallows only `nobody`, so every query
/// is expected allowed.
pub fn allowed_corpus(dir: PathBuf, cases: &[(&str, &[&str])]) -> PathBuf {
    std::fs::copy(
        reptest_corpus::default_dir().join("requirements.md"),
        dir.join("requirements.md"),
    )
    .unwrap();
    let mut text = String::new();
    for (id, agents) in cases {
        text.push_str(&format!(
            "[[case]]\nid = \"{id}\"\ntitle = \"t\"\nrobots = \"User-agent: nobody\\nDisallow: /\\n\"\n"
        ));
        for agent in *agents {
            text.push_str(&format!(
                "[[case.query]]\nagent = \"{agent}\"\nurl = \"https://example.com/x\"\nexpect = \"allowed\"\nrequirements = [\"2.2.2-PREFIX\"]\nlevel = \"MUST\"\nwhy = \"w\"\n"
            ));
        }
    }
    std::fs::write(dir.join("cases.toml"), text).unwrap();
    dir
}
