//! Minimizing the new groups' examples with the same minimizer as the fuzz campaign
//! ([`reptest_triage::minimize`]), after a survey or after merging its shards, so a
//! merged survey minimizes exactly as the unsharded one does.
//!
//! Each group's example starts from its stored body (the file's first 4 KiB) and query.
//! The implementations of the group's partition are asked first: if they do not split
//! that way on the stored body (a longer file cut at 4 KiB, or an implementation that
//! answers otherwise now), the example stays unminimized. Otherwise the body and URL are
//! shrunk while every implementation of the partition keeps its verdict and the
//! reference keeps deciding by the same kind of rule, within the input's dimensions, for
//! at most `budget` evaluations (no deadline, so the result is the same on every run).
//!
//! A group is new because its queries matched no question on the whole file; the
//! minimized example can: its features are those of a few lines, where the file's were
//! those of all of them (a question needs all its features, and the similarity of its
//! examples' split). So each minimized example is attributed again, the way a fuzzing
//! divergence is ([`Attribution::of_verdicts`] with the group's partition, which the
//! minimizer keeps, and the minimized input's features), and the question it matches,
//! if any, is kept as the group's `minimized.question`. The group's counts stay where
//! they are: the match is evidence about its example, not about every query of it.

use rayon::prelude::*;
use std::collections::BTreeMap;

use reptest_core::Implementation;
use reptest_corpus::OutcomeWord;
use reptest_triage::attribution::Attribution;
use reptest_triage::minimize::{evaluate_one, minimize_with_budget, Stop};
use reptest_triage::signature::Signature;
use reptest_triage::Query;

use crate::engine::Survey;
use crate::tally::{unhex, Headline, Minimized, NewGroup, SiteExample};

/// The evaluation budget per group that `reptest survey --minimize` uses.
pub const BUDGET: usize = 300;

/// Minimizes every new group's example of `survey` with `implementations` (those the
/// survey names; others are not asked), at most `budget` evaluations each, attributes
/// each minimized example again with `attribution` (probed with the same
/// implementations), and marks the survey minimized.
pub fn minimize_new(
    survey: &mut Survey,
    implementations: &[&dyn Implementation],
    budget: usize,
    attribution: &Attribution,
) {
    let groups: Vec<&mut NewGroup> = survey.tally.new.values_mut().collect();
    groups.into_par_iter().for_each(|group| {
        group.minimized = minimize_group(group, implementations, budget, attribution);
    });
    let decider = survey.header.decided_by.name.as_str();
    let names = survey.header.names();
    let headlines: Vec<(&str, &mut Headline)> =
        names.into_iter().zip(&mut survey.tally.sites.ai).collect();
    headlines.into_par_iter().for_each(|(name, headline)| {
        if let Some(example) = &mut headline.example {
            example.minimized = minimize_site(example, name, decider, implementations, budget);
        }
    });
    survey.tally.new_minimized = true;
}

/// The example of an AI-crawler class that implementation `name` changes, minimized:
/// the body and URL shrunk while it and the decider keep their verdicts on the query
/// where they differ. `None` when either is not among `implementations` or they do not
/// differ on the stored body.
fn minimize_site(
    example: &SiteExample,
    name: &str,
    decider: &str,
    implementations: &[&dyn Implementation],
    budget: usize,
) -> Option<Minimized> {
    let body = unhex(&example.example.body_hex)?;
    let find = |wanted: &str| implementations.iter().copied().find(|i| i.name() == wanted);
    let members: Vec<&dyn Implementation> = vec![find(decider)?, find(name)?];
    let query = Query {
        agent: example.example.agent.clone(),
        url: example.example.url.clone(),
    };
    let names = [decider.to_string(), name.to_string()];
    let outcomes = evaluate_one(&members, &body, &query);
    let verdicts: Vec<Option<bool>> = outcomes
        .iter()
        .map(reptest_core::Outcome::allowed)
        .collect();
    if verdicts[0].is_none() || verdicts[1].is_none() || verdicts[0] == verdicts[1] {
        return None;
    }
    let signature = Signature::of(&body, &query.agent, &query.url, &names, &outcomes);
    let m = minimize_with_budget(&body, &query, &members, &signature, budget);
    Some(minimized(m, None))
}

/// The question a minimized example of `group` matches: the group's partition (which
/// minimization keeps) and the minimized input's features.
pub fn attribute(
    group: &NewGroup,
    body: &[u8],
    agent: &str,
    url: &str,
    attribution: &Attribution,
) -> Option<String> {
    let verdicts: BTreeMap<&str, bool> = group
        .allowed
        .iter()
        .map(|name| (name.as_str(), true))
        .chain(group.disallowed.iter().map(|name| (name.as_str(), false)))
        .collect();
    let features = reptest_triage::features::features(body, agent, url);
    attribution
        .of_verdicts(&verdicts, &features)
        .map(str::to_string)
}

fn minimize_group(
    group: &NewGroup,
    implementations: &[&dyn Implementation],
    budget: usize,
    attribution: &Attribution,
) -> Option<Minimized> {
    let body = unhex(&group.example.body_hex)?;
    let members: Vec<&dyn Implementation> = implementations
        .iter()
        .copied()
        .filter(|i| {
            group.allowed.iter().any(|n| n == i.name())
                || group.disallowed.iter().any(|n| n == i.name())
        })
        .collect();
    let query = Query {
        agent: group.example.agent.clone(),
        url: group.example.url.clone(),
    };
    let names: Vec<String> = members.iter().map(|i| i.name().to_string()).collect();
    let outcomes = evaluate_one(&members, &body, &query);
    let signature = Signature::of(&body, &query.agent, &query.url, &names, &outcomes);
    if signature.answering(OutcomeWord::Allowed) != group.allowed.as_slice()
        || signature.answering(OutcomeWord::Disallowed) != group.disallowed.as_slice()
    {
        return None;
    }
    let m = minimize_with_budget(&body, &query, &members, &signature, budget);
    let question = attribute(group, &m.body, &m.query.agent, &m.query.url, attribution);
    Some(minimized(m, question))
}

/// A minimizer's result as a [`Minimized`].
fn minimized(m: reptest_triage::minimize::Minimized, question: Option<String>) -> Minimized {
    Minimized {
        question,
        agent: m.query.agent,
        url: m.query.url,
        body: reptest_core::visible_notation::render(&m.body),
        body_len: m.body.len() as u64,
        evaluations: m.evaluations as u64,
        stop: match m.stop {
            Stop::Done => "done",
            Stop::Budget => "budget",
            Stop::Deadline => "deadline",
        }
        .to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tally::Example;
    use reptest_triage::attribution::{ProbeExample, QuestionProbe};

    /// A new group: `a` allowed, `b` disallowed.
    fn group() -> NewGroup {
        NewGroup {
            allowed: vec!["a".into()],
            disallowed: vec!["b".into()],
            queries: 1,
            files: 1,
            example: Example {
                host: "x.example".into(),
                locator: "/x.example".into(),
                query: 0,
                agent: "examplebot".into(),
                url: "/p".into(),
                origin: "common".into(),
                body: String::new(),
                body_len: 0,
                body_hex: String::new(),
            },
            minimized: None,
        }
    }

    /// A question whose divergences show a lone CR, its example splitting `a` from `b`
    /// as the group does.
    fn lone_cr_question() -> Attribution {
        let probe = QuestionProbe {
            id: "Q-lone-cr".into(),
            features: vec!["lone-cr".into()],
            examples: vec![ProbeExample {
                query: "case/examplebot:/p".into(),
                body: b"User-agent: *\rDisallow: /p\n".to_vec(),
                agent: "examplebot".into(),
                url: "/p".into(),
            }],
        };
        let answers = [("a", OutcomeWord::Allowed), ("b", OutcomeWord::Disallowed)]
            .into_iter()
            .map(|(name, word)| (name.to_string(), word))
            .collect();
        Attribution::from_answers(&[probe], vec![vec![answers]])
    }

    /// The same group (the same partition) goes to the question when the minimized input
    /// shows the question's feature, and stays new when it does not.
    #[test]
    fn a_minimized_example_is_attributed_by_its_own_features() {
        let attribution = lone_cr_question();
        let group = group();
        let minimized = b"User-agent: *\rDisallow: /p\n";
        assert_eq!(
            attribute(&group, minimized, "examplebot", "/p", &attribution).as_deref(),
            Some("Q-lone-cr")
        );
        let without = b"User-agent: *\nDisallow: /p\n";
        assert_eq!(
            attribute(&group, without, "examplebot", "/p", &attribution),
            None
        );
    }
}
