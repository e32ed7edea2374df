"""reptest adapters for Python robots.txt libraries: `python adapter.py LIBRARY`.

Each library is one small factory below that imports the library and returns either
- (`batch=True`: protocol 2) a function `parse(body: bytes)` that parses the body once
  and returns a matcher `matcher(agent: str, url: str) -> bool` (True = allowed), asked
  once per query of the request: libraries that parse once and check many; or
- a verdict function `check(body: bytes, agent: str, url: str) -> bool` (protocol 1):
  the ports of Google's parser (jwm.robotstxt, fast-robotstxt, gpyrobotstxt), whose API
  parses the body anew on every call for one agent and one URL, so they cannot parse
  once and check many.
Either builds a fresh parser for every request, never shared between requests.
reptest_protocol.serve does the rest of the protocol.

The body arrives as the exact bytes of the robots.txt. For each library it is handed
over the way that library's own fetch path (or its usual caller's) would hand it over,
so BOMs, CR, NUL and invalid UTF-8 meet the same decoding they would meet in a crawler:
each factory says which. `url` is always absolute (full_urls: true): every library here
accepts an absolute URL. None of them needs the robots.txt URL itself: the two that
fetch (urllib.robotparser, robotspy) are given a data: URL holding the body instead.

Those two also fetch for real (capability `fetches`, harness/PROTOCOL.md): for a fetch
case, reptest names the robots.txt URL on its loopback site, and the library's own
fetching API gets it (status, redirects, faults and all): FETCHERS below. What is the
adapter's there is said at each: the timeout it gives the fetch, and turning an exception
out of the library into an `error` answer (never a verdict).

`python adapter.py --list` imports every library and prints its name and version
(setup.sh runs it as a smoke check).
"""

from __future__ import annotations

import base64
import importlib.metadata
import platform
import sys
from typing import Callable

from reptest_protocol import Check, Fetch, Parse, serve

# key (the argument) -> (library name for the handshake, version getter, factory, batch)
ADAPTERS: dict[str, tuple[str, Callable[[], str], Callable[[], Check | Parse], bool]] = {}
# The keys whose library takes a path (and query), not an absolute URL: their handshake
# says full_urls: false, and reptest sends the path and query only.
PATH_ONLY: set[str] = set()
# key -> factory of a fetch function (robots_url, timeout in seconds) -> matcher, for the
# libraries that fetch through their own API.
FETCHERS: dict[str, Callable[[], Fetch]] = {}


def fetcher(key: str):
    """Register the fetch factory of an adapter registered with @adapter(key, ...)."""

    def register(factory):
        FETCHERS[key] = factory
        return factory

    return register


def adapter(key: str, name: str, dist: str | None = None, *, batch: bool = False,
            paths: bool = False):
    """Register a factory. `dist` is the PyPI distribution the version is read from;
    None means the library is part of the standard library (version = Python's).
    `batch`: the factory returns a parse function (protocol 2), else a check function.
    `paths`: the library takes a path and query, not an absolute URL (full_urls: false)."""

    def version() -> str:
        return importlib.metadata.version(dist) if dist else platform.python_version()

    def register(factory):
        ADAPTERS[key] = (name, version, factory, batch)
        if paths:
            PATH_ONLY.add(key)
        return factory

    return register


def data_url(body: bytes) -> str:
    """A data: URL serving exactly `body`. urllib.request opens these in memory (its
    DataHandler), so a library's own fetch-and-decode code can read the body with no
    network and no re-implementation on our side."""
    return "data:text/plain;base64," + base64.b64encode(body).decode("ascii")


@adapter("urllib", "urllib.robotparser", batch=True)
def urllib_robotparser() -> Parse:
    from urllib.robotparser import RobotFileParser

    def parse(body: bytes):
        # RobotFileParser.read() is the library's fetch path: urlopen(self.url), then
        # parse(raw.decode("utf-8").splitlines()). Pointing it at a data: URL runs that
        # code unchanged: strict UTF-8 (invalid bytes raise UnicodeDecodeError, reported
        # as an error), a BOM kept as U+FEFF, splitlines() line ends. The robots.txt URL
        # set_url would normally get is used only by read(), so nothing else changes.
        parser = RobotFileParser()
        parser.set_url(data_url(body))
        parser.read()
        return parser.can_fetch

    return parse


@fetcher("urllib")
def urllib_robotparser_fetch() -> Fetch:
    import socket
    from urllib.robotparser import RobotFileParser

    def fetch(robots_url: str, timeout: float):
        # The library's part: set_url() + read() (urlopen, redirects followed by urllib's
        # HTTPRedirectHandler; 401/403 set disallow_all, other 4xx allow_all; 5xx set
        # nothing, so can_fetch() answers False, "until the robots.txt file has been read
        # ... no url is allowable"), then can_fetch per query. A network fault raises out
        # of read(): the adapter answers that exception as an error, not a verdict.
        # The adapter's part: read() takes no timeout, so the adapter sets the socket
        # default timeout (reptest's timeout_ms) before it; the process serves one request
        # at a time, so nothing else shares it.
        socket.setdefaulttimeout(timeout)
        parser = RobotFileParser()
        parser.set_url(robots_url)
        parser.read()
        return parser.can_fetch

    return fetch


@adapter("protego", "protego", "protego", batch=True)
def protego() -> Parse:
    from protego import Protego

    def parse(body: bytes):
        # Protego parses str and does not fetch. Its main caller, Scrapy's
        # ProtegoRobotParser, decodes with decode_robotstxt(): UTF-8, errors="ignore"
        # (invalid bytes dropped, a BOM kept as U+FEFF). Note can_fetch(url, agent).
        parsed = Protego.parse(body.decode("utf-8", errors="ignore"))
        return lambda agent, url: parsed.can_fetch(url, agent)

    return parse


@adapter("robotspy", "robotspy", "robotspy", batch=True)
def robotspy() -> Parse:
    from robots import RobotsParser

    def parse(body: bytes):
        # The documented use is RobotsParser.from_uri(robots_txt_url): gen_uri reads
        # urlopen(uri) line by line, decodes each as "utf-8-sig", and on the first
        # invalid line stops and sets allow_all. from_uri on a data: URL runs that code
        # unchanged. (from_uri leaves parser.url unset, so, as in that documented use,
        # can_fetch does not compare hosts.)
        parser = RobotsParser.from_uri(data_url(body))
        if parser.disallow_all:
            # A data: URL has no HTTP status, so only a failed open gets here; that
            # would be our fault, not a verdict of the library.
            raise RuntimeError(f"robotspy could not open the body: {parser.errors}")
        return parser.can_fetch

    return parse


@fetcher("robotspy")
def robotspy_fetch() -> Fetch:
    from robots import RobotsParser

    def fetch(robots_url: str, timeout: float):
        # The library's part: RobotsParser.from_uri(url, timeout) (urlopen with that
        # timeout; 401/403 and 5xx set disallow_all, other 4xx allow_all, a URLError -
        # connection refused, a timeout while connecting - sets disallow_all, a line that
        # is not UTF-8 sets allow_all), then can_fetch per query. An error while reading
        # the body (a reset, a read timeout) is not caught by the library and raises out
        # of from_uri: the adapter answers it as an error. The adapter's part: the timeout
        # (reptest's timeout_ms) passed to from_uri, whose own default is 5 s.
        parser = RobotsParser.from_uri(robots_url, timeout=timeout)
        return parser.can_fetch

    return fetch


@adapter("robotexclusionrulesparser", "robotexclusionrulesparser", "robotexclusionrulesparser",
         batch=True)
def robotexclusionrulesparser() -> Parse:
    from robotexclusionrulesparser import RobotExclusionRulesParser

    def parse(body: bytes):
        # parse() accepts bytes and decodes them as ISO-8859-1 itself, the same default
        # its fetch() uses when the response names no charset (reptest sends none).
        parser = RobotExclusionRulesParser()
        parser.parse(body)
        return parser.is_allowed

    return parse


@adapter("jwm-robotstxt", "jwm.robotstxt", "jwm.robotstxt")
def jwm_robotstxt() -> Check:
    from jwm.robotstxt import googlebot

    def check(body: bytes, agent: str, url: str) -> bool:
        # A pybind11 wrapper of Google's C++ robotstxt, which parses raw bytes. The
        # binding takes std::string, and pybind11 accepts bytes for it, so the C++ code
        # gets the body byte for byte, as in Google's crawler (it strips a BOM itself).
        return googlebot.RobotsMatcher().OneAgentAllowedByRobots(body, agent, url)

    return check


@adapter("fast-robotstxt", "fast-robotstxt", "fast-robotstxt")
def fast_robotstxt() -> Check:
    from robotstxt import RobotsMatcher

    def check(body: bytes, agent: str, url: str) -> bool:
        # A ctypes wrapper of a fork of Google's C++ robotstxt. Its is_allowed() takes
        # str only and re-encodes it as UTF-8, so bytes cannot pass through unchanged:
        # decode as UTF-8 with errors="replace", what a crawler does with a body it must
        # turn into str. Valid UTF-8 (a BOM too) reaches the C++ code unchanged; each
        # invalid sequence arrives as U+FFFD (EF BF BD).
        with RobotsMatcher() as matcher:
            return matcher.is_allowed(body.decode("utf-8", errors="replace"), agent, url)

    return check


@adapter("gpyrobotstxt", "gpyrobotstxt", "gpyrobotstxt")
def gpyrobotstxt() -> Check:
    from gpyrobotstxt.robots_cc import RobotsMatcher

    def check(body: bytes, agent: str, url: str) -> bool:
        # A pure-Python port of Google's parser; like the C++ original it works on
        # bytes (allowed_by_robots encodes a str body to UTF-8 first), so the body goes
        # in as is. It decodes each line with errors="replace" itself.
        return RobotsMatcher().one_agent_allowed_by_robots(body, agent, url)

    return check


def panics_as_errors(parse: Parse) -> Parse:
    """`parse`, and the matcher it returns, with a Rust panic (pyo3's PanicException, a
    BaseException, which the protocol module would not catch: the process would die) raised
    as a RuntimeError instead, so it is answered as the library's error."""

    def guard(fn, *args):
        try:
            return fn(*args)
        except (KeyboardInterrupt, SystemExit, GeneratorExit):
            raise
        except BaseException as exc:  # noqa: B036 - pyo3 panics derive from BaseException
            if isinstance(exc, Exception):
                raise
            raise RuntimeError(f"panic: {exc}") from exc

    def guarded_parse(body: bytes):
        matcher = guard(parse, body)
        return lambda agent, url: guard(matcher, agent, url)

    return guarded_parse


def per_agent(build: Callable[[str], Callable[[str], bool]]) -> Callable[[str, str], bool]:
    """A matcher for a library that parses for one agent at a time: one parse per distinct
    agent of the request (PROTOCOL.md, version 2), kept for this request only."""
    parsed: dict[str, Callable[[str], bool]] = {}

    def matcher(agent: str, url: str) -> bool:
        if agent not in parsed:
            parsed[agent] = build(agent)
        return parsed[agent](url)

    return matcher


@adapter("robots-txt-parser", "robots-txt-parser", "robots-txt-parser", batch=True)
def robots_txt_parser() -> Parse:
    from robotstxtparser import RobotExclusionRulesParser

    def parse(body: bytes):
        # A fork of robotexclusionrulesparser 1.7.1 (module robotstxtparser) that no longer
        # ends a group at a blank line and always allows /robots.txt. Like the original,
        # parse() takes bytes and decodes them as ISO-8859-1, its fetch()'s default when
        # the response names no charset.
        parser = RobotExclusionRulesParser()
        parser.parse(body)
        return parser.is_allowed

    return parse


@adapter("reppy2", "reppy2", "reppy2", batch=True)
def reppy2() -> Parse:
    import time

    from reppy.parser import Rules

    def parse(body: bytes):
        # reppy2's RobotsCache fetches and builds Rules(robots_url, status, content,
        # expires) from the response's bytes; Rules itself decodes them (a UTF-8 BOM
        # stripped, a UTF-16 BOM decoded as UTF-16, else UTF-8 with errors="ignore").
        # The robots.txt URL is used only in log messages, so one Rules serves every
        # origin of the request. allowed(url, agent) takes an absolute URL or a path.
        rules = Rules("/robots.txt", 200, body, time.time() + 3600)
        return lambda agent, url: rules.allowed(url, agent)

    return parse


@adapter("fastrobots", "fastrobots", "fastrobots", batch=True, paths=True)
def fastrobots() -> Parse:
    from fastrobots import Robots

    def parse(body: bytes):
        # A Rust parser with Python bindings: Robots.parse(str), allowed(path, agent)
        # with a path (reptest sends path and query). Its own fetch() reads the body
        # with httpx's response.text: UTF-8 with errors="replace" when no charset is
        # named, and so here.
        robots = Robots.parse(body.decode("utf-8", errors="replace"))
        return lambda agent, url: robots.allowed(url, agent)

    return panics_as_errors(parse)


@adapter("texting-robots-py", "texting-robots-py", "texting-robots-py", batch=True)
def texting_robots_py() -> Parse:
    from texting_robots import Robot

    def parse(body: bytes):
        # The Python binding of the texting_robots crate: Robot(agent, bytes) keeps that
        # agent's rules only, so the body is parsed once per agent of the request;
        # allowed(url) takes an absolute URL or a path.
        return per_agent(lambda agent: Robot(agent, body).allowed)

    return panics_as_errors(parse)


@adapter("ai-crawler-robots", "ai-crawler-robots", "ai-crawler-robots", batch=True, paths=True)
def ai_crawler_robots() -> Parse:
    import ai_crawler_robots

    def parse(body: bytes):
        # parse(text) once, then is_allowed(parsed, agent, path) per query; it answers a
        # dict whose "allowed" is the verdict. Its command line reads a file as UTF-8
        # with errors="replace", and so here. The agent goes in as is: is_allowed maps a
        # name it knows (a slug, a token, a User-Agent string) to that crawler's token
        # itself, which is its own behaviour.
        parsed = ai_crawler_robots.parse(body.decode("utf-8", errors="replace"))

        def matcher(agent: str, url: str) -> bool:
            return ai_crawler_robots.is_allowed(parsed, agent, url)["allowed"]

        return matcher

    return parse


@adapter("susbot", "susbot", "susbot", batch=True, paths=True)
def susbot() -> Parse:
    from susbot import Analysis

    def parse(body: bytes):
        # Analysis(text) parses (and lints) once; allowed(user_agent, path) per query.
        # It takes str and documents no decoding of its own, so the adapter decodes as
        # UTF-8 with errors="replace" (RFC 9309 2.3: UTF-8), as the other str libraries.
        analysis = Analysis(body.decode("utf-8", errors="replace"))
        return analysis.allowed

    return panics_as_errors(parse)


@adapter("respectscraper", "respectscraper", "respectscraper", batch=True)
def respectscraper() -> Parse:
    from respectscraper.robots import RobotsTxt

    def parse(body: bytes):
        # RobotsPolicy, the crawler's own fetch path, decodes a 2xx body as UTF-8 with
        # errors="replace" and calls RobotsTxt.parse(text); check(url, product_token)
        # answers (allowed, rule, group, crawl delay) for an absolute URL.
        robots = RobotsTxt.parse(body.decode("utf-8", errors="replace"))
        return lambda agent, url: robots.check(url, agent)[0]

    return parse


def list_all() -> int:
    failed = 0
    for key, (name, version, factory, _batch) in ADAPTERS.items():
        try:
            factory()
            if key in FETCHERS:
                FETCHERS[key]()
            fetches = " (fetches)" if key in FETCHERS else ""
            print(f"{key:28} {name} {version()}{fetches}")
        except Exception as exc:  # report every broken library, not only the first
            print(f"{key:28} FAILED: {type(exc).__name__}: {exc}", file=sys.stderr)
            failed += 1
    return 1 if failed else 0


def main(argv: list[str]) -> int:
    if argv == ["--list"]:
        return list_all()
    if len(argv) != 1 or argv[0] not in ADAPTERS:
        print(f"usage: adapter.py LIBRARY|--list; LIBRARY is one of: {' '.join(ADAPTERS)}",
              file=sys.stderr)
        return 2
    name, version, factory, batch = ADAPTERS[argv[0]]
    # Import before the handshake: a library that cannot load makes the adapter exit
    # with the reason on stderr, so reptest lists it as unavailable.
    fetch = FETCHERS[argv[0]]() if argv[0] in FETCHERS else None
    full_urls = argv[0] not in PATH_ONLY
    if batch:
        return serve(name, version(), parse=factory(), fetch=fetch, full_urls=full_urls)
    return serve(name, version(), factory(), fetch=fetch, full_urls=full_urls)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
