//! The parser's view of a body's lines (RFC 9309 §2.2: `EOL = %x0A / %x0D / %x0D.0A`),
//! read through the one line scanner, [`crate::syntax::Lines`].

use crate::syntax;

/// The UTF-8 byte order mark.
pub(crate) use crate::syntax::BOM;

/// One line of the file, without its line end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Line<'a> {
    /// 1-based line number.
    pub(crate) number: usize,
    /// Offset just past the line's last octet (its line end excluded), from
    /// the start of the whole body (a skipped BOM included).
    pub(crate) end: usize,
    /// The line's octets, line end excluded (a skipped BOM excluded).
    pub(crate) content: &'a [u8],
}

/// Iterator over the lines of a body.
#[derive(Debug, Clone)]
pub(crate) struct Lines<'a> {
    inner: syntax::Lines<'a>,
}

impl<'a> Lines<'a> {
    /// Lines of `body`; `start` is 0, or [`BOM`]`.len()` to skip a BOM the body starts
    /// with (see [`starts_with_bom`]).
    pub(crate) fn new(body: &'a [u8], start: usize) -> Self {
        let inner = syntax::lines(body);
        Lines {
            inner: if start == 0 { inner.keep_bom() } else { inner },
        }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    #[inline]
    fn next(&mut self) -> Option<Line<'a>> {
        self.inner.next().map(|line| Line {
            number: line.number(),
            end: line.span().end,
            content: line.text(),
        })
    }
}

/// Whether `body` starts with a complete UTF-8 BOM (a partial one, e.g.
/// `EF BB`, is not a BOM and stays part of the first line).
pub(crate) fn starts_with_bom(body: &[u8]) -> bool {
    body.starts_with(BOM)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_ends_and_contents() {
        let lines: Vec<Line<'_>> = Lines::new(b"ab\r\ncd\ne", 0).collect();
        let got: Vec<(usize, usize, &[u8])> =
            lines.iter().map(|l| (l.number, l.end, l.content)).collect();
        assert_eq!(got, [(1, 2, &b"ab"[..]), (2, 6, b"cd"), (3, 8, b"e")]);
    }

    #[test]
    fn start_offset_skips_bom() {
        let body = b"\xEF\xBB\xBFab\ncd";
        assert!(starts_with_bom(body));
        let lines: Vec<Line<'_>> = Lines::new(body, BOM.len()).collect();
        assert_eq!(lines[0].content, b"ab");
        assert_eq!(lines[0].end, 5);
        assert_eq!(lines[1].number, 2);
        let kept: Vec<Line<'_>> = Lines::new(body, 0).collect();
        assert_eq!(kept[0].content, b"\xEF\xBB\xBFab");
    }

    #[test]
    fn partial_bom_is_not_a_bom() {
        assert!(!starts_with_bom(b"\xEF\xBBab"));
        assert!(!starts_with_bom(b"a\xEF\xBB\xBF"));
    }
}
