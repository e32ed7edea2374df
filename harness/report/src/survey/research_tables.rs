//! The research tables ([`crate::pieces::table::Table`]): the strata, the agent
//! classes, the site-level classes and the AI-crawler headline, with their 95 %
//! intervals ([`super::research`]).

use std::collections::BTreeMap;

use super::research::{self, Shared, SitesView, SliceView};
use crate::pieces::table::{Cell, Header, Table};
use reptest_survey::engine::Survey;
use reptest_survey::sites::{SiteClass, SITE_CRAWLERS};
use reptest_survey::tally::Slice;

/// Every research table, in the order of `README.md`.
pub fn all(survey: &Survey) -> Vec<Table> {
    let sites = research::sites(survey);
    let mut tables = vec![
        sites_headline(&sites),
        sites_crawlers(&sites),
        sites_differ(survey),
        sites_classes(survey),
    ];
    tables.extend(strata_tables(survey));
    tables.push(agents(survey));
    tables
}

/// The strata's tables: `strata`, then for each stratum its implementations, pairwise
/// matrix and questions (the strata's intervals computed once).
pub fn strata_tables(survey: &Survey) -> Vec<Table> {
    let views = research::slices(survey, &survey.tally.strata, &["natural", "probe"], true);
    let mut tables = vec![strata(&views)];
    for (stratum, view) in &views {
        if let Some(slice) = survey.tally.strata.get(stratum) {
            tables.push(slice_implementations(view, stratum));
            tables.push(slice_pairwise(survey, slice, stratum));
            tables.push(slice_questions(survey, slice, stratum));
        }
    }
    tables
}

/// A share and its interval: two cells.
fn shared(s: &Shared) -> [Cell; 2] {
    [
        Cell::ShareOf {
            part: s.count,
            whole: s.of,
        },
        s.interval.map_or(
            Cell::Interval {
                low: f64::NAN,
                high: f64::NAN,
            },
            |i| Cell::Interval {
                low: i.low,
                high: i.high,
            },
        ),
    ]
}

/// The headers of [`shared`]'s two cells.
fn shared_headers(title: &str) -> [Header; 2] {
    [
        Header::share_of(title),
        Header::interval(&format!("{title}: 95 % interval")),
    ]
}

/// `sites-headline`: per implementation, the files on which it classes some AI crawler
/// otherwise than the decided class.
pub fn sites_headline(sites: &SitesView<'_>) -> Table {
    let [a, b] = shared_headers("AI-crawler class changed: files");
    let mut table = Table::new(
        "sites-headline",
        "Site-level: the AI-crawler class each implementation changes",
        vec![
            Header::text("implementation"),
            a,
            b,
            Header::count("changed where open"),
            Header::text("example: crawler"),
            Header::text("example: host"),
        ],
    );
    for h in &sites.ai_headline {
        let [c, i] = shared(&h.changed);
        let example = h.example;
        table.row(vec![
            Cell::text(h.name),
            c,
            i,
            Cell::Count(h.changed_open),
            Cell::text(example.map_or("", |e| e.crawler.as_str())),
            Cell::text(example.map_or("", |e| e.example.host.as_str())),
        ]);
    }
    table
}

/// `sites-crawlers`: per crawler, the files the implementations class differently.
pub fn sites_crawlers(sites: &SitesView<'_>) -> Table {
    let [a, b] = shared_headers("classed differently: files");
    let mut table = Table::new(
        "sites-crawlers",
        "Site-level: files the implementations class differently, per crawler",
        vec![
            Header::text("crawler"),
            Header::text("kind"),
            Header::count("files"),
            Header::count("verdicts on / split"),
            a,
            b,
            Header::count("decided class open"),
        ],
    );
    for c in &sites.crawlers {
        let [d, i] = shared(&c.disagree);
        table.row(vec![
            Cell::text(c.crawler),
            Cell::text(c.class),
            Cell::Count(c.files),
            Cell::Count(c.root_split),
            d,
            i,
            Cell::Count(c.open),
        ]);
    }
    table
}

/// `sites-differ`: implementation × crawler, the share of decided files it classes
/// otherwise.
pub fn sites_differ(survey: &Survey) -> Table {
    let crawlers: Vec<&str> = SITE_CRAWLERS
        .iter()
        .copied()
        .filter(|c| survey.tally.sites.crawlers.contains_key(*c))
        .collect();
    let headers = std::iter::once(Header::text("implementation"))
        .chain(crawlers.iter().map(|c| Header::share(c).heat()))
        .collect();
    let mut table = Table::new(
        "sites-differ",
        "Site-level: decided files classed otherwise, per implementation and crawler",
        headers,
    );
    for (i, entry) in survey.header.implementations.iter().enumerate() {
        let cells = crawlers.iter().map(|c| {
            let m = &survey.tally.sites.crawlers[*c].implementations[i];
            Cell::Share {
                part: m.differ,
                whole: m.confusion.iter().flatten().sum(),
            }
        });
        table.row(
            std::iter::once(Cell::text(&entry.name))
                .chain(cells)
                .collect(),
        );
    }
    table
}

/// `sites-classes` (CSV): every crawler and implementation, files per class, the
/// confusion table against the decided classes.
pub fn sites_classes(survey: &Survey) -> Table {
    let mut headers = vec![Header::text("crawler"), Header::text("implementation")];
    headers.extend(SiteClass::ALL.iter().map(|k| Header::count(k.label())));
    headers.push(Header::count("missing"));
    for d in SiteClass::ALL {
        for k in SiteClass::ALL {
            headers.push(Header::count(&format!(
                "decided {} / its {}",
                d.key(),
                k.key()
            )));
        }
    }
    headers.push(Header::count("classed otherwise where open"));
    let mut table = Table::new("sites-classes", "Site-level classes and confusion", headers);
    for crawler in SITE_CRAWLERS {
        let Some(c) = survey.tally.sites.crawlers.get(crawler) else {
            continue;
        };
        for (entry, m) in survey.header.implementations.iter().zip(&c.implementations) {
            let mut row = vec![Cell::text(crawler), Cell::text(&entry.name)];
            row.extend(m.classes.iter().map(|n| Cell::Count(*n)));
            row.push(Cell::Count(m.missing));
            row.extend(m.confusion.iter().flatten().map(|n| Cell::Count(*n)));
            row.push(Cell::Count(m.differ_open));
            table.row(row);
        }
    }
    table
}

/// `strata`: agreement per stratum.
fn strata(views: &BTreeMap<String, SliceView<'_>>) -> Table {
    let [a, b] = shared_headers("unanimous");
    let mut table = Table::new(
        "strata",
        "Natural queries and probes",
        vec![
            Header::text("stratum"),
            Header::count("queries"),
            Header::count("compared"),
            a,
            b,
            Header::count("split"),
            Header::count("open"),
        ],
    );
    for (stratum, v) in views {
        let [u, i] = shared(&v.unanimous);
        table.row(vec![
            Cell::text(stratum),
            Cell::Count(v.queries),
            Cell::Count(v.agreement.compared),
            u,
            i,
            Cell::Count(v.agreement.split),
            Cell::Count(v.agreement.open),
        ]);
    }
    table
}

/// `STRATUM-implementations`: each implementation against the decided verdict.
fn slice_implementations(view: &SliceView<'_>, stratum: &str) -> Table {
    let [a, b] = shared_headers("disagree: queries");
    let [c, d] = shared_headers("disagree: files");
    let mut table = Table::new(
        &format!("{stratum}-implementations"),
        &format!("Against the decided verdict: {stratum} queries"),
        vec![
            Header::text("implementation"),
            a.heat(),
            b,
            c,
            d,
            Header::count("open"),
        ],
    );
    for i in &view.implementations {
        let [q, qi] = shared(&i.queries_disagree);
        let [f, fi] = shared(&i.files_disagree);
        table.row(vec![
            Cell::text(i.name),
            q,
            qi,
            f,
            fi,
            Cell::Count(i.decided.open),
        ]);
    }
    table
}

/// `STRATUM-pairwise`: the pairwise query disagreement of one stratum.
fn slice_pairwise(survey: &Survey, slice: &Slice, stratum: &str) -> Table {
    super::tables::pairwise_of(
        survey,
        &slice.pairwise,
        &format!("{stratum}-pairwise"),
        &format!("Pairwise disagreement: {stratum} queries"),
        |p| (p.queries_disagree, p.queries),
    )
}

/// `STRATUM-questions`: the split queries per question in one stratum.
fn slice_questions(survey: &Survey, slice: &Slice, stratum: &str) -> Table {
    let mut table = Table::new(
        &format!("{stratum}-questions"),
        &format!("Questions: {stratum} queries"),
        vec![
            Header::text("question"),
            Header::count("queries"),
            Header::count("files"),
            Header::text("open"),
        ],
    );
    let mut rows: Vec<_> = slice.per_question.iter().collect();
    rows.sort_by(|(a, x), (b, y)| y.queries.cmp(&x.queries).then(a.cmp(b)));
    for (id, q) in rows {
        let open = survey
            .header
            .questions
            .iter()
            .any(|e| e.id == *id && e.open);
        table.row(vec![
            Cell::text(id),
            Cell::Count(q.queries),
            Cell::Count(q.files),
            Cell::text(if open { "open" } else { "" }),
        ]);
    }
    table
}

/// `agents`: agreement and disagreement per class of agent.
pub fn agents(survey: &Survey) -> Table {
    let classes = ["generic", "search", "ai", "other"];
    let views = research::slices(survey, &survey.tally.agents, &classes, false);
    let mut headers = vec![Header::text("implementation")];
    headers.extend(
        views
            .keys()
            .map(|k| Header::share_of(&format!("{k}: disagree")).heat()),
    );
    let mut table = Table::new(
        "agents",
        "Against the decided verdict, per class of agent",
        headers,
    );
    let mut queries = vec![Cell::text("(queries; unanimous)")];
    queries.extend(views.values().map(|v| Cell::ShareOf {
        part: v.agreement.unanimous,
        whole: v.agreement.compared,
    }));
    table.row(queries);
    for (i, entry) in survey.header.implementations.iter().enumerate() {
        let mut row = vec![Cell::text(&entry.name)];
        row.extend(views.values().map(|v| {
            let d = v.implementations[i].decided;
            Cell::ShareOf {
                part: d.queries_disagree,
                whole: d.queries,
            }
        }));
        table.row(row);
    }
    table
}
