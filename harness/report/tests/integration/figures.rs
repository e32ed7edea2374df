//! The survey's figures (`reptest_report::survey::figures`) as SVG: well-formed XML with
//! every label escaped, the same octets for the same survey, implementations that answer
//! alike side by side in the clustered heatmap, a legend, and at most 1,400 pixels wide
//! for 30 implementations.

use crate::survey::{survey_by, Always};
use reptest_core::Implementation;
use reptest_impls::Reference;
use reptest_report::survey::figures::{self, Figure, SiteClassShares};
use reptest_report::survey::{html, markdown};
use reptest_survey::Shard;

/// `svg` parsed, or a failure naming the parser's error.
fn parse(svg: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{e}: {svg}"))
}

/// The texts of `svg`'s `<text>` elements whose `text-anchor` is `anchor` (`end`: the
/// row labels), in order.
fn texts(svg: &str, anchor: Option<&str>) -> Vec<String> {
    parse(svg)
        .descendants()
        .filter(|n| n.has_tag_name("text") && n.attribute("text-anchor") == anchor)
        .map(|n| n.text().unwrap_or("").to_string())
        .collect()
}

/// The width of the figure `svg`, from its root's `width`.
fn width(svg: &str) -> f64 {
    parse(svg)
        .root_element()
        .attribute("width")
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn implementations_that_answer_alike_sit_side_by_side() {
    let reference = Reference::rfc9309();
    // Listed apart; the two that allow everything answer alike.
    let (allow, deny, twin) = (
        Always::new("allow", true),
        Always::new("deny", false),
        Always::new("zz<twin>&", true),
    );
    let implementations: [&dyn Implementation; 4] = [&allow, &reference, &deny, &twin];
    let survey = survey_by(&implementations, Shard::WHOLE);
    let svg = Figure::Pairwise.render(&survey).unwrap();
    // The row labels: anchored at their end, as the legend's last label (a share) is.
    let rows: Vec<String> = texts(&svg, Some("end"))
        .into_iter()
        .filter(|t| !t.ends_with('%'))
        .collect();
    let at = |name: &str| rows.iter().position(|r| r == name).unwrap();
    assert_eq!(rows.len(), 4, "{rows:?}");
    assert_eq!(at("allow").abs_diff(at("zz<twin>&")), 1, "{rows:?}");
    assert!(svg.contains("zz&lt;twin&gt;&amp;"), "escaped");
    let order = figures::cluster_order(
        &["allow", "reference", "deny", "zz"],
        &[
            vec![Some(0.0), Some(0.3), Some(1.0), Some(0.0)],
            vec![Some(0.3), Some(0.0), Some(0.7), Some(0.3)],
            vec![Some(1.0), Some(0.7), Some(0.0), Some(1.0)],
            vec![Some(0.0), Some(0.3), Some(1.0), Some(0.0)],
        ],
    );
    assert_eq!(order, [0, 3, 1, 2]);
}

#[test]
fn figures_are_well_formed_deterministic_and_have_a_legend() {
    let reference = Reference::rfc9309();
    let allow = Always::new("allow", true);
    let implementations: [&dyn Implementation; 2] = [&reference, &allow];
    let survey = survey_by(&implementations, Shard::WHOLE);
    let pairwise = Figure::Pairwise.render(&survey).unwrap();
    assert_eq!(Figure::Pairwise.render(&survey).unwrap(), pairwise);
    let document = parse(&pairwise);
    let root = document.root_element();
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    assert!(!pairwise.contains("<script"));
    let labels = texts(&pairwise, None);
    assert!(
        labels.iter().any(|t| t.starts_with("Share of the queries")),
        "{labels:?}"
    );
    assert!(texts(&pairwise, Some("middle")).contains(&"25 %".to_string()));
    assert!(texts(&pairwise, Some("end")).contains(&"≥ 50 %".to_string()));
    // No question of an empty catalogue split a query: no questions figure, no link.
    assert_eq!(Figure::Questions.render(&survey), None);
    let md = markdown::render(&survey);
    assert!(md.contains("](figures/pairwise.svg)\n"), "{md}");
    assert!(!md.contains("figures/questions.svg"), "{md}");
    let page = html::render(&survey);
    assert!(
        page.contains("<svg width="),
        "inline, without its namespace URL"
    );
    assert!(!page.contains("<script"));
}

/// 30 implementations with long names: the figures stay within 1,400 pixels.
#[test]
fn thirty_implementations_fit_1400_pixels() {
    let many: Vec<Always> = (0..30)
        .map(|i| Always::new(&format!("python-some-long-parser-name-{i:02}"), i % 2 == 0))
        .collect();
    let implementations: Vec<&dyn Implementation> =
        many.iter().map(|i| i as &dyn Implementation).collect();
    let survey = survey_by(&implementations, Shard::WHOLE);
    let svg = Figure::Pairwise.render(&survey).unwrap();
    assert!(width(&svg) <= 1400.0, "{}", width(&svg));
    let sites = figures::sites(&SiteClassShares {
        crawlers: vec!["GPTBot".into(); 10],
        implementations: many.iter().map(|i| i.0.name.clone()).collect(),
        shares: vec![vec![Some([0.2, 0.3, 0.5]); 30]; 10],
    });
    assert!(width(&sites) <= 1400.0, "{}", width(&sites));
    parse(&sites);
}
