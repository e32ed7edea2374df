//! `reptest corpus stats --readme FILE`: the figures of README.md that change with the
//! corpus (its counts, the reference's pass rates), written between markers so that
//! they are regenerated, never edited by hand; a test fails when the committed ones are
//! stale (`harness/cli/tests/integration/readme.rs`).

use crate::run::cell;
use reptest_core::score::Summary;
use reptest_corpus::{Corpus, Level};

/// One generated block: its name (in the markers `<!-- NAME:begin -->` and
/// `<!-- NAME:end -->`) and its content.
pub struct Block {
    name: &'static str,
    content: String,
}

/// The corpus's counts: version, cases, queries per level, fetch-outcome queries,
/// questions, undecided queries, uncovered requirement IDs.
pub fn corpus_figures(corpus: &Corpus) -> Block {
    let stats = corpus.stats();
    let level = |l: Level| stats.per_level.get(&l).copied().unwrap_or(0);
    let fetch = corpus.queries().filter(|(c, _)| c.fetch.is_some()).count();
    let uncovered = match stats.uncovered.len() {
        0 => "none".to_string(),
        _ => stats.uncovered.join(", "),
    };
    let content = format!(
        "| corpus | cases | queries | MUST | SHOULD | MAY | fetch-outcome queries | questions | undecided | uncovered requirement IDs |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n\
         | {} | {} | {} | {} | {} | {} | {fetch} | {} | {} | {uncovered} |\n",
        corpus.version().unwrap_or("unversioned"),
        stats.cases,
        stats.queries,
        level(Level::Must),
        level(Level::Should),
        level(Level::May),
        stats.questions,
        stats.undecided,
    );
    Block {
        name: "corpus-figures",
        content,
    }
}

/// The reference's row: its pass rate per level under `rfc9309` on `corpus`, over the
/// decided queries, and how many queries permit either verdict (its choices there), from
/// its `summary` of a run of the corpus.
pub fn reference_figures(corpus: &Corpus, summary: &Summary) -> Block {
    let total = summary.total();
    let content = format!(
        "| implementation | corpus | MUST passed | SHOULD passed | MAY passed | no verdict | either (choices, not scored) |\n\
         | --- | --- | --- | --- | --- | ---: | ---: |\n\
         | `reference` | {} | {} | {} | {} | {} | {} |\n",
        corpus.version().unwrap_or("unversioned"),
        cell(summary.per_level.get(&Level::Must)),
        cell(summary.per_level.get(&Level::Should)),
        cell(summary.per_level.get(&Level::May)),
        total.no_verdict,
        total.choice,
    );
    Block {
        name: "reference-figures",
        content,
    }
}

/// `text` with the content between each block's markers replaced by the block's; an
/// error names a block whose markers are missing, repeated or out of order.
pub fn rewrite(text: &str, blocks: &[Block]) -> Result<String, MarkerError> {
    let mut text = text.to_string();
    for block in blocks {
        let begin = format!("<!-- {}:begin -->\n", block.name);
        let end = format!("<!-- {}:end -->", block.name);
        let (Some(start), Some(stop)) = (text.find(&begin), text.find(&end)) else {
            return Err(MarkerError::Missing {
                begin: begin.trim_end().to_string(),
                end,
            });
        };
        if text.matches(&begin).count() > 1 || text.matches(&end).count() > 1 {
            return Err(MarkerError::Twice(block.name));
        }
        let inside = start + begin.len();
        if stop < inside {
            return Err(MarkerError::Swapped(end));
        }
        text.replace_range(inside..stop, &block.content);
    }
    Ok(text)
}

/// Why a block's markers do not say where its figures go.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MarkerError {
    /// A marker is missing.
    #[error("no `{begin}` and `{end}` lines: put them where the figures go")]
    Missing {
        /// The begin marker.
        begin: String,
        /// The end marker.
        end: String,
    },
    /// A marker appears more than once.
    #[error("the `{0}` block appears twice")]
    Twice(&'static str),
    /// The end marker comes first.
    #[error("`{0}` comes before its begin marker")]
    Swapped(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(content: &str) -> Block {
        Block {
            name: "x",
            content: content.into(),
        }
    }

    #[test]
    fn replaces_what_is_between_the_markers_only() {
        let text = "a\n<!-- x:begin -->\nold\nlines\n<!-- x:end -->\nb\n";
        assert_eq!(
            rewrite(text, &[block("new\n")]).unwrap(),
            "a\n<!-- x:begin -->\nnew\n<!-- x:end -->\nb\n"
        );
    }

    #[test]
    fn missing_repeated_or_swapped_markers_are_errors() {
        for text in [
            "<!-- x:begin -->\n",
            "<!-- x:begin -->\n<!-- x:end -->\n<!-- x:begin -->\n<!-- x:end -->",
            "<!-- x:end -->\n<!-- x:begin -->\n",
        ] {
            assert!(rewrite(text, &[block("new\n")]).is_err(), "{text}");
        }
    }
}
