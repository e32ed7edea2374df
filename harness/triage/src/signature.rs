//! Signatures: how a divergent input splits the implementations.
//!
//! A [`Signature`] is the partition of implementations by outcome word (`allowed`,
//! `disallowed`, and `error` / `timeout` / ... for those that gave no verdict), the
//! dimensions found in the input's bytes, and the kind of the reference's deciding rule.
//! Two inputs with the same signature are taken as the same finding.
//!
//! With two dozen implementations, one raw input usually trips several unrelated
//! differences at once, and its partition is the overlay of all of them: nearly every
//! input would be a signature of its own. So a campaign first breaks each divergent query
//! into [`Dissent`]s (one implementation answering against the majority), minimizes per
//! dissent, and takes the signature of the *minimized* input: the overlay is gone, and
//! raw inputs that share a root cause end in the same signature.

use reptest_core::Outcome;
use reptest_corpus::{Dimension, OutcomeWord};
use reptest_reference::{Reason, Robots, RuleKind};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// How one divergent input splits the implementations, and what the input exercises.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Signature {
    /// Outcome word to the implementations that answered it (names sorted), sorted by word.
    pub partition: Vec<(OutcomeWord, Vec<String>)>,
    /// The dimensions found in the input's bytes.
    #[serde(serialize_with = "dimension_names")]
    pub dimensions: BTreeSet<Dimension>,
    /// Why the reference decided as it did: `rule-allow`, `rule-disallow`, `no-match`,
    /// `no-group`, `robots-txt` (`None` when it could not say).
    pub rule_kind: Option<String>,
}

fn dimension_names<S: serde::Serializer>(
    dimensions: &BTreeSet<Dimension>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(dimensions.iter().map(|d| d.as_str()))
}

impl Signature {
    /// The signature of one query: `outcomes[i]` is what `names[i]` answered.
    pub fn of(body: &[u8], agent: &str, url: &str, names: &[String], outcomes: &[Outcome]) -> Self {
        Signature {
            partition: partition(names, outcomes),
            dimensions: crate::dimensions(body, agent, url),
            rule_kind: rule_kind(body, agent, url),
        }
    }

    /// Whether at least two different verdicts were given (errors and timeouts alone do
    /// not make a divergence).
    pub fn is_divergent(&self) -> bool {
        is_divergent(&self.partition)
    }

    /// The implementations that answered `word`.
    pub fn answering(&self, word: OutcomeWord) -> &[String] {
        self.partition
            .iter()
            .find(|(w, _)| *w == word)
            .map_or(&[], |(_, names)| names.as_slice())
    }

    /// A short stable hash of the signature (8 hex digits of FNV-1a over its display
    /// form): the same signature gives the same hash on every machine and version.
    pub fn short_hash(&self) -> String {
        let hash = reptest_corpus::fnv1a(reptest_corpus::FNV_OFFSET, self.to_string().as_bytes());
        format!("{:08x}", (hash >> 32) ^ (hash & 0xffff_ffff))
    }
}

impl fmt::Display for Signature {
    /// `[allowed: a,b | disallowed: c] {wildcards,percent-encoding} rule-disallow`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let groups: Vec<String> = self
            .partition
            .iter()
            .map(|(word, names)| format!("{word}: {}", names.join(",")))
            .collect();
        let dimensions: Vec<&str> = self.dimensions.iter().map(|d| d.as_str()).collect();
        write!(f, "[{}] {{{}}}", groups.join(" | "), dimensions.join(","))?;
        if let Some(kind) = &self.rule_kind {
            write!(f, " {kind}")?;
        }
        Ok(())
    }
}

/// The implementations grouped by outcome word: `outcomes[i]` is what `names[i]`
/// answered. Words sorted, names sorted within each word.
pub fn partition(names: &[String], outcomes: &[Outcome]) -> Vec<(OutcomeWord, Vec<String>)> {
    let mut groups: BTreeMap<OutcomeWord, Vec<String>> = BTreeMap::new();
    for (name, outcome) in names.iter().zip(outcomes) {
        groups.entry(outcome.kind()).or_default().push(name.clone());
    }
    groups
        .into_iter()
        .map(|(word, mut names)| {
            names.sort();
            (word, names)
        })
        .collect()
}

/// Whether a partition holds at least two different verdicts.
pub fn is_divergent(partition: &[(OutcomeWord, Vec<String>)]) -> bool {
    partition
        .iter()
        .filter(|(word, names)| word.verdict().is_some() && !names.is_empty())
        .count()
        >= 2
}

/// One implementation answering against the majority on one query: what a campaign
/// minimizes for. The majority is the verdict most implementations gave (on a tie, the
/// one the first of `preferred` gave); the witness is an implementation of the
/// majority, the first of `preferred` that is one.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Dissent {
    /// The implementation against the majority.
    pub implementation: String,
    /// Its verdict: `allowed` or `disallowed`.
    pub word: OutcomeWord,
    /// An implementation giving the majority's verdict.
    pub witness: String,
    /// The dimensions found in the input's bytes.
    #[serde(serialize_with = "dimension_names")]
    pub dimensions: BTreeSet<Dimension>,
    /// The reference's deciding rule kind (see [`Signature::rule_kind`]).
    pub rule_kind: Option<String>,
}

impl Dissent {
    /// The verdict of the majority (the witness's).
    pub fn majority_word(&self) -> OutcomeWord {
        if self.word == OutcomeWord::Allowed {
            OutcomeWord::Disallowed
        } else {
            OutcomeWord::Allowed
        }
    }

    /// Whether a found signature explains this dissent: same rule kind, dimensions the
    /// dissent's input also has, the implementation answering the same verdict and some
    /// implementation answering the other. An input at a size limit is only explained by
    /// a signature at a size limit too: beyond a limit, whole rules stop counting (RFC
    /// 9309 §2.5), which no other difference stands for.
    pub fn explained_by(&self, signature: &Signature) -> bool {
        let size = Dimension::SizeLimits;
        signature.rule_kind == self.rule_kind
            && signature.dimensions.is_subset(&self.dimensions)
            && (!self.dimensions.contains(&size) || signature.dimensions.contains(&size))
            && signature
                .answering(self.word)
                .contains(&self.implementation)
            && !signature.answering(self.majority_word()).is_empty()
    }
}

/// The dissents of one divergent query: every implementation whose verdict is not the
/// majority's (empty when the partition is not divergent). `preferred` orders the
/// candidates for witness and breaks ties (the reference and in-process ones first).
pub fn dissents(signature: &Signature, preferred: &[String]) -> Vec<Dissent> {
    if !signature.is_divergent() {
        return Vec::new();
    }
    let allowed = signature.answering(OutcomeWord::Allowed);
    let disallowed = signature.answering(OutcomeWord::Disallowed);
    let rank = |names: &[String]| {
        preferred
            .iter()
            .position(|p| names.contains(p))
            .unwrap_or(usize::MAX)
    };
    let allowed_wins = match allowed.len().cmp(&disallowed.len()) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Less => false,
        std::cmp::Ordering::Equal => rank(allowed) <= rank(disallowed),
    };
    let (majority, minority, word) = if allowed_wins {
        (allowed, disallowed, OutcomeWord::Disallowed)
    } else {
        (disallowed, allowed, OutcomeWord::Allowed)
    };
    let witness = preferred
        .iter()
        .find(|p| majority.contains(p))
        .or_else(|| majority.first())
        .cloned()
        .unwrap_or_default();
    minority
        .iter()
        .map(|name| Dissent {
            implementation: name.clone(),
            word,
            witness: witness.clone(),
            dimensions: signature.dimensions.clone(),
            rule_kind: signature.rule_kind.clone(),
        })
        .collect()
}

/// Why the reference matcher decides `url` for `agent` as it does: `rule-allow`,
/// `rule-disallow`, `no-match`, `no-group` or `robots-txt`.
pub fn rule_kind(body: &[u8], agent: &str, url: &str) -> Option<String> {
    rule_kind_in(&Robots::parse(body), agent, url)
}

/// [`rule_kind`] on a body parsed once, for several queries of the same input.
pub fn rule_kind_in(robots: &Robots, agent: &str, url: &str) -> Option<String> {
    let verdict = robots.check(agent, url);
    let kind = match verdict.reason() {
        Reason::RobotsTxtPath => "robots-txt",
        Reason::NoGroup => "no-group",
        Reason::NoMatchingRule { .. } => "no-match",
        Reason::Rule { rule, .. } => match rule.kind {
            RuleKind::Allow => "rule-allow",
            RuleKind::Disallow => "rule-disallow",
        },
        _ => return None,
    };
    Some(kind.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(allowed: bool) -> Outcome {
        Outcome::Verdict {
            allowed,
            line: None,
        }
    }

    #[test]
    fn partition_sorts_words_and_names() {
        let names: Vec<String> = ["c", "a", "b", "d"].map(String::from).to_vec();
        let outcomes = [
            verdict(false),
            verdict(true),
            verdict(true),
            Outcome::Timeout(String::new()),
        ];
        let p = partition(&names, &outcomes);
        assert_eq!(
            p,
            vec![
                (OutcomeWord::Allowed, vec!["a".into(), "b".into()]),
                (OutcomeWord::Disallowed, vec!["c".into()]),
                (OutcomeWord::Timeout, vec!["d".into()]),
            ]
        );
        assert!(is_divergent(&p));
        let sig = Signature {
            partition: p,
            dimensions: [Dimension::Wildcards, Dimension::PercentEncoding].into(),
            rule_kind: Some("rule-disallow".into()),
        };
        assert_eq!(
            sig.to_string(),
            "[allowed: a,b | disallowed: c | timeout: d] {percent-encoding,wildcards} rule-disallow"
        );
        assert_eq!(sig.short_hash().len(), 8);
        assert_eq!(sig.answering(OutcomeWord::Allowed), ["a", "b"]);
    }

    #[test]
    fn dissents_are_the_minority_with_a_preferred_witness() {
        let names: Vec<String> = ["reference", "x", "y", "z"].map(String::from).to_vec();
        let signature = |outcomes: &[Outcome]| Signature {
            partition: partition(&names, outcomes),
            dimensions: [Dimension::Wildcards].into(),
            rule_kind: Some("rule-allow".into()),
        };
        let preferred: Vec<String> = ["reference", "z"].map(String::from).to_vec();
        let three_to_one =
            signature(&[verdict(true), verdict(true), verdict(false), verdict(true)]);
        let found = dissents(&three_to_one, &preferred);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].implementation, "y");
        assert_eq!(found[0].word, OutcomeWord::Disallowed);
        assert_eq!(found[0].witness, "reference");
        assert!(found[0].explained_by(&three_to_one));
        // A tie goes to the side of the first preferred implementation.
        let tie = signature(&[verdict(false), verdict(true), verdict(true), verdict(false)]);
        let found = dissents(&tie, &preferred);
        let who: Vec<&str> = found.iter().map(|d| d.implementation.as_str()).collect();
        assert_eq!(who, ["x", "y"]);
        assert!(found
            .iter()
            .all(|d| d.witness == "reference" && d.word == OutcomeWord::Allowed));
        // The reference can be the one against the majority.
        let alone = signature(&[verdict(false), verdict(true), verdict(true), verdict(true)]);
        let found = dissents(&alone, &preferred);
        assert_eq!(found[0].implementation, "reference");
        assert_eq!(found[0].witness, "z");
        // Not divergent: no dissent.
        let same = signature(&[
            verdict(true),
            verdict(true),
            Outcome::Timeout(String::new()),
            verdict(true),
        ]);
        assert!(dissents(&same, &preferred).is_empty());
    }

    #[test]
    fn errors_alone_are_not_a_divergence() {
        let names: Vec<String> = ["a", "b"].map(String::from).to_vec();
        let p = partition(&names, &[verdict(true), Outcome::Error("x".into())]);
        assert!(!is_divergent(&p));
    }

    #[test]
    fn rule_kinds_from_the_reference() {
        let body = b"User-agent: *\nDisallow: /a\nAllow: /ab\n";
        let kind = |url| rule_kind(body, "bot", url);
        assert_eq!(
            kind("https://example.com/a").as_deref(),
            Some("rule-disallow")
        );
        assert_eq!(
            kind("https://example.com/ab").as_deref(),
            Some("rule-allow")
        );
        assert_eq!(kind("https://example.com/z").as_deref(), Some("no-match"));
        assert_eq!(
            kind("https://example.com/robots.txt").as_deref(),
            Some("robots-txt")
        );
        assert_eq!(rule_kind(b"", "bot", "/x").as_deref(), Some("no-group"));
    }
}
