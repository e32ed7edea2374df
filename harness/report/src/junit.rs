//! One JUnit XML writer (the Jenkins / Surefire schema most CI test reporters read) for
//! every report that speaks it: the gate's ([`crate::gate::junit`]) and `reptest
//! policy`'s ([`crate::policy::junit`]).
//!
//! A report opens the document with [`open`], writes its `<properties>` ([`properties`]),
//! one [`TestCase`] per check ([`TestCase::write`]), its notes ([`system_out`]) and ends
//! with [`close`]. Every attribute value and text is XML-escaped here.

pub use reptest_core::markup_escape::escape;
use std::fmt::Write as _;
use std::time::Duration;

/// The attributes of `<testsuites>` and of its one `<testsuite>`.
#[derive(Debug, Clone, Copy)]
pub struct Suite<'a> {
    /// The suite's name (escaped when written).
    pub name: &'a str,
    /// How many test cases.
    pub tests: usize,
    /// How many of them failed.
    pub failures: usize,
    /// How many were skipped, and how long the run took: written with `errors="0"` when
    /// given (the gate), left out when not (policy).
    pub skipped_and_time: Option<(usize, Duration)>,
    /// Whether `<testsuites>` carries the name too (the gate), or only `<testsuite>`.
    pub name_on_testsuites: bool,
}

impl Suite<'_> {
    /// ` name=".." tests=".." failures=".."`, then ` errors="0" skipped=".." time=".."`
    /// when counted; without the name when `named` is false.
    fn attributes(&self, named: bool) -> String {
        let mut attributes = String::new();
        if named {
            let _ = write!(attributes, " name=\"{}\"", escape(self.name));
        }
        let _ = write!(
            attributes,
            " tests=\"{}\" failures=\"{}\"",
            self.tests, self.failures
        );
        if let Some((skipped, elapsed)) = self.skipped_and_time {
            let _ = write!(
                attributes,
                " errors=\"0\" skipped=\"{skipped}\" time=\"{:.3}\"",
                elapsed.as_secs_f64()
            );
        }
        attributes
    }
}

/// The XML declaration, `<testsuites>` and `<testsuite>`.
pub fn open(out: &mut String, suite: &Suite<'_>) {
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites{}>",
        suite.attributes(suite.name_on_testsuites)
    );
    let _ = writeln!(out, "  <testsuite{}>", suite.attributes(true));
}

/// The suite's `<properties>`: one `<property name=".." value=".."/>` per pair.
pub fn properties(out: &mut String, properties: &[(&str, String)]) {
    out.push_str("    <properties>\n");
    for (key, value) in properties {
        let _ = writeln!(
            out,
            "      <property name=\"{}\" value=\"{}\"/>",
            escape(key),
            escape(value)
        );
    }
    out.push_str("    </properties>\n");
}

/// The suite's `<system-out>`: notes that belong to no test case.
pub fn system_out(out: &mut String, text: &str) {
    let _ = writeln!(out, "    <system-out>{}</system-out>", escape(text));
}

/// Closes what [`open`] opened.
pub fn close(out: &mut String) {
    out.push_str("  </testsuite>\n</testsuites>\n");
}

/// How a test case ended.
#[derive(Debug, Clone, Default)]
pub enum Verdict {
    /// Passed: no child element.
    #[default]
    Passed,
    /// `<failure message=".." type="..">detail</failure>` (`type` only when given).
    Failure {
        /// The one-line message.
        message: String,
        /// The failure's kind (`type`), if the report names kinds.
        kind: Option<&'static str>,
        /// The element's text: what a reader needs to understand the failure.
        detail: String,
    },
    /// `<skipped message=".."/>`.
    Skipped {
        /// Why it was skipped.
        message: String,
    },
}

/// One `<testcase>`.
#[derive(Debug, Clone, Default)]
pub struct TestCase {
    /// `classname`.
    pub classname: String,
    /// `name`.
    pub name: String,
    /// `file` and `line`, when a line of a file is to blame.
    pub location: Option<(String, usize)>,
    /// How it ended.
    pub verdict: Verdict,
    /// Its `<system-out>`, if any.
    pub system_out: Option<String>,
}

impl TestCase {
    /// Appends the `<testcase>` element: self-closed when it passed with nothing to
    /// say, else with its failure or skip and its `<system-out>`.
    pub fn write(&self, out: &mut String) {
        let _ = write!(
            out,
            "    <testcase classname=\"{}\" name=\"{}\"",
            escape(&self.classname),
            escape(&self.name)
        );
        if let Some((file, line)) = &self.location {
            let _ = write!(out, " file=\"{}\" line=\"{line}\"", escape(file));
        }
        if matches!(self.verdict, Verdict::Passed) && self.system_out.is_none() {
            out.push_str("/>\n");
            return;
        }
        out.push_str(">\n");
        match &self.verdict {
            Verdict::Passed => {}
            Verdict::Failure {
                message,
                kind,
                detail,
            } => {
                let kind = kind.map_or(String::new(), |k| format!(" type=\"{}\"", escape(k)));
                let _ = writeln!(
                    out,
                    "      <failure message=\"{}\"{kind}>{}</failure>",
                    escape(message),
                    escape(detail)
                );
            }
            Verdict::Skipped { message } => {
                let _ = writeln!(out, "      <skipped message=\"{}\"/>", escape(message));
            }
        }
        if let Some(text) = &self.system_out {
            let _ = writeln!(out, "      <system-out>{}</system-out>", escape(text));
        }
        out.push_str("    </testcase>\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_passing_case_is_self_closed_and_a_failure_carries_its_kind() {
        let mut out = String::new();
        let mut case = TestCase {
            classname: "reptest.x".into(),
            name: "a<b".into(),
            location: Some(("f&.toml".into(), 3)),
            ..TestCase::default()
        };
        case.write(&mut out);
        assert_eq!(
            out,
            "    <testcase classname=\"reptest.x\" name=\"a&lt;b\" file=\"f&amp;.toml\" line=\"3\"/>\n"
        );
        case.verdict = Verdict::Failure {
            message: "m\"".into(),
            kind: Some("stale"),
            detail: "d>".into(),
        };
        case.location = None;
        out.clear();
        case.write(&mut out);
        assert_eq!(
            out,
            "    <testcase classname=\"reptest.x\" name=\"a&lt;b\">\n      <failure message=\"m&quot;\" type=\"stale\">d&gt;</failure>\n    </testcase>\n"
        );
    }

    #[test]
    fn the_suite_names_the_root_only_when_asked() {
        let mut suite = Suite {
            name: "n",
            tests: 2,
            failures: 1,
            skipped_and_time: None,
            name_on_testsuites: false,
        };
        let mut out = String::new();
        open(&mut out, &suite);
        assert!(out.ends_with(
            "<testsuites tests=\"2\" failures=\"1\">\n  <testsuite name=\"n\" tests=\"2\" failures=\"1\">\n"
        ));
        suite.name_on_testsuites = true;
        suite.skipped_and_time = Some((1, Duration::from_millis(1500)));
        out.clear();
        open(&mut out, &suite);
        assert!(out.contains(
            "<testsuites name=\"n\" tests=\"2\" failures=\"1\" errors=\"0\" skipped=\"1\" time=\"1.500\">\n"
        ));
    }
}
