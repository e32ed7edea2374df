//! `reptest fuzz`: a differential fuzzing campaign over generated robots.txt inputs (its
//! summary and JSON are rendered by `reptest::report::fuzz`).

use super::CommandResult;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use reptest::fuzz::campaign::{self, CampaignOptions, CampaignProgress};
use reptest::fuzz::findings;
use reptest::impls;
use reptest::report::fuzz::{summary, Json};
use reptest::triage::attribution;
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

pub fn run(args: Args) -> CommandResult {
    let registry = registry(args.timeout)?;
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
            show_progress(bar, &options, &p);
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
        reptest::atomic::write(&path, text.as_bytes()).map_err(|e| e.to_string())?;
    }
    if args.json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&Json::of(&report)).map_err(|e| e.to_string())?
        );
    } else {
        out!(
            "{}",
            summary(
                &report,
                args.top,
                args.external_sample,
                args.inputs.is_none().then_some(args.seconds),
            )
        );
    }
    if let Some(name) = &args.write_findings {
        write_findings(name, &report)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// A campaign's crate adapters: a short timeout (`--timeout`, seconds), and more stuck
/// workers allowed (one pathological input costs a fraction of a second; a library stuck
/// on a few inputs still answers the others).
fn registry(timeout: f64) -> Result<impls::Registry, String> {
    let timeout = std::time::Duration::try_from_secs_f64(timeout)
        .ok()
        .filter(|t| !t.is_zero())
        .ok_or_else(|| format!("--timeout {timeout}: give a positive number of seconds"))?;
    Ok(super::registry(impls::Options {
        crate_limits: impls::Limits {
            timeout,
            max_stuck: 16,
        },
        ..Default::default()
    }))
}

/// The bar's position (inputs of --inputs, else seconds) and its message.
fn show_progress(bar: &ProgressBar, options: &CampaignOptions, p: &CampaignProgress) {
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

/// Promotes the campaign's new signatures to corpus/findings/NAME.toml and writes the
/// write-up to reports/findings/NAME.md (--write-findings NAME).
fn write_findings(name: &str, report: &campaign::CampaignReport) -> Result<(), String> {
    let corpus = reptest_corpus::default_dir();
    let reports = corpus.join("../reports");
    let reports = reports.canonicalize().unwrap_or(reports);
    let written = findings::write(&corpus, &reports, name, report).map_err(|e| e.to_string())?;
    eprintln!(
        "wrote {} new case(s) to {} and {}",
        written.added,
        written.toml.display(),
        written.markdown.display()
    );
    Ok(())
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
