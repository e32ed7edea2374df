//! A test that cannot run here is reported as *ignored, with its reason*
//! (`#[cfg_attr(..., ignore = "...")]`, driven by build.rs), never as passed: no test in
//! the workspace prints a skip line and returns, and no ignore attribute goes without a reason.

use std::path::{Path, PathBuf};

/// Every `.rs` file below `dir`, but build output (`target`).
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if path.is_dir() && name != "target" && !name.to_string_lossy().starts_with('.') {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

#[test]
fn no_test_prints_a_skip_line_and_passes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    // A skip line is printed from a string literal that starts with the word; spelled in
    // two parts, so that this file does not find itself (and a constant named so is no
    // skip line).
    let skip_line = ["\"SKIP", "PED"].concat();
    let bare_ignore = ["#[", "ignore]"].concat();
    let mut found = Vec::new();
    let mut files = 0;
    for dir in ["harness", "conformance", "fuzz"] {
        for file in rust_files(&root.join(dir)) {
            files += 1;
            let text = std::fs::read_to_string(&file).unwrap();
            for (n, line) in text.lines().enumerate() {
                if line.contains(&skip_line) || line.contains(&bare_ignore) {
                    found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        files > 100,
        "only {files} Rust files found under {}",
        root.display()
    );
    assert!(
        found.is_empty(),
        "a test that cannot run must be ignored with its reason \
         (#[cfg_attr(cfg, ignore = \"reason and fix\")], see harness/cli/build.rs), \
         not print a skip line and pass:\n{}",
        found.join("\n")
    );
}
