//! `README.md`'s research sections: the site-level classes with the AI-crawler
//! headline, then the queries per stratum (natural first) and per class of agent.

use std::fmt::Write;

use super::markdown::write_figure;
use super::research::{self, intervals_means, sites_means, SitesView, STRATA_MEANS};
use super::{figures, research_tables as tables};
use crate::pieces::markdown::fence_block;
use crate::pieces::numbers::{count, percent};
use reptest_survey::engine::Survey;

/// "Site-level classes": the headline sentence, its table, the crawlers, the figure.
pub(crate) fn write_sites(page: &mut String, survey: &Survey) -> std::fmt::Result {
    let view = research::sites(survey);
    if view.crawlers.is_empty() {
        return Ok(());
    }
    writeln!(page, "## Site-level classes per crawler\n")?;
    if let Some(worst) = view
        .ai_headline
        .iter()
        .max_by(|a, b| {
            a.changed
                .share
                .total_cmp(&b.changed.share)
                .then(b.name.cmp(a.name))
        })
        .filter(|h| h.changed.count > 0)
    {
        let interval = worst.changed.interval.map_or(String::new(), |i| {
            format!(
                " (95 % interval {:.1}–{:.1} %)",
                i.low * 100.0,
                i.high * 100.0
            )
        });
        writeln!(
            page,
            "**Choosing {} instead of the RFC's reading changes the AI-crawler class of {} of sites**{interval}: {} of {} files on which it classes some AI crawler (fully restricted, partially restricted or unrestricted) otherwise than the decided class.\n",
            worst.name,
            percent(worst.changed.count, worst.changed.of),
            count(worst.changed.count),
            count(worst.changed.of)
        )?;
    }
    writeln!(page, "{}\n", sites_means())?;
    writeln!(page, "{}", tables::sites_headline(&view).markdown())?;
    write_examples(page, &view)?;
    writeln!(
        page,
        "Per crawler:\n\n{}",
        tables::sites_crawlers(&view).markdown()
    )?;
    writeln!(
        page,
        "Decided files classed otherwise, per implementation and crawler:\n\n{}",
        tables::sites_differ(survey).markdown()
    )?;
    write_figure(page, &figures::Figure::Sites)?;
    writeln!(page, "{}\n", intervals_means(survey.header.seed))
}

/// Each implementation's example of a changed AI-crawler class, minimized (a real
/// file's body is shown only minimized).
fn write_examples(page: &mut String, sites: &SitesView<'_>) -> std::fmt::Result {
    for h in &sites.ai_headline {
        let Some(example) = h.example else {
            continue;
        };
        let Some(m) = &example.minimized else {
            continue;
        };
        writeln!(
            page,
            "{}: on {} it classes {} `{}` rather than `{}`; the query where its verdict differs, minimized with the body (to {} octets), is {} `{}`:\n",
            h.name,
            example.example.host,
            example.crawler,
            example.theirs,
            example.decided,
            m.body_len,
            m.agent,
            m.url
        )?;
        writeln!(page, "{}\n", fence_block(&m.body).trim_end())?;
    }
    Ok(())
}

/// "Natural queries and probes": the strata, the natural stratum's tables first.
pub(crate) fn write_strata(page: &mut String, survey: &Survey) -> std::fmt::Result {
    if survey.tally.strata.is_empty() {
        return Ok(());
    }
    writeln!(page, "## Natural queries and probes\n")?;
    writeln!(page, "{STRATA_MEANS}\n")?;
    let mut strata = tables::strata_tables(survey).into_iter();
    if let Some(table) = strata.next() {
        writeln!(page, "{}", table.markdown())?;
    }
    for table in strata {
        writeln!(page, "{}:\n\n{}", table.title, table.markdown())?;
    }
    let agents = tables::agents(survey);
    writeln!(page, "{}:\n\n{}", agents.title, agents.markdown())
}
