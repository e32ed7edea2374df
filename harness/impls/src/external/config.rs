//! Reading `adapters.toml` files (`harness/PROTOCOL.md`, "Registering an adapter") into
//! [`AdapterSpec`]s, with every problem reported by file, line and adapter name.

use regex::Regex;
use reptest_core::Environment;
use serde::Deserialize;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The most processes of one adapter that may run at once (`processes`).
pub const MAX_PROCESSES: usize = 8;

/// The per-request timeout when `timeout_ms` is not given.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);

/// One adapter as registered, placeholders `{dir}`, `{state}`, `{venv}`, `{npm_prefix}`,
/// `{bin}` resolved.
#[derive(Debug, Clone)]
pub struct AdapterSpec {
    /// The name for `--impl`.
    pub name: String,
    /// The language of the library.
    pub language: String,
    /// What it tests, pinned (informative).
    pub package: Option<String>,
    /// The argument vector; in per-query mode it still holds `%robots%`, `%url%`,
    /// `%user-agent%`.
    pub command: Vec<String>,
    /// Persistent process or one process per query.
    pub mode: Mode,
    /// The per-request (per-query) timeout.
    pub timeout: Duration,
    /// How many processes of it run at once in persistent mode (`processes`, default
    /// [`POOL_SIZE`](super::POOL_SIZE)).
    pub processes: usize,
    /// The `adapters.toml` it comes from.
    pub file: PathBuf,
    /// The line of its `[[adapter]]` table in that file.
    pub line: usize,
    /// The step that installs it.
    pub fix: String,
    /// Where `command[0]` was found when the registration was read ([`find_program`] on
    /// the [`Environment::search_path`]); `None`: not found.
    pub program: Option<PathBuf>,
    /// The fixed hash seeds its processes get ([`Environment::process_seeds`]).
    pub process_seeds: Vec<(&'static str, &'static str)>,
    /// A folder that must exist before it is started: the install of the newest
    /// releases, for a `NAME@latest` variant ([`Flavour::Latest`]); `None` for the pins.
    pub needs: Option<PathBuf>,
}

/// The suffix of the name of an adapter's newest-release variant: `python-protego@latest`.
pub const LATEST_SUFFIX: &str = "@latest";

/// Which install of its library an adapter's command runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavour {
    /// The pinned versions (`requirements.txt`, `package.json`, `go.mod`): `{venv}` is
    /// `STATE/venv`, `{npm_prefix}` the adapter's own folder and `{bin}` `STATE/bin`.
    Pinned,
    /// The newest releases, installed beside the pins by `bash harness/external/setup
    /// --latest`: `{venv}` is `STATE/venv-latest`, `{npm_prefix}` `STATE/node-latest` and
    /// `{bin}` `STATE/bin-latest`.
    Latest,
}

impl Flavour {
    /// The folder `{venv}` stands for under `state`.
    pub fn venv(self, state: &Path) -> PathBuf {
        match self {
            Flavour::Pinned => state.join("venv"),
            Flavour::Latest => state.join("venv-latest"),
        }
    }

    /// The folder `{bin}` (the adapter programs built by setup, the Go ones) stands for
    /// under `state`.
    pub fn bin(self, state: &Path) -> PathBuf {
        match self {
            Flavour::Pinned => state.join("bin"),
            Flavour::Latest => state.join("bin-latest"),
        }
    }

    /// The folder `{npm_prefix}` (whose `node_modules` holds the npm packages) stands for,
    /// for an adapter in `dir` under `state`.
    pub fn npm_prefix(self, dir: &Path, state: &Path) -> PathBuf {
        match self {
            Flavour::Pinned => dir.to_path_buf(),
            Flavour::Latest => state.join("node-latest"),
        }
    }
}

/// How reptest talks to an adapter.
#[derive(Debug, Clone)]
pub enum Mode {
    /// Protocol v1 over one long-running process.
    Persistent,
    /// One process per query (google/robotstxt-spec-test's convention).
    PerQuery {
        /// How the verdict is read.
        verdicts: Verdicts,
        /// `%url%` is the absolute URL (otherwise the path and query).
        full_urls: bool,
    },
}

/// How a per-query process tells its verdict.
#[derive(Debug, Clone)]
pub enum Verdicts {
    /// By its exit status.
    Exit {
        /// The status meaning allowed.
        allowed: i32,
        /// The status meaning disallowed.
        disallowed: i32,
    },
    /// By regexes on its stdout.
    Pattern {
        /// Matches output meaning allowed.
        allowed: Regex,
        /// Matches output meaning disallowed.
        disallowed: Regex,
    },
}

/// A problem in an `adapters.toml`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// The file.
    pub file: PathBuf,
    /// The line of the adapter's table, when known.
    pub line: Option<usize>,
    /// The adapter's name, when known.
    pub name: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if let Some(name) = &self.name {
            write!(f, ": adapter `{name}`")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for LoadError {}

/// Everything read from a set of `adapters.toml` files.
#[derive(Debug, Clone, Default)]
pub struct Registry {
    /// The adapters, in file order (files in folder-name order).
    pub adapters: Vec<AdapterSpec>,
    /// Their newest-release variants (`NAME@latest`, [`Flavour::Latest`]), in the same
    /// order: one for each adapter whose command names `{venv}`, `{npm_prefix}` or `{bin}` (unless
    /// it says `latest = false`). They are not among [`Registry::adapters`]: a run
    /// takes one only when it is named.
    pub latest: Vec<AdapterSpec>,
    /// The problems found; a malformed entry is left out of `adapters`.
    pub errors: Vec<LoadError>,
}

/// The folder of the adapters reptest ships: `harness/external`.
pub fn builtin_dir() -> PathBuf {
    let adapters_crate = Path::new(env!("CARGO_MANIFEST_DIR"));
    adapters_crate
        .parent()
        .unwrap_or(adapters_crate)
        .join("external")
}

/// Where external implementations are installed: the environment's
/// [`Environment::state_dir`] (`REPTEST_STATE`), else `harness/external/.state`.
pub fn state_dir(environment: &Environment) -> PathBuf {
    match environment.state_dir() {
        Some(dir) => dir.to_path_buf(),
        None => builtin_dir().join(".state"),
    }
}

/// Every `adapters.toml` reptest reads: `harness/external/*/adapters.toml`, then one in
/// each of the environment's [`Environment::adapter_dirs`] (`REPTEST_ADAPTERS`).
pub fn default_files(environment: &Environment) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(builtin_dir())
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path().join("adapters.toml"))
        .filter(|file| file.is_file())
        .collect();
    files.sort();
    files.extend(
        environment
            .adapter_dirs()
            .iter()
            .map(|dir| dir.join("adapters.toml")),
    );
    files
}

/// Reads `files` (a missing one is an error), resolving `{state}` to [`state_dir`] and
/// each program on the environment's search path.
pub fn load(files: &[PathBuf], environment: &Environment) -> Registry {
    let mut registry = Registry::default();
    for file in files {
        load_file(file, environment, &mut registry);
    }
    registry
}

/// Reads one `adapters.toml` into `registry` under `environment` (as [`load`]); names
/// already there are duplicates.
pub fn load_file(file: &Path, environment: &Environment, registry: &mut Registry) {
    let error = |line, name: Option<&str>, message: String| LoadError {
        file: file.to_path_buf(),
        line,
        name: name.map(str::to_string),
        message,
    };
    let text = match reptest_core::lines::read_text(file, reptest_core::lines::MAX_TEXT_FILE) {
        Ok(text) => text,
        Err(e) => {
            registry
                .errors
                .push(error(None, None, format!("cannot read: {e}")));
            return;
        }
    };
    let parsed: File = match toml::from_str(&text) {
        Ok(parsed) => parsed,
        Err(e) => {
            let line = e
                .span()
                .map(|span| reptest_corpus::line_of(&text, span.start));
            let message = e.message().to_string();
            registry.errors.push(error(line, None, message));
            return;
        }
    };
    let dir = file.parent().unwrap_or(Path::new("."));
    let state = state_dir(environment);
    let context = Context {
        dir,
        state: &state,
        environment,
        fix: fix_for(dir, Flavour::Pinned),
        flavour: Flavour::Pinned,
    };
    let latest = Context {
        fix: fix_for(dir, Flavour::Latest),
        flavour: Flavour::Latest,
        ..context.clone()
    };
    for table in parsed.adapter {
        let line = reptest_corpus::line_of(&text, table.span().start);
        let table = table.into_inner();
        let name = table
            .get("name")
            .and_then(|v| v.as_str())
            .map(str::to_string);
        let raw = Raw::deserialize(toml::Value::Table(table)).map_err(|e| e.message().to_string());
        let spec = raw
            .as_ref()
            .map_err(Clone::clone)
            .and_then(|raw| raw.resolve(&context));
        match spec {
            Ok(spec) if registry.adapters.iter().any(|a| a.name == spec.name) => {
                let first = registry
                    .adapters
                    .iter()
                    .find(|a| a.name == spec.name)
                    .map(|a| format!("{}:{}", a.file.display(), a.line))
                    .unwrap_or_default();
                registry.errors.push(error(
                    Some(line),
                    name.as_deref(),
                    format!("the name is taken (by {first})"),
                ));
            }
            Ok(mut spec) => {
                spec.file = file.to_path_buf();
                spec.line = line;
                registry.adapters.push(spec);
                // Its newest-release variant, made by the same code in the other flavour.
                let variant = raw
                    .as_ref()
                    .ok()
                    .filter(|raw| raw.offers_latest())
                    .and_then(|raw| raw.resolve(&latest).ok());
                if let Some(mut variant) = variant {
                    variant.file = file.to_path_buf();
                    variant.line = line;
                    registry.latest.push(variant);
                }
            }
            Err(message) => registry
                .errors
                .push(error(Some(line), name.as_deref(), message)),
        }
    }
}

/// The step that installs the adapters of `dir` in `flavour`: the setup entry point for a
/// folder of `harness/external` (with `--latest` for the newest releases), a `setup.sh`
/// beside a folder of one's own.
fn fix_for(dir: &Path, flavour: Flavour) -> String {
    let builtin = builtin_dir();
    let latest = if flavour == Flavour::Latest {
        "--latest "
    } else {
        ""
    };
    match dir.parent() {
        Some(parent) if parent == builtin => format!(
            "bash harness/external/setup {latest}{}",
            dir.file_name().unwrap_or_default().to_string_lossy()
        ),
        _ if flavour == Flavour::Latest => format!(
            "install the newest releases of what {} needs into {} or {}",
            dir.join("adapters.toml").display(),
            flavour.venv(Path::new("STATE")).display(),
            flavour.npm_prefix(dir, Path::new("STATE")).display()
        ),
        _ if dir.join("setup.sh").is_file() => {
            format!("bash {}", dir.join("setup.sh").display())
        }
        _ => format!("install what {} needs", dir.join("adapters.toml").display()),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    adapter: Vec<toml::Spanned<toml::Table>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    /// Whether it has a `NAME@latest` variant (default: when `command` names `{venv}` or
    /// `{npm_prefix}`).
    #[serde(default)]
    latest: Option<bool>,
    name: String,
    language: String,
    #[serde(default)]
    package: Option<String>,
    command: Vec<String>,
    #[serde(default)]
    mode: Option<String>,
    #[serde(default)]
    timeout_ms: Option<u64>,
    #[serde(default)]
    processes: Option<usize>,
    #[serde(default)]
    allowed_exit: Option<i32>,
    #[serde(default)]
    disallowed_exit: Option<i32>,
    #[serde(default)]
    allowed_pattern: Option<String>,
    #[serde(default)]
    disallowed_pattern: Option<String>,
    #[serde(default)]
    full_urls: Option<bool>,
}

#[derive(Clone)]
struct Context<'a> {
    dir: &'a Path,
    state: &'a Path,
    environment: &'a Environment,
    fix: String,
    flavour: Flavour,
}

/// The placeholders whose folder depends on the [`Flavour`].
const FLAVOURED: [&str; 3] = ["{venv}", "{npm_prefix}", "{bin}"];

impl Raw {
    /// Whether it has a newest-release variant: `latest`, else whether its command names
    /// a folder that depends on the flavour.
    fn offers_latest(&self) -> bool {
        self.latest.unwrap_or_else(|| self.flavoured())
    }

    /// Whether its command names `{venv}`, `{npm_prefix}` or `{bin}`.
    fn flavoured(&self) -> bool {
        self.command
            .iter()
            .any(|arg| FLAVOURED.iter().any(|p| arg.contains(p)))
    }

    /// The adapter in `context`'s flavour: as written for the pins, as `NAME@latest` with
    /// the newest-release folders for [`Flavour::Latest`].
    fn resolve(&self, context: &Context<'_>) -> Result<AdapterSpec, String> {
        if self.name.is_empty()
            || self.name == "all"
            || self
                .name
                .chars()
                .any(|c| c.is_whitespace() || c == ',' || c.is_control())
        {
            return Err(format!(
                "`name = {:?}`: a name is non-empty, not `all`, without spaces or commas",
                self.name
            ));
        }
        if self.name.contains('@') {
            return Err(format!(
                "`name = {:?}`: `@` is kept for the newest-release variants (`NAME{LATEST_SUFFIX}`)",
                self.name
            ));
        }
        if self.latest == Some(true) && !self.flavoured() {
            return Err(
                "`latest = true` needs `{venv}`, `{npm_prefix}` or `{bin}` in `command` (the folders `setup --latest` installs the newest releases into)"
                    .into(),
            );
        }
        if self.language.trim().is_empty() {
            return Err("`language` is empty".into());
        }
        if self.command.is_empty() || self.command[0].is_empty() {
            return Err("`command` needs at least a program".into());
        }
        let command = self
            .command
            .iter()
            .map(|arg| substitute(arg, context))
            .collect::<Result<Vec<_>, _>>()?;
        let timeout = match self.timeout_ms {
            Some(0) => return Err("`timeout_ms` must be positive".into()),
            Some(ms) => Duration::from_millis(ms),
            None => DEFAULT_TIMEOUT,
        };
        let processes = match self.processes {
            Some(0) => return Err("`processes` must be positive".into()),
            Some(n) if n > MAX_PROCESSES => {
                return Err(format!(
                    "`processes` may be {MAX_PROCESSES} at most, not {n}"
                ))
            }
            Some(n) => n,
            None => super::POOL_SIZE,
        };
        let mode = match self.mode.as_deref() {
            None | Some("persistent") => {
                let per_query_keys = [
                    ("allowed_exit", self.allowed_exit.is_some()),
                    ("disallowed_exit", self.disallowed_exit.is_some()),
                    ("allowed_pattern", self.allowed_pattern.is_some()),
                    ("disallowed_pattern", self.disallowed_pattern.is_some()),
                    ("full_urls", self.full_urls.is_some()),
                ];
                if let Some((key, _)) = per_query_keys.iter().find(|(_, set)| *set) {
                    return Err(format!(
                        "`{key}` is for `mode = \"per-query\"` (a persistent adapter tells its capabilities in the handshake)"
                    ));
                }
                Mode::Persistent
            }
            Some("per-query") => Mode::PerQuery {
                verdicts: self.verdicts()?,
                full_urls: self.full_urls.unwrap_or(true),
            },
            Some(other) => {
                return Err(format!(
                    "`mode = {other:?}`: expected \"persistent\" (the default) or \"per-query\""
                ))
            }
        };
        if matches!(mode, Mode::PerQuery { .. })
            && !self.command.iter().any(|arg| arg.contains("%robots%"))
        {
            return Err("a per-query `command` needs a `%robots%` argument".into());
        }
        let (name, package, needs) = match context.flavour {
            Flavour::Pinned => (self.name.clone(), self.package.clone(), None),
            Flavour::Latest => (
                format!("{}{LATEST_SUFFIX}", self.name),
                self.package
                    .as_deref()
                    .map(|p| format!("{} (newest release)", unpinned(p))),
                Some(self.latest_folder(context)),
            ),
        };
        Ok(AdapterSpec {
            name,
            language: self.language.clone(),
            package,
            program: find_program(&command[0], context.environment.search_path()),
            process_seeds: context.environment.process_seeds().to_vec(),
            command,
            mode,
            timeout,
            processes,
            file: PathBuf::new(),
            line: 0,
            fix: context.fix.clone(),
            needs,
        })
    }

    /// The folder holding the newest releases its command runs: the latest venv when the
    /// command names `{venv}`, the latest programs for `{bin}`, else the latest npm prefix.
    fn latest_folder(&self, context: &Context<'_>) -> PathBuf {
        let names = |placeholder: &str| self.command.iter().any(|arg| arg.contains(placeholder));
        if names("{venv}") {
            Flavour::Latest.venv(context.state)
        } else if names("{bin}") {
            Flavour::Latest.bin(context.state)
        } else {
            Flavour::Latest.npm_prefix(context.dir, context.state)
        }
    }

    fn verdicts(&self) -> Result<Verdicts, String> {
        let exits = self.allowed_exit.is_some() || self.disallowed_exit.is_some();
        match (&self.allowed_pattern, &self.disallowed_pattern) {
            (None, None) => {
                let allowed = self.allowed_exit.unwrap_or(0);
                let disallowed = self.disallowed_exit.unwrap_or(1);
                if allowed == disallowed {
                    return Err(format!(
                        "`allowed_exit` and `disallowed_exit` are both {allowed}"
                    ));
                }
                Ok(Verdicts::Exit {
                    allowed,
                    disallowed,
                })
            }
            (Some(allowed), Some(disallowed)) if !exits => Ok(Verdicts::Pattern {
                allowed: compile("allowed_pattern", allowed)?,
                disallowed: compile("disallowed_pattern", disallowed)?,
            }),
            (Some(_), Some(_)) => {
                Err("give exit statuses or patterns, not both".into())
            }
            _ => Err(
                "give both `allowed_pattern` and `disallowed_pattern` (output matching neither is an error)"
                    .into(),
            ),
        }
    }
}

fn compile(key: &str, pattern: &str) -> Result<Regex, String> {
    Regex::new(pattern).map_err(|e| format!("`{key}` is not a valid regex: {e}"))
}

/// A package string without its pin: `protego` for `protego==0.7.0`, `robots-parser` for
/// `robots-parser@3.0.1`, `github.com/temoto/robotstxt` for `github.com/temoto/robotstxt
/// v1.1.2`, each part of `a@1 + b@2`.
fn unpinned(package: &str) -> String {
    package
        .split(" + ")
        .map(|part| {
            let part = part.split_whitespace().next().unwrap_or(part);
            let part = part.split("==").next().unwrap_or(part);
            match part.rfind('@') {
                Some(at) if at > 0 => &part[..at],
                _ => part,
            }
        })
        .collect::<Vec<_>>()
        .join(" + ")
}

/// Replaces `{dir}`, `{state}`, `{venv}`, `{npm_prefix}` and `{bin}` (the last three by
/// the context's [`Flavour`]) in one argument; any other `{word}` is an error (a typo would otherwise
/// start a program that does not exist).
fn substitute(arg: &str, context: &Context<'_>) -> Result<String, String> {
    let mut out = String::with_capacity(arg.len());
    let mut rest = arg;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let word_len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        if word_len == 0 || !after[word_len..].starts_with('}') {
            out.push('{');
            rest = after;
            continue;
        }
        let word = &after[..word_len];
        match word {
            "dir" => out.push_str(&context.dir.to_string_lossy()),
            "state" => out.push_str(&context.state.to_string_lossy()),
            "venv" => out.push_str(&context.flavour.venv(context.state).to_string_lossy()),
            "bin" => out.push_str(&context.flavour.bin(context.state).to_string_lossy()),
            "npm_prefix" => out.push_str(
                &context
                    .flavour
                    .npm_prefix(context.dir, context.state)
                    .to_string_lossy(),
            ),
            _ => {
                return Err(format!(
                    "unknown placeholder `{{{word}}}` in `command` (known: {{dir}}, {{state}}, {{venv}}, {{npm_prefix}}, {{bin}})"
                ))
            }
        }
        rest = &after[word_len + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Where `program` is: itself when it names a path (has a `/`), else the first match in
/// `search_path` (the [`Environment::search_path`], `PATH`); `None` when there is no such
/// file.
pub fn find_program(program: &str, search_path: &[PathBuf]) -> Option<PathBuf> {
    let path = Path::new(program);
    if path.components().count() > 1 || path.is_absolute() {
        return path.is_file().then(|| path.to_path_buf());
    }
    search_path
        .iter()
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Registry {
        let dir = std::env::temp_dir().join(format!(
            "reptest-config-{}-{}",
            std::process::id(),
            text.len()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("adapters.toml");
        std::fs::write(&file, text).unwrap();
        let mut registry = Registry::default();
        let environment = Environment::default().with_state_dir("/state");
        load_file(&file, &environment, &mut registry);
        std::fs::remove_dir_all(&dir).unwrap();
        registry
    }

    /// The registry's errors, in order: as many as `fragments`, each containing its own.
    fn assert_errors(r: &Registry, fragments: &[&str]) {
        let messages: Vec<String> = r.errors.iter().map(|e| e.to_string()).collect();
        assert_eq!(messages.len(), fragments.len(), "{messages:#?}");
        for (message, fragment) in messages.iter().zip(fragments) {
            assert!(message.contains(fragment), "{message}\nlacks: {fragment}");
        }
    }

    #[test]
    fn placeholders_and_defaults() {
        let r = parse(
            "[[adapter]]\nname = \"x\"\nlanguage = \"Python\"\npackage = \"p==1\"\ncommand = [\"{venv}/bin/python\", \"{dir}/a.py\", \"{state}/s\", \"{\\\"json\\\"}\"]\n",
        );
        assert!(r.errors.is_empty(), "{:?}", r.errors);
        let a = &r.adapters[0];
        assert_eq!(a.command[0], "/state/venv/bin/python");
        assert!(a.command[1].ends_with("/a.py") && a.command[1].starts_with('/'));
        assert_eq!(a.command[2], "/state/s");
        assert_eq!(a.command[3], "{\"json\"}");
        assert_eq!(a.timeout, DEFAULT_TIMEOUT);
        assert_eq!(a.line, 1);
        assert!(matches!(a.mode, Mode::Persistent));
    }

    /// `processes` sets the size of an adapter's process pool; two when it is not given,
    /// and neither none nor more than [`MAX_PROCESSES`].
    #[test]
    fn processes_default_to_the_pool_size_within_bounds() {
        let adapter = |name: &str, processes: &str| {
            format!("[[adapter]]\nname = \"{name}\"\nlanguage = \"Go\"\ncommand = [\"x\"]\n{processes}\n")
        };
        let r = parse(
            &[
                adapter("default", ""),
                adapter("three", "processes = 3"),
                adapter("none", "processes = 0"),
                adapter("many", "processes = 9"),
            ]
            .concat(),
        );
        let pools: Vec<(&str, usize)> = r
            .adapters
            .iter()
            .map(|a| (a.name.as_str(), a.processes))
            .collect();
        assert_eq!(pools, [("default", super::super::POOL_SIZE), ("three", 3)]);
        assert_errors(
            &r,
            &["`processes` must be positive", "may be 8 at most, not 9"],
        );
    }

    #[test]
    fn errors_name_file_line_and_adapter() {
        let r = parse(
            "[[adapter]]\nname = \"good\"\nlanguage = \"Go\"\ncommand = [\"x\"]\n\n[[adapter]]\nname = \"typo\"\nlanguage = \"Go\"\ncomand = [\"x\"]\n\n[[adapter]]\nname = \"good\"\nlanguage = \"Go\"\ncommand = [\"{nope}\"]\n\n[[adapter]]\nname = \"pq\"\nlanguage = \"C\"\nmode = \"per-query\"\ncommand = [\"x\", \"%robots%\"]\nallowed_pattern = \"(\"\ndisallowed_pattern = \"D\"\n\n[[adapter]]\nname = \"good\"\nlanguage = \"Go\"\ncommand = [\"y\"]\n",
        );
        assert_eq!(r.adapters.len(), 1);
        assert_errors(
            &r,
            &[
                "adapters.toml:6: adapter `typo`: unknown field `comand`",
                ":11: adapter `good`: unknown placeholder `{nope}`",
                ":16: adapter `pq`: `allowed_pattern` is not a valid regex",
                ":24: adapter `good`: the name is taken",
            ],
        );
    }

    /// An adapter whose command names `{venv}` or `{npm_prefix}` has a `NAME@latest`
    /// variant running the same command from the newest-release folders, which it needs;
    /// `latest = false` opts out, `latest = true` without such a folder is an error, and
    /// `@` is kept for the variants.
    #[test]
    fn latest_variants_swap_the_flavoured_folders() {
        let r = parse(
            "[[adapter]]\nname = \"py\"\nlanguage = \"Python\"\npackage = \"protego==0.7.0\"\ncommand = [\"{venv}/bin/python\", \"{dir}/a.py\"]\n\n[[adapter]]\nname = \"js\"\nlanguage = \"JavaScript\"\npackage = \"a@1.0.0 + b@2\"\ncommand = [\"node\", \"{dir}/a.js\", \"{npm_prefix}\"]\n\n[[adapter]]\nname = \"std\"\nlatest = false\nlanguage = \"Python\"\ncommand = [\"{venv}/bin/python\"]\n\n[[adapter]]\nname = \"go\"\nlanguage = \"Go\"\npackage = \"example.com/x v1.0.0\"\ncommand = [\"{bin}/x\"]\n\n[[adapter]]\nname = \"java\"\nlanguage = \"Java\"\ncommand = [\"{state}/java/x\"]\n\n[[adapter]]\nname = \"bad\"\nlatest = true\nlanguage = \"Go\"\ncommand = [\"{state}/bin/x\"]\n\n[[adapter]]\nname = \"x@latest\"\nlanguage = \"Go\"\ncommand = [\"x\"]\n",
        );
        let names: Vec<&str> = r.adapters.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["py", "js", "std", "go", "java"]);
        let latest: Vec<&str> = r.latest.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(latest, ["py@latest", "js@latest", "go@latest"]);
        assert_eq!(r.adapters[3].command[0], "/state/bin/x");
        assert_eq!(r.latest[2].command[0], "/state/bin-latest/x");
        assert_eq!(r.latest[2].needs, Some(PathBuf::from("/state/bin-latest")));
        assert_eq!(
            r.latest[2].package.as_deref(),
            Some("example.com/x (newest release)")
        );
        let (py, py_latest) = (&r.adapters[0], &r.latest[0]);
        assert_eq!(py.command[0], "/state/venv/bin/python");
        assert_eq!(py_latest.command[0], "/state/venv-latest/bin/python");
        assert_eq!(py.command[1], py_latest.command[1]);
        assert_eq!(py.needs, None);
        assert_eq!(py_latest.needs, Some(PathBuf::from("/state/venv-latest")));
        assert_eq!(
            py_latest.package.as_deref(),
            Some("protego (newest release)")
        );
        assert_eq!(py_latest.line, py.line);
        let (js, js_latest) = (&r.adapters[1], &r.latest[1]);
        // Pinned, `{npm_prefix}` is the adapter's own folder, `{dir}`.
        assert_eq!(js.command[1], format!("{}/a.js", js.command[2]));
        assert_eq!(js_latest.command[2], "/state/node-latest");
        assert_eq!(js_latest.needs, Some(PathBuf::from("/state/node-latest")));
        assert_eq!(js_latest.package.as_deref(), Some("a + b (newest release)"));
        assert!(
            js_latest.fix.contains("newest releases"),
            "{}",
            js_latest.fix
        );
        assert_errors(
            &r,
            &[
                "adapter `bad`: `latest = true` needs `{venv}`, `{npm_prefix}` or `{bin}`",
                "adapter `x@latest`: `name = \"x@latest\"`: `@` is kept",
            ],
        );
    }

    /// The fix of a shipped adapter's variant is the setup entry point with `--latest`.
    #[test]
    fn latest_fixes_name_setup_latest() {
        let dir = builtin_dir().join("python");
        assert_eq!(
            fix_for(&dir, Flavour::Pinned),
            "bash harness/external/setup python"
        );
        assert_eq!(
            fix_for(&dir, Flavour::Latest),
            "bash harness/external/setup --latest python"
        );
    }

    #[test]
    fn syntax_errors_have_a_line() {
        let r = parse("[[adapter]]\nname = \"x\nlanguage = 1\n");
        assert_eq!(r.errors.len(), 1);
        assert_eq!(r.errors[0].line, Some(2), "{}", r.errors[0]);
    }

    #[test]
    fn per_query_modes() {
        let r = parse(
            "[[adapter]]\nname = \"a\"\nlanguage = \"C\"\nmode = \"per-query\"\ncommand = [\"x\", \"%robots%\"]\n\n[[adapter]]\nname = \"b\"\nlanguage = \"C\"\nmode = \"per-query\"\ncommand = [\"x\", \"%robots%\"]\nallowed_pattern = \"^A\"\ndisallowed_pattern = \"^D\"\nfull_urls = false\ntimeout_ms = 300\n\n[[adapter]]\nname = \"c\"\nlanguage = \"C\"\nmode = \"per-query\"\ncommand = [\"x\", \"%robots%\"]\nallowed_pattern = \"^A\"\n\n[[adapter]]\nname = \"d\"\nlanguage = \"C\"\ncommand = [\"x\"]\nallowed_exit = 0\n",
        );
        assert!(matches!(
            r.adapters[0].mode,
            Mode::PerQuery {
                verdicts: Verdicts::Exit {
                    allowed: 0,
                    disallowed: 1
                },
                full_urls: true
            }
        ));
        assert!(matches!(
            r.adapters[1].mode,
            Mode::PerQuery {
                verdicts: Verdicts::Pattern { .. },
                full_urls: false
            }
        ));
        assert_eq!(r.adapters[1].timeout, Duration::from_millis(300));
        assert_eq!(r.errors.len(), 2, "{:?}", r.errors);
        assert!(r.errors[0].message.contains("both `allowed_pattern`"));
        assert!(r.errors[1]
            .message
            .contains("is for `mode = \"per-query\"`"));
    }
}
