//! `reptest survey synth`: a large WARC file made from real robots.txt files, to measure
//! the survey at Internet scale (`reptest_survey::synth`).

use super::super::CommandResult;
use reptest_survey::synth::{self, Options};
use reptest_survey::Format;
use std::path::PathBuf;
use std::process::ExitCode;

/// What `reptest survey synth --help` teaches, after the options.
const HELP: &str = "\
Each record is decided by --seed and its index alone (the same input and seed give the
same octets):
  status  in every 100 records exactly 85 200, 13 404, 1 500/503 and 1 301/302 (with a
          Location), in a seeded order: the Web Almanac's robots.txt mix
  host    s<index>.<hash>.example, never the real host (also renamed in the body)
  body    for a 200, the input's next file (its files in order, over and over),
          varied: one time in 8 a key's case changed, in 8 a path one letter longer,
          in 16 a blank line more, in 10 CRLF line ends, and always a last line
          `# reptest synth record <index>`; for the others a small HTML page
One gzip member per record, as Common Crawl's robots.txt subset; a warcinfo record
first. Memory stays flat whatever --records (one body at a time); the file is written
beside --out and renamed when whole. Output is large (about 1 GB per million records
from the protego files): keep it out of the repository.

Examples:
  reptest survey synth --input robots/ --out /tmp/synth-1e6.warc.gz --records 1000000
  reptest survey --input /tmp/synth-1e6.warc.gz --impl reference --out /tmp/survey-1e6

Measuring script: harness/survey/scale/measure.sh; figures: docs/survey.md, Internet scale";

/// Write a synthetic WARC file of --records response records made from real robots.txt
/// files (--input), with hosts renamed, bodies varied and statuses mixed as on the Web:
/// an input to measure the survey at scale.
#[derive(clap::Args)]
#[command(after_help = HELP)]
pub struct Args {
    /// The real files: a survey input (a directory, .tar(.gz) or .warc(.gz)); only files
    /// with a 2xx status (or none) are copied.
    #[arg(long, value_name = "PATH")]
    input: PathBuf,
    /// The WARC file to write, named .warc.gz (gzip-compressed, one member per record).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// The number of response records.
    #[arg(long, value_name = "N")]
    records: u64,
    /// The seed of every choice (statuses, hosts, variations).
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
}

/// Writes the file and says what it holds on stderr.
pub fn run(args: Args) -> CommandResult {
    if args.records == 0 {
        return Err("--records 0: give at least 1".into());
    }
    if Format::of_path(&args.out) != Some(Format::WarcGz) {
        return Err(format!(
            "--out {}: name the file .warc.gz (it is gzip-compressed, one member per record)",
            args.out.display()
        ));
    }
    let options = Options {
        records: args.records,
        seed: args.seed,
    };
    let started = std::time::Instant::now();
    let summary = synth::generate(&args.input, &args.out, &options).map_err(|e| e.to_string())?;
    let statuses: Vec<String> = summary
        .statuses
        .iter()
        .map(|(status, n)| format!("{status}: {n}"))
        .collect();
    let passed_over = match summary.input_skipped {
        0 => String::new(),
        n => format!(" ({n} input entries passed over)"),
    };
    eprintln!(
        "wrote {}: {} response records ({}) from {} real files{passed_over}, {:.1} MB, {:.1} s",
        args.out.display(),
        summary.records,
        statuses.join(", "),
        summary.input_files,
        summary.bytes as f64 / 1e6,
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}
