//! The program around a library's call, per language: the header comment (title,
//! install, run, the RFC sentence), the query as literals, the call, then the lines every
//! reproducer prints and its exit status (1 while the answer differs from RFC 9309's).
//! The checker (harness/external/reproducers/check.py) reads the `actual:` line.

use super::literal;
use super::recipe::Recipe;
use super::Language;

/// What a reproducer holds besides its recipe.
#[derive(Debug, Clone)]
pub struct Query<'a> {
    /// The header comment's lines (no comment markers).
    pub header: Vec<String>,
    /// The body, exact bytes.
    pub body: &'a [u8],
    /// The file beside the reproducer that holds the body, when it is read from there.
    pub body_file: Option<&'a str>,
    /// The product token.
    pub agent: &'a str,
    /// The URL in the form the library takes.
    pub target: &'a str,
    /// The robots.txt URL of the target's origin.
    pub robots_url: &'a str,
    /// `allowed` or `disallowed`, per RFC 9309.
    pub expected: &'a str,
}

/// The reproducer's source text.
pub fn render(recipe: &Recipe, query: &Query<'_>) -> String {
    let language = recipe.language;
    let (skeleton, indent) = skeleton(language);
    let call = recipe.call.replace(
        "{{ROBOTS_URL}}",
        &literal::string(language, query.robots_url),
    );
    let call: Vec<String> = call
        .lines()
        .map(|line| {
            if line.is_empty() {
                String::new()
            } else {
                format!("{indent}{line}")
            }
        })
        .collect();
    let prefix = comment(language);
    let header: Vec<String> = query
        .header
        .iter()
        .map(|line| format!("{prefix}{line}").trim_end().to_string())
        .collect();
    fill(
        skeleton,
        &[
            ("HEADER", header.join("\n")),
            ("IMPORTS", recipe.imports.to_string()),
            ("BODY", body(language, query)),
            ("AGENT", literal::string(language, query.agent)),
            ("TARGET", literal::string(language, query.target)),
            ("EXPECTED", literal::string(language, query.expected)),
            ("CALL", call.join("\n")),
        ],
    )
}

/// `skeleton` with each `{{NAME}}` replaced by its value, in one pass (a value is never
/// read for placeholders, so a body that holds `{{AGENT}}` stays as it is).
fn fill(skeleton: &str, values: &[(&str, String)]) -> String {
    let mut out = String::with_capacity(skeleton.len() * 2);
    let mut rest = skeleton;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let value = after.find("}}").and_then(|end| {
            let name = &after[..end];
            let (_, value) = values.iter().find(|(n, _)| *n == name)?;
            Some((value, end))
        });
        match value {
            Some((value, end)) => {
                out.push_str(value);
                rest = &after[end + 2..];
            }
            None => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The body as a literal, or as the expression that reads its file.
fn body(language: Language, query: &Query<'_>) -> String {
    match query.body_file {
        Some(file) => literal::read_file(language, file),
        None => literal::body(language, query.body, "    "),
    }
}

/// The comment marker of a header line.
fn comment(language: Language) -> &'static str {
    match language {
        Language::Python | Language::Perl | Language::Ruby => "# ",
        _ => "// ",
    }
}

/// The program skeleton of `language` and the indent of the call inside it.
fn skeleton(language: Language) -> (&'static str, &'static str) {
    match language {
        Language::Python => (PYTHON, ""),
        Language::JavaScript => (JAVASCRIPT, "  "),
        Language::Go => (GO, "\t"),
        Language::Java => (JAVA, "    "),
        Language::Perl => (PERL, ""),
        Language::Ruby => (RUBY, ""),
        Language::Rust => (RUST, "    "),
    }
}

const PYTHON: &str = r#"{{HEADER}}
{{IMPORTS}}

BODY = {{BODY}}
AGENT = {{AGENT}}
TARGET = {{TARGET}}
EXPECTED = {{EXPECTED}}

{{CALL}}
actual = "allowed" if allowed else "disallowed"
print("expected:", EXPECTED)
print("actual:  ", actual)
raise SystemExit(0 if actual == EXPECTED else 1)
"#;

const JAVASCRIPT: &str = r#"{{HEADER}}
'use strict';
{{IMPORTS}}

const BODY = {{BODY}};
const AGENT = {{AGENT}};
const TARGET = {{TARGET}};
const EXPECTED = {{EXPECTED}};

(async () => {
{{CALL}}
  const actual = allowed ? 'allowed' : 'disallowed';
  console.log('expected:', EXPECTED);
  console.log('actual:  ', actual);
  process.exitCode = actual === EXPECTED ? 0 : 1;
})();
"#;

const GO: &str = r#"{{HEADER}}
package main

import (
	"fmt"
	"os"

	{{IMPORTS}}
)

var body = {{BODY}}

const (
	agent    = {{AGENT}}
	target   = {{TARGET}}
	expected = {{EXPECTED}}
)

func mustRead(name string) []byte {
	b, err := os.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return b
}

func main() {
{{CALL}}
	actual := "disallowed"
	if allowed {
		actual = "allowed"
	}
	fmt.Println("expected:", expected)
	fmt.Println("actual:  ", actual)
	if actual != expected {
		os.Exit(1)
	}
}
"#;

const JAVA: &str = r#"{{HEADER}}
import java.nio.charset.StandardCharsets;
{{IMPORTS}}

public class Repro {
  static final byte[] BODY = {{BODY}};

  static byte[] file(String name) {
    try {
      return java.nio.file.Files.readAllBytes(java.nio.file.Path.of(name));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
  static final String AGENT = {{AGENT}};
  static final String TARGET = {{TARGET}};
  static final String EXPECTED = {{EXPECTED}};

  public static void main(String[] args) throws Exception {
{{CALL}}
    String actual = allowed ? "allowed" : "disallowed";
    System.out.println("expected: " + EXPECTED);
    System.out.println("actual:   " + actual);
    System.exit(actual.equals(EXPECTED) ? 0 : 1);
  }
}
"#;

const PERL: &str = r#"{{HEADER}}
use strict;
use warnings;
{{IMPORTS}}

my $body = {{BODY}};
my $agent = {{AGENT}};
my $target = {{TARGET}};
my $expected = {{EXPECTED}};

{{CALL}}
my $actual = $allowed ? 'allowed' : 'disallowed';
print "expected: $expected\n";
print "actual:   $actual\n";
exit($actual eq $expected ? 0 : 1);
"#;

const RUBY: &str = r#"{{HEADER}}
{{IMPORTS}}

body = ({{BODY}}).b
agent = {{AGENT}}
target = {{TARGET}}
expected = {{EXPECTED}}

{{CALL}}
actual = allowed ? 'allowed' : 'disallowed'
puts "expected: #{expected}"
puts "actual:   #{actual}"
exit(actual == expected ? 0 : 1)
"#;

const RUST: &str = r#"{{HEADER}}
{{IMPORTS}}

const BODY: &[u8] = {{BODY}};
const AGENT: &str = {{AGENT}};
const TARGET: &str = {{TARGET}};
const EXPECTED: &str = {{EXPECTED}};

fn main() {
{{CALL}}
    let actual = if allowed { "allowed" } else { "disallowed" };
    println!("expected: {EXPECTED}");
    println!("actual:   {actual}");
    std::process::exit(if actual == EXPECTED { 0 } else { 1 });
}
"#;
