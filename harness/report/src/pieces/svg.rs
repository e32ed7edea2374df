//! SVG figures without script: a [`Canvas`] of rectangles and text (every label
//! escaped), an estimate of a label's width ([`text_width`]) so that sizes follow from
//! the labels, a labelled [`Grid`] (row labels on the left, column labels rotated on
//! top) and a [`Heatmap`] on it with its colour legend.
//!
//! The same input gives the same octets: coordinates are written with one decimal, no
//! time stamp, no random id (a figure has no `id` at all, so several can sit inline in
//! one HTML page). A grid of up to 30 columns with labels up to [`LABEL_CHARS`]
//! characters is at most [`MAX_WIDTH`] pixels wide.

use std::fmt::Write;

use super::colour::viridis;
use super::html::escape;

/// The widest figure, in pixels, for up to 30 columns.
pub const MAX_WIDTH: f64 = 1400.0;

/// Labels longer than this many characters are cut, ending with `…`.
pub const LABEL_CHARS: usize = 40;

/// The namespace of SVG, on a figure's root element (an HTML page may leave it out:
/// [`inline`]).
pub const NAMESPACE: &str = "http://www.w3.org/2000/svg";

/// The space around a figure.
const MARGIN: f64 = 16.0;

/// The size of labels.
const LABEL_SIZE: f64 = 12.0;

/// The size of a figure's title.
const TITLE_SIZE: f64 = 14.0;

/// The fonts, wide ones first: [`text_width`] errs on the wide side.
const FONTS: &str = "Verdana, 'DejaVu Sans', Arial, sans-serif";

/// A number as an SVG coordinate: one decimal, without a trailing `.0`.
pub fn num(x: f64) -> String {
    let text = format!("{:.1}", x);
    match text.strip_suffix(".0") {
        Some(whole) if whole != "-0" => whole.to_string(),
        Some(_) => "0".into(),
        None => text,
    }
}

/// The width of `text` at font size `size`, estimated on the wide side (Verdana's
/// widths, the widest of the fonts a figure names).
pub fn text_width(text: &str, size: f64) -> f64 {
    let ems: f64 = text
        .chars()
        .map(|c| match c {
            'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' | ' ' => 0.35,
            'f' | 't' | 'r' | '(' | ')' | '[' | ']' | '-' | '/' => 0.45,
            'm' | 'w' | 'M' | 'W' | '%' | '@' | '…' => 1.0,
            c if c.is_ascii_uppercase() => 0.75,
            c if c.is_ascii_digit() => 0.64,
            c if c.is_ascii() => 0.62,
            _ => 1.0,
        })
        .sum();
    ems * size
}

/// `label` cut to [`LABEL_CHARS`] characters, ending with `…` when cut.
pub fn short(label: &str) -> String {
    if label.chars().count() <= LABEL_CHARS {
        label.to_string()
    } else {
        let head: String = label.chars().take(LABEL_CHARS - 1).collect();
        format!("{head}…")
    }
}

/// Where a text sits relative to its point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// Its start at the point.
    Start,
    /// Its middle at the point.
    Middle,
    /// Its end at the point.
    End,
}

/// How a text is drawn.
#[derive(Debug, Clone, Copy)]
pub struct Text<'a> {
    /// Font size in pixels.
    pub size: f64,
    /// Where it sits relative to its point.
    pub anchor: Anchor,
    /// Turned a quarter counter-clockwise about its point (read bottom to top).
    pub vertical: bool,
    /// Its colour.
    pub fill: &'a str,
    /// Bold.
    pub bold: bool,
}

impl Text<'static> {
    /// A label: 12 pixels, dark, from its start.
    pub const LABEL: Text<'static> = Text {
        size: LABEL_SIZE,
        anchor: Anchor::Start,
        vertical: false,
        fill: "#222222",
        bold: false,
    };
}

impl<'a> Text<'a> {
    /// This style anchored at `anchor`.
    pub fn at(self, anchor: Anchor) -> Text<'a> {
        Text { anchor, ..self }
    }
}

/// Rectangles and texts, wrapped into an `<svg>` element by [`Canvas::finish`].
#[derive(Debug, Default)]
pub struct Canvas {
    body: String,
}

impl Canvas {
    /// An empty canvas.
    pub fn new() -> Canvas {
        Canvas::default()
    }

    /// A rectangle filled with `fill`, with `tip` as its tooltip (`<title>`) if not empty.
    pub fn rect(&mut self, (x, y): (f64, f64), (w, h): (f64, f64), fill: &str, tip: &str) {
        let _ = write!(
            self.body,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"",
            num(x),
            num(y),
            num(w),
            num(h),
            escape(fill)
        );
        if tip.is_empty() {
            self.body.push_str("/>\n");
        } else {
            let _ = writeln!(self.body, "><title>{}</title></rect>", escape(tip));
        }
    }

    /// `text` at (`x`, `y`) (its baseline), drawn as `style` says.
    pub fn text(&mut self, (x, y): (f64, f64), text: &str, style: Text<'_>) {
        let anchor = match style.anchor {
            Anchor::Start => "",
            Anchor::Middle => " text-anchor=\"middle\"",
            Anchor::End => " text-anchor=\"end\"",
        };
        let turn = if style.vertical {
            format!(" transform=\"rotate(-90 {} {})\"", num(x), num(y))
        } else {
            String::new()
        };
        let bold = if style.bold {
            " font-weight=\"bold\""
        } else {
            ""
        };
        let _ = writeln!(
            self.body,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{}\"{anchor}{turn}{bold}>{}</text>",
            num(x),
            num(y),
            num(style.size),
            escape(style.fill),
            escape(text)
        );
    }

    /// The figure: an `<svg>` element `width` × `height` pixels (with its `viewBox`, so
    /// a page may scale it), its `title` first (what a screen reader says), then what was
    /// drawn on a white background. No XML declaration: the same text stands alone as a
    /// `.svg` file and inline in HTML.
    pub fn finish(self, (width, height): (f64, f64), title: &str) -> String {
        let (w, h) = (num(width.ceil()), num(height.ceil()));
        format!(
            "<svg xmlns=\"{NAMESPACE}\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"{}\" role=\"img\">\n<title>{}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n{}</svg>\n",
            escape(FONTS),
            escape(title),
            self.body
        )
    }
}

/// How wide and high a [`Grid`]'s cells are: as wide as fits [`MAX_WIDTH`], between
/// `min_w` and `max_w`; `cell_h` high, or square.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Size {
    /// The narrowest cell (a grid of many columns may then be wider than [`MAX_WIDTH`]).
    pub min_w: f64,
    /// The widest cell.
    pub max_w: f64,
    /// A cell's height; `None`: as wide.
    pub cell_h: Option<f64>,
}

/// A figure of [`Canvas::finish`] to stand inline in an HTML page, which puts an `<svg>`
/// element in its namespace by itself: without its `xmlns` attribute (so the page names
/// no URL).
pub fn inline(svg: &str) -> String {
    svg.replacen(&format!(" xmlns=\"{NAMESPACE}\""), "", 1)
}

/// A grid of cells with row labels on its left and column labels, turned, on its top,
/// under a title: the frame of a [`Heatmap`] and of other per-cell figures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grid {
    /// The left edge of the first column.
    pub x: f64,
    /// The top edge of the first row.
    pub y: f64,
    /// A cell's width.
    pub cell_w: f64,
    /// A cell's height.
    pub cell_h: f64,
    /// The number of rows.
    pub rows: usize,
    /// The number of columns.
    pub columns: usize,
}

impl Grid {
    /// Draws `title`, the `rows`' and `columns`' labels (cut by [`short`]) on `canvas`,
    /// and returns the grid between them, its cells sized as `size` says.
    pub fn draw(
        canvas: &mut Canvas,
        title: &str,
        rows: &[String],
        columns: &[String],
        size: Size,
    ) -> Grid {
        let widest = |labels: &[String]| {
            labels
                .iter()
                .map(|l| text_width(&short(l), LABEL_SIZE))
                .fold(0.0, f64::max)
        };
        let left = MARGIN + widest(rows) + 8.0;
        let top = MARGIN + TITLE_SIZE + 8.0 + widest(columns) + 8.0;
        let room = (MAX_WIDTH - left - MARGIN) / columns.len().max(1) as f64;
        let cell_w = room.floor().clamp(size.min_w, size.max_w);
        let cell_h = size.cell_h.unwrap_or(cell_w);
        let grid = Grid {
            x: left,
            y: top,
            cell_w,
            cell_h,
            rows: rows.len(),
            columns: columns.len(),
        };
        let title_style = Text {
            size: TITLE_SIZE,
            bold: true,
            ..Text::LABEL
        };
        canvas.text((MARGIN, MARGIN + TITLE_SIZE), title, title_style);
        for (i, label) in rows.iter().enumerate() {
            let y = grid.cell(i, 0).1 + cell_h / 2.0 + LABEL_SIZE * 0.35;
            canvas.text((left - 8.0, y), &short(label), Text::LABEL.at(Anchor::End));
        }
        for (j, label) in columns.iter().enumerate() {
            let x = grid.cell(0, j).0 + grid.cell_w / 2.0 + LABEL_SIZE * 0.35;
            let style = Text {
                vertical: true,
                ..Text::LABEL
            };
            canvas.text((x, top - 8.0), &short(label), style);
        }
        grid
    }

    /// The top left corner of the cell in row `i`, column `j`.
    pub fn cell(&self, i: usize, j: usize) -> (f64, f64) {
        (
            self.x + j as f64 * self.cell_w,
            self.y + i as f64 * self.cell_h,
        )
    }

    /// The right edge of the grid.
    pub fn right(&self) -> f64 {
        self.x + self.columns as f64 * self.cell_w
    }

    /// The bottom edge of the grid.
    pub fn bottom(&self) -> f64 {
        self.y + self.rows as f64 * self.cell_h
    }

    /// The left edge of a legend under the grid, and the top of the space below it.
    pub fn below(&self) -> (f64, f64) {
        (MARGIN, self.bottom() + 20.0)
    }

    /// The figure's size once `extent` (the right and bottom edges of what was drawn
    /// below or beside the grid) is drawn.
    pub fn size(&self, (right, bottom): (f64, f64)) -> (f64, f64) {
        (self.right().max(right) + MARGIN, bottom + MARGIN)
    }
}

/// Shares as a grid of coloured cells, a sequential colour scale (viridis, light to
/// dark) from 0 to `full` and beyond, with the share written in each cell where it fits.
#[derive(Debug, Clone)]
pub struct Heatmap<'a> {
    /// The title drawn on top (and the figure's `<title>`).
    pub title: &'a str,
    /// The rows' labels.
    pub rows: Vec<String>,
    /// The columns' labels.
    pub columns: Vec<String>,
    /// One share per cell, row by row; `None` for a cell without one (drawn grey).
    pub values: Vec<Vec<Option<f64>>>,
    /// Each cell's tooltip, row by row (may be empty).
    pub tips: Vec<Vec<String>>,
    /// The share drawn in the darkest colour (and every one above it).
    pub full: f64,
    /// What the shares are, above the legend's scale.
    pub legend: &'a str,
    /// What a grey cell means, in the legend (when there is one).
    pub none: &'a str,
}

/// The grey of a cell without a value.
pub const NO_VALUE: &str = "#e4e4e4";

impl Heatmap<'_> {
    /// The figure as SVG.
    pub fn render(&self) -> String {
        let mut canvas = Canvas::new();
        let size = Size {
            min_w: 14.0,
            max_w: 40.0,
            cell_h: None,
        };
        let grid = Grid::draw(&mut canvas, self.title, &self.rows, &self.columns, size);
        for (i, row) in self.values.iter().enumerate() {
            for (j, value) in row.iter().enumerate() {
                let tip = self.tips.get(i).and_then(|r| r.get(j));
                self.cell(&mut canvas, &grid, (i, j), *value, tip.map_or("", |t| t));
            }
        }
        let extent = self.draw_legend(&mut canvas, grid.below());
        canvas.finish(grid.size(extent), self.title)
    }

    /// One cell: its colour, its tooltip and, where it fits, its share in percent.
    fn cell(
        &self,
        canvas: &mut Canvas,
        grid: &Grid,
        (i, j): (usize, usize),
        value: Option<f64>,
        tip: &str,
    ) {
        let (x, y) = grid.cell(i, j);
        let size = (grid.cell_w - 1.0, grid.cell_h - 1.0);
        let Some(value) = value else {
            canvas.rect((x, y), size, NO_VALUE, tip);
            return;
        };
        let (fill, ink) = viridis(value / self.full);
        canvas.rect((x, y), size, &fill, tip);
        let label = format!("{:.1}", 100.0 * value);
        let small = Text {
            size: 10.0,
            fill: ink,
            ..Text::LABEL.at(Anchor::Middle)
        };
        if text_width(&label, small.size) + 4.0 <= grid.cell_w {
            let at = (x + grid.cell_w / 2.0, y + grid.cell_h / 2.0 + 3.5);
            canvas.text(at, &label, small);
        }
    }

    /// The legend at `(x, y)`: its title, the colour scale with its ends and midpoint
    /// labelled, and the grey cells' meaning when there is one; returns its right and
    /// bottom edges.
    fn draw_legend(&self, canvas: &mut Canvas, (x, y): (f64, f64)) -> (f64, f64) {
        const STEPS: usize = 48;
        const STEP_W: f64 = 5.0;
        canvas.text((x, y + LABEL_SIZE), self.legend, Text::LABEL);
        let bar_y = y + LABEL_SIZE + 6.0;
        for k in 0..STEPS {
            let t = (k as f64 + 0.5) / STEPS as f64;
            let at = (x + k as f64 * STEP_W, bar_y);
            canvas.rect(at, (STEP_W, 12.0), &viridis(t).0, "");
        }
        let width = STEPS as f64 * STEP_W;
        let label_y = bar_y + 12.0 + LABEL_SIZE + 2.0;
        let ends = [
            (0.0, Anchor::Start, "0 %".to_string()),
            (0.5, Anchor::Middle, percent_label(self.full / 2.0)),
            (1.0, Anchor::End, top_label(self.full)),
        ];
        for (at, anchor, label) in ends {
            canvas.text((x + at * width, label_y), &label, Text::LABEL.at(anchor));
        }
        let mut right = x + width;
        let has_none = self.values.iter().flatten().any(Option::is_none);
        if has_none && !self.none.is_empty() {
            let at = right + 24.0;
            canvas.rect((at, bar_y), (12.0, 12.0), NO_VALUE, "");
            canvas.text((at + 18.0, bar_y + 10.5), self.none, Text::LABEL);
            right = at + 18.0 + text_width(self.none, LABEL_SIZE);
        }
        (right, label_y)
    }
}

/// The label of a scale's darkest end: `≥ 50 %` (every share above it drawn as dark),
/// or `100 %`.
fn top_label(full: f64) -> String {
    if full >= 1.0 {
        percent_label(1.0)
    } else {
        format!("≥ {}", percent_label(full))
    }
}

/// A share as a legend's label: `25 %`, `12.5 %`.
fn percent_label(share: f64) -> String {
    format!("{} %", num(100.0 * share))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_labels() {
        assert_eq!(num(3.0), "3");
        assert_eq!(num(2.25), "2.2");
        assert_eq!(num(-0.01), "0");
        assert_eq!(percent_label(0.25), "25 %");
        assert_eq!(top_label(0.5), "≥ 50 %");
        assert_eq!(top_label(1.0), "100 %");
        assert_eq!(short(&"a".repeat(41)).chars().count(), LABEL_CHARS);
        assert!(short(&"a".repeat(41)).ends_with('…'));
        assert!(text_width("mmm", 10.0) > text_width("iii", 10.0));
    }

    #[test]
    fn labels_are_escaped() {
        let mut canvas = Canvas::new();
        canvas.text((1.0, 2.0), "a<b>&\"c\"", Text::LABEL);
        canvas.rect((0.0, 0.0), (1.0, 1.0), "#fff", "x<y");
        let svg = canvas.finish((10.0, 10.0), "t&t");
        assert!(
            svg.contains(">a&lt;b&gt;&amp;&quot;c&quot;</text>"),
            "{svg}"
        );
        assert!(svg.contains("<title>x&lt;y</title>"), "{svg}");
        assert!(svg.contains("<title>t&amp;t</title>"), "{svg}");
    }
}
