//! Judging each expectation with the reference (RFC 9309), and asking the other
//! implementations the same questions.

use super::expect::Expectation;
use super::source::Source;
use reptest::report::policy::Judged;
use reptest::{CaseInput, Outcome, QueryInput};
use reptest_reference::{check_fetch, Config, Reason, Verdict};

/// The product token used for `*`: a crawler that no group names.
const ANY_CRAWLER: &str = "reptest-any-crawler";

/// The product token an expectation's agent is checked as.
fn token(agent: &str) -> &str {
    if agent == "*" {
        ANY_CRAWLER
    } else {
        agent
    }
}

/// A path under `origin`, or an absolute URL as given.
pub(super) fn absolute(url: &str, origin: &str) -> String {
    if url.contains("://") {
        url.to_string()
    } else if url.starts_with('/') {
        format!("{origin}{url}")
    } else {
        format!("{origin}/{url}")
    }
}

/// Judges every expectation with the reference, through the access method.
pub(super) fn judge(expectations: &[Expectation], source: &Source, config: &Config) -> Vec<Judged> {
    let fetch = source.fetch();
    expectations
        .iter()
        .map(|e| {
            let url = absolute(&e.url, &source.origin);
            let verdict = check_fetch(&fetch, config, token(&e.agent), &url);
            let holds = verdict.is_allowed() == e.allowed;
            let note = (!holds)
                .then(|| {
                    let star = check_fetch(&fetch, config, ANY_CRAWLER, &url);
                    own_group_note(&e.agent, &verdict, &star, e.allowed)
                })
                .flatten();
            Judged {
                agent: e.agent.clone(),
                url,
                allowed: e.allowed,
                holds,
                reason: reptest::report::check::explain(verdict.reason(), &source.body),
                line: verdict.line(),
                note,
                others: Vec::new(),
            }
        })
        .collect()
}

/// The groups a verdict's rules came from (the lines of their first user-agent lines).
fn groups(reason: &Reason) -> &[usize] {
    match reason {
        Reason::Rule { groups, .. } | Reason::NoMatchingRule { groups } => groups,
        _ => &[],
    }
}

/// When `agent` failed under a group of its own while the file has a `*` group: RFC 9309
/// §2.2.1 makes a crawler obey only the groups that name it, so the `*` group's rules no
/// longer apply to it. The likely mistake of a file that adds a group for one crawler.
fn own_group_note(
    agent: &str,
    verdict: &Verdict,
    star: &Verdict,
    expected: bool,
) -> Option<String> {
    let own = groups(verdict.reason());
    let any = groups(star.reason());
    if agent == "*" || own.is_empty() || any.is_empty() || own == any {
        return None;
    }
    let lines = |g: &[usize]| {
        let list: Vec<String> = g.iter().map(usize::to_string).collect();
        format!("line {}", list.join(", "))
    };
    let hint = if star.is_allowed() == expected {
        format!(
            "; the `*` group would read it {}, so repeat the rules you need in {agent}'s group",
            reptest::report::policy::verdict_word(expected)
        )
    } else {
        String::new()
    };
    Some(format!(
        "{agent} has its own group ({}), so the `*` group's rules ({}) no longer apply to it (RFC 9309 §2.2.1: a crawler obeys only the groups that name it){hint}",
        lines(own),
        lines(any)
    ))
}

/// Runs the expectations through the other implementations on `body` (the body whose
/// rules are in force) and notes who reads each otherwise; returns the names compared.
pub(super) fn compare(
    names: &[String],
    body: &[u8],
    judged: &mut [Judged],
) -> Result<Vec<String>, String> {
    let queries: Vec<QueryInput<'_>> = judged
        .iter()
        .map(|j| QueryInput {
            agent: token(&j.agent),
            url: &j.url,
        })
        .collect();
    let answers = other_outcomes(names, body, &queries)?;
    let mut readings = vec![Vec::new(); judged.len()];
    for (name, outcomes) in &answers {
        for ((j, outcome), others) in judged.iter().zip(outcomes).zip(&mut readings) {
            if outcome.allowed() != Some(j.reference_allows()) {
                others.push(format!("{name}: {}", outcome.word()));
            }
        }
    }
    for (j, others) in judged.iter_mut().zip(readings) {
        j.others = others;
    }
    Ok(answers.into_iter().map(|(name, _)| name).collect())
}

/// Each of the implementations `names` (`none`: no other; the reference left out) with
/// its outcome of every query in `queries` on `body`, all asked in one case input so
/// that each parses the body once.
pub(super) fn other_outcomes(
    names: &[String],
    body: &[u8],
    queries: &[QueryInput<'_>],
) -> Result<Vec<(String, Vec<Outcome>)>, String> {
    if names.iter().any(|n| n == "none") {
        return Ok(Vec::new());
    }
    let implementations =
        super::super::selected_for_bodies(&super::super::registry(Default::default()), names)?;
    let case = CaseInput {
        robots: body,
        fetch: None,
        queries,
    };
    Ok(implementations
        .iter()
        .filter(|i| i.name() != "reference")
        .map(|i| {
            let outcomes = reptest::runner::evaluate(i.as_ref(), &case);
            (i.name().to_string(), outcomes)
        })
        .collect())
}
