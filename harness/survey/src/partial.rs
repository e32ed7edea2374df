//! Partial results: one shard's survey as JSON (`partial-I-of-N.json`), and their merge
//! into exactly the survey of the whole input.
//!
//! A partial records everything its counts depend on besides its files, which it
//! fingerprints: the input's fingerprint (the same for every shard of one input,
//! [`crate::fingerprint`]), the settings (seed, queries per file, `--limit`, the
//! per-query timeout, the circuit breaker's settings), the implementations with their
//! versions and the runtimes they ran on, the decided-by implementation, reptest's
//! build, the corpus and its question catalogue (version and fingerprints,
//! [`crate::provenance`]) and the checksum of the implementations' answers to the
//! catalogue's probes (attribution rests on them); and two
//! [`Checksums`], of its settings and of its counts. [`merge`] refuses, naming the
//! file(s) and what differs: another format version, a partial whose checksums do not
//! match what it holds (edited by hand), counts no survey gives (a count larger than its
//! total), partials of different inputs or settings, a shard twice, a sum that
//! overflows, and missing shards.

mod check;
mod error;

use serde::{Deserialize, Serialize};

pub use error::PartialError;

use crate::engine::{Header, Survey, FORMAT};
use crate::fingerprint::checksum;
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
    /// their versions, the input's fingerprint, ...) and its counts.
    #[serde(flatten)]
    pub survey: Survey,
    /// The checksums of the above, taken when the partial was made.
    pub checksum: Checksums,
}

/// A partial's checksums ([`crate::fingerprint::checksum`]): a partial whose content was
/// changed after it was written does not match them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checksums {
    /// Of its kind, format, shard and settings (the survey's [`Header`]).
    pub settings: String,
    /// Of its counts (the survey's [`crate::Tally`]).
    pub tally: String,
}

impl Checksums {
    fn of(kind: &str, format: u32, shard: Shard, survey: &Survey) -> Checksums {
        Checksums {
            settings: checksum(&(kind, format, shard, &survey.header)),
            tally: checksum(&survey.tally),
        }
    }
}

impl Partial {
    /// The partial of `survey`, the result of shard `shard`, with its checksums.
    pub fn new(shard: Shard, survey: Survey) -> Partial {
        Partial {
            kind: PARTIAL_KIND.to_string(),
            format: FORMAT,
            checksum: Checksums::of(PARTIAL_KIND, FORMAT, shard, &survey),
            shard,
            survey,
        }
    }

    /// The file name of shard `shard`'s partial: `partial-I-of-N.json`.
    pub fn file_name(shard: Shard) -> String {
        format!("partial-{}-of-{}.json", shard.index, shard.count)
    }

    /// Reads a partial from its JSON text; `name` is the file's name in errors. Its
    /// checksums and counts are checked by [`merge`] (see [`Partial::verify`]).
    ///
    /// # Errors
    ///
    /// When the text is not a partial of this format version.
    pub fn parse(text: &str, name: &str) -> Result<Partial, PartialError> {
        let file = || name.to_string();
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|error| PartialError::NotJson {
                file: file(),
                error,
            })?;
        if value.get("kind").and_then(|k| k.as_str()) != Some(PARTIAL_KIND) {
            return Err(PartialError::NotPartial { file: file() });
        }
        let format = value.get("format").and_then(|f| f.as_u64());
        if format != Some(u64::from(FORMAT)) {
            return Err(PartialError::Format {
                file: file(),
                found: format,
            });
        }
        let partial: Partial =
            serde_json::from_value(value).map_err(|e| PartialError::Invalid {
                file: file(),
                why: e.to_string(),
            })?;
        partial.shape(name)?;
        Ok(partial)
    }

    /// Whether the partial's shard exists and its counts are of its implementations.
    fn shape(&self, name: &str) -> Result<(), PartialError> {
        let invalid = |why: String| PartialError::Invalid {
            file: name.to_string(),
            why,
        };
        Shard::new(self.shard.index, self.shard.count).map_err(|e| invalid(e.to_string()))?;
        let n = self.survey.header.implementations.len();
        let tally = &self.survey.tally;
        if tally.implementations.len() != n
            || tally.pairwise.len() != n
            || tally.pairwise.iter().any(|row| row.len() != n)
        {
            return Err(invalid(format!(
                "its counts do not match its {n} implementation(s)"
            )));
        }
        Ok(())
    }

    /// Checks the partial (named `name` in errors) on its own: its kind and format, its
    /// shape, that its checksums match what it holds, and that its counts are ones a
    /// survey gives (none larger than its total).
    ///
    /// # Errors
    ///
    /// The first problem found.
    pub fn verify(&self, name: &str) -> Result<(), PartialError> {
        let file = || name.to_string();
        if self.kind != PARTIAL_KIND {
            return Err(PartialError::NotPartial { file: file() });
        }
        if self.format != FORMAT {
            let found = Some(u64::from(self.format));
            return Err(PartialError::Format {
                file: file(),
                found,
            });
        }
        self.shape(name)?;
        let computed = Checksums::of(&self.kind, self.format, self.shard, &self.survey);
        let recorded = &self.checksum;
        for (part, ours, theirs) in [
            ("settings", &computed.settings, &recorded.settings),
            ("counts", &computed.tally, &recorded.tally),
        ] {
            if ours != theirs {
                return Err(PartialError::Edited {
                    file: file(),
                    part,
                    recorded: theirs.clone(),
                    computed: ours.clone(),
                });
            }
        }
        check::counts(&self.survey).map_err(|bad| PartialError::Inconsistent {
            file: file(),
            field: bad.field,
            detail: bad.detail,
        })
    }
}

/// Merges the partials of every shard of one survey (each with its file name for
/// errors) into the survey of the whole input.
///
/// # Errors
///
/// When a partial does not [`verify`](Partial::verify), or the partials are not those
/// of one survey (another input, seed, queries per file, limit, timeout, circuit
/// breaker, implementations or versions, runtimes, decided-by implementation, reptest
/// build, corpus, questions or shard count: the first that differs is named with both
/// values), a shard is given twice, a sum of counts overflows, or shards are missing
/// (named).
pub fn merge(partials: Vec<(String, Partial)>) -> Result<Survey, PartialError> {
    let mut partials = partials.into_iter();
    let (first_name, first) = partials.next().ok_or(PartialError::NoPartials)?;
    first.verify(&first_name)?;
    let count = first.shard.count;
    let mut seen: Vec<Option<(String, Checksums)>> = vec![None; count as usize];
    seen[first.shard.index as usize] = Some((first_name.clone(), first.checksum));
    let Survey { header, mut tally } = first.survey;
    for (name, partial) in partials {
        partial.verify(&name)?;
        let differ = |what, ours: String, theirs: String| PartialError::Differ {
            file: name.clone(),
            first: first_name.clone(),
            what,
            theirs,
            ours,
        };
        if partial.shard.count != count {
            let theirs = partial.shard.count.to_string();
            return Err(differ("shard count", count.to_string(), theirs));
        }
        same_settings(&header, &partial.survey.header, differ)?;
        let slot = &mut seen[partial.shard.index as usize];
        if let Some((other, checksums)) = slot {
            return Err(PartialError::Twice {
                shard: partial.shard,
                first: other.clone(),
                second: name,
                identical: *checksums == partial.checksum,
            });
        }
        *slot = Some((name.clone(), partial.checksum));
        tally
            .merge(partial.survey.tally)
            .map_err(|error| PartialError::Overflow { file: name, error })?;
    }
    let missing: Vec<u32> = (0..count).filter(|&i| seen[i as usize].is_none()).collect();
    if !missing.is_empty() {
        return Err(PartialError::Missing { count, missing });
    }
    Ok(Survey { header, tally })
}

/// What must be the same in every partial of one survey, each as (what, value), in the
/// order they are compared: the settings, then the implementations and their runtimes,
/// then the rest of the provenance.
fn settings(h: &Header) -> Vec<(&'static str, String)> {
    let list = h
        .implementations
        .iter()
        .map(|i| format!("{} {}", i.name, i.version))
        .collect::<Vec<_>>()
        .join(", ");
    let mut rows = vec![
        // A limit changes what is read, hence the input's fingerprint: it comes first.
        ("--limit", h.limit.map_or("none".into(), |n| n.to_string())),
        ("input", format!("({})", h.input)),
        ("seed", h.seed.to_string()),
        ("queries per file", h.queries_per_file.to_string()),
        ("--timeout", format!("{} s", h.timeout.as_secs_f64())),
        (
            "circuit breaker",
            format!(
                "--file-budget {} s --trip-after {}",
                h.breaker.file_budget.as_secs_f64(),
                h.breaker.trip_after
            ),
        ),
        ("implementations", list),
    ];
    rows.extend(runtimes(h));
    let p = &h.provenance;
    rows.extend([
        (
            "decided by",
            format!("{} {}", h.decided_by.name, h.decided_by.version),
        ),
        ("reptest", format!("({})", p.reptest)),
        ("corpus", format!("({})", p.corpus)),
        (
            "question catalogue",
            format!(
                "({} questions, checksum {})",
                h.questions.len(),
                checksum(&h.questions)
            ),
        ),
        (
            "answers to the catalogue's probes (checksum)",
            h.attribution.clone(),
        ),
    ]);
    rows
}

/// One row per implementation: the runtime it ran on (`name: runtime`), so that a
/// difference names the implementation.
fn runtimes(h: &Header) -> impl Iterator<Item = (&'static str, String)> + '_ {
    let runtimes = &h.provenance.runtimes;
    h.implementations.iter().map(move |i| {
        let runtime = runtimes.get(&i.name).map_or("in process", String::as_str);
        ("runtime", format!("{}: {runtime}", i.name))
    })
}

/// Whether `theirs` has the settings of `ours`; else the first that differs, through
/// `differ(what, ours, theirs)`.
fn same_settings(
    ours: &Header,
    theirs: &Header,
    differ: impl Fn(&'static str, String, String) -> PartialError,
) -> Result<(), PartialError> {
    for ((what, a), (_, b)) in settings(ours).into_iter().zip(settings(theirs)) {
        if a != b {
            return Err(differ(what, a, b));
        }
    }
    if ours != theirs {
        // A setting `settings` does not list (a field added without listing it).
        return Err(differ("settings", checksum(ours), checksum(theirs)));
    }
    Ok(())
}
