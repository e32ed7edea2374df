//! Renders a [`RobotsModel`] to the bytes of a robots.txt file, deterministically: the
//! same model always gives the same bytes.

use super::model::{
    AgentLine, AgentToken, Bom, Entry, Eol, EolStyle, Gap, KeyForm, Layout, Padding, Pattern,
    PatternStart, RobotsModel, Rule, RuleKind, Spacing, TrailingComment,
};

/// A byte order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// A rendered file and the rules in it, for deriving queries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    /// The file's bytes.
    pub body: Vec<u8>,
    /// Every allow/disallow line, in file order (typo'd and colon-less ones included).
    pub rules: Vec<RenderedRule>,
    /// Every user-agent value, in file order, each once.
    pub agents: Vec<AgentToken>,
}

/// One rule as rendered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedRule {
    /// Allow or disallow.
    pub kind: RuleKind,
    /// The pattern as written (after any lengthening for [`Padding::LongLine`]).
    pub pattern: String,
    /// The user-agent values of the rule's group; empty before the first user-agent line.
    pub agents: Vec<AgentToken>,
    /// Whether the key is spelled so that RFC 9309 reads the line as a rule (no typo,
    /// a colon present).
    pub well_formed: bool,
    /// Whether this is the rule [`Padding`] targets.
    pub padded: bool,
}

/// Renders `model` to bytes.
pub fn render(model: &RobotsModel) -> Rendered {
    let mut total_rules = model.preamble.len()
        + model
            .groups
            .iter()
            .flat_map(|g| &g.entries)
            .filter(|e| matches!(e, Entry::Rule(_)))
            .count();
    let extra_rule = model.padding != Padding::None && total_rules == 0;
    if extra_rule {
        total_rules = 1;
    }
    let mut r = Renderer {
        out: Vec::with_capacity(256),
        style: model.eol_style,
        plain: model.plain,
        mid_bom: model.bom == Bom::MidFile,
        lines: 0,
        rules: Vec::new(),
        agents: Vec::new(),
        padding: model.padding,
        target: if model.padding == Padding::None {
            usize::MAX
        } else {
            total_rules - 1
        },
        target_span: None,
    };
    match model.bom {
        Bom::Full => r.out.extend_from_slice(BOM),
        Bom::Partial => r.out.extend_from_slice(&BOM[..2]),
        Bom::None | Bom::MidFile => {}
    }
    for rule in &model.preamble {
        r.rule(rule, &[]);
    }
    for group in &model.groups {
        let tokens: Vec<AgentToken> = group.agents.iter().map(|a| a.token).collect();
        for agent in &group.agents {
            r.agent(agent);
        }
        for entry in &group.entries {
            match entry {
                Entry::Rule(rule) => r.rule(rule, &tokens),
                Entry::Comment(text) => r.line(text.text().as_bytes(), Eol::Lf),
                Entry::Blank => r.line(b"", Eol::Crlf),
                Entry::Sitemap => r.line(b"Sitemap: https://example.com/sitemap.xml", Eol::Lf),
                Entry::Unknown(record) => r.line(record.text().as_bytes(), Eol::Cr),
            }
        }
    }
    if extra_rule {
        let tokens: Vec<AgentToken> = model
            .groups
            .last()
            .map(|g| g.agents.iter().map(|a| a.token).collect())
            .unwrap_or_default();
        r.rule(&PADDING_RULE, &tokens);
    }
    if r.mid_bom {
        r.out.extend_from_slice(BOM);
    }
    if !model.final_eol {
        if r.out.ends_with(b"\r\n") {
            r.out.truncate(r.out.len() - 2);
        } else if r.out.ends_with(b"\n") || r.out.ends_with(b"\r") {
            r.out.truncate(r.out.len() - 1);
        }
    }
    let mut body = r.out;
    if let (Padding::RuleEndsAt(end), Some((start, len))) = (model.padding, r.target_span) {
        body = pad_before(body, start, end.saturating_sub(start + len));
    }
    Rendered {
        body,
        rules: r.rules,
        agents: r.agents,
    }
}

/// The rule added when [`Padding`] needs a target and the model has no rule.
const PADDING_RULE: Rule = Rule {
    kind: RuleKind::Disallow,
    pattern: Pattern {
        start: PatternStart::Slash,
        len: 1,
        pieces: [super::model::PathPiece::A; 4],
    },
    layout: Layout {
        key: KeyForm::Canonical,
        spacing: Spacing::Standard,
        trailing_comment: TrailingComment::None,
        eol: Eol::Lf,
    },
};

/// Inserts `n` bytes of comment lines (LF-terminated, at most 1,000 octets each) at
/// `at`.
fn pad_before(body: Vec<u8>, at: usize, n: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + n);
    out.extend_from_slice(&body[..at]);
    let full = n / 1000;
    let rest = n % 1000;
    let mut line = [b'p'; 1000];
    line[0] = b'#';
    line[999] = b'\n';
    for _ in 0..full {
        out.extend_from_slice(&line);
    }
    match rest {
        0 => {}
        1 => out.push(b'\n'),
        _ => {
            out.extend_from_slice(&line[..rest - 1]);
            out.push(b'\n');
        }
    }
    out.extend_from_slice(&body[at..]);
    out
}

struct Renderer {
    out: Vec<u8>,
    style: EolStyle,
    plain: bool,
    mid_bom: bool,
    lines: usize,
    rules: Vec<RenderedRule>,
    agents: Vec<AgentToken>,
    padding: Padding,
    /// Index (in file order) of the rule padding targets; `usize::MAX` for none.
    target: usize,
    /// Start offset and content length of the target rule's line.
    target_span: Option<(usize, usize)>,
}

impl Renderer {
    fn eol(&mut self, own: Eol) {
        let eol = match self.style {
            EolStyle::Lf => Eol::Lf,
            EolStyle::Crlf => Eol::Crlf,
            EolStyle::Cr => Eol::Cr,
            EolStyle::Mixed => own,
        };
        self.out.extend_from_slice(match eol {
            Eol::Lf => b"\n",
            Eol::Crlf => b"\r\n",
            Eol::Cr => b"\r",
        });
        self.lines += 1;
        if self.mid_bom && self.lines == 1 {
            self.out.extend_from_slice(BOM);
            self.mid_bom = false;
        }
    }

    /// `own`, or the plain layout (keeping the line end) for a plain file.
    fn layout(&self, own: Layout) -> Layout {
        if self.plain {
            Layout {
                eol: own.eol,
                ..PADDING_RULE.layout
            }
        } else {
            own
        }
    }

    fn line(&mut self, text: &[u8], eol: Eol) {
        self.out.extend_from_slice(text);
        self.eol(eol);
    }

    fn gap(&mut self, gap: Gap) {
        match gap {
            Gap::None => {}
            Gap::Blank => self.line(b"", Eol::Lf),
            Gap::Comment(text) => self.line(text.text().as_bytes(), Eol::Crlf),
        }
    }

    fn agent(&mut self, agent: &AgentLine) {
        self.gap(agent.gap_before);
        if !self.agents.contains(&agent.token) {
            self.agents.push(agent.token);
        }
        let layout = self.layout(agent.layout);
        let key = match layout.key {
            KeyForm::Canonical | KeyForm::NoColon => "User-agent",
            KeyForm::Lower => "user-agent",
            KeyForm::Upper => "USER-AGENT",
            KeyForm::Mixed => "uSeR-aGeNt",
            KeyForm::Typo => "user agent",
        };
        self.record(key, layout, agent.token.text());
        self.eol(layout.eol);
    }

    fn rule(&mut self, rule: &Rule, agents: &[AgentToken]) {
        let layout = self.layout(rule.layout);
        let allow = rule.kind == RuleKind::Allow;
        let key = match (layout.key, allow) {
            (KeyForm::Canonical | KeyForm::NoColon, false) => "Disallow",
            (KeyForm::Canonical | KeyForm::NoColon, true) => "Allow",
            (KeyForm::Lower, false) => "disallow",
            (KeyForm::Lower, true) => "allow",
            (KeyForm::Upper, false) => "DISALLOW",
            (KeyForm::Upper, true) => "ALLOW",
            (KeyForm::Mixed, false) => "dIsAllOw",
            (KeyForm::Mixed, true) => "aLlOw",
            (KeyForm::Typo, false) => "disalow",
            (KeyForm::Typo, true) => "alow",
        };
        let index = self.rules.len();
        let padded = index == self.target;
        let mut pattern = rule.pattern.text();
        let start = self.out.len();
        let mut filler = 0;
        if let (true, Padding::LongLine(want)) = (padded, self.padding) {
            // Measure the line without filler, then lengthen the pattern to fit.
            let len = self.record(key, layout, &pattern);
            self.out.truncate(start);
            filler = want.saturating_sub(len);
        }
        if filler > 0 {
            let at = if pattern.ends_with('$') {
                pattern.len() - 1
            } else {
                pattern.len()
            };
            pattern.insert_str(at, &"l".repeat(filler));
        }
        let len = self.record(key, layout, &pattern);
        if padded {
            self.target_span = Some((start, len));
        }
        self.eol(layout.eol);
        self.rules.push(RenderedRule {
            kind: rule.kind,
            pattern,
            agents: agents.to_vec(),
            well_formed: !matches!(layout.key, KeyForm::Typo | KeyForm::NoColon),
            padded,
        });
    }

    /// Writes one record line without its line end; returns its length.
    fn record(&mut self, key: &str, layout: Layout, value: &str) -> usize {
        let start = self.out.len();
        let out = &mut self.out;
        if layout.spacing == Spacing::Leading {
            out.extend_from_slice(b"  ");
        }
        out.extend_from_slice(key.as_bytes());
        let separator: &[u8] = match (layout.key, layout.spacing) {
            (KeyForm::NoColon, Spacing::Tab) => b"\t",
            (KeyForm::NoColon, _) => b" ",
            (_, Spacing::Tight) => b":",
            (_, Spacing::Tab) => b":\t",
            (_, Spacing::AroundColon) => b" : ",
            _ => b": ",
        };
        out.extend_from_slice(separator);
        out.extend_from_slice(value.as_bytes());
        match layout.spacing {
            Spacing::Trailing => out.extend_from_slice(b"  "),
            Spacing::TrailingTab => out.push(b'\t'),
            _ => {}
        }
        match layout.trailing_comment {
            TrailingComment::None => {}
            TrailingComment::Spaced => out.extend_from_slice(b" # note"),
            TrailingComment::Tight => out.extend_from_slice(b"#note"),
        }
        self.out.len() - start
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Group, PathPiece};

    fn layout() -> Layout {
        Layout {
            key: KeyForm::Canonical,
            spacing: Spacing::Standard,
            trailing_comment: TrailingComment::None,
            eol: Eol::Lf,
        }
    }

    fn model(padding: Padding) -> RobotsModel {
        let pattern = Pattern {
            start: PatternStart::Slash,
            len: 2,
            pieces: [
                PathPiece::BDir,
                PathPiece::Dollar,
                PathPiece::A,
                PathPiece::A,
            ],
        };
        RobotsModel {
            bom: Bom::None,
            eol_style: EolStyle::Lf,
            plain: false,
            preamble: Vec::new(),
            groups: vec![Group {
                agents: vec![AgentLine {
                    gap_before: Gap::None,
                    token: AgentToken::Examplebot,
                    layout: layout(),
                }],
                entries: vec![Entry::Rule(Rule {
                    kind: RuleKind::Disallow,
                    pattern,
                    layout: layout(),
                })],
            }],
            padding,
            final_eol: true,
        }
    }

    #[test]
    fn plain_model_renders_plainly() {
        let rendered = render(&model(Padding::None));
        assert_eq!(rendered.body, b"User-agent: examplebot\nDisallow: /b/$\n");
        assert_eq!(rendered.rules[0].pattern, "/b/$");
        assert!(!rendered.rules[0].padded);
    }

    #[test]
    fn padding_puts_the_rule_line_end_at_the_offset() {
        for end in [511_999, 512_000, 512_001] {
            let body = render(&model(Padding::RuleEndsAt(end))).body;
            let line = b"Disallow: /b/$\n";
            assert!(body.ends_with(line));
            assert_eq!(body.len() - 1, end, "content ends at {end}");
        }
    }

    #[test]
    fn padding_straddles_the_reference_parse_limit() {
        // The reference parses lines whose content ends within 512,000 bytes.
        for (end, allowed) in [(511_999, false), (512_000, false), (512_001, true)] {
            let body = render(&model(Padding::RuleEndsAt(end))).body;
            let robots = reptest_reference::Robots::parse(&body);
            let verdict = robots.is_allowed("examplebot", "https://example.com/b/");
            assert_eq!(verdict, allowed, "rule ending at {end}");
        }
    }

    #[test]
    fn long_line_has_the_length_asked() {
        let rendered = render(&model(Padding::LongLine(17_000)));
        let body = rendered.body;
        let line = body.split(|&b| b == b'\n').nth(1).unwrap();
        assert_eq!(line.len(), 17_000);
        assert!(line.ends_with(b"l$"));
        assert!(rendered.rules[0].padded);
        assert_eq!(rendered.rules[0].pattern.len(), 17_000 - "Disallow: ".len());
    }

    #[test]
    fn mid_file_bom_starts_the_second_line() {
        let mut m = model(Padding::None);
        m.bom = Bom::MidFile;
        m.final_eol = false;
        let body = render(&m).body;
        assert_eq!(body, b"User-agent: examplebot\n\xEF\xBB\xBFDisallow: /b/$");
    }
}
