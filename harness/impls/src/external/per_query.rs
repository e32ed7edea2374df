//! Compatibility mode (`mode = "per-query"`): one process per query, in
//! google/robotstxt-spec-test's convention. The body goes to a temporary file;
//! `%robots%`, `%user-agent%` and `%url%` are replaced inside the arguments (never
//! through a shell); the verdict is the exit status or a regex on stdout.

use super::config::{AdapterSpec, Mode, Verdicts};
use super::process::Child;
use super::protocol::{excerpt, request_url};
use reptest_core::seconds;
use reptest_core::{Availability, Capabilities, CaseInput, ImplInfo, Implementation, Outcome};
use std::io::Write;
use std::process::ExitStatus;
use std::time::Instant;

/// An adapter run as one process per query.
pub struct PerQuery {
    spec: AdapterSpec,
    verdicts: Verdicts,
    info: ImplInfo,
    availability: Availability,
}

impl PerQuery {
    /// The adapter of `spec`, or `None` when `spec` is not in per-query mode.
    pub fn new(spec: AdapterSpec) -> Option<PerQuery> {
        let Mode::PerQuery {
            verdicts,
            full_urls,
        } = &spec.mode
        else {
            return None;
        };
        let availability = match &spec.program {
            Some(_) => Availability::Available,
            None => Availability::Unavailable {
                why: format!("program `{}` not found", spec.command[0]),
                fix: spec.fix.clone(),
            },
        };
        Some(PerQuery {
            info: ImplInfo {
                name: spec.name.clone(),
                version: "-".into(),
                language: spec.language.clone(),
                capabilities: Capabilities {
                    full_urls: *full_urls,
                    fetch_outcomes: false,
                    fetches: false,
                    reports_line: false,
                },
                kind: reptest_core::ImplKind::Process,
            },
            verdicts: verdicts.clone(),
            availability,
            spec,
        })
    }

    fn run_one(&self, robots: &str, agent: &str, url: &str) -> Outcome {
        let argv: Vec<String> = self
            .spec
            .command
            .iter()
            .map(|arg| substitute(arg, robots, agent, url))
            .collect();
        let deadline = Instant::now() + self.spec.timeout;
        let mut child = match Child::spawn(&argv, false, &self.spec.process_seeds) {
            Ok(child) => child,
            Err(e) => return Outcome::Error(format!("cannot start `{}`: {e}", argv[0])),
        };
        let timeout = |child: &Child| {
            let why = format!(
                "{}: no answer within {} (agent `{agent}`, URL `{url}`)",
                self.spec.name,
                seconds(self.spec.timeout)
            );
            Outcome::Timeout(child.with_stderr(why))
        };
        let Some(stdout) = child.read_to_end(deadline) else {
            return timeout(&child);
        };
        let Some(status) = child.wait_until(deadline) else {
            return timeout(&child);
        };
        self.judge(&child, status, &stdout)
    }

    fn judge(&self, child: &Child, status: ExitStatus, stdout: &[u8]) -> Outcome {
        let Some(code) = status.code() else {
            return Outcome::Crash(child.with_stderr(format!("{status}")));
        };
        match &self.verdicts {
            Verdicts::Exit {
                allowed,
                disallowed,
            } => match code {
                c if c == *allowed => verdict(true),
                c if c == *disallowed => verdict(false),
                _ => Outcome::Error(child.with_stderr(format!(
                    "{status}, neither allowed ({allowed}) nor disallowed ({disallowed})"
                ))),
            },
            Verdicts::Pattern {
                allowed,
                disallowed,
            } => {
                let text = String::from_utf8_lossy(stdout);
                match (allowed.find(&text), disallowed.find(&text)) {
                    (Some(_), None) => verdict(true),
                    (None, Some(_)) => verdict(false),
                    // `ALLOWED` inside `DISALLOWED`: the match that contains the other wins.
                    (Some(a), Some(d))
                        if d.start() <= a.start() && a.end() <= d.end() && d.len() > a.len() =>
                    {
                        verdict(false)
                    }
                    (Some(a), Some(d))
                        if a.start() <= d.start() && d.end() <= a.end() && a.len() > d.len() =>
                    {
                        verdict(true)
                    }
                    (a, _) => Outcome::Error(child.with_stderr(format!(
                        "{status}; stdout matches {} pattern: {}",
                        if a.is_some() {
                            "both the allowed and the disallowed"
                        } else {
                            "neither"
                        },
                        excerpt(stdout)
                    ))),
                }
            }
        }
    }
}

fn verdict(allowed: bool) -> Outcome {
    Outcome::Verdict {
        allowed,
        line: None,
    }
}

/// Replaces `%robots%`, `%user-agent%` and `%url%` in one argument, in a single pass (so
/// an agent containing `%url%` stays as it is).
fn substitute(arg: &str, robots: &str, agent: &str, url: &str) -> String {
    let mut out = String::with_capacity(arg.len());
    let mut rest = arg;
    'scan: while let Some(at) = rest.find('%') {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        for (token, value) in [
            ("%robots%", robots),
            ("%user-agent%", agent),
            ("%url%", url),
        ] {
            if let Some(after) = tail.strip_prefix(token) {
                out.push_str(value);
                rest = after;
                continue 'scan;
            }
        }
        out.push('%');
        rest = &tail[1..];
    }
    out.push_str(rest);
    out
}

impl Implementation for PerQuery {
    fn info(&self) -> &ImplInfo {
        &self.info
    }

    fn availability(&self) -> Availability {
        self.availability.clone()
    }

    fn evaluate(&self, case: &CaseInput<'_>) -> Vec<Outcome> {
        let file = tempfile::Builder::new()
            .prefix("reptest-robots-")
            .suffix(".txt")
            .tempfile()
            .and_then(|mut file| {
                file.write_all(case.robots)?;
                file.flush()?;
                Ok(file)
            });
        let file = match file {
            Ok(file) => file,
            Err(e) => {
                let why = format!("cannot write the body to a temporary file: {e}");
                return vec![Outcome::Error(why); case.queries.len()];
            }
        };
        let robots = file.path().to_string_lossy();
        case.queries
            .iter()
            .map(|q| {
                let url = request_url(q.url, self.info.capabilities.full_urls);
                self.run_one(&robots, q.agent, &url)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::substitute;

    #[test]
    fn substitution_is_single_pass() {
        assert_eq!(
            substitute("--robots=%robots%", "/tmp/r", "%url%", "/x"),
            "--robots=/tmp/r"
        );
        assert_eq!(substitute("%user-agent%", "/tmp/r", "%url%", "/x"), "%url%");
        assert_eq!(substitute("100%", "r", "a", "u"), "100%");
        assert_eq!(substitute("%%url%%", "r", "a", "/u"), "%/u%");
    }
}
