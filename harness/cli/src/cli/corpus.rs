//! `reptest corpus`: statistics, validation, one case.

use super::{CommandResult, CorpusArg};
use reptest::report::figures;
use reptest_corpus::Corpus;
use std::process::ExitCode;

#[derive(clap::Subcommand)]
pub enum Command {
    /// Counts of cases and queries, per level and per requirement ID, and the
    /// requirement IDs no query covers.
    Stats {
        #[command(flatten)]
        corpus: CorpusArg,
        /// Print JSON: {"cases", "queries", "uncovered", "under_covered", "per_level",
        /// "per_expect", "per_requirement", "triage", "undecided" (queries without a
        /// decided verdict), "questions" (in the catalogue), "with_question" (queries that
        /// name one), "without_cause" (ids of the queries with neither a question nor
        /// one plain requirement as their root cause)}.
        #[arg(long)]
        json: bool,
        /// Rewrite the generated figures of FILE (the repository's README.md): the
        /// corpus's counts and the reference's pass rates, each between
        /// `<!-- NAME:begin -->` and `<!-- NAME:end -->` lines (corpus-figures,
        /// reference-figures). A test fails when the committed ones are stale.
        #[arg(long, value_name = "FILE", conflicts_with = "json")]
        readme: Option<std::path::PathBuf>,
    },
    /// Validate every case file; print every problem with file, line and case id.
    Check {
        #[command(flatten)]
        corpus: CorpusArg,
    },
    /// Write the corpus as language-neutral files for tests in any language:
    /// DIR/manifest.json (format, corpus version and fingerprint, counts),
    /// DIR/queries.jsonl (one JSON object per line) or DIR/queries.json (one array), and
    /// DIR/bodies.json (each distinct body once, by its SHA-256: text when UTF-8, else
    /// base64, long runs as repeated parts). Each query carries its body's SHA-256,
    /// agent, URL, fetch scenario, the expected verdict per profile, level and
    /// requirement IDs. docs/export.md has the helper that rebuilds a body's bytes, and a
    /// pytest and a `node --test` that run a library over it.
    Export {
        #[command(flatten)]
        corpus: CorpusArg,
        /// The folder to write into (created if missing; the three files are replaced).
        #[arg(long, value_name = "DIR")]
        out: std::path::PathBuf,
        /// `jsonl` (one query per line) or `json` (one array).
        #[arg(long, default_value = "jsonl", value_parser = ["jsonl", "json"])]
        format: String,
    },
    /// Print one case: its body in visible-character notation and its queries.
    Show {
        #[command(flatten)]
        corpus: CorpusArg,
        /// The case id (see the case files under corpus/), or a query id (`case/name`):
        /// its case.
        id: String,
    },
    /// Rewrite the fuzzing write-ups (REPORTS/findings/NAME.md) from the findings files
    /// (corpus/findings/NAME.toml) and the question catalogue, after deciding or
    /// attributing findings. A test checks the committed write-ups are this rendering.
    WriteUps {
        #[command(flatten)]
        corpus: CorpusArg,
        /// The reports folder. Default: reports/ beside the corpus folder.
        #[arg(long, value_name = "DIR")]
        reports: Option<std::path::PathBuf>,
    },
}

pub fn run(command: Command) -> CommandResult {
    match command {
        Command::Stats {
            corpus,
            readme: Some(file),
            ..
        } => readme(&corpus.load()?, &file),
        Command::Stats { corpus, json, .. } => {
            let stats = corpus.load()?.stats();
            if json {
                outln!("{}", reptest::report::corpus::stats_json(&stats));
            } else {
                out!("{}", reptest::report::corpus::stats(&stats));
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Check { corpus } => {
            let corpus = corpus.load()?;
            let stats = corpus.stats();
            outln!("ok: {} cases, {} queries", stats.cases, stats.queries);
            Ok(ExitCode::SUCCESS)
        }
        Command::Show { corpus, id } => show(&corpus.load()?, &id),
        Command::WriteUps { corpus, reports } => {
            let dir = corpus.dir();
            let loaded = corpus.load()?;
            let reports = reports.unwrap_or_else(|| dir.join("../reports"));
            let mut campaigns: Vec<String> = loaded
                .cases()
                .iter()
                .filter(|c| {
                    c.file.parent().and_then(|p| p.file_name()) == Some("findings".as_ref())
                })
                .filter_map(|c| c.file.file_stem().map(|s| s.to_string_lossy().into_owned()))
                .collect();
            campaigns.sort();
            campaigns.dedup();
            let target = reports.join("findings");
            std::fs::create_dir_all(&target)
                .map_err(|e| format!("cannot create {}: {e}", target.display()))?;
            for campaign in &campaigns {
                let path = target.join(format!("{campaign}.md"));
                let text = reptest::fuzz::findings::render_corpus_write_up(&loaded, campaign);
                reptest::atomic::write(&path, text.as_bytes()).map_err(|e| e.to_string())?;
                outln!("wrote {}", path.display());
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Export {
            corpus,
            out,
            format,
        } => export(&corpus.load()?, &out, &format),
    }
}

/// `reptest corpus stats --readme FILE`: rewrites FILE's generated figures in place.
fn readme(corpus: &Corpus, file: &std::path::Path) -> CommandResult {
    let name = file.display();
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {name}: {e}"))?;
    let blocks = [figures::corpus_figures(corpus), reference_figures(corpus)?];
    let new = figures::rewrite(&text, &blocks).map_err(|e| format!("{name}: {e}"))?;
    if new == text {
        outln!("{name}: the figures are current");
    } else {
        reptest::atomic::write(file, new.as_bytes()).map_err(|e| e.to_string())?;
        outln!("{name}: figures rewritten");
    }
    Ok(ExitCode::SUCCESS)
}

/// README's row of the reference: the corpus through it, scored under `rfc9309`.
fn reference_figures(corpus: &Corpus) -> Result<figures::Block, String> {
    let reference = super::registry(Default::default())
        .one("reference")
        .map_err(|e| e.to_string())?;
    let run = reptest::runner::run(corpus, &[reference]);
    let summaries = reptest::score::summarize(corpus, &run, reptest_corpus::Profile::Rfc9309);
    let summary = summaries.first().ok_or("the reference did not run")?;
    Ok(figures::reference_figures(corpus, summary))
}

/// `reptest corpus export`: the manifest, the queries and the bodies, written together
/// (atomically).
fn export(corpus: &Corpus, out: &std::path::Path, format: &str) -> CommandResult {
    let export = reptest_corpus::export::export(corpus);
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let files = reptest::report::corpus::export_files(&export, format == "json")
        .map_err(|e| e.to_string())?
        .map(|(name, text)| (out.join(name), text.into_bytes()));
    reptest::atomic::write_all(&files).map_err(|e| e.to_string())?;
    let paths: Vec<_> = files.into_iter().map(|(path, _)| path).collect();
    outln!(
        "{}",
        reptest::report::corpus::exported(&export.manifest, &paths)
    );
    Ok(ExitCode::SUCCESS)
}

/// The error for a case id the corpus lacks, with the nearest ids it has.
fn unknown_case(corpus: &Corpus, id: &str) -> String {
    let ids = corpus.cases().iter().map(|c| c.id.as_str());
    let near = reptest::nearest::nearest(id, ids, 5);
    if near.is_empty() {
        return format!("no case with id `{id}` in the corpus (the ids are the `id =` lines of the case files under corpus/)");
    }
    let near: Vec<String> = near.iter().map(|n| format!("  {n}")).collect();
    format!(
        "no case with id `{id}` in the corpus; the nearest ids:\n{}",
        near.join("\n")
    )
}

fn show(corpus: &Corpus, id: &str) -> CommandResult {
    // A query id (`case/name`, as baselines and reports print it) shows its case.
    let id = reptest_corpus::names::split_id(id).map_or(id, |(case, _)| case);
    let Some(case) = corpus.cases().iter().find(|c| c.id == id) else {
        return Err(unknown_case(corpus, id));
    };
    out!("{}", reptest::report::corpus::case(corpus, case));
    Ok(ExitCode::SUCCESS)
}
