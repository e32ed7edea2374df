//! One writer of GitHub Actions workflow commands (`::error file=..,line=..,title=..::message`)
//! for every report that annotates files: the gate's ([`crate::gate::github`]) and
//! `reptest policy`'s ([`crate::policy::github`]).

use std::fmt::Write as _;

/// Escapes the message of a GitHub Actions workflow command: `%`, CR and LF.
pub fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value of a GitHub Actions workflow command (`file=`, `title=`):
/// as [`data`], plus `:` and `,`.
pub fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

/// The command: how the annotation shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// `::error`: fails the check in the UI.
    Error,
    /// `::warning`.
    Warning,
    /// `::notice`.
    Notice,
}

impl Level {
    /// The command's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Notice => "notice",
        }
    }
}

/// One annotation: on `file` (at `line`, when given), with a title and a message.
#[derive(Debug, Clone, Copy)]
pub struct Annotation<'a> {
    /// error, warning or notice.
    pub level: Level,
    /// The file annotated, if any.
    pub file: Option<&'a str>,
    /// Its 1-based line, if one is to blame.
    pub line: Option<usize>,
    /// The annotation's title.
    pub title: &'a str,
    /// The message (several lines allowed).
    pub message: &'a str,
}

impl Annotation<'_> {
    /// Appends the workflow command and its line end:
    /// `::LEVEL file=F,line=N,title=T::MESSAGE`, properties escaped with [`property`] and
    /// the message with [`data`].
    pub fn write(&self, out: &mut String) {
        let mut properties = Vec::new();
        if let Some(file) = self.file {
            properties.push(format!("file={}", property(file)));
        }
        if let Some(line) = self.line {
            properties.push(format!("line={line}"));
        }
        properties.push(format!("title={}", property(self.title)));
        let _ = writeln!(
            out,
            "::{} {}::{}",
            self.level.as_str(),
            properties.join(","),
            data(self.message)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_and_message_are_escaped_and_absent_ones_left_out() {
        let mut out = String::new();
        Annotation {
            level: Level::Error,
            file: Some("a,b:c.txt"),
            line: Some(7),
            title: "t: 1",
            message: "100%\nnext",
        }
        .write(&mut out);
        Annotation {
            level: Level::Notice,
            file: None,
            line: None,
            title: "reptest gate",
            message: "ok",
        }
        .write(&mut out);
        assert_eq!(
            out,
            "::error file=a%2Cb%3Ac.txt,line=7,title=t%3A 1::100%25%0Anext\n::notice title=reptest gate::ok\n"
        );
    }
}
