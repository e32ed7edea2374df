//! The survey of the reference alone, part by part, over the 4,231 real robots.txt files of
//! protego 0.7.0 (`harness/external/.state/survey/protego-0.7.0/test_data`, fetched by
//! `bash harness/external/setup survey-data`; without them the bench says so and measures
//! nothing). Figures in `harness/BENCHMARKS.md`:
//!
//! ```sh
//! taskset -c 0 cargo bench -p reptest --bench survey -- --warm-up-time 1 --measurement-time 10
//! ```
//!
//! `taskset -c 0` makes the figures per core: the engine's thread pool then shares one.
//! One iteration is all 4,231 files, with 20 queries each (`--queries-per-file 20`, seed 1):
//!
//! - `survey/derive`: query derivation alone (`reptest_survey::derive`);
//! - `survey/reference`: the reference through its adapter, one case per file (parse
//!   once, check its 20 queries), the queries derived beforehand;
//! - `survey/engine`: `engine::survey_files` with the reference alone, as `reptest survey
//!   --impl reference` runs it, from files already in memory (no disk reads): derivation,
//!   evaluation and the tally.

use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use reptest::triage::attribution;
use reptest::{impls, CaseInput, Implementation, QueryInput};
use reptest_survey::engine::{self, Options, Quiet, Setup};
use reptest_survey::{derive, SurveyFile, SurveyQuery};

/// The protego files as the survey reads them (sorted by name), or `None`.
fn protego() -> Option<Vec<SurveyFile>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../external/.state/survey/protego-0.7.0/test_data");
    let files: Vec<SurveyFile> = reptest_survey::open(&dir)
        .ok()?
        .filter_map(Result::ok)
        .collect();
    (files.len() == 4231).then_some(files)
}

fn benches(c: &mut Criterion) {
    let Some(files) = protego() else {
        eprintln!(
            "survey bench: the protego files are not there; run `bash harness/external/setup survey-data`"
        );
        return;
    };
    let corpus = reptest_corpus::Corpus::load(reptest_corpus::default_dir())
        .unwrap_or_else(|e| panic!("{e}"));
    let reference = impls::all()
        .into_iter()
        .find(|i| i.info().name == "reference")
        .expect("the reference is registered");
    let options = Options {
        queries_per_file: 20,
        ..Options::default()
    };
    let queries: Vec<Vec<SurveyQuery>> = files
        .iter()
        .map(|f| derive(f, options.seed, options.queries_per_file))
        .collect();
    let total: usize = queries.iter().map(Vec::len).sum();
    assert_eq!(total, 84_620, "the survey's query count on these files");

    let mut group = c.benchmark_group("survey");
    group.sample_size(10);
    group.throughput(Throughput::Elements(files.len() as u64));
    group.bench_function("derive", |b| {
        b.iter(|| {
            for file in &files {
                criterion::black_box(derive(file, options.seed, options.queries_per_file));
            }
        })
    });
    group.bench_function("reference", |b| {
        b.iter(|| {
            for (file, queries) in files.iter().zip(&queries) {
                let inputs: Vec<QueryInput<'_>> = queries.iter().map(SurveyQuery::input).collect();
                let case = CaseInput {
                    robots: &file.body,
                    fetch: None,
                    queries: &inputs,
                };
                criterion::black_box(reference.evaluate(&case));
            }
        })
    });
    let chosen: Vec<&dyn Implementation> = vec![reference.as_ref()];
    let attribution = attribution::probe(&attribution::probes_of(&corpus), &chosen);
    let setup = Setup {
        implementations: &chosen,
        decider: reference.as_ref(),
        attribution: &attribution,
        questions: engine::questions_of(&corpus),
        provenance: Default::default(),
    };
    group.bench_function("engine", |b| {
        b.iter_batched(
            || files.clone(),
            |files| {
                let survey =
                    engine::survey_files(files.into_iter().map(Ok), "", &options, &setup, &Quiet)
                        .expect("in-memory files");
                assert_eq!(survey.tally.queries, 84_620);
                survey
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

criterion_group!(survey, benches);
criterion_main!(survey);
