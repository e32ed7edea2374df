//! Splitting a file into lines (RFC 9309 §2.2: `EOL = %x0A / %x0D / %x0D.0A`).
//!
//! CR, LF and CRLF each end exactly one line, and may be mixed in one file
//! (requirement `2.2-EOL`). Line numbers are 1-based and count line ends
//! so. The text after the last line end is a line if it is not empty.

use memchr::memchr2;

/// The UTF-8 byte order mark.
pub(crate) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// One line of the file, without its line end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Line<'a> {
    /// 1-based line number.
    pub(crate) number: usize,
    /// Offset just past the line's last octet (its line end excluded), from
    /// the start of the whole body (a skipped BOM included).
    pub(crate) end: usize,
    /// The line's octets, line end excluded.
    pub(crate) content: &'a [u8],
}

/// Iterator over the lines of a body.
#[derive(Debug, Clone)]
pub(crate) struct Lines<'a> {
    body: &'a [u8],
    pos: usize,
    number: usize,
}

impl<'a> Lines<'a> {
    /// Lines of `body` starting at byte offset `start` (e.g. 3 to skip a BOM).
    pub(crate) fn new(body: &'a [u8], start: usize) -> Self {
        Lines {
            body,
            pos: start.min(body.len()),
            number: 0,
        }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    fn next(&mut self) -> Option<Line<'a>> {
        let rest = self.body.get(self.pos..)?;
        if rest.is_empty() {
            return None;
        }
        self.number += 1;
        let start = self.pos;
        match memchr2(b'\n', b'\r', rest) {
            Some(i) => {
                let eol_len = if rest[i] == b'\r' && rest.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                self.pos = start + i + eol_len;
                Some(Line {
                    number: self.number,
                    end: start + i,
                    content: &rest[..i],
                })
            }
            None => {
                self.pos = self.body.len();
                Some(Line {
                    number: self.number,
                    end: self.body.len(),
                    content: rest,
                })
            }
        }
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

    fn contents(body: &[u8]) -> Vec<(usize, &[u8])> {
        Lines::new(body, 0).map(|l| (l.number, l.content)).collect()
    }

    #[test]
    fn empty_body_has_no_lines() {
        assert!(contents(b"").is_empty());
    }

    #[test]
    fn each_line_end_counts_once() {
        assert_eq!(
            contents(b"a\nb\rc\r\nd"),
            vec![(1, &b"a"[..]), (2, b"b"), (3, b"c"), (4, b"d")]
        );
    }

    #[test]
    fn lf_cr_is_two_line_ends() {
        assert_eq!(
            contents(b"a\n\rb"),
            vec![(1, &b"a"[..]), (2, b""), (3, b"b")]
        );
    }

    #[test]
    fn trailing_line_end_adds_no_line() {
        assert_eq!(contents(b"a\r\n"), vec![(1, &b"a"[..])]);
        assert_eq!(contents(b"\n\n"), vec![(1, &b""[..]), (2, b"")]);
    }

    #[test]
    fn cr_at_end_of_body() {
        assert_eq!(contents(b"a\r"), vec![(1, &b"a"[..])]);
    }

    #[test]
    fn end_offsets() {
        let ends: Vec<usize> = Lines::new(b"ab\r\ncd\ne", 0).map(|l| l.end).collect();
        assert_eq!(ends, vec![2, 6, 8]);
    }

    #[test]
    fn start_offset_skips_bom() {
        let body = b"\xEF\xBB\xBFab\ncd";
        assert!(starts_with_bom(body));
        let lines: Vec<Line<'_>> = Lines::new(body, 3).collect();
        assert_eq!(lines[0].content, b"ab");
        assert_eq!(lines[0].end, 5);
        assert_eq!(lines[1].number, 2);
    }

    #[test]
    fn partial_bom_is_not_a_bom() {
        assert!(!starts_with_bom(b"\xEF\xBBab"));
        assert!(!starts_with_bom(b"a\xEF\xBB\xBF"));
    }

    #[test]
    fn start_beyond_body_is_empty() {
        assert_eq!(Lines::new(b"ab", 10).count(), 0);
    }
}
