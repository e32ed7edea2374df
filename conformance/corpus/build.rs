//! Build script of `reptest-corpus`: embeds the corpus of this source tree (the case
//! files, `requirements.md` and `VERSION` under `corpus/`) into the crate, so that an
//! installed `reptest` runs anywhere (`Corpus::embedded`). The files on disk still win
//! when they are there: the CLI reads them first.

use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let corpus = manifest.join("../../corpus");
    let corpus = corpus.canonicalize().unwrap_or(corpus);
    println!("cargo::rerun-if-changed={}", corpus.display());
    let mut files = Vec::new();
    collect(&corpus, &corpus, &mut files);
    files.sort();
    let mut out = String::from(
        "/// The corpus files of the source tree this crate was built from: (path relative to\n/// `corpus/`, text).\npub(crate) static FILES: &[(&str, &str)] = &[\n",
    );
    for (relative, path) in &files {
        println!("cargo::rerun-if-changed={}", path.display());
        out.push_str(&format!(
            "    ({relative:?}, include_str!({:?})),\n",
            path.display().to_string()
        ));
    }
    out.push_str("];\n");
    let target = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo")).join("embedded.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}

/// Every `*.toml`, `requirements.md` and `VERSION` below `dir`, with its path relative to
/// `root` (`/`-separated). Folders are watched too, so a new file triggers a rebuild.
fn collect(root: &Path, dir: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    println!("cargo::rerun-if-changed={}", dir.display());
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(root, &path, out);
            continue;
        }
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name.ends_with(".toml") || name == "requirements.md" || name == "VERSION" {
            let relative = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            out.push((relative, path));
        }
    }
}
