//! Tests that must be alone in their process run in a child process of their test
//! binary that runs nothing else: a test that counts the process's threads or kills
//! every crawler it runs (no other test's may run meanwhile), or one that measures a
//! child's peak memory (a child's peak counts its parent's at the time it was started,
//! and a test binary that ran the other tests has grown large).
//!
//! Shared by the integration tests of `reptest-site` and of `reptest` (harness/cli, which
//! includes this file by its path).

use std::process::Command;

/// Set in the child process to the path of the test it runs alone.
const VARIABLE: &str = "REPTEST_TEST_ALONE";

/// Whether the test `name` (its path as `cargo test` lists it, e.g.
/// `threads::no_thread_outlives_a_site`), which calls this first, ran elsewhere: `false`
/// in the child process, which goes on to run the test's body; otherwise this starts that
/// child (this test binary again, running only `name`), fails unless it passed exactly
/// that one test, and returns `true`: the caller returns, its body having run there.
pub fn elsewhere(name: &str) -> bool {
    if std::env::var_os(VARIABLE).is_some_and(|v| v == name) {
        return false;
    }
    let out = Command::new(std::env::current_exe().unwrap())
        .args([name, "--exact", "--nocapture", "--test-threads=1"])
        .env(VARIABLE, name)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("test result: ok. 1 passed;"),
        "{name}, alone in a child process, did not pass:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    true
}
