//! `reptest report`'s folder: every file it holds, rendered from one [`Report`]
//! ([`files`]), and what the command says once they are written ([`written`]).

use crate::markdown::{self, WriteUp};
use crate::{html, Report};
use reptest_corpus::Profile;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The folder of implementation pages, inside the report folder.
pub const IMPL_DIR: &str = "impl";

/// The files of the folder, as paths relative to it with their contents: `report.json`,
/// `report.html`, `README.md` (linking `write_ups`), then one `impl/NAME.md` page per
/// implementation.
pub fn files(
    report: &Report,
    write_ups: &[WriteUp],
) -> Result<Vec<(PathBuf, Vec<u8>)>, serde_json::Error> {
    let json = serde_json::to_string_pretty(report)? + "\n";
    let mut files: Vec<(PathBuf, Vec<u8>)> = vec![
        ("report.json".into(), json.into_bytes()),
        ("report.html".into(), html::render(report).into_bytes()),
        (
            "README.md".into(),
            markdown::summary(report, write_ups).into_bytes(),
        ),
    ];
    for entry in &report.implementations {
        if let Some(page) = markdown::implementation(report, &entry.name) {
            let path = Path::new(IMPL_DIR).join(format!("{}.md", file_name(&entry.name)));
            files.push((path, page.into_bytes()));
        }
    }
    Ok(files)
}

/// An implementation name as a file name (names are ASCII letters, digits and `-`; any
/// other character becomes `_`).
pub fn file_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect::<String>()
        .trim_start_matches('.')
        .to_string()
}

/// What `reptest report` says once `paths` (the [`files`] as written into `out`, in
/// their order) are written: the run's size, the files, the pages, then one line per
/// implementation with its MUST and overall pass counts under RFC 9309 and its time.
/// Every line ends with a line break.
pub fn written(report: &Report, out: &Path, paths: &[PathBuf]) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "reptest report: {} queries in {} cases, {} implementation(s)\n",
        report.meta.queries,
        report.meta.cases,
        report.implementations.len()
    );
    let (files, pages) = paths.split_at(paths.len().min(3));
    for path in files {
        let _ = writeln!(text, "wrote {}", path.display());
    }
    let names: Vec<_> = pages
        .iter()
        .filter_map(|p| p.file_name())
        .map(|n| n.to_string_lossy())
        .collect();
    let _ = writeln!(
        text,
        "wrote {} page(s) in {}, one per implementation: {}\n",
        pages.len(),
        out.join(IMPL_DIR).display(),
        names.join(", ")
    );
    scores(&mut text, report);
    text
}

/// One line per implementation: MUST and all levels passed of judged under RFC 9309,
/// and its time; a note where the reference did not pass every query.
fn scores(text: &mut String, report: &Report) {
    let reference = report.implementation("reference");
    for (entry, score) in report.implementations.iter().zip(&report.scores) {
        let Some(levels) = score.profiles.get(&Profile::Rfc9309) else {
            continue;
        };
        let (pass, judged) = levels.values().fold((0, 0), |(p, j), t| {
            (p + t.pass, j + t.pass + t.fail + t.no_verdict)
        });
        let must = levels
            .get("MUST")
            .map(|t| (t.pass, t.pass + t.fail + t.no_verdict));
        let _ = writeln!(
            text,
            "  {:<34} MUST {:<9} all levels {:<9} {:>7.1} s{}",
            entry.name,
            must.map_or("-".into(), |(p, j)| format!("{p}/{j}")),
            format!("{pass}/{judged}"),
            entry.seconds,
            if Some(entry.name.as_str())
                == reference.map(|r| report.implementations[r].name.as_str())
                && pass < judged
            {
                "  (the reference did not pass every query: see its page)"
            } else {
                ""
            }
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names() {
        assert_eq!(file_name("rust-cylon"), "rust-cylon");
        assert_eq!(file_name("../x/y"), "_x_y");
    }
}
