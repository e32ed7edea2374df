//! Partial results: one shard's survey as JSON (`partial-I-of-N.json`), and their merge
//! into exactly the survey of the whole input.

use serde::{Deserialize, Serialize};

use crate::engine::{Survey, FORMAT};
use crate::tally::Tally;
use crate::Shard;

/// What a partial file says it is, so another JSON file is refused clearly.
pub const PARTIAL_KIND: &str = "reptest-survey-partial";

/// One shard's survey, as written to `partial-I-of-N.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Partial {
    /// Always [`PARTIAL_KIND`].
    pub kind: String,
    /// The format version ([`FORMAT`]).
    pub format: u32,
    /// The shard surveyed.
    pub shard: Shard,
    /// The shard's survey: its settings (seed, queries per file, implementations with
    /// their versions, ...) and its counts.
    #[serde(flatten)]
    pub survey: Survey,
}

impl Partial {
    /// The partial of `survey`, the result of shard `shard`.
    pub fn new(shard: Shard, survey: Survey) -> Partial {
        Partial {
            kind: PARTIAL_KIND.to_string(),
            format: FORMAT,
            shard,
            survey,
        }
    }

    /// The file name of shard `shard`'s partial: `partial-I-of-N.json`.
    pub fn file_name(shard: Shard) -> String {
        format!("partial-{}-of-{}.json", shard.index, shard.count)
    }

    /// Reads a partial from its JSON text; `name` is the file's name in errors.
    ///
    /// # Errors
    ///
    /// When the text is not a partial of this format version.
    pub fn parse(text: &str, name: &str) -> Result<Partial, String> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("{name}: not JSON: {e}"))?;
        if value.get("kind").and_then(|k| k.as_str()) != Some(PARTIAL_KIND) {
            return Err(format!(
                "{name}: not a survey partial (no \"kind\": \"{PARTIAL_KIND}\"); partials are the partial-I-of-N.json files of `reptest survey --shard I/N`"
            ));
        }
        let format = value.get("format").and_then(|f| f.as_u64());
        if format != Some(u64::from(FORMAT)) {
            return Err(format!(
                "{name}: partial format {} is not {FORMAT}, the format this reptest reads; survey the shard again with this reptest",
                format.map_or("missing".to_string(), |f| f.to_string())
            ));
        }
        let partial: Partial = serde_json::from_value(value)
            .map_err(|e| format!("{name}: not a valid partial: {e}"))?;
        Shard::new(partial.shard.index, partial.shard.count).map_err(|e| format!("{name}: {e}"))?;
        let n = partial.survey.header.implementations.len();
        let tally = &partial.survey.tally;
        if tally.implementations.len() != n
            || tally.pairwise.len() != n
            || tally.pairwise.iter().any(|row| row.len() != n)
        {
            return Err(format!(
                "{name}: not a valid partial: its counts do not match its {n} implementation(s)"
            ));
        }
        Ok(partial)
    }
}

/// Merges the partials of every shard of one survey (each with its file name for
/// errors) into the survey of the whole input.
///
/// # Errors
///
/// When the partials are not those of one survey: different seeds, queries per file,
/// limits, implementations (names or versions), decided-by implementation, questions or
/// shard counts; a shard given twice; or shards missing (named).
pub fn merge(partials: Vec<(String, Partial)>) -> Result<Survey, String> {
    let mut partials = partials.into_iter();
    let Some((first_name, first)) = partials.next() else {
        return Err("no partials given".into());
    };
    let count = first.shard.count;
    let mut seen = vec![None::<String>; count as usize];
    seen[first.shard.index as usize] = Some(first_name.clone());
    let header = first.survey.header;
    let mut tally: Tally = first.survey.tally;
    for (name, partial) in partials {
        let theirs = &partial.survey.header;
        let differ = |what: &str, a: String, b: String| {
            format!("{name} and {first_name} are not shards of one survey: {what} {b} vs {a}")
        };
        if partial.shard.count != count {
            return Err(differ(
                "shard count",
                count.to_string(),
                partial.shard.count.to_string(),
            ));
        }
        if theirs.seed != header.seed {
            return Err(differ(
                "seed",
                header.seed.to_string(),
                theirs.seed.to_string(),
            ));
        }
        if theirs.queries_per_file != header.queries_per_file {
            return Err(differ(
                "queries per file",
                header.queries_per_file.to_string(),
                theirs.queries_per_file.to_string(),
            ));
        }
        if theirs.limit != header.limit {
            return Err(differ(
                "--limit",
                format!("{:?}", header.limit),
                format!("{:?}", theirs.limit),
            ));
        }
        let list = |h: &crate::engine::Header| {
            h.implementations
                .iter()
                .map(|i| format!("{} {}", i.name, i.version))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if theirs.implementations != header.implementations {
            return Err(differ("implementations", list(&header), list(theirs)));
        }
        if theirs.decided_by != header.decided_by {
            return Err(differ(
                "decided by",
                format!("{:?}", header.decided_by),
                format!("{:?}", theirs.decided_by),
            ));
        }
        if theirs.questions != header.questions {
            return Err(differ(
                "question catalogue",
                format!("{} questions", header.questions.len()),
                format!("{} questions", theirs.questions.len()),
            ));
        }
        if theirs.breaker != header.breaker {
            let limits = |h: &crate::engine::Header| {
                format!(
                    "--file-budget {} s --trip-after {}",
                    h.breaker.file_budget.as_secs_f64(),
                    h.breaker.trip_after
                )
            };
            return Err(differ("circuit breaker", limits(&header), limits(theirs)));
        }
        let slot = &mut seen[partial.shard.index as usize];
        if let Some(other) = slot {
            return Err(format!(
                "shard {} is given twice: {other} and {name}",
                partial.shard
            ));
        }
        *slot = Some(name.clone());
        tally
            .merge(partial.survey.tally)
            .map_err(|e| format!("{name}: {e}"))?;
    }
    let missing: Vec<String> = seen
        .iter()
        .enumerate()
        .filter(|(_, name)| name.is_none())
        .map(|(i, _)| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "{} of {count} shard(s) missing: {} (their files are {})",
            missing.len(),
            missing.join(", "),
            missing
                .iter()
                .map(|s| {
                    let (i, _) = s.split_once('/').unwrap_or((s, ""));
                    format!("partial-{i}-of-{count}.json")
                })
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok(Survey { header, tally })
}
