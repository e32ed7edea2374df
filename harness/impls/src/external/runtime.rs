//! The runtime an external adapter runs on, for the provenance of a survey: the Python,
//! Node.js, JVM, Go, Perl or Ruby version, told by the language of its registration
//! (`adapters.toml`) and the program it starts.
//!
//! | language | program | asked with | gives |
//! | --- | --- | --- | --- |
//! | Python | `python*` | `--version` | `Python 3.11.2` |
//! | JavaScript | `node*` | `--version` | `Node.js v18.19.0` |
//! | Java | `java*` | `-version` | `openjdk version "17.0.13" 2024-10-15` |
//! | Perl | `perl*` | `-e 'print "Perl $^V"'` | `Perl v5.36.0` |
//! | Ruby | `ruby*` | `--version` | `ruby 3.1.2p20 (2022-04-12 revision 4491bb740a) [x86_64-linux-gnu]` |
//! | Go | the adapter's binary | its build information, read from the file (as `go version FILE` does) | `Go 1.22.1` |
//! | Rust, C, C++ | the adapter's binary | nothing: native code runs on no runtime | `Rust, native code` |
//!
//! An adapter whose program is not its language's interpreter (a wrapper script, say)
//! is never started to ask: its runtime is "version unknown", with the reason. Each
//! distinct question is asked once however many adapters share the runtime (the Python
//! adapters share the venv's interpreter), all at once, each bounded by a timeout; the
//! first non-empty line of the answer (stdout, else stderr) is kept, at most
//! [`MAX_ANSWER`] characters of it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::config::AdapterSpec;
use super::process::Child;

/// At most this many characters of a runtime's answer are kept.
pub const MAX_ANSWER: usize = 120;

/// A Go binary larger than this is not read for its build information.
const MAX_GO_BINARY: u64 = 512 << 20;

/// How to learn the version of one runtime.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Probe {
    /// Run the interpreter with these arguments; the answer is prefixed with `label`.
    Run {
        /// The argument vector, the interpreter's path first.
        argv: Vec<String>,
        /// Put before the answer (`Node.js `), or empty.
        label: &'static str,
    },
    /// Read the Go version from the build information of the Go binary at this path.
    GoBinary(PathBuf),
    /// A program compiled to native code (Rust, C, C++), which runs on no runtime: its
    /// language.
    Native(String),
    /// The version cannot be asked: the language, and why.
    Unknown(String, String),
}

/// The probe for `spec`'s runtime (see the [module](self) table).
pub fn probe_of(spec: &AdapterSpec) -> Probe {
    let unknown = |why: String| Probe::Unknown(spec.language.clone(), why);
    let Some(program) = &spec.program else {
        let name = spec.command.first().map_or("", String::as_str);
        return unknown(format!("`{name}` not found"));
    };
    let language = spec.language.to_ascii_lowercase();
    match language.as_str() {
        "go" => return Probe::GoBinary(program.clone()),
        "rust" | "c" | "c++" | "cpp" => return Probe::Native(spec.language.clone()),
        _ => {}
    }
    let Some((interpreter, args, label)) = interpreter_of(&language) else {
        return unknown(format!("no known way to ask a {} runtime", spec.language));
    };
    let file = program
        .file_name()
        .map(|n| n.to_string_lossy().into_owned());
    if !file.as_deref().unwrap_or("").starts_with(interpreter) {
        return unknown(format!(
            "`{}` is not a {interpreter} interpreter",
            program.display()
        ));
    }
    let mut argv = vec![program.display().to_string()];
    argv.extend(args.iter().map(|a| a.to_string()));
    Probe::Run { argv, label }
}

/// The interpreter's program name, the arguments that make it say its version and the
/// label put before the answer, by lowercase language.
fn interpreter_of(language: &str) -> Option<(&'static str, &'static [&'static str], &'static str)> {
    Some(match language {
        "python" => ("python", &["--version"], ""),
        "javascript" | "typescript" | "node.js" => ("node", &["--version"], "Node.js "),
        "java" | "kotlin" | "scala" => ("java", &["-version"], ""),
        "perl" => ("perl", &["-e", "print qq{Perl $^V\\n}"], ""),
        "ruby" => ("ruby", &["--version"], ""),
        _ => return None,
    })
}

impl Probe {
    /// The runtime's version as this probe learns it, within `timeout`; `seeds` are set
    /// for a started program as for the adapter ([`AdapterSpec::process_seeds`]).
    pub fn answer(&self, timeout: Duration, seeds: &[(&str, &str)]) -> String {
        match self {
            Probe::Run { argv, label } => match ask(argv, timeout, seeds) {
                Ok(answer) => format!("{label}{answer}"),
                Err(why) => format!("{}, version unknown: {why}", argv[0]),
            },
            Probe::GoBinary(path) => match go_version(path) {
                Some(version) => format!("Go {}", version.trim_start_matches("go")),
                None => format!(
                    "Go, version unknown: no build information in {}",
                    path.display()
                ),
            },
            Probe::Native(language) => format!("{language}, native code"),
            Probe::Unknown(language, why) => format!("{language}, version unknown: {why}"),
        }
    }
}

/// The variables a started program gets ([`AdapterSpec::process_seeds`]).
type Seeds = [(&'static str, &'static str)];

/// The runtime of every adapter of `specs`, by name: each distinct [`Probe`] is answered
/// once, all of them at once, each within `timeout`.
pub fn runtimes(specs: &[&AdapterSpec], timeout: Duration) -> BTreeMap<String, String> {
    // Each probe, with the adapters it answers for and the seeds its program gets.
    let mut probes: BTreeMap<Probe, (Vec<String>, &Seeds)> = BTreeMap::new();
    for spec in specs {
        let entry = probes
            .entry(probe_of(spec))
            .or_insert_with(|| (Vec::new(), &spec.process_seeds));
        entry.0.push(spec.name.clone());
    }
    std::thread::scope(|scope| {
        let asked: Vec<_> = probes
            .iter()
            .map(|(probe, (names, seeds))| {
                (names, scope.spawn(move || probe.answer(timeout, seeds)))
            })
            .collect();
        let mut runtimes = BTreeMap::new();
        for (names, answer) in asked {
            let answer = answer
                .join()
                .unwrap_or_else(|_| "version unknown: its probe panicked".into());
            for name in names {
                runtimes.insert(name.clone(), answer.clone());
            }
        }
        runtimes
    })
}

/// Runs `argv` and returns the first non-empty line it writes (stdout, else stderr),
/// killing it after `timeout`.
fn ask(argv: &[String], timeout: Duration, seeds: &[(&str, &str)]) -> Result<String, String> {
    let deadline = Instant::now() + timeout;
    let mut child = Child::spawn(argv, false, seeds).map_err(|e| format!("cannot start: {e}"))?;
    let stdout = child.read_to_end(deadline);
    let exited = child.wait_until(deadline);
    let stderr = child.stderr_tail();
    child.kill();
    if exited.is_none() {
        return Err(format!("no answer within {} s", timeout.as_secs_f64()));
    }
    let stdout = String::from_utf8_lossy(stdout.as_deref().unwrap_or_default()).into_owned();
    // The stderr tail's lines are joined by ` | `.
    let first = |text: &str, separator: &str| {
        text.split(separator)
            .map(str::trim)
            .find(|line| !line.is_empty())
            .map(|line| line.chars().take(MAX_ANSWER).collect::<String>())
    };
    first(&stdout, "\n")
        .or_else(|| first(&stderr, " | "))
        .ok_or_else(|| "it said nothing".to_string())
}

/// The magic that starts a Go binary's build information.
const GO_BUILDINFO: &[u8] = b"\xff Go buildinf:";

/// The Go version (`go1.22.1`) recorded in the Go binary at `path`: its build
/// information's header is the magic `\xff Go buildinf:`, a pointer size, a flags octet
/// and padding to 32 octets; from Go 1.18 (flag 2) the version follows inline as a
/// length-prefixed (unsigned varint) string.
pub fn go_version(path: &Path) -> Option<String> {
    if std::fs::metadata(path).ok()?.len() > MAX_GO_BINARY {
        return None;
    }
    go_version_in(&std::fs::read(path).ok()?)
}

/// [`go_version`] of a binary's octets.
fn go_version_in(binary: &[u8]) -> Option<String> {
    let at = binary
        .windows(GO_BUILDINFO.len())
        .position(|w| w == GO_BUILDINFO)?;
    let header = binary.get(at..at + 32)?;
    if header[15] & 2 == 0 {
        return None;
    }
    let (length, used) = uvarint(binary.get(at + 32..)?)?;
    let start = at + 32 + used;
    let version = binary.get(start..start.checked_add(usize::try_from(length).ok()?)?)?;
    let version = std::str::from_utf8(version).ok()?;
    version.starts_with("go").then(|| version.to_string())
}

/// An unsigned LEB128 varint at the start of `bytes`, and the octets it took.
fn uvarint(bytes: &[u8]) -> Option<(u64, usize)> {
    let mut value = 0u64;
    for (i, byte) in bytes.iter().take(10).enumerate() {
        value |= u64::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            return Some((value, i + 1));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::external::config::Mode;

    fn spec(name: &str, language: &str, program: Option<&str>) -> AdapterSpec {
        AdapterSpec {
            name: name.into(),
            language: language.into(),
            package: None,
            command: vec![program.unwrap_or("missing").into()],
            mode: Mode::Persistent,
            timeout: Duration::from_secs(1),
            processes: 2,
            file: PathBuf::from("adapters.toml"),
            line: 1,
            fix: String::new(),
            program: program.map(PathBuf::from),
            process_seeds: Vec::new(),
            needs: None,
        }
    }

    #[test]
    fn an_interpreter_is_asked_and_anything_else_is_not_started() {
        let python = probe_of(&spec("a", "Python", Some("/venv/bin/python3")));
        assert_eq!(
            python,
            Probe::Run {
                argv: vec!["/venv/bin/python3".into(), "--version".into()],
                label: ""
            }
        );
        let wrapper = probe_of(&spec("b", "Python", Some("/x/run-adapter.sh")));
        assert!(matches!(wrapper, Probe::Unknown(..)), "{wrapper:?}");
        let go = probe_of(&spec("c", "Go", Some("/state/bin/go-x")));
        assert_eq!(go, Probe::GoBinary("/state/bin/go-x".into()));
        let missing = probe_of(&spec("d", "Ruby", None)).answer(Duration::from_secs(1), &[]);
        assert_eq!(missing, "Ruby, version unknown: `missing` not found");
        let cobol = probe_of(&spec("e", "COBOL", Some("/bin/cobc")));
        assert!(matches!(cobol, Probe::Unknown(..)), "{cobol:?}");
        let native = probe_of(&spec("f", "Rust", Some("/bin/x"))).answer(Duration::ZERO, &[]);
        assert_eq!(native, "Rust, native code");
    }

    #[test]
    fn adapters_of_one_runtime_ask_it_once_and_share_its_answer() {
        // A language the table does not know: answered without starting anything.
        let a = spec("a", "COBOL", Some("/bin/cobc"));
        let b = spec("b", "COBOL", Some("/bin/cobc"));
        let both = runtimes(&[&a, &b], Duration::from_secs(1));
        assert_eq!(both.len(), 2);
        assert_eq!(both["a"], both["b"]);
        assert!(both["a"].starts_with("COBOL, version unknown"), "{both:?}");
    }

    #[cfg(unix)]
    #[test]
    fn an_answer_is_the_first_line_and_a_silent_or_slow_program_is_bounded() {
        let sh = |script: &str| vec!["/bin/sh".to_string(), "-c".into(), script.into()];
        let second = Duration::from_secs(5);
        assert_eq!(
            ask(&sh("echo; echo 'X 1.2'; echo Y"), second, &[]).unwrap(),
            "X 1.2"
        );
        assert_eq!(ask(&sh("echo 'J 17' >&2"), second, &[]).unwrap(), "J 17");
        assert!(ask(&sh("true"), second, &[])
            .unwrap_err()
            .contains("nothing"));
        let started = Instant::now();
        let slow = ask(&sh("sleep 30"), Duration::from_millis(300), &[]).unwrap_err();
        assert!(slow.contains("no answer within 0.3 s"), "{slow}");
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn a_go_version_is_read_from_the_build_information() {
        let mut binary = b"\x7fELF padding".to_vec();
        let start = binary.len();
        binary.extend_from_slice(GO_BUILDINFO);
        // Pointer size 8, flags: version inline; padding to 32 octets.
        binary.extend_from_slice(&[8, 2]);
        binary.resize(start + 32, 0);
        binary.push(8);
        binary.extend_from_slice(b"go1.22.1\0\0");
        assert_eq!(go_version_in(&binary).as_deref(), Some("go1.22.1"));
        // Before Go 1.18 the version is behind a pointer: not read.
        binary[start + 15] = 0;
        assert_eq!(go_version_in(&binary), None);
        assert_eq!(go_version_in(b"no magic"), None);
        assert_eq!(uvarint(&[0x96, 0x01]), Some((150, 2)));
    }
}
