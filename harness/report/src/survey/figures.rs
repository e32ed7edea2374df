//! The survey's figures, as SVG without script ([`crate::pieces::svg`]), written to
//! `figures/` beside `README.md` (which links them) and inline in `survey.html`:
//!
//! - [`Figure::Pairwise`]: the pairwise disagreement on queries as a heatmap, the
//!   implementations ordered by average-linkage clustering ([`cluster_order`]) so that
//!   the camps show as dark and light blocks;
//! - [`Figure::Questions`]: questions × implementations, the share of each question's
//!   split queries on which the implementation was on the minority side;
//! - [`Figure::Sites`]: site-level classes (fully restricted, partially restricted,
//!   unrestricted) per crawler and implementation, from [`SiteClassShares`]
//!   ([`site_shares`] says where the survey's come from).

use super::json::question_rows;
use crate::pieces::numbers::{count, percent};
use crate::pieces::svg::{text_width, Anchor, Canvas, Grid, Heatmap, Size, Text, NO_VALUE};
use reptest_survey::engine::Survey;

/// The folder of figures, inside an output folder.
pub const FIGURES_DIR: &str = "figures";

/// One of the survey's figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Figure {
    /// `pairwise.svg`: the pairwise disagreement heatmap, clustered.
    Pairwise,
    /// `questions.svg`: questions × implementations, on the minority side.
    Questions,
    /// `sites.svg`: site-level classes per crawler and implementation.
    Sites,
}

impl Figure {
    /// Every figure, in the order of the pages.
    pub const ALL: [Figure; 3] = [Figure::Pairwise, Figure::Questions, Figure::Sites];

    /// The figure's file name.
    pub fn file(self) -> &'static str {
        match self {
            Figure::Pairwise => "pairwise.svg",
            Figure::Questions => "questions.svg",
            Figure::Sites => "sites.svg",
        }
    }

    /// Where the figure is written inside an output folder: `figures/NAME.svg`.
    pub fn path(self) -> String {
        format!("{FIGURES_DIR}/{}", self.file())
    }

    /// What the figure shows, in a sentence (the pages' alternative text and caption).
    pub fn caption(self) -> &'static str {
        match self {
            Figure::Pairwise => "Pairwise disagreement on queries, implementations ordered by average-linkage clustering",
            Figure::Questions => "Questions by implementations: the share of each question's split queries with the implementation on the minority side",
            Figure::Sites => "Site-level classes per crawler and implementation: fully restricted, partially restricted, unrestricted",
        }
    }

    /// The figure of `survey` as SVG, or `None` when the survey has nothing to draw in
    /// it (no question split a query; no site classes).
    pub fn render(self, survey: &Survey) -> Option<String> {
        match self {
            Figure::Pairwise => Some(pairwise(survey)),
            Figure::Questions => questions(survey),
            Figure::Sites => site_shares(survey).map(|shares| sites(&shares)),
        }
    }
}

/// The order of the items named `names` by agglomerative clustering with average
/// linkage on `distance` (`None`: not measured, left out of the averages; two clusters
/// with no measured pair are merged last): each step merges the two closest clusters,
/// the cluster whose first name (alphabetically) is smaller going first; a tie goes to
/// the pair whose first names are alphabetically smallest. The order is the merged
/// clusters' leaves, so items that agree sit side by side, whatever the input order.
pub fn cluster_order(names: &[&str], distance: &[Vec<Option<f64>>]) -> Vec<usize> {
    let first = |cluster: &[usize]| cluster.iter().map(|&i| names[i]).min().unwrap_or("");
    let mut clusters: Vec<Vec<usize>> = (0..names.len()).map(|i| vec![i]).collect();
    while clusters.len() > 1 {
        let mut best: Option<(f64, (&str, &str), usize, usize)> = None;
        for a in 0..clusters.len() {
            for b in a + 1..clusters.len() {
                let d = linkage(&clusters[a], &clusters[b], distance);
                let (x, y) = (first(&clusters[a]), first(&clusters[b]));
                let key = (d, (x.min(y), x.max(y)), a, b);
                if best.is_none_or(|(bd, bk, _, _)| d < bd || (d == bd && key.1 < bk)) {
                    best = Some(key);
                }
            }
        }
        let Some((_, _, a, b)) = best else { break };
        let right = clusters.remove(b);
        let left = clusters.remove(a);
        let merged = if first(&left) <= first(&right) {
            [left, right].concat()
        } else {
            [right, left].concat()
        };
        clusters.push(merged);
    }
    clusters.into_iter().flatten().collect()
}

/// The average distance between the measured pairs of `a` and `b`; infinite when none
/// is measured.
fn linkage(a: &[usize], b: &[usize], distance: &[Vec<Option<f64>>]) -> f64 {
    let measured: Vec<f64> = a
        .iter()
        .flat_map(|&i| b.iter().map(move |&j| (i, j)))
        .filter_map(|(i, j)| distance.get(i)?.get(j).copied().flatten())
        .collect();
    if measured.is_empty() {
        f64::INFINITY
    } else {
        measured.iter().sum::<f64>() / measured.len() as f64
    }
}

/// The implementations' names, and their order by [`cluster_order`] on the share of
/// queries on which each pair differs.
fn clustered(survey: &Survey) -> (Vec<&str>, Vec<usize>) {
    let names: Vec<&str> = survey.header.names();
    let distance: Vec<Vec<Option<f64>>> = survey
        .tally
        .pairwise
        .iter()
        .map(|row| {
            row.iter()
                .map(|p| (p.queries > 0).then(|| p.queries_disagree as f64 / p.queries as f64))
                .collect()
        })
        .collect();
    let order = cluster_order(&names, &distance);
    (names, order)
}

/// `pairwise.svg`: the share of queries on which row and column differ, the
/// implementations in [`cluster_order`], 50 % and more in the darkest colour.
pub fn pairwise(survey: &Survey) -> String {
    let (names, order) = clustered(survey);
    let labels: Vec<String> = order.iter().map(|&i| names[i].to_string()).collect();
    let pairs = &survey.tally.pairwise;
    let pair = |i: usize, j: usize| pairs.get(i).and_then(|row| row.get(j));
    let values = order
        .iter()
        .map(|&i| {
            order
                .iter()
                .map(|&j| match pair(i, j) {
                    Some(p) if i != j && p.queries > 0 => {
                        Some(p.queries_disagree as f64 / p.queries as f64)
                    }
                    _ => None,
                })
                .collect()
        })
        .collect();
    let tips = order
        .iter()
        .map(|&i| {
            order
                .iter()
                .map(|&j| {
                    let p = pair(i, j).copied().unwrap_or_default();
                    format!(
                        "{} vs {}: {} of {} queries compared ({})",
                        names[i],
                        names[j],
                        percent(p.queries_disagree, p.queries),
                        count(p.queries),
                        count(p.queries_disagree)
                    )
                })
                .collect()
        })
        .collect();
    Heatmap {
        title: "Pairwise disagreement on queries (clustered)",
        rows: labels.clone(),
        columns: labels,
        values,
        tips,
        full: 0.5,
        legend: "Share of the queries both answered on which row and column differ",
        none: "the implementation itself, or no query compared",
    }
    .render()
}

/// `questions.svg`: a row per question that split a query (most split queries first),
/// a column per implementation (in [`cluster_order`]), each cell the share of the
/// question's split queries on which the implementation was on the minority side; `None`
/// when no question split a query.
pub fn questions(survey: &Survey) -> Option<String> {
    let rows = question_rows(survey);
    if rows.is_empty() {
        return None;
    }
    let (names, order) = clustered(survey);
    let minority = |row: &super::json::QuestionRow, name: &str| {
        row.minority
            .iter()
            .find(|(n, _)| n == name)
            .map_or(0, |(_, c)| *c)
    };
    let values = rows
        .iter()
        .map(|row| {
            order
                .iter()
                .map(|&j| {
                    (row.queries > 0).then(|| minority(row, names[j]) as f64 / row.queries as f64)
                })
                .collect()
        })
        .collect();
    let tips = rows
        .iter()
        .map(|row| {
            order
                .iter()
                .map(|&j| {
                    let n = minority(row, names[j]);
                    format!(
                        "{} ({}): {} on the minority side on {} of {} split queries ({})",
                        row.id,
                        row.text,
                        names[j],
                        count(n),
                        count(row.queries),
                        percent(n, row.queries)
                    )
                })
                .collect()
        })
        .collect();
    let heatmap = Heatmap {
        title: "Questions by implementations: on the minority side",
        rows: rows.iter().map(|r| r.id.clone()).collect(),
        columns: order.iter().map(|&j| names[j].to_string()).collect(),
        values,
        tips,
        full: 1.0,
        legend:
            "Share of the question's split queries with the implementation on the minority side",
        none: "",
    };
    Some(heatmap.render())
}

/// Site-level classes per crawler and implementation: the input of [`sites`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SiteClassShares {
    /// The crawlers (product tokens), one row each.
    pub crawlers: Vec<String>,
    /// The implementations, one column each.
    pub implementations: Vec<String>,
    /// `shares[c][i]`: the fractions of files in the classes fully restricted,
    /// partially restricted and unrestricted for crawler `c` under implementation `i`;
    /// `None` for no data.
    pub shares: Vec<Vec<Option<[f64; 3]>>>,
}

/// The site classes' names and colours (dark to light, so that they part in grey too).
pub const SITE_CLASSES: [(&str, &str); 3] = [
    ("fully restricted", "#3b0f70"),
    ("partially restricted", "#de4968"),
    ("unrestricted", "#fde9b0"),
];

/// The site-level classes of `survey`, per crawler and implementation
/// ([`reptest_survey::sites`]): the shares of classed files per class; `None` when no
/// file was classed (no file's rules applied).
pub fn site_shares(survey: &Survey) -> Option<SiteClassShares> {
    let crawlers: Vec<&str> = reptest_survey::sites::SITE_CRAWLERS
        .iter()
        .copied()
        .filter(|c| {
            survey
                .tally
                .sites
                .crawlers
                .get(*c)
                .is_some_and(|s| s.files > 0)
        })
        .collect();
    if crawlers.is_empty() {
        return None;
    }
    let shares = crawlers
        .iter()
        .map(|c| {
            let sites = &survey.tally.sites.crawlers[*c];
            sites
                .implementations
                .iter()
                .map(|m| {
                    let classed: u64 = m.classes.iter().sum();
                    (classed > 0).then(|| m.classes.map(|n| n as f64 / classed as f64))
                })
                .collect()
        })
        .collect();
    Some(SiteClassShares {
        crawlers: crawlers.iter().map(|c| c.to_string()).collect(),
        implementations: survey
            .header
            .implementations
            .iter()
            .map(|i| i.name.clone())
            .collect(),
        shares,
    })
}

/// `sites.svg`: a row per crawler, a column per implementation, each cell a bar split
/// into the shares of files fully restricted, partially restricted and unrestricted
/// (left to right), grey where there is no data; with a legend of the classes.
pub fn sites(shares: &SiteClassShares) -> String {
    let mut canvas = Canvas::new();
    let title = "Site-level classes per crawler and implementation";
    let size = Size {
        min_w: 20.0,
        max_w: 64.0,
        cell_h: Some(22.0),
    };
    let grid = Grid::draw(
        &mut canvas,
        title,
        &shares.crawlers,
        &shares.implementations,
        size,
    );
    for (c, crawler) in shares.crawlers.iter().enumerate() {
        for (i, name) in shares.implementations.iter().enumerate() {
            let value = shares
                .shares
                .get(c)
                .and_then(|row| row.get(i))
                .copied()
                .flatten();
            site_bar(
                &mut canvas,
                &grid,
                (c, i),
                value,
                &format!("{crawler}, {name}"),
            );
        }
    }
    let extent = site_legend(&mut canvas, grid.below());
    canvas.finish(grid.size(extent), title)
}

/// The bar of one cell of [`sites`]: its classes' shares side by side (scaled to their
/// sum), or grey for no data; `who` names the crawler and implementation in the tooltips.
fn site_bar(
    canvas: &mut Canvas,
    grid: &Grid,
    (c, i): (usize, usize),
    value: Option<[f64; 3]>,
    who: &str,
) {
    let (x, y) = grid.cell(c, i);
    let (x, y, w, h) = (x + 1.0, y + 3.0, grid.cell_w - 3.0, grid.cell_h - 6.0);
    let total: f64 = value.map_or(0.0, |v| v.iter().filter(|s| s.is_finite()).sum());
    let Some(shares) = value.filter(|_| total > 0.0) else {
        canvas.rect((x, y), (w, h), NO_VALUE, &format!("{who}: no data"));
        return;
    };
    let mut at = x;
    for ((class, colour), share) in SITE_CLASSES.iter().zip(shares) {
        let share = if share.is_finite() {
            share.max(0.0)
        } else {
            0.0
        };
        let width = w * share / total;
        let tip = format!("{who}: {class} {:.1} %", 100.0 * share / total);
        canvas.rect((at, y), (width, h), colour, &tip);
        at += width;
    }
}

/// The legend of [`sites`] at `(x, y)`: a swatch and name per class, then no data;
/// returns its right and bottom edges.
fn site_legend(canvas: &mut Canvas, (x, y): (f64, f64)) -> (f64, f64) {
    let entries = SITE_CLASSES
        .iter()
        .copied()
        .chain(std::iter::once(("no data", NO_VALUE)));
    let mut at = x;
    for (name, colour) in entries {
        canvas.rect((at, y), (12.0, 12.0), colour, "");
        canvas.text((at + 18.0, y + 10.5), name, Text::LABEL.at(Anchor::Start));
        at += 18.0 + text_width(name, 12.0) + 24.0;
    }
    (at, y + 12.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shares() -> SiteClassShares {
        SiteClassShares {
            crawlers: vec!["GPTBot".into(), "CCBot<&>".into()],
            implementations: vec!["reference".into(), "rust-robotstxt".into()],
            shares: vec![
                vec![Some([0.1, 0.3, 0.6]), Some([0.2, 0.2, 0.6])],
                vec![None, Some([0.0, 0.0, 1.0])],
            ],
        }
    }

    #[test]
    fn site_bars_split_each_cell_into_the_three_classes() {
        let svg = sites(&shares());
        assert_eq!(svg, sites(&shares()), "deterministic");
        for (class, colour) in SITE_CLASSES {
            assert!(svg.contains(&format!(">{class}</text>")), "legend: {class}");
            assert!(svg.contains(&format!("fill=\"{colour}\"")), "{colour}");
        }
        assert!(
            svg.contains("GPTBot, reference: partially restricted 30.0 %"),
            "{svg}"
        );
        assert!(
            svg.contains("CCBot&lt;&amp;&gt;, reference: no data"),
            "{svg}"
        );
        assert!(!svg.contains("CCBot<"), "escaped");
        // The bars of a row are as wide as their cells: 0.1 + 0.3 + 0.6 of one width.
        let width = |tip: &str| {
            let at = svg.find(tip).unwrap();
            let rect = &svg[svg[..at].rfind("<rect").unwrap()..at];
            let w = rect.split("width=\"").nth(1).unwrap();
            w[..w.find('"').unwrap()].parse::<f64>().unwrap()
        };
        let full = width("GPTBot, reference: fully restricted")
            + width("GPTBot, reference: partially restricted")
            + width("GPTBot, reference: unrestricted");
        let unrestricted = width("CCBot&lt;&amp;&gt;, rust-robotstxt: unrestricted");
        assert!((full - unrestricted).abs() < 0.25, "{full} {unrestricted}");
    }

    #[test]
    fn clustering_puts_the_closest_side_by_side() {
        let d = |v: [[f64; 4]; 4]| -> Vec<Vec<Option<f64>>> {
            v.iter()
                .map(|r| r.iter().map(|x| Some(*x)).collect())
                .collect()
        };
        // a and c agree; b and d agree; the two camps differ.
        let m = d([
            [0.0, 0.5, 0.01, 0.4],
            [0.5, 0.0, 0.45, 0.02],
            [0.01, 0.45, 0.0, 0.42],
            [0.4, 0.02, 0.42, 0.0],
        ]);
        assert_eq!(cluster_order(&["a", "b", "c", "d"], &m), [0, 2, 1, 3]);
        // Renaming changes nothing but the tie-breaks: the order follows the names.
        assert_eq!(cluster_order(&["z", "b", "c", "d"], &m), [1, 3, 2, 0]);
        // All equal: alphabetical.
        let flat = d([[0.0; 4]; 4]);
        assert_eq!(cluster_order(&["d", "c", "b", "a"], &flat), [3, 2, 1, 0]);
        assert_eq!(cluster_order(&[], &[]), Vec::<usize>::new());
    }
}
