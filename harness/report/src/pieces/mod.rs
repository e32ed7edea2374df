//! The pieces every renderer of this crate shares, so that the conformance report, the
//! survey's pages and the command line's summaries escape, count and colour alike:
//!
//! - [`markdown`]: text, table cells, code spans and fenced blocks that no input can
//!   break out of;
//! - [`html`]: escaping (one escaper, [`reptest_core::markup_escape::escape`]) and preformatted
//!   text;
//! - [`numbers`]: counts with thousands separators, shares and percentages;
//! - [`colour`]: the colour scales of the heatmaps;
//! - [`table`]: tables as data, rendered to Markdown, CSV and HTML;
//! - [`svg`]: SVG figures: a canvas, text widths, a heatmap and its legend.

pub mod colour;
pub mod html;
pub mod markdown;
pub mod numbers;
pub mod svg;
pub mod table;
