//! The robots.txt model the fuzzers generate: groups, rules and the quirks RFC 9309
//! allows (or that deployed files contain anyway), built with [`arbitrary`].
//!
//! Structs derive [`Arbitrary`]; the leaf enums implement it by hand with weights, so
//! that plain, well-formed lines stay the common case (a rule that a typo removes tests
//! less than one that applies) and large inputs stay rare. Every weight table lists its
//! plainest choice first: when the fuzzer's bytes run out, [`Unstructured`] yields zeros
//! and the model degrades to a small, plain file.
//!
//! [`crate::render::render`] turns a model into bytes.

use arbitrary::{Arbitrary, Result, Unstructured};

/// Picks one of `table`'s values, each with its relative weight (total below 256, so one
/// byte decides). Out of data, the first entry.
pub(crate) fn pick<T: Copy>(u: &mut Unstructured<'_>, table: &[(u8, T)]) -> Result<T> {
    let total: u32 = table.iter().map(|&(w, _)| u32::from(w)).sum();
    let mut x = u.int_in_range(0..=total - 1)?;
    for &(w, value) in table {
        let w = u32::from(w);
        if x < w {
            return Ok(value);
        }
        x -= w;
    }
    Ok(table[0].1)
}

/// Builds a vector of `min..=max` elements, each from `T::arbitrary`.
fn vec_in<'a, T: Arbitrary<'a>>(u: &mut Unstructured<'a>, min: u8, max: u8) -> Result<Vec<T>> {
    let n = u.int_in_range(min..=max)?;
    (0..n).map(|_| T::arbitrary(u)).collect()
}

/// Implements [`Arbitrary`] for a field-less enum from a weight table.
macro_rules! weighted {
    ($ty:ty, [$(($w:expr, $v:expr)),+ $(,)?]) => {
        impl<'a> Arbitrary<'a> for $ty {
            fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
                pick(u, &[$(($w, $v)),+])
            }
        }
    };
}

/// A whole robots.txt file.
#[derive(Debug, Clone, PartialEq, Eq, Arbitrary)]
pub struct RobotsModel {
    /// A byte order mark, whole or broken (RFC 9309 §2.2: implementations may skip a
    /// leading BOM; a partial or mid-file one is junk).
    pub bom: Bom,
    /// How lines end (RFC 9309 §2.2: CR, LF and CRLF are all line ends).
    pub eol_style: EolStyle,
    /// Whether every record is written plainly (`Key: value`, canonical key, no trailing
    /// comment), ignoring each line's [`Layout`]: half the files, so that quirks of
    /// layout do not crowd out the rest.
    pub plain: bool,
    /// Rules before the first user-agent line (RFC 9309 §2.1: they belong to no group).
    #[arbitrary(with = preamble)]
    pub preamble: Vec<Rule>,
    /// The groups, in order (1 to 3).
    #[arbitrary(with = groups)]
    pub groups: Vec<Group>,
    /// Padding to the parse limit (RFC 9309 §2.5) or a long line; rare.
    pub padding: Padding,
    /// Whether the last line ends with a line break.
    #[arbitrary(with = mostly_true)]
    pub final_eol: bool,
}

fn preamble(u: &mut Unstructured<'_>) -> Result<Vec<Rule>> {
    match pick(u, &[(14u8, 0u8), (1, 1), (1, 2)])? {
        0 => Ok(Vec::new()),
        n => (0..n).map(|_| Rule::arbitrary(u)).collect(),
    }
}

fn groups(u: &mut Unstructured<'_>) -> Result<Vec<Group>> {
    let n = pick(u, &[(3u8, 1u8), (3, 2), (2, 3)])?;
    (0..n).map(|_| Group::arbitrary(u)).collect()
}

fn mostly_true(u: &mut Unstructured<'_>) -> Result<bool> {
    pick(u, &[(7u8, true), (1, false)])
}

/// A byte order mark (`EF BB BF`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bom {
    /// None.
    None,
    /// A whole BOM at the start.
    Full,
    /// Only `EF BB` at the start.
    Partial,
    /// A whole BOM at the start of the second line.
    MidFile,
}
weighted!(
    Bom,
    [
        (28, Bom::None),
        (2, Bom::Full),
        (1, Bom::Partial),
        (1, Bom::MidFile)
    ]
);

/// The file's line-end style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EolStyle {
    /// LF everywhere.
    Lf,
    /// CRLF everywhere.
    Crlf,
    /// CR everywhere.
    Cr,
    /// Each line's own [`Eol`].
    Mixed,
}
weighted!(
    EolStyle,
    [
        (12, EolStyle::Lf),
        (2, EolStyle::Crlf),
        (1, EolStyle::Cr),
        (1, EolStyle::Mixed)
    ]
);

/// One line's end, used when the style is [`EolStyle::Mixed`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eol {
    /// `\n`.
    Lf,
    /// `\r\n`.
    Crlf,
    /// `\r`.
    Cr,
}
weighted!(Eol, [(2, Eol::Lf), (1, Eol::Crlf), (1, Eol::Cr)]);

/// Padding that moves a rule to the parse limit or makes one line long. The target is
/// the last rule of the file (the renderer adds one when there is none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Padding {
    /// No padding.
    None,
    /// A comment block before the last rule so that the rule line's content (without
    /// its line break) ends at this byte offset: 511,999, 512,000 or 512,001, around the
    /// RFC's minimum parse limit of 500 KiB (RFC 9309 §2.5).
    RuleEndsAt(usize),
    /// The last rule's pattern is lengthened so that its line has this many octets
    /// (without its line break): around Google's line limit (a 16,664-byte buffer: 16,663
    /// octets and a NUL).
    LongLine(usize),
}

impl<'a> Arbitrary<'a> for Padding {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(match pick(u, &[(63u8, 0u8), (1, 1)])? {
            0 => Padding::None,
            _ => match pick(u, &[(1u8, 0u8), (1, 1), (1, 2), (1, 3), (1, 4), (1, 5)])? {
                0 => Padding::RuleEndsAt(511_999),
                1 => Padding::RuleEndsAt(512_000),
                2 => Padding::RuleEndsAt(512_001),
                3 => Padding::LongLine(16_664),
                4 => Padding::LongLine(16_665),
                _ => Padding::LongLine(17_000),
            },
        })
    }
}

/// A group: user-agent lines, then its lines (RFC 9309 §2.1).
#[derive(Debug, Clone, PartialEq, Eq, Arbitrary)]
pub struct Group {
    /// The user-agent lines (1 to 3).
    #[arbitrary(with = agents)]
    pub agents: Vec<AgentLine>,
    /// The lines after them (0 to 5): mostly rules.
    #[arbitrary(with = entries)]
    pub entries: Vec<Entry>,
}

fn agents(u: &mut Unstructured<'_>) -> Result<Vec<AgentLine>> {
    let n = pick(u, &[(5u8, 1u8), (2, 2), (1, 3)])?;
    (0..n).map(|_| AgentLine::arbitrary(u)).collect()
}

fn entries(u: &mut Unstructured<'_>) -> Result<Vec<Entry>> {
    vec_in(u, 0, 5)
}

/// A `user-agent:` line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Arbitrary)]
pub struct AgentLine {
    /// A blank or comment line before it (RFC 9309 §2.2: they do not end a group).
    pub gap_before: Gap,
    /// The value.
    pub token: AgentToken,
    /// How the line is written.
    pub layout: Layout,
}

/// A line that is neither a record nor part of one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gap {
    /// Nothing.
    None,
    /// An empty line.
    Blank,
    /// A comment-only line.
    Comment(CommentText),
}

impl<'a> Arbitrary<'a> for Gap {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(match pick(u, &[(12u8, 0u8), (1, 1), (1, 2)])? {
            0 => Gap::None,
            1 => Gap::Blank,
            _ => Gap::Comment(CommentText::arbitrary(u)?),
        })
    }
}

/// The text of a comment (after `#`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommentText {
    /// `# comment`.
    Plain,
    /// `#` alone.
    Empty,
    /// `# Disallow: /a` — a rule commented out.
    CommentedRule,
    /// `# ツ` — non-ASCII text.
    NonAscii,
}
weighted!(
    CommentText,
    [
        (3, CommentText::Plain),
        (1, CommentText::Empty),
        (1, CommentText::CommentedRule),
        (1, CommentText::NonAscii),
    ]
);

impl CommentText {
    /// The comment, `#` included.
    pub fn text(self) -> &'static str {
        match self {
            CommentText::Plain => "# comment",
            CommentText::Empty => "#",
            CommentText::CommentedRule => "# Disallow: /a",
            CommentText::NonAscii => "# ツ",
        }
    }
}

/// A user-agent value from a small pool, so that groups and queries meet often.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgentToken {
    /// `examplebot`.
    Examplebot,
    /// `ExampleBot` (RFC 9309 §2.2.1: compared case-insensitively).
    ExampleBotMixed,
    /// `EXAMPLEBOT`.
    ExamplebotUpper,
    /// `foobot`.
    Foobot,
    /// `*` (RFC 9309 §2.2.1: the fallback group).
    Star,
    /// `examplebot/2.1`: a token with a version (RFC 9309 §2.2.1: not a bare token).
    ExamplebotVersion,
    /// `example-bot`.
    ExampleDashBot,
    /// `Example Bot`: a value with a space.
    ExampleSpaceBot,
    /// `example`: a prefix of `examplebot`.
    Example,
}
weighted!(
    AgentToken,
    [
        (5, AgentToken::Examplebot),
        (2, AgentToken::ExampleBotMixed),
        (1, AgentToken::ExamplebotUpper),
        (2, AgentToken::Foobot),
        (4, AgentToken::Star),
        (1, AgentToken::ExamplebotVersion),
        (1, AgentToken::ExampleDashBot),
        (1, AgentToken::ExampleSpaceBot),
        (1, AgentToken::Example),
    ]
);

impl AgentToken {
    /// The value as written.
    pub fn text(self) -> &'static str {
        match self {
            AgentToken::Examplebot => "examplebot",
            AgentToken::ExampleBotMixed => "ExampleBot",
            AgentToken::ExamplebotUpper => "EXAMPLEBOT",
            AgentToken::Foobot => "foobot",
            AgentToken::Star => "*",
            AgentToken::ExamplebotVersion => "examplebot/2.1",
            AgentToken::ExampleDashBot => "example-bot",
            AgentToken::ExampleSpaceBot => "Example Bot",
            AgentToken::Example => "example",
        }
    }
}

/// A line after a group's user-agent lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// An allow or disallow rule.
    Rule(Rule),
    /// A comment-only line.
    Comment(CommentText),
    /// An empty line.
    Blank,
    /// `Sitemap: https://example.com/sitemap.xml` (RFC 9309 §2.3.5: other records are
    /// not part of the group's rules).
    Sitemap,
    /// A record this protocol does not define.
    Unknown(UnknownRecord),
}

impl<'a> Arbitrary<'a> for Entry {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(
            match pick(u, &[(12u8, 0u8), (1, 1), (1, 2), (1, 3), (1, 4)])? {
                0 => Entry::Rule(Rule::arbitrary(u)?),
                1 => Entry::Comment(CommentText::arbitrary(u)?),
                2 => Entry::Blank,
                3 => Entry::Sitemap,
                _ => Entry::Unknown(UnknownRecord::arbitrary(u)?),
            },
        )
    }
}

/// A record other than user-agent, allow, disallow and sitemap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnknownRecord {
    /// `Crawl-delay: 1`.
    CrawlDelay,
    /// `Foo: bar`.
    Foo,
    /// `Host: example.com`.
    Host,
}
weighted!(
    UnknownRecord,
    [
        (2, UnknownRecord::CrawlDelay),
        (1, UnknownRecord::Foo),
        (1, UnknownRecord::Host)
    ]
);

impl UnknownRecord {
    /// The whole record.
    pub fn text(self) -> &'static str {
        match self {
            UnknownRecord::CrawlDelay => "Crawl-delay: 1",
            UnknownRecord::Foo => "Foo: bar",
            UnknownRecord::Host => "Host: example.com",
        }
    }
}

/// An allow or disallow rule (RFC 9309 §2.2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Arbitrary)]
pub struct Rule {
    /// Allow or disallow.
    pub kind: RuleKind,
    /// The path pattern.
    pub pattern: Pattern,
    /// How the line is written.
    pub layout: Layout,
}

/// Allow or disallow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleKind {
    /// `disallow`.
    Disallow,
    /// `allow`.
    Allow,
}
weighted!(RuleKind, [(2, RuleKind::Disallow), (1, RuleKind::Allow)]);

/// A path pattern: up to four pieces from [`PathPiece`]'s alphabet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pattern {
    /// Whether a `/` goes in front when the pieces do not start with one (RFC 9309 §2.2:
    /// the grammar says patterns start with `/`; `*.gif$` is in the RFC's own example).
    pub start: PatternStart,
    /// How many of `pieces` are used.
    pub len: u8,
    /// The pieces.
    pub pieces: [PathPiece; 4],
}

impl<'a> Arbitrary<'a> for Pattern {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let start = PatternStart::arbitrary(u)?;
        let len = pick(u, &[(3u8, 1u8), (3, 2), (2, 3), (1, 4), (1, 0)])?;
        let mut pieces = [PathPiece::A; 4];
        for piece in pieces.iter_mut().take(usize::from(len)) {
            *piece = PathPiece::arbitrary(u)?;
        }
        Ok(Pattern { start, len, pieces })
    }
}

impl Pattern {
    /// The pattern as written in the rule's value.
    pub fn text(&self) -> String {
        let mut out = String::with_capacity(24);
        self.write(&mut out);
        out
    }

    /// Appends the pattern to `out`.
    pub fn write(&self, out: &mut String) {
        let begin = out.len();
        for piece in &self.pieces[..usize::from(self.len)] {
            out.push_str(piece.text());
        }
        if self.start == PatternStart::Slash && !out[begin..].starts_with('/') {
            out.insert(begin, '/');
        }
    }
}

/// What a pattern starts with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatternStart {
    /// A `/`, added if the first piece lacks one.
    Slash,
    /// The first piece as it is (`*.html`, `%2F`, or an empty pattern; RFC 9309 §2.2.2:
    /// an empty value matches nothing).
    Bare,
}
weighted!(
    PatternStart,
    [(7, PatternStart::Slash), (1, PatternStart::Bare)]
);

/// One piece of a path pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathPiece {
    /// `/a`.
    A,
    /// `/A` (RFC 9309 §2.2.2: paths match case-sensitively).
    AUpper,
    /// `/b/`.
    BDir,
    /// `/x.html`.
    XHtml,
    /// `/X.HTML`.
    XHtmlUpper,
    /// `*` (RFC 9309 §2.2.3: any run of characters).
    Star,
    /// `$` (RFC 9309 §2.2.3: the end of the path; literal elsewhere in some parsers).
    Dollar,
    /// `%2F`: an encoded `/`, which must stay encoded (RFC 9309 §2.2.2).
    Pct2F,
    /// `%2f`: the same, lowercase hex.
    Pct2FLower,
    /// `%62`: an encoded `b`, an unreserved character equal to `b` (RFC 3986 §2.3).
    Pct62,
    /// `%2a`: an encoded `*`, a literal star rather than a wildcard.
    Pct2A,
    /// `%24`: an encoded `$`, a literal dollar.
    Pct24,
    /// `ツ` raw (RFC 9309 §2.2.2: non-ASCII is percent-encoded before matching).
    TsuRaw,
    /// `%E3%83%84`: `ツ` encoded.
    TsuEncoded,
    /// `%e3%83%84`: `ツ` encoded with lowercase hex.
    TsuEncodedLower,
    /// `?q=1`: a query (RFC 9309 §2.2.2: the query is part of what is matched).
    Query,
}
weighted!(
    PathPiece,
    [
        (6, PathPiece::A),
        (1, PathPiece::AUpper),
        (4, PathPiece::BDir),
        (3, PathPiece::XHtml),
        (1, PathPiece::XHtmlUpper),
        (3, PathPiece::Star),
        (2, PathPiece::Dollar),
        (1, PathPiece::Pct2F),
        (1, PathPiece::Pct2FLower),
        (1, PathPiece::Pct62),
        (1, PathPiece::Pct2A),
        (1, PathPiece::Pct24),
        (1, PathPiece::TsuRaw),
        (1, PathPiece::TsuEncoded),
        (1, PathPiece::TsuEncodedLower),
        (1, PathPiece::Query),
    ]
);

impl PathPiece {
    /// The piece's text.
    pub fn text(self) -> &'static str {
        match self {
            PathPiece::A => "/a",
            PathPiece::AUpper => "/A",
            PathPiece::BDir => "/b/",
            PathPiece::XHtml => "/x.html",
            PathPiece::XHtmlUpper => "/X.HTML",
            PathPiece::Star => "*",
            PathPiece::Dollar => "$",
            PathPiece::Pct2F => "%2F",
            PathPiece::Pct2FLower => "%2f",
            PathPiece::Pct62 => "%62",
            PathPiece::Pct2A => "%2a",
            PathPiece::Pct24 => "%24",
            PathPiece::TsuRaw => "ツ",
            PathPiece::TsuEncoded => "%E3%83%84",
            PathPiece::TsuEncodedLower => "%e3%83%84",
            PathPiece::Query => "?q=1",
        }
    }
}

/// How a record line is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Arbitrary)]
pub struct Layout {
    /// The key's spelling.
    pub key: KeyForm,
    /// White space around the colon and the value.
    pub spacing: Spacing,
    /// A comment after the value.
    pub trailing_comment: TrailingComment,
    /// The line end, when the file's style is [`EolStyle::Mixed`].
    pub eol: Eol,
}

/// How a record key is spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyForm {
    /// `User-agent`, `Allow`, `Disallow`.
    Canonical,
    /// `user-agent` (the ABNF's spelling).
    Lower,
    /// `USER-AGENT` (RFC 9309 §2.2: keys are case-insensitive).
    Upper,
    /// `uSeR-aGeNt`, `dIsAllOw`.
    Mixed,
    /// `user agent`, `disalow`, `alow`: typos some parsers accept (Google does).
    Typo,
    /// `Disallow /a`: no colon, white space instead.
    NoColon,
}
weighted!(
    KeyForm,
    [
        (24, KeyForm::Canonical),
        (3, KeyForm::Lower),
        (2, KeyForm::Upper),
        (2, KeyForm::Mixed),
        (1, KeyForm::Typo),
        (1, KeyForm::NoColon),
    ]
);

/// White space in a record line (RFC 9309 §2.2: optional around the colon; trailing
/// white space is not part of the value).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spacing {
    /// `Key: value`.
    Standard,
    /// `Key:value`.
    Tight,
    /// `Key:\tvalue`.
    Tab,
    /// `Key : value`.
    AroundColon,
    /// `  Key: value`.
    Leading,
    /// `Key: value  `.
    Trailing,
    /// `Key: value\t`.
    TrailingTab,
}
weighted!(
    Spacing,
    [
        (20, Spacing::Standard),
        (3, Spacing::Tight),
        (1, Spacing::Tab),
        (1, Spacing::AroundColon),
        (1, Spacing::Leading),
        (1, Spacing::Trailing),
        (1, Spacing::TrailingTab),
    ]
);

/// A comment after a record's value (RFC 9309 §2.2: `#` starts a comment anywhere).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrailingComment {
    /// None.
    None,
    /// `value # note`.
    Spaced,
    /// `value#note`.
    Tight,
}
weighted!(
    TrailingComment,
    [
        (14, TrailingComment::None),
        (1, TrailingComment::Spaced),
        (1, TrailingComment::Tight)
    ]
);
