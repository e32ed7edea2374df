//! `reptest policy --audit`: every crawler of the catalogue classed under RFC 9309 (the
//! survey's site classes, asked of the reference through the access method), the other
//! implementations' classes where they differ, the registry's cross-check and the lints.

use super::source::Source;
use super::{judge, registry};
use reptest::report::policy::audit::{Audit, Reading, Row};
use reptest::report::policy::crawlers::{Crawler, Purpose};
use reptest::report::policy::lint;
use reptest::QueryInput;
use reptest_reference::{check_fetch, Config, Reason, Robots, Verdict};
use reptest_survey::sites::{SiteClass, SiteQueries};

/// What the audit is asked.
pub(super) struct Request<'a> {
    /// The robots.txt as named.
    pub robots: &'a str,
    /// The catalogue.
    pub crawlers: Vec<Crawler>,
    /// `--impl`.
    pub implementations: &'a [String],
    /// `--allow`.
    pub allowed: &'a [String],
    /// The registry package, if installed.
    pub registry: Option<registry::Patterns>,
}

/// The audit of `source`.
pub(super) fn audit<'a>(request: Request<'a>, source: &'a Source) -> Result<Audit<'a>, String> {
    let config = Config::rfc9309();
    let parsed = source.parsed(&config);
    let tokens: Vec<&str> = request.crawlers.iter().map(|c| c.token.as_str()).collect();
    let site = SiteQueries::for_crawlers(parsed.unwrap_or_default(), &tokens);
    let urls: Vec<String> = site
        .queries
        .iter()
        .map(|q| judge::absolute(&q.url, &source.origin))
        .collect();
    // The body in force is parsed once for all the questions (RFC 9309 §2.3.1.1); a
    // fetch whose rules are not parsed is answered by the access method alone.
    let fetch = source.fetch();
    let robots = parsed.map(|body| Robots::parse_with(body, &config));
    let verdicts: Vec<Verdict> = site
        .queries
        .iter()
        .zip(&urls)
        .map(|(q, url)| match &robots {
            Some(robots) => robots.check(&q.agent, url),
            None => check_fetch(&fetch, &config, &q.agent, url),
        })
        .collect();
    let (others, compared) = match parsed {
        Some(body) => other_classes(request.implementations, body, &site, &urls)?,
        None => (Vec::new(), Vec::new()),
    };
    let mut rows = Vec::with_capacity(request.crawlers.len());
    for (c, crawler) in request.crawlers.into_iter().enumerate() {
        let range = site.ranges[c].clone();
        let mut row = row(
            crawler,
            &site.queries[range.clone()],
            &verdicts[range],
            source,
        );
        row.others = others.get(c).cloned().unwrap_or_default();
        row.others.retain(|o| o.class != row.class);
        row.registry = request
            .registry
            .as_ref()
            .map(|r| r.matching(&row.crawler.token));
        rows.push(row);
    }
    let search: Vec<&str> = rows
        .iter()
        .filter(|r| r.crawler.purpose == Purpose::Search)
        .map(|r| r.crawler.token.as_str())
        .collect();
    let mut findings = parsed.map_or_else(Vec::new, |body| lint::lint(body, &search));
    findings.retain(|f| !request.allowed.iter().any(|a| a == f.id));
    Ok(Audit {
        robots: request.robots,
        notes: &source.notes,
        rows,
        compared,
        findings,
        allowed: request.allowed.to_vec(),
        registry: request.registry.map(|r| r.info),
    })
}

/// One crawler's row from the reference's verdicts on its site queries (`/` first).
fn row(
    crawler: Crawler,
    queries: &[reptest_survey::SurveyQuery],
    verdicts: &[Verdict],
    source: &Source,
) -> Row {
    let answers: Vec<Option<bool>> = verdicts.iter().map(|v| Some(v.is_allowed())).collect();
    let class = SiteClass::of(&answers);
    // The deciding query: `/` unless only a rule path is disallowed.
    let at = match class {
        Some(SiteClass::Partial) => verdicts.iter().position(|v| !v.is_allowed()).unwrap_or(0),
        _ => 0,
    };
    let verdict = &verdicts[at];
    Row {
        crawler,
        class,
        group: groups(verdict.reason()).first().copied(),
        line: verdict.line(),
        path: queries[at].url.clone(),
        reason: reptest::report::check::explain(verdict.reason(), &source.body),
        others: Vec::new(),
        registry: None,
    }
}

/// The groups a verdict's rules came from.
fn groups(reason: &Reason) -> &[usize] {
    match reason {
        Reason::Rule { groups, .. } | Reason::NoMatchingRule { groups } => groups,
        _ => &[],
    }
}

/// Each other implementation's class per crawler (asked once per distinct query, all in
/// one case input, so each implementation parses the body once), and the names compared.
fn other_classes(
    names: &[String],
    body: &[u8],
    site: &SiteQueries,
    urls: &[String],
) -> Result<(Vec<Vec<Reading>>, Vec<String>), String> {
    let queries: Vec<QueryInput<'_>> = site
        .queries
        .iter()
        .zip(urls)
        .map(|(q, url)| QueryInput {
            agent: &q.agent,
            url,
        })
        .collect();
    let answers = judge::other_outcomes(names, body, &queries)?;
    let mut readings = vec![Vec::new(); site.ranges.len()];
    for (name, outcomes) in &answers {
        for (range, out) in site.ranges.iter().zip(&mut readings) {
            let answers: Vec<Option<bool>> = outcomes[range.clone()]
                .iter()
                .map(|o| o.allowed())
                .collect();
            out.push(Reading {
                implementation: name.clone(),
                class: SiteClass::of(&answers),
            });
        }
    }
    let compared = answers.into_iter().map(|(name, _)| name).collect();
    Ok((readings, compared))
}
