//! Reads case files and validates them into the model, collecting every problem.

use crate::body_builder;
use crate::error::{Error, Problem};
use crate::model::{
    Cache, Case, ContentEncoding, Dimension, Expect, Fetch, Level, NetworkFault, Query,
};
use crate::names;
use crate::requirements::{RequirementIndex, RequirementLevel};
use crate::toml_shape;
use crate::vocabulary::{OutcomeWord, Profile};
use crate::{line_of, Corpus};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// The question catalogue's file name, at the top of a corpus folder (not a case file).
pub(crate) const QUESTIONS: &str = "questions.toml";

pub(crate) fn load_dir(dir: &Path) -> Result<Corpus, Error> {
    let mut files = Vec::new();
    collect_toml(dir, &mut files).map_err(|message| single(dir, message))?;
    let questions = dir.join(QUESTIONS);
    files.retain(|file| *file != questions);
    files.sort();
    if files.is_empty() {
        return Err(single(
            dir,
            "no *.toml case files found below this folder".into(),
        ));
    }
    let questions = match std::fs::read_to_string(&questions) {
        Ok(text) => Some((questions, text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(single(&questions, format!("cannot read: {e}"))),
    };
    load_with_questions(&dir.join("requirements.md"), &files, questions)
}

/// Loads case files given one by one; their `question` fields are not checked (the
/// catalogue's examples may live in other files).
pub(crate) fn load_files(requirements: &Path, files: &[PathBuf]) -> Result<Corpus, Error> {
    load_with_questions(requirements, files, None)
}

fn load_with_questions(
    requirements: &Path,
    files: &[PathBuf],
    questions: Option<(PathBuf, String)>,
) -> Result<Corpus, Error> {
    let index_text = std::fs::read_to_string(requirements).map_err(|e| {
        single(
            requirements,
            format!("cannot read the requirement index: {e}"),
        )
    })?;
    let version_file = requirements.with_file_name("VERSION");
    let version = std::fs::read_to_string(&version_file).ok();
    let mut problems = Vec::new();
    let mut texts = Vec::new();
    for file in files {
        match std::fs::read_to_string(file) {
            Ok(text) => texts.push((file.clone(), text)),
            Err(e) => problems.push(problem(file, None, None, format!("cannot read: {e}"))),
        }
    }
    load_texts(
        (requirements, &index_text),
        version.as_deref().map(|v| (version_file.as_path(), v)),
        questions.as_ref().map(|(p, t)| (p.as_path(), t.as_str())),
        &texts,
        problems,
    )
}

/// Loads a corpus from texts already read: the requirement index, the `VERSION` file if
/// any, the question catalogue if any, and the case files, each with the path its
/// problems are reported under.
pub(crate) fn load_texts(
    (index_path, index_text): (&Path, &str),
    version: Option<(&Path, &str)>,
    questions: Option<(&Path, &str)>,
    files: &[(PathBuf, String)],
    mut problems: Vec<Problem>,
) -> Result<Corpus, Error> {
    let index = RequirementIndex::parse(index_text).map_err(|(line, message)| {
        Error::new(vec![problem(index_path, Some(line), None, message)])
    })?;
    let mut cases = Vec::new();
    // Every case id with its place, valid case or not: a case dropped for another
    // problem still takes its id, so a duplicate of it is reported too.
    let mut ids = Vec::new();
    for (file, text) in files {
        cases.extend(parse_file(file, text, &index, &mut problems, &mut ids));
    }
    check_unique_ids(&ids, &mut problems);
    let version = version.and_then(|(file, text)| read_version(file, text, &mut problems));
    let questions = questions.map_or_else(Vec::new, |(file, text)| {
        crate::questions::load(file, text, &cases, &index, &mut problems)
    });
    if problems.is_empty() {
        Ok(Corpus::from_parts(cases, index, version, questions))
    } else {
        Err(Error::new(problems))
    }
}

/// The text of a `VERSION` file: `MAJOR.MINOR.PATCH`.
fn read_version(file: &Path, text: &str, problems: &mut Vec<Problem>) -> Option<String> {
    let version = text.trim().to_string();
    let valid = version.split('.').count() == 3
        && version
            .split('.')
            .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()));
    if valid {
        Some(version)
    } else {
        problems.push(problem(
            file,
            Some(1),
            None,
            format!("`{version}` is not a version: write MAJOR.MINOR.PATCH, e.g. 1.0.0"),
        ));
        None
    }
}

fn collect_toml(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read the folder: {e}"))?;
    for entry in entries {
        let path = entry
            .map_err(|e| format!("cannot read the folder: {e}"))?
            .path();
        if path.is_dir() {
            collect_toml(&path, out)?;
        } else if path.extension().is_some_and(|ext| ext == "toml") {
            out.push(path);
        }
    }
    Ok(())
}

/// Parses one file; problems go to `problems`, the cases that validated are returned.
fn parse_file(
    file: &Path,
    text: &str,
    index: &RequirementIndex,
    problems: &mut Vec<Problem>,
    ids: &mut Vec<(String, PathBuf, usize)>,
) -> Vec<Case> {
    let raw: toml_shape::File = match toml::from_str(text) {
        Ok(raw) => raw,
        Err(e) => {
            let line = e.span().map(|span| line_of(text, span.start));
            let message = e.message().to_owned();
            problems.push(problem(
                file,
                line,
                None,
                format!("invalid case file: {message}"),
            ));
            return Vec::new();
        }
    };
    if raw.case.is_empty() {
        problems.push(problem(file, None, None, "no [[case]] tables".into()));
    }
    let mut cases = Vec::new();
    for raw_case in raw.case {
        ids.push((
            raw_case.id.get_ref().clone(),
            file.to_path_buf(),
            line_of(text, raw_case.id.span().start),
        ));
        let mut check = Checker {
            file,
            text,
            index,
            problems,
            case: raw_case.id.get_ref().clone(),
            ok: true,
        };
        if let Some(case) = check.case(raw_case) {
            if check.ok {
                cases.push(case);
            }
        }
    }
    cases
}

struct Checker<'a> {
    file: &'a Path,
    text: &'a str,
    index: &'a RequirementIndex,
    problems: &'a mut Vec<Problem>,
    case: String,
    ok: bool,
}

impl Checker<'_> {
    fn fail(&mut self, line: usize, message: impl Into<String>) {
        self.ok = false;
        self.problems.push(problem(
            self.file,
            Some(line),
            Some(self.case.clone()),
            message.into(),
        ));
    }

    /// The bytes of a `robots` value; an error names the line of the file where the
    /// bad escape is (the case's line when that cannot be told).
    fn robots_body(
        &self,
        robots: &toml::Spanned<String>,
        unescape: bool,
        case_line: usize,
    ) -> Result<Vec<u8>, (usize, String)> {
        body_builder::text_at(robots.get_ref(), unescape).map_err(|(offset, message)| {
            let start = robots.span().start;
            let opening = self.text.get(start..).unwrap_or_default();
            let line = if opening.starts_with("\'\'\'") || opening.starts_with("\"\"\"") {
                // A multi-line string: its lines are the file's, after the newline that
                // TOML trims right after the opening quotes.
                let trimmed = opening[3..].starts_with('\n') || opening[3..].starts_with("\r\n");
                line_of(self.text, start)
                    + usize::from(trimmed)
                    + robots.get_ref()[..offset].matches('\n').count()
            } else if start > 0 {
                line_of(self.text, start)
            } else {
                case_line
            };
            (line, message)
        })
    }

    fn case(&mut self, raw: toml_shape::Case) -> Option<Case> {
        let line = line_of(self.text, raw.id.span().start);
        let id = raw.id.into_inner();
        if id.is_empty()
            || !id
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        {
            self.fail(
                line,
                "the id must be lowercase ASCII letters, digits and `-`",
            );
        }
        if raw.title.trim().is_empty() {
            self.fail(line, "the title is empty");
        }
        let body = match (&raw.robots, &raw.body) {
            (Some(robots), None) => self.robots_body(robots, raw.unescape, line),
            (None, Some(segments)) => {
                body_builder::generate(segments, raw.unescape).map_err(|message| (line, message))
            }
            _ => Err((line, "give exactly one of `robots` or `body`".into())),
        };
        let body = body.unwrap_or_else(|(line, message)| {
            self.fail(line, message);
            Vec::new()
        });
        let mut dimensions = Vec::new();
        for name in &raw.dimensions {
            match Dimension::parse(name) {
                Some(d) => dimensions.push(d),
                None => self.fail(
                    line,
                    format!("unknown dimension `{name}` (known: {})", dimension_names()),
                ),
            }
        }
        let fetch = raw.fetch.map(|fetch| self.fetch(line, fetch, raw.unescape));
        if raw.query.is_empty() {
            self.fail(line, "a case needs at least one [[case.query]]");
        }
        let defaults = Defaults {
            requirements: raw.requirements.as_deref(),
            level: raw.level.as_deref(),
            question: raw.question.as_deref(),
        };
        let mut queries = Vec::new();
        for (n, query) in raw.query.into_iter().enumerate() {
            queries.extend(self.query(&id, n + 1, query, &defaults));
        }
        self.check_unique_names(&queries);
        Some(Case {
            id,
            title: raw.title,
            body,
            dimensions,
            fetch,
            queries,
            file: self.file.to_path_buf(),
            line,
        })
    }

    fn fetch(&mut self, line: usize, raw: toml_shape::Fetch, unescaped: bool) -> Fetch {
        if let Some(status) = raw.status {
            if !(100..=599).contains(&status) {
                self.fail(
                    line,
                    format!("fetch.status {status} is not an HTTP status (100-599)"),
                );
            }
        }
        let cache = raw.cache.map(|cache| Cache {
            age_hours: cache.age_hours,
            body: body_builder::text(&cache.robots, unescaped).unwrap_or_else(|message| {
                self.fail(line, format!("fetch.cache.robots: {message}"));
                Vec::new()
            }),
        });
        let fault = raw.fault.as_deref().and_then(|word| {
            let fault = NetworkFault::parse(word);
            if fault.is_none() {
                self.fail(
                    line,
                    format!(
                        "fetch.fault `{word}` is not one of `refused`, `reset`, `never-completes`"
                    ),
                );
            }
            fault
        });
        if fault.is_some() && raw.status.is_some() {
            self.fail(
                line,
                "fetch.fault and fetch.status exclude each other: a network fault has no final status",
            );
        }
        if fault == Some(NetworkFault::Refused) && raw.redirects > 0 && !raw.cross_origin {
            self.fail(
                line,
                "fetch.fault `refused` after redirects needs cross_origin = true: the authority \
                 that just answered with a redirect cannot refuse the connection",
            );
        }
        if raw.cross_origin && raw.redirects == 0 {
            self.fail(
                line,
                "fetch.cross_origin needs redirects of 1 or more (the last one crosses)",
            );
        }
        let content_encoding = raw.content_encoding.as_deref().and_then(|word| {
            let encoding = ContentEncoding::parse(word);
            if encoding.is_none() {
                self.fail(
                    line,
                    format!("fetch.content_encoding `{word}` is not `gzip`"),
                );
            }
            encoding
        });
        if let Some(content_type) = &raw.content_type {
            let token = |part: &str| {
                !part.is_empty()
                    && part
                        .bytes()
                        .all(|b| b.is_ascii_graphic() && !b"()<>@,;:\\\"/[]?={}".contains(&b))
            };
            let essence = content_type.split(';').next().unwrap_or("").trim();
            let well_formed = content_type
                .bytes()
                .all(|b| b == b' ' || b.is_ascii_graphic())
                && essence
                    .split_once('/')
                    .is_some_and(|(kind, subtype)| token(kind) && token(subtype));
            if !well_formed {
                self.fail(
                    line,
                    format!("fetch.content_type `{content_type}` is not a media type (type/subtype, printable ASCII)"),
                );
            }
        }
        Fetch {
            status: raw.status,
            network_error: raw.network_error || fault.is_some(),
            fault,
            redirects: raw.redirects,
            cross_origin: raw.cross_origin,
            content_encoding,
            content_type: raw.content_type,
            cache,
        }
    }

    /// Query `number` of case `case_id`, checked, with the case's defaults filled in;
    /// `None` when a problem leaves it without a name, expectation or level.
    fn query(
        &mut self,
        case_id: &str,
        number: usize,
        raw: toml_shape::Query,
        defaults: &Defaults<'_>,
    ) -> Option<Query> {
        let line = line_of(self.text, raw.agent.span().start);
        let at = format!("query {number}: ");
        let agent = raw.agent.into_inner();
        if agent.is_empty() {
            self.fail(line, format!("{at}the agent is empty"));
        }
        if raw.url.is_empty() {
            self.fail(line, format!("{at}the url is empty"));
        }
        let name = self.name(raw.name, &agent, &raw.url, line);
        if raw.why.trim().is_empty() {
            self.fail(
                line,
                format!("{at}`why` is empty: say what in the RFC decides this"),
            );
        }
        let expect = Expect::parse(&raw.expect);
        if expect.is_none() {
            self.fail(
                line,
                format!(
                    "{at}expect `{}` is not allowed, disallowed or either",
                    raw.expect
                ),
            );
        }
        let requirements = raw
            .requirements
            .or_else(|| defaults.requirements.map(<[String]>::to_vec))
            .unwrap_or_default();
        if requirements.is_empty() {
            self.fail(
                line,
                format!("{at}no requirements: give `requirements` on the query or the case"),
            );
        }
        let level = self.level(
            &at,
            line,
            raw.level.as_deref().or(defaults.level),
            &requirements,
        );
        let profiles = self.profiles(&at, line, raw.profiles);
        let observed = self.observed(&at, line, raw.observed);
        Some(Query {
            id: names::id(case_id, name.as_deref()?),
            name: name?,
            agent,
            url: raw.url,
            expect: expect?,
            requirements,
            level: level?,
            why: raw.why,
            profiles,
            triage: raw.triage,
            question: raw
                .question
                .or_else(|| defaults.question.map(str::to_owned)),
            hits: raw.hits,
            observed,
            line,
        })
    }

    /// A query's expectations per profile; `at` names the query in messages.
    fn profiles(
        &mut self,
        at: &str,
        line: usize,
        raw: BTreeMap<String, String>,
    ) -> BTreeMap<Profile, Expect> {
        let mut profiles = BTreeMap::new();
        for (name, verdict) in raw {
            let profile = name.parse::<Profile>();
            if profile.is_err() {
                self.fail(
                    line,
                    format!(
                        "{at}unknown profile `{name}` (known: {})",
                        Profile::names().join(", ")
                    ),
                );
            }
            match Expect::parse(&verdict) {
                Some(v) => {
                    if let Ok(profile) = profile {
                        profiles.insert(profile, v);
                    }
                }
                None => self.fail(
                    line,
                    format!("{at}profile verdict `{verdict}` is not allowed, disallowed or either"),
                ),
            }
        }
        profiles
    }

    /// What each implementation answered to a query when it was recorded; `at` names the
    /// query in messages.
    fn observed(
        &mut self,
        at: &str,
        line: usize,
        raw: BTreeMap<String, String>,
    ) -> BTreeMap<String, OutcomeWord> {
        let mut observed = BTreeMap::new();
        for (name, word) in raw {
            if name.is_empty() {
                self.fail(
                    line,
                    format!("{at}observed: an implementation name is empty"),
                );
            }
            match word.parse::<OutcomeWord>() {
                Ok(word) => {
                    observed.insert(name, word);
                }
                Err(e) => self.fail(line, format!("{at}observed `{name}` = {e}")),
            }
        }
        observed
    }
}

impl Checker<'_> {
    /// The query's level: the one written on it or its case, which must be the level of
    /// a cited requirement, else the cited requirements' own ([`level_of`]); `None` after
    /// reporting why not. Unknown requirement IDs are reported here too.
    fn level(
        &mut self,
        at: &str,
        line: usize,
        written: Option<&str>,
        requirements: &[String],
    ) -> Option<Level> {
        let mut levels = Vec::new();
        for id in requirements {
            match self.index.resolve(id) {
                Some(entry) => levels.push(entry.level),
                None => self.fail(line, format!("{at}unknown requirement ID `{id}`")),
            }
        }
        let all_known = !levels.is_empty() && levels.len() == requirements.len();
        let level = match written {
            Some(text) => {
                let level = Level::parse(text);
                if level.is_none() {
                    self.fail(
                        line,
                        format!("{at}level must be MUST, SHOULD or MAY, found `{text}`"),
                    );
                }
                level
            }
            None if all_known => match level_of(&levels) {
                Ok(level) => Some(level),
                Err(message) => {
                    self.fail(line, format!("{at}{message}"));
                    None
                }
            },
            // Unknown requirements are reported above: no level to tell.
            None => None,
        };
        if let (Some(level), true) = (level, all_known) {
            let fits = levels.contains(&RequirementLevel::Rfc(level))
                || (level == Level::May && levels.iter().all(|l| *l == RequirementLevel::Profile));
            if !fits {
                self.fail(
                    line,
                    format!("{at}level {level} is not the level of any cited requirement"),
                );
            }
        }
        level
    }

    /// The query's name: the given one when valid, else the one derived from its agent
    /// and URL when that is short enough to read (`corpus/README.md`, *Query names and
    /// ids*); `None` after reporting why not.
    fn name(
        &mut self,
        given: Option<toml::Spanned<String>>,
        agent: &str,
        url: &str,
        line: usize,
    ) -> Option<String> {
        if let Some(given) = given {
            let at = line_of(self.text, given.span().start);
            let name = given.into_inner();
            return match names::check_given(&name) {
                Ok(()) => Some(name),
                Err(e) => {
                    self.fail(at, format!("name `{name}` is not allowed: {e}"));
                    None
                }
            };
        }
        let name = names::derived(agent, url);
        let length = name.chars().count();
        if length > names::MAX_DERIVED {
            let start: String = name.chars().take(40).collect();
            self.fail(
                line,
                format!(
                    "the name derived from this query's agent and URL (`{start}…`) is {length} \
                     characters long, over {}: give the query a short `name` (ASCII letters, \
                     digits, `.`, `_`, `-`)",
                    names::MAX_DERIVED
                ),
            );
            return None;
        }
        Some(name)
    }

    /// Two queries of one case with the same name are an error at the second, naming the
    /// first's line: their ids would collide.
    fn check_unique_names(&mut self, queries: &[Query]) {
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for query in queries {
            if let Some(first) = seen.get(query.name.as_str()) {
                let message = format!(
                    "query name `{}` is also the name of the query at line {first}, so their ids \
                     would collide: give one of them a `name` (ASCII letters, digits, `.`, `_`, \
                     `-`; e.g. `name = \"second\"`)",
                    query.name
                );
                self.fail(query.line, message);
            } else {
                seen.insert(&query.name, query.line);
            }
        }
    }
}

/// The level a query takes from the requirements it cites when neither it nor its case
/// gives one: the one level of its RFC requirements, or `MAY` when it cites profile IDs
/// only (RFC 9309 leaves widely deployed behaviour outside its requirements). Cited RFC
/// requirements of different levels leave the choice to the author.
fn level_of(levels: &[RequirementLevel]) -> Result<Level, String> {
    let mut rfc: Vec<Level> = levels
        .iter()
        .filter_map(|level| match level {
            RequirementLevel::Rfc(level) => Some(*level),
            RequirementLevel::Profile => None,
        })
        .collect();
    rfc.sort();
    rfc.dedup();
    match rfc.as_slice() {
        [] => Ok(Level::May),
        [level] => Ok(*level),
        several => {
            let names: Vec<&str> = several.iter().map(|l| l.as_str()).collect();
            Err(format!(
                "the cited requirements are {}: give `level` (on the query or the case)",
                names.join(" and ")
            ))
        }
    }
}

/// What a case gives its queries when they give nothing themselves.
struct Defaults<'a> {
    /// The case's `requirements`.
    requirements: Option<&'a [String]>,
    /// The case's `level`.
    level: Option<&'a str>,
    /// The case's `question`.
    question: Option<&'a str>,
}

fn check_unique_ids(ids: &[(String, PathBuf, usize)], problems: &mut Vec<Problem>) {
    let mut seen: HashMap<&str, (&Path, usize)> = HashMap::new();
    for (id, file, line) in ids {
        if let Some((first_file, first_line)) = seen.get(id.as_str()) {
            problems.push(problem(
                file,
                Some(*line),
                Some(id.clone()),
                format!(
                    "duplicate case id, first used at {}:{first_line}",
                    first_file.display()
                ),
            ));
        } else {
            seen.insert(id, (file, *line));
        }
    }
}

fn dimension_names() -> String {
    Dimension::ALL.map(Dimension::as_str).join(", ")
}

fn problem(file: &Path, line: Option<usize>, case: Option<String>, message: String) -> Problem {
    Problem {
        file: file.to_path_buf(),
        line,
        case,
        message,
    }
}

fn single(path: &Path, message: String) -> Error {
    Error::new(vec![problem(path, None, None, message)])
}
