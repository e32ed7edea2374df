//! How each library is called in its own language: the import lines, the call that sets
//! `allowed` from `BODY`, `AGENT` and `TARGET`, the form of the URL it takes, and the
//! one-line install. Each call mirrors what the library's adapter does (harness/external
//! and harness/impls/src/crates), through the library's public API only, so the
//! reproducer shows what reptest saw.
//!
//! In a call, `{{ROBOTS_URL}}` stands for the robots.txt URL of the target's origin, as a
//! string literal of the language.

use super::Language;

/// The URL form a library takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// Absolute (a bare path is put under the default origin).
    Absolute,
    /// Path and query only.
    Path,
    /// As the corpus query gives it (a path or an absolute URL).
    AsGiven,
}

/// One library's reproducer recipe.
#[derive(Debug, Clone, Copy)]
pub struct Recipe {
    /// The implementation's name in reptest.
    pub implementation: &'static str,
    /// The reproducer's language.
    pub language: Language,
    /// The install line; `{version}` is the version the run reported.
    pub install: &'static str,
    /// Import lines.
    pub imports: &'static str,
    /// Statements that set `allowed` (a boolean).
    pub call: &'static str,
    /// The URL form the call takes.
    pub target: Target,
}

const fn recipe(
    implementation: &'static str,
    language: Language,
    install: &'static str,
    (imports, call): (&'static str, &'static str),
    target: Target,
) -> Recipe {
    Recipe {
        implementation,
        language,
        install,
        imports,
        call,
        target,
    }
}

use Language::{Go, Java, JavaScript, Perl, Python, Ruby, Rust};
use Target::{Absolute, AsGiven, Path};

/// Every library with a reproducer.
pub const RECIPES: &[Recipe] = &[
    recipe("python-urllib", Python, "python3 (urllib.robotparser is in the standard library; this is {version})", (
        "from urllib.robotparser import RobotFileParser",
        "# RobotFileParser.read() decodes the fetched body so: strict UTF-8, then splitlines().\nparser = RobotFileParser()\nparser.parse(BODY.decode(\"utf-8\").splitlines())\nallowed = parser.can_fetch(AGENT, TARGET)",
    ), Absolute),
    recipe("python-protego", Python, "pip install protego=={version}", (
        "from protego import Protego",
        "# Scrapy decodes the body so before it hands it to Protego.\nrobots = Protego.parse(BODY.decode(\"utf-8\", errors=\"ignore\"))\nallowed = robots.can_fetch(TARGET, AGENT)",
    ), Absolute),
    recipe("python-robotspy", Python, "pip install robotspy=={version}", (
        "import base64\nfrom robots import RobotsParser",
        "# from_uri() is the documented entry point; a data: URL hands it exactly BODY.\nparser = RobotsParser.from_uri(\"data:text/plain;base64,\" + base64.b64encode(BODY).decode())\nallowed = parser.can_fetch(AGENT, TARGET)",
    ), Absolute),
    recipe("python-robotexclusionrulesparser", Python, "pip install robotexclusionrulesparser=={version}", (
        "from robotexclusionrulesparser import RobotExclusionRulesParser",
        "parser = RobotExclusionRulesParser()\nparser.parse(BODY)\nallowed = parser.is_allowed(AGENT, TARGET)",
    ), Absolute),
    recipe("python-jwm-robotstxt", Python, "pip install jwm.robotstxt=={version}", (
        "from jwm.robotstxt import googlebot",
        "allowed = googlebot.RobotsMatcher().OneAgentAllowedByRobots(BODY, AGENT, TARGET)",
    ), Absolute),
    recipe("python-fast-robotstxt", Python, "pip install fast-robotstxt=={version}", (
        "from robotstxt import RobotsMatcher",
        "with RobotsMatcher() as matcher:\n    allowed = matcher.is_allowed(BODY.decode(\"utf-8\", errors=\"replace\"), AGENT, TARGET)",
    ), Absolute),
    recipe("python-gpyrobotstxt", Python, "pip install gpyrobotstxt=={version}", (
        "from gpyrobotstxt.robots_cc import RobotsMatcher",
        "allowed = RobotsMatcher().one_agent_allowed_by_robots(BODY, AGENT, TARGET)",
    ), Absolute),
    recipe("python-robots-txt-parser", Python, "pip install robots-txt-parser=={version}", (
        "from robotstxtparser import RobotExclusionRulesParser",
        "parser = RobotExclusionRulesParser()\nparser.parse(BODY)\nallowed = parser.is_allowed(AGENT, TARGET)",
    ), Absolute),
    recipe("python-reppy2", Python, "pip install reppy2=={version}", (
        "import time\nfrom reppy.parser import Rules",
        "# What reppy2's RobotsCache builds from a 200 response (Rules decodes the bytes itself).\nrules = Rules({{ROBOTS_URL}}, 200, BODY, time.time() + 3600)\nallowed = rules.allowed(TARGET, AGENT)",
    ), Absolute),
    recipe("python-fastrobots", Python, "pip install fastrobots=={version}", (
        "from fastrobots import Robots",
        "robots = Robots.parse(BODY.decode(\"utf-8\", errors=\"replace\"))\nallowed = robots.allowed(TARGET, AGENT)",
    ), Path),
    recipe("python-texting-robots-py", Python, "pip install texting-robots-py=={version}", (
        "from texting_robots import Robot",
        "allowed = Robot(AGENT, BODY).allowed(TARGET)",
    ), Absolute),
    recipe("python-ai-crawler-robots", Python, "pip install ai-crawler-robots=={version}", (
        "import ai_crawler_robots",
        "parsed = ai_crawler_robots.parse(BODY.decode(\"utf-8\", errors=\"replace\"))\nallowed = ai_crawler_robots.is_allowed(parsed, AGENT, TARGET)[\"allowed\"]",
    ), Path),
    recipe("python-susbot", Python, "pip install susbot=={version}", (
        "from susbot import Analysis",
        "allowed = Analysis(BODY.decode(\"utf-8\", errors=\"replace\")).allowed(AGENT, TARGET)",
    ), Path),
    recipe("python-respectscraper", Python, "pip install respectscraper=={version}", (
        "from respectscraper.robots import RobotsTxt",
        "# RobotsPolicy decodes a fetched body so before it parses it.\nrobots = RobotsTxt.parse(BODY.decode(\"utf-8\", errors=\"replace\"))\nallowed = robots.check(TARGET, AGENT)[0]",
    ), Absolute),
    recipe("node-robots-parser", JavaScript, "npm install robots-parser@{version}", (
        "const robotsParser = require('robots-parser');",
        "const robots = robotsParser({{ROBOTS_URL}}, BODY.toString('utf8'));\nconst allowed = robots.isAllowed(TARGET, AGENT);",
    ), Absolute),
    recipe("node-robots-txt-guard", JavaScript, "npm install robots-txt-guard@{version} robots-txt-parse@2.0.1", (
        "const { Readable } = require('stream');\nconst parse = require('robots-txt-parse');\nconst guard = require('robots-txt-guard');",
        "const config = await parse(Readable.from([BODY]));\nconst allowed = guard(config).isAllowed(AGENT, TARGET);",
    ), Path),
    recipe("node-robots-txt-parser", JavaScript, "npm install robots-txt-parser@{version}", (
        "const robotsTxtParser = require('robots-txt-parser');",
        "const parser = robotsTxtParser({ userAgent: '*' });\nparser.setUserAgent(AGENT || '*');\nparser.parseRobots({{ROBOTS_URL}}, BODY.toString('utf8'));\nconst allowed = await parser.canCrawl(TARGET);",
    ), Absolute),
    recipe("node-robots", JavaScript, "npm install robots@{version}", (
        "const robots = require('robots');",
        "// The library's read() splits a fetched body so.\nconst parser = new robots.RobotsParser();\nparser.parse(BODY.toString('utf8').split(/\\r\\n|\\r|\\n/));\nconst allowed = parser.canFetchSync(AGENT, TARGET);",
    ), Path),
    recipe("node-robots-txt", JavaScript, "npm install robots-txt@{version}", (
        "const http = require('http');\nconst makeRobot = require('robots-txt');",
        "// robots-txt reads robots.txt only by fetching it: serve BODY from 127.0.0.1.\nconst server = http.createServer((req, res) => res.end(BODY)).listen(0, '127.0.0.1');\nawait new Promise((resolve) => server.once('listening', resolve));\nconst origin = `http://127.0.0.1:${server.address().port}`;\nconst allowed = await makeRobot().isAllowed(AGENT, origin + TARGET);\nserver.close();",
    ), Path),
    recipe("go-temoto-robotstxt", Go, "go mod init repro && go get github.com/temoto/robotstxt@{version}", (
        "\"github.com/temoto/robotstxt\"",
        "robots, err := robotstxt.FromStatusAndBytes(200, body)\nif err != nil {\n\tpanic(err)\n}\nallowed := robots.FindGroup(agent).Test(target)",
    ), Path),
    recipe("go-grobotstxt", Go, "go mod init repro && go get github.com/jimsmart/grobotstxt@{version}", (
        "\"github.com/jimsmart/grobotstxt\"",
        "allowed := grobotstxt.NewRobotsMatcher().AgentAllowed(string(body), agent, target)",
    ), Absolute),
    recipe("java-crawler-commons", Java, "mvn dependency:get -Dartifact=com.github.crawler-commons:crawler-commons:{version}", (
        "import crawlercommons.robots.SimpleRobotRules;\nimport crawlercommons.robots.SimpleRobotRulesParser;\nimport java.util.List;",
        "SimpleRobotRules rules = new SimpleRobotRulesParser().parseContent(\n    {{ROBOTS_URL}}, BODY, \"text/plain\", SimpleRobotRulesParser.sanitizeRobotNames(List.of(AGENT)));\nboolean allowed = rules.isAllowed(TARGET);",
    ), Absolute),
    recipe("java-panforge-robots", Java, "mvn dependency:get -Dartifact=com.panforge:robots:{version}", (
        "import com.panforge.robotstxt.RobotsTxt;\nimport java.io.ByteArrayInputStream;",
        "RobotsTxt robots = RobotsTxt.read(new ByteArrayInputStream(BODY));\nboolean allowed = robots.query(AGENT, TARGET);",
    ), Path),
    recipe("java-heritrix", Java, "mvn dependency:get -Dartifact=org.archive.heritrix:heritrix-modules:{version}", (
        "import java.io.ByteArrayInputStream;\nimport java.io.InputStreamReader;\nimport org.archive.modules.net.Robotstxt;",
        "Robotstxt robots = new Robotstxt(\n    new InputStreamReader(new ByteArrayInputStream(BODY), StandardCharsets.UTF_8));\nboolean allowed = robots.getDirectivesFor(AGENT).allows(TARGET);",
    ), Path),
    recipe("perl-www-robotrules", Perl, "cpanm WWW::RobotRules (this is {version})", (
        "use WWW::RobotRules;",
        "my $rules = WWW::RobotRules->new($agent);\n$rules->parse({{ROBOTS_URL}}, $body);\nmy $allowed = $rules->allowed($target);",
    ), Absolute),
    recipe("ruby-webrobots", Ruby, "gem install webrobots -v {version}", (
        "require 'webrobots'",
        "robots = WebRobots.new(agent, http_get: ->(_uri) { body }, crawl_delay: :ignore)\nallowed = robots.allowed?(target)",
    ), Absolute),
    recipe("rust-robotstxt", Rust, "cargo new repro && cd repro && cargo add robotstxt@={version}", (
        "use robotstxt::DefaultMatcher;",
        "let body = String::from_utf8_lossy(BODY);\nlet allowed = DefaultMatcher::default().one_agent_allowed_by_robots(&body, AGENT, TARGET);",
    ), Absolute),
    recipe("rust-texting-robots", Rust, "cargo new repro && cd repro && cargo add texting_robots@={version}", (
        "use texting_robots::Robot;",
        "let robot = Robot::new(AGENT, BODY).expect(\"texting_robots could not parse the body\");\nlet allowed = robot.allowed(TARGET);",
    ), AsGiven),
    recipe("rust-robotxt", Rust, "cargo new repro && cd repro && cargo add robotxt@={version}", (
        "use robotxt::Robots;",
        "let robots = Robots::parse(BODY, AGENT);\nlet allowed = robots.is_allowed(TARGET);",
    ), Path),
    recipe("rust-robots-txt", Rust, "cargo new repro && cd repro && cargo add robots_txt@={version}", (
        "use robots_txt::{matcher::SimpleMatcher, Robots};",
        "let body = String::from_utf8_lossy(BODY);\nlet robots = Robots::from_str_lossy(&body);\nlet section = robots.choose_section(AGENT);\nlet allowed = SimpleMatcher::new(&section.rules).check_path(TARGET);",
    ), Path),
    recipe("rust-robotparser", Rust, "cargo new repro && cd repro && cargo add robotparser@={version} url@2", (
        "use robotparser::parser::parse_robots_txt;\nuse robotparser::service::RobotsTxtService;\nuse url::Url;",
        "let body = String::from_utf8_lossy(BODY);\nlet robots_url = Url::parse({{ROBOTS_URL}}).unwrap();\nlet robots = parse_robots_txt(robots_url.origin(), &body).get_result();\nlet allowed = robots.can_fetch(AGENT, &Url::parse(TARGET).unwrap());",
    ), Absolute),
    recipe("rust-cylon", Rust, "cargo new repro && cd repro && cargo add cylon@={version} pollster@1", (
        "use cylon::Compiler;",
        "let cylon = pollster::block_on(Compiler::new(AGENT).compile(BODY)).expect(\"cylon could not compile the body\");\nlet allowed = cylon.allow(TARGET.as_bytes());",
    ), Path),
    recipe("rust-robotstxt-rs", Rust, "cargo new repro && cd repro && cargo add robotstxt-rs@={version}", (
        "use robotstxt_rs::RobotsTxt;",
        "let body = String::from_utf8_lossy(BODY);\nlet allowed = RobotsTxt::parse(&body).can_fetch(AGENT, TARGET);",
    ), Path),
    recipe("rust-robotstxt-with-cache", Rust, "cargo new repro && cd repro && cargo add robotstxt-with-cache@={version}", (
        "use robotstxt_with_cache::{DefaultCachingMatcher, DefaultMatcher};",
        "let body = String::from_utf8_lossy(BODY);\nlet mut matcher = DefaultCachingMatcher::new(DefaultMatcher::default());\nmatcher.parse(&body);\nlet allowed = matcher.one_agent_allowed_by_robots(AGENT, TARGET);",
    ), Absolute),
];

/// The recipe of `implementation`, if it has one.
pub fn find(implementation: &str) -> Option<&'static Recipe> {
    RECIPES.iter().find(|r| r.implementation == implementation)
}
