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
