//! `reptest fuzz`: a differential fuzzing campaign over generated robots.txt inputs.

use super::Outcome;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use reptest::fuzz::attribution;
use reptest::fuzz::campaign::{self, CampaignOptions, CampaignProgress, CampaignReport};
use reptest::fuzz::findings;
use reptest::fuzz::minimize::Stop;
use reptest::impls;
use reptest_corpus::write::{segments, Segment};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

/// Run generated robots.txt inputs through implementations and group the queries they
/// disagree on by signature (the partition of implementations by verdict, the
/// dimensions of the minimized input, the reference's deciding rule).
///
/// Reproducible: the same seed and --inputs give the same signatures and counts. In-process
/// implementations answer every input; external ones answer the divergent queries and a
/// sample.
///
/// Every signature is attributed to a known question of the corpus's catalogue
/// (corpus/questions.toml: what the implementations disagree on, with its RFC decision)
/// or reported as new: the new ones are what a person has to look at. A signature goes
/// to the question on whose example queries its dissenting implementation and a witness
/// of the majority split too, in the same dimensions (corpus/README.md, "Attribution").
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    corpus: super::CorpusArg,
    /// The time budget in seconds (ignored with --inputs).
    #[arg(long, default_value_t = 60.0, value_name = "N")]
    seconds: f64,
    /// The campaign seed.
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// Run exactly N inputs, whatever the time (for reproducible campaigns).
    #[arg(long, value_name = "N")]
    inputs: Option<u64>,
    /// Implementations, comma-separated (see `reptest impls`). Default: every available one.
    #[arg(long = "impl", value_name = "NAMES", value_delimiter = ',')]
    implementations: Vec<String>,
    /// External implementations also answer every query of one input in K (0: only the
    /// queries already divergent in process).
    #[arg(long, default_value_t = 64, value_name = "K")]
    external_sample: u64,
    /// Write the whole report as JSON (every signature with its examples) to
    /// DIR/fuzz-<seed>.json.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Print the report as JSON instead of the summary.
    #[arg(long)]
    json: bool,
    /// Promote new signatures to corpus/findings/NAME.toml and write the write-up to
    /// reports/findings/NAME.md.
    #[arg(long, value_name = "NAME")]
    write_findings: Option<String>,
    /// Per-query timeout, in seconds, of the in-process crate adapters: a library stuck on
    /// one input then costs a fraction of a second, not the campaign; its outcome is
    /// `timeout`, which is not a verdict and so not a divergence. Up to 16 stuck queries
    /// per library run on at the lowest priority; after that the library answers `error`.
    #[arg(long, default_value_t = 0.5, value_name = "SECONDS")]
    timeout: f64,
    /// How many signatures the summary lists.
    #[arg(long, default_value_t = 15, value_name = "N")]
    top: usize,
}

pub fn run(args: Args) -> Outcome {
    let timeout = std::time::Duration::try_from_secs_f64(args.timeout)
        .ok()
        .filter(|t| !t.is_zero())
        .ok_or_else(|| {
            format!(
                "--timeout {}: give a positive number of seconds",
                args.timeout
            )
        })?;
    // A campaign's crate adapters: a short timeout, and more stuck workers allowed (one
    // pathological input costs a fraction of a second; a library stuck on a few inputs
    // still answers the others).
    let registry = impls::Registry::new(impls::Options {
        crate_limits: impls::Limits {
            timeout,
            max_stuck: 16,
        },
        ..Default::default()
    });
    let implementations = super::selected_for_bodies(&registry, &args.implementations)?;
    needs_two(&implementations)?;
    let corpus = args.corpus.load()?;
    let options = CampaignOptions {
        seconds: args.seconds,
        seed: args.seed,
        inputs: args.inputs,
        external_sample: args.external_sample,
        questions: attribution::probes_of(&corpus),
        ..CampaignOptions::default()
    };
    let bar = bar(&options);
    let report = campaign::run_campaign(&options, &implementations, &|p: CampaignProgress| {
        if let Some(bar) = &bar {
            bar.set_position(match options.inputs {
                Some(_) => p.inputs,
                None => p.elapsed.as_secs(),
            });
            let seconds = p.elapsed.as_secs_f64().max(1e-9);
            bar.set_message(format!(
                "{} inputs, {:.0} execs/s, {} signatures",
                p.inputs,
                p.execs as f64 / seconds,
                p.signatures
            ));
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let path = dir.join(format!("fuzz-{}.json", args.seed));
        let text = serde_json::to_string_pretty(&Json::of(&report)).map_err(|e| e.to_string())?;
        reptest::atomic::write(&path, text.as_bytes())?;
    }
    if args.json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&Json::of(&report)).map_err(|e| e.to_string())?
        );
    } else {
        print(
            &report,
            args.top,
            args.external_sample,
            args.inputs.is_none().then_some(args.seconds),
        );
    }
    if let Some(name) = &args.write_findings {
        let corpus = reptest_corpus::default_dir();
        let reports = corpus.join("../reports");
        let reports = reports.canonicalize().unwrap_or(reports);
        let written = findings::write(&corpus, &reports, name, &report)?;
        eprintln!(
            "wrote {} new case(s) to {} and {}",
            written.added,
            written.toml.display(),
            written.markdown.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// A differential run compares implementations with each other: with fewer than two
/// there is nothing to compare, so it is an error that says so.
fn needs_two(implementations: &[Box<dyn reptest::Implementation>]) -> Result<(), String> {
    if implementations.len() >= 2 {
        return Ok(());
    }
    let names: Vec<&str> = implementations.iter().map(|i| i.name()).collect();
    let given = match names[..] {
        [] => "no implementation is available".to_string(),
        [one] => format!("only `{one}` was given"),
        _ => unreachable!("fewer than two"),
    };
    Err(format!(
        "a differential run needs two implementations, and {given}: name two or more with --impl A,B (see `reptest impls`), or leave --impl out for every available one"
    ))
}

/// A bar on stderr when it is a terminal: inputs of --inputs, else seconds of the budget.
fn bar(options: &CampaignOptions) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let (total, unit) = match options.inputs {
        Some(n) => (n, "inputs"),
        None => (options.seconds.ceil() as u64, "s"),
    };
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(&format!(
        "{{elapsed:>4}} [{{bar:30}}] {{pos}}/{{len}} {unit} {{msg}}"
    )) {
        bar.set_style(style.progress_chars("=> "));
    }
    Some(bar)
}

fn print(report: &CampaignReport, top: usize, sample: u64, budget: Option<f64>) {
    outln!(
        "reptest fuzz: seed {}, {} inputs, {} queries, {} execs in {:.1} s ({:.0} execs/s; minimizing {:.1} s)",
        report.seed,
        report.inputs,
        report.queries,
        report.execs,
        report.seconds,
        report.execs_per_second(),
        report.minimize_seconds
    );
    outln!(
        "evaluating: {:.0} execs/s per thread on {} threads (minimization excluded)",
        report.execs_per_second_per_thread(),
        report.threads
    );
    outln!("in process: {}", report.in_process.join(", "));
    if !report.external.is_empty() {
        let sampled = match sample {
            0 => "only on the queries already divergent in process".to_string(),
            1 => "on every input".to_string(),
            k => {
                format!("on the queries divergent in process and on every query of 1 input in {k}")
            }
        };
        outln!(
            "external, consulted {sampled} (change with --external-sample K): {}",
            report.external.join(", ")
        );
    }
    if let Some(budget) = budget {
        let over = report.seconds - budget;
        let tail = if over > 0.5 {
            format!(
                "; {over:.1} s over it by what was in flight at the deadline (an input's or a candidate's evaluation, at most an adapter's timeout)"
            )
        } else {
            String::new()
        };
        outln!(
            "time: {:.1} s of a {budget:.0}-s budget that includes minimization{tail}",
            report.seconds
        );
    }
    let cut = report
        .signatures
        .iter()
        .filter(|f| f.minimize_stop == Stop::Deadline)
        .count();
    if cut > 0 {
        outln!(
            "{cut} example(s) only partly minimized when time ran out (marked ~ below; more --seconds, or --inputs N, minimizes them fully)"
        );
    }
    if report.unminimized > 0 {
        outln!(
            "{} dissent(s) not grouped: time ran out before they were minimized (more --seconds, or --inputs N)",
            report.unminimized
        );
    }
    if report.questions_known > 0 && !report.signatures.is_empty() {
        let new = report
            .signatures
            .iter()
            .filter(|f| f.question.is_none())
            .count();
        outln!(
            "\nattribution: {:.1} % of raw hits to the {} known questions; {new} new signature(s) to look at",
            100.0 * report.attributed_share(),
            report.questions_known
        );
        for tally in report.per_question.iter().filter(|t| t.signatures > 0) {
            outln!(
                "  {:<28} {:>4} signature(s) {:>8} hits",
                tally.question,
                tally.signatures,
                tally.hits
            );
        }
    }
    outln!("\n{} signature(s); per dimension:", report.signatures.len());
    for (dimension, n) in report.per_dimension() {
        outln!("  {dimension:<17} {n}");
    }
    if report.signatures.is_empty() {
        return;
    }
    outln!("\ntop signatures (raw hits, question or NEW, signature, minimized example):");
    for found in report.signatures.iter().take(top) {
        let mark = if found.minimize_stop == Stop::Deadline {
            '~'
        } else {
            ' '
        };
        outln!(
            "{mark} {:>7}  {}  {}",
            found.hits,
            found.question.as_deref().unwrap_or("NEW"),
            found.signature
        );
        outln!(
            "           {} | {} {}",
            shorten(&compact(&found.minimized.body)),
            found.minimized.agent,
            found.minimized.url
        );
    }
    if report.signatures.len() > top {
        outln!(
            "  ... and {} more (--top N, --json)",
            report.signatures.len() - top
        );
    }
}

/// A body in visible notation on one line, runs written once with their count
/// (`⟪#p…⟫×512`, `p×1000`), so a padded input reads in a few dozen characters.
fn compact(body: &[u8]) -> String {
    let visible = |bytes: &[u8]| reptest::visible::render(bytes).replace("↵\n", "↵");
    segments(body)
        .into_iter()
        .map(|segment| match segment {
            Segment::Text(text) => visible(text),
            Segment::Repeat(unit, n) if unit.len() == 1 => format!("{}×{n}", visible(unit)),
            Segment::Repeat(unit, n) => format!("⟪{}⟫×{n}", compact(unit)),
        })
        .collect()
}

/// At most 160 characters of a rendered body, with how many were left out.
fn shorten(rendered: &str) -> String {
    const KEEP: usize = 160;
    let count = rendered.chars().count();
    if count <= KEEP {
        return rendered.to_string();
    }
    let head: String = rendered.chars().take(KEEP).collect();
    format!("{head}… ({} more characters)", count - KEEP)
}

/// The JSON form of a campaign: the report (each signature with its `question`, an id or
/// null when new, and its raw `hits`; `per_question`) plus its signature count per
/// dimension and the share of raw hits attributed to known questions.
#[derive(serde::Serialize)]
struct Json<'a> {
    #[serde(flatten)]
    report: &'a CampaignReport,
    /// Dimension name (and `none`) to the number of signatures carrying it.
    per_dimension: std::collections::BTreeMap<String, usize>,
    /// Raw hits of signatures attributed to known questions over all raw hits, in [0, 1].
    attributed_share: f64,
}

impl<'a> Json<'a> {
    fn of(report: &'a CampaignReport) -> Json<'a> {
        Json {
            report,
            per_dimension: report.per_dimension().into_iter().collect(),
            attributed_share: report.attributed_share(),
        }
    }
}
