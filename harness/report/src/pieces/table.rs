//! Tables as data: a [`Table`] holds typed [`Cell`]s under [`Header`]s and is rendered
//! to Markdown ([`Table::markdown`]), CSV ([`Table::csv`]) and HTML ([`Table::html`]).
//!
//! A cell is a value, not text: a count is a number, a share is a part of a whole. Each
//! rendering writes it its own way: Markdown and HTML as people read it (`12,345`,
//! `14.5 %`, `14.5 % (12,286)`), CSV raw (`12345`, the fraction `0.145...`, one field per
//! number), so that a table read into a spreadsheet or a data frame needs no parsing of
//! its cells. A column gives one CSV field per number of its cells (a share with its
//! count gives three: count, whole, fraction), named by its header's `fields`.
//!
//! Adding a table is a few lines: its headers ([`Header::text`], [`Header::count`],
//! [`Header::share`], [`Header::share_of`]), then one [`Table::row`] per row.

use std::fmt::Write;

use super::colour::disagreement as heat_colour;
use super::html::escape;
use super::markdown::plain_cell;
use super::numbers::{count, percent, share};

/// How a column's cells line up (Markdown and HTML).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Text, to the left.
    Left,
    /// Numbers, to the right.
    Right,
}

/// A column: its title (Markdown, HTML), its alignment, and the names of the CSV fields
/// its cells give.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    /// The column's title in Markdown and HTML (may be empty).
    pub title: String,
    /// How its cells line up.
    pub align: Align,
    /// The CSV column names, one per field each of its cells gives ([`Cell::fields`]).
    pub fields: Vec<String>,
    /// Whether the HTML colours its shares as a heatmap (white at 0, red at 50 % and
    /// more) and writes them without the `%` sign, to keep a matrix compact.
    pub heat: bool,
}

impl Header {
    /// A column of text: one CSV field named `title`.
    pub fn text(title: &str) -> Header {
        Header {
            title: title.into(),
            align: Align::Left,
            fields: vec![title.into()],
            heat: false,
        }
    }

    /// A column of counts ([`Cell::Count`], or [`Cell::Total`] with [`Header::fields`]).
    pub fn count(title: &str) -> Header {
        Header {
            align: Align::Right,
            ..Header::text(title)
        }
    }

    /// A column of shares ([`Cell::Share`]): one CSV field, `TITLE (fraction)`.
    pub fn share(title: &str) -> Header {
        Header::count(title).fields([format!("{title} (fraction)")])
    }

    /// A column of shares with their counts ([`Cell::ShareOf`]): three CSV fields,
    /// `TITLE (count)`, `TITLE (of)` and `TITLE (fraction)`.
    pub fn share_of(title: &str) -> Header {
        Header::count(title).fields(["count", "of", "fraction"].map(|f| format!("{title} ({f})")))
    }

    /// A column of 95 % intervals ([`Cell::Interval`]): two CSV fields, `TITLE (low)`
    /// and `TITLE (high)`, fractions.
    pub fn interval(title: &str) -> Header {
        Header::count(title).fields(["low", "high"].map(|f| format!("{title} ({f})")))
    }

    /// This header with other CSV field names.
    pub fn fields<S: Into<String>>(self, fields: impl IntoIterator<Item = S>) -> Header {
        Header {
            fields: fields.into_iter().map(Into::into).collect(),
            ..self
        }
    }

    /// This header with its shares coloured as a heatmap in HTML.
    pub fn heat(self) -> Header {
        Header { heat: true, ..self }
    }
}

/// One value of a table.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// Text, shown as it is (only kept from breaking the markup). One field.
    Text(String),
    /// A count: `12,345` to read, `12345` in CSV. One field.
    Count(u64),
    /// `part` of `whole`: `14.5 %` to read (`-` when `whole` is 0), the fraction in CSV
    /// (empty when `whole` is 0). One field.
    Share {
        /// The part.
        part: u64,
        /// The whole.
        whole: u64,
    },
    /// `part` of `whole` with its count: `14.5 % (12,286)` to read; three fields in CSV:
    /// `part`, `whole` and the fraction.
    ShareOf {
        /// The part.
        part: u64,
        /// The whole.
        whole: u64,
    },
    /// A total and its parts: `3 (1 / 2 / 0)` to read (the total is the parts' sum);
    /// in CSV the total, then each part.
    Total(Vec<u64>),
    /// A numbered label, `3 name` to read (the row of a matrix whose columns are
    /// numbered); the name alone in CSV.
    Numbered {
        /// The number.
        number: usize,
        /// The label.
        name: String,
    },
    /// An interval of shares (fractions): `12.1–16.9 %` to read; in CSV two fields, the
    /// fractions `low` and `high`. NaN ends mean no interval: `-` to read, two empty
    /// fields in CSV.
    Interval {
        /// The low end, a fraction.
        low: f64,
        /// The high end, a fraction.
        high: f64,
    },
    /// Named counts: the ones worth showing, `a 3, b 1` to read; in CSV every count of
    /// `all`, one field each (the header names them), 0 where there is none.
    Tallies {
        /// The counts shown, in their order.
        shown: Vec<(String, u64)>,
        /// Every count, in the header's field order.
        all: Vec<u64>,
    },
}

impl Cell {
    /// Text.
    pub fn text(text: impl Into<String>) -> Cell {
        Cell::Text(text.into())
    }

    /// [`Cell::Tallies`] from named counts, for the names `names` (CSV fields in that
    /// order): every count shown, most first, then by name.
    pub fn tallies<S: Into<String>>(
        counts: impl IntoIterator<Item = (S, u64)>,
        names: &[&str],
    ) -> Cell {
        let mut shown: Vec<(String, u64)> = counts
            .into_iter()
            .map(|(name, n)| (name.into(), n))
            .collect();
        shown.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let all = names
            .iter()
            .map(|name| shown.iter().find(|(n, _)| n == name).map_or(0, |(_, c)| *c))
            .collect();
        Cell::Tallies { shown, all }
    }

    /// The cell as people read it (Markdown, HTML), not yet escaped for either; with
    /// `heat`, a share without its `%` sign (a heatmap's compact cells).
    fn shown(&self, heat: bool) -> String {
        match self {
            Cell::Text(text) => text.clone(),
            Cell::Count(n) => count(*n),
            Cell::Share { part, whole } if heat => percent(*part, *whole).replace(" %", ""),
            Cell::Share { part, whole } => percent(*part, *whole),
            Cell::ShareOf { part, whole } => {
                format!("{} ({})", percent(*part, *whole), count(*part))
            }
            Cell::Total(parts) => format!(
                "{} ({})",
                count(parts.iter().sum()),
                parts
                    .iter()
                    .map(|n| count(*n))
                    .collect::<Vec<_>>()
                    .join(" / ")
            ),
            Cell::Numbered { number, name } => format!("{number} {name}"),
            Cell::Interval { low, .. } if low.is_nan() => "-".to_string(),
            Cell::Interval { low, high } => format!("{:.1}–{:.1} %", low * 100.0, high * 100.0),
            Cell::Tallies { shown, .. } => shown
                .iter()
                .map(|(name, n)| format!("{name} {}", count(*n)))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    /// The cell in Markdown: as [`Cell::shown`], kept from ending its cell.
    fn markdown(&self) -> String {
        plain_cell(&self.shown(false))
    }

    /// The cell's CSV fields, raw (unquoted).
    pub fn fields(&self) -> Vec<String> {
        let fraction = |part: u64, whole: u64| {
            if whole == 0 {
                String::new()
            } else {
                share(part, whole).to_string()
            }
        };
        match self {
            Cell::Text(text) => vec![text.clone()],
            Cell::Count(n) => vec![n.to_string()],
            Cell::Share { part, whole } => vec![fraction(*part, *whole)],
            Cell::ShareOf { part, whole } => {
                vec![part.to_string(), whole.to_string(), fraction(*part, *whole)]
            }
            Cell::Total(parts) => std::iter::once(parts.iter().sum::<u64>())
                .chain(parts.iter().copied())
                .map(|n| n.to_string())
                .collect(),
            Cell::Numbered { name, .. } => vec![name.clone()],
            Cell::Interval { low, .. } if low.is_nan() => vec![String::new(), String::new()],
            Cell::Interval { low, high } => vec![low.to_string(), high.to_string()],
            Cell::Tallies { all, .. } => all.iter().map(u64::to_string).collect(),
        }
    }

    /// The share this cell colours a heatmap with, if it is one.
    fn heat(&self) -> Option<f64> {
        match self {
            Cell::Share { part, whole } | Cell::ShareOf { part, whole } => {
                Some(share(*part, *whole))
            }
            _ => None,
        }
    }
}

/// A table: its name (a file name's stem: `csv/NAME.csv`), its title, its columns and
/// its rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// A file name's stem: ASCII letters, digits and `-`.
    pub name: String,
    /// What the table holds, for people.
    pub title: String,
    /// The columns.
    pub headers: Vec<Header>,
    /// The rows, one cell per column.
    pub rows: Vec<Vec<Cell>>,
}

impl Table {
    /// A table without rows.
    pub fn new(name: &str, title: &str, headers: Vec<Header>) -> Table {
        Table {
            name: name.into(),
            title: title.into(),
            headers,
            rows: Vec::new(),
        }
    }

    /// Adds a row: one cell per column, each giving as many CSV fields as its header
    /// names (checked in debug builds).
    pub fn row(&mut self, cells: Vec<Cell>) {
        debug_assert_eq!(cells.len(), self.headers.len(), "{}: cells", self.name);
        debug_assert!(
            cells
                .iter()
                .zip(&self.headers)
                .all(|(c, h)| c.fields().len() == h.fields.len()),
            "{}: a cell's fields differ from its header's",
            self.name
        );
        self.rows.push(cells);
    }

    /// The table in GitHub-flavoured Markdown: the header row, the alignment row, then
    /// one line per row, each ending with a line break.
    pub fn markdown(&self) -> String {
        let mut out = String::from("|");
        for header in &self.headers {
            if header.title.is_empty() {
                out.push_str(" |");
            } else {
                let _ = write!(out, " {} |", plain_cell(&header.title));
            }
        }
        out.push_str("\n|");
        for header in &self.headers {
            out.push_str(match header.align {
                Align::Left => " --- |",
                Align::Right => " ---: |",
            });
        }
        out.push('\n');
        for row in &self.rows {
            out.push('|');
            for cell in row {
                let _ = write!(out, " {} |", cell.markdown());
            }
            out.push('\n');
        }
        out
    }

    /// The table as CSV (RFC 4180): a header line of every column's field names, then
    /// one line per row; fields quoted where they hold a comma, a quote or a line break
    /// (quotes doubled), every line ending with CRLF.
    pub fn csv(&self) -> String {
        let mut out = String::new();
        let names = self.headers.iter().flat_map(|h| h.fields.iter().cloned());
        csv_line(&mut out, names);
        for row in &self.rows {
            csv_line(&mut out, row.iter().flat_map(Cell::fields));
        }
        out
    }

    /// The table in HTML: a `<table>` with its header row and rows, numbers right
    /// aligned (class `n`), heat columns coloured (class `h`).
    pub fn html(&self) -> String {
        let mut out = String::from("<table>\n<tr>");
        for header in &self.headers {
            let _ = write!(out, "<th>{}</th>", escape(&header.title));
        }
        out.push_str("</tr>\n");
        for row in &self.rows {
            out.push_str("<tr>");
            for (cell, header) in row.iter().zip(&self.headers) {
                html_cell(&mut out, cell, header);
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</table>\n");
        out
    }

    /// The file the table is written to as CSV: `csv/NAME.csv`.
    pub fn csv_path(&self) -> String {
        format!("{CSV_DIR}/{}.csv", self.name)
    }
}

/// The folder of CSV files, inside an output folder.
pub const CSV_DIR: &str = "csv";

/// One `<td>` of [`Table::html`].
fn html_cell(out: &mut String, cell: &Cell, header: &Header) {
    let class = match (header.heat, header.align) {
        (true, _) => " class=h",
        (false, Align::Right) => " class=n",
        (false, Align::Left) => "",
    };
    let style = match cell.heat() {
        Some(s) if header.heat => format!(" style=\"background:{}\"", heat_colour(s)),
        _ => String::new(),
    };
    let _ = write!(
        out,
        "<td{class}{style}>{}</td>",
        escape(&cell.shown(header.heat))
    );
}

/// One CSV line of `fields`, ending with CRLF.
fn csv_line(out: &mut String, fields: impl Iterator<Item = String>) {
    for (i, field) in fields.enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&csv_field(&field));
    }
    out.push_str("\r\n");
}

/// A CSV field (RFC 4180): quoted, its quotes doubled, when it holds a comma, a quote,
/// CR or LF; as it is otherwise.
pub fn csv_field(field: &str) -> String {
    if field.contains([',', '"', '\r', '\n']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Table {
        let mut t = Table::new(
            "sample",
            "A sample",
            vec![
                Header::text("name"),
                Header::text(""),
                Header::count("n"),
                Header::share("share"),
                Header::share_of("disagree"),
                Header::count("missing").fields(["missing", "error", "timeout"]),
            ],
        );
        t.row(vec![
            Cell::text("a|b"),
            Cell::Numbered {
                number: 2,
                name: "x".into(),
            },
            Cell::Count(12345),
            Cell::Share { part: 1, whole: 4 },
            Cell::ShareOf { part: 1, whole: 3 },
            Cell::Total(vec![1, 2]),
        ]);
        t.row(vec![
            Cell::text("c,\"d\""),
            Cell::text(""),
            Cell::Count(0),
            Cell::Share { part: 0, whole: 0 },
            Cell::ShareOf { part: 0, whole: 0 },
            Cell::Total(vec![0, 0]),
        ]);
        t
    }

    #[test]
    fn markdown_reads_well() {
        assert_eq!(
            sample().markdown(),
            "| name | | n | share | disagree | missing |\n\
             | --- | --- | ---: | ---: | ---: | ---: |\n\
             | a\\|b | 2 x | 12,345 | 25.0 % | 33.3 % (1) | 3 (1 / 2) |\n\
             | c,\"d\" |  | 0 | - | - (0) | 0 (0 / 0) |\n"
        );
    }

    #[test]
    fn csv_is_raw_and_quoted() {
        assert_eq!(
            sample().csv(),
            "name,,n,share (fraction),disagree (count),disagree (of),disagree (fraction),missing,error,timeout\r\n\
             a|b,x,12345,0.25,1,3,0.3333333333333333,3,1,2\r\n\
             \"c,\"\"d\"\"\",,0,,0,0,,0,0,0\r\n"
        );
        assert_eq!(csv_field("a\nb"), "\"a\nb\"");
        assert_eq!(csv_field("plain"), "plain");
    }

    #[test]
    fn html_colours_heat_columns() {
        let mut t = Table::new("m", "M", vec![Header::share("1").heat()]);
        t.row(vec![Cell::Share { part: 1, whole: 4 }]);
        assert_eq!(
            t.html(),
            "<table>\n<tr><th>1</th></tr>\n<tr><td class=h style=\"background:hsl(0,80%,72%)\">25.0</td></tr>\n</table>\n"
        );
        assert!(sample()
            .html()
            .contains("<td>a|b</td><td>2 x</td><td class=n>12,345</td>"));
    }

    #[test]
    fn tallies_show_the_largest_first() {
        let cell = Cell::tallies([("b", 3), ("a", 3), ("c", 5)], &["c", "b", "a", "z"]);
        assert_eq!(cell.markdown(), "c 5, a 3, b 3");
        assert_eq!(cell.fields(), ["5", "3", "3", "0"]);
    }
}
