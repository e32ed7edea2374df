"""Tests of the Python adapters: each one is started as reptest starts it (the command in
adapters.toml) and spoken to over the protocol of harness/PROTOCOL.md.

Run after `bash harness/external/setup python`:
    "${REPTEST_STATE:-harness/external/.state}"/venv/bin/python -m pytest harness/external/python
"""

from __future__ import annotations

import base64
import importlib.metadata
import io
import json
import os
import platform
import re
import select
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

import pytest

import reptest_protocol

HERE = Path(__file__).resolve().parent
STATE = Path(os.environ.get("REPTEST_STATE") or HERE.parent / ".state")
TIMEOUT = 20.0  # seconds for any one answer; generous for a loaded CI machine

# adapter name -> (handshake name, distribution to read the version from; None = stdlib)
EXPECTED = {
    "python-urllib": ("urllib.robotparser", None),
    "python-protego": ("protego", "protego"),
    "python-robotspy": ("robotspy", "robotspy"),
    "python-robotexclusionrulesparser": ("robotexclusionrulesparser", "robotexclusionrulesparser"),
    "python-jwm-robotstxt": ("jwm.robotstxt", "jwm.robotstxt"),
    "python-fast-robotstxt": ("fast-robotstxt", "fast-robotstxt"),
    "python-gpyrobotstxt": ("gpyrobotstxt", "gpyrobotstxt"),
    "python-robots-txt-parser": ("robots-txt-parser", "robots-txt-parser"),
    "python-reppy2": ("reppy2", "reppy2"),
    "python-fastrobots": ("fastrobots", "fastrobots"),
    "python-texting-robots-py": ("texting-robots-py", "texting-robots-py"),
    "python-ai-crawler-robots": ("ai-crawler-robots", "ai-crawler-robots"),
    "python-susbot": ("susbot", "susbot"),
    "python-respectscraper": ("respectscraper", "respectscraper"),
}
# The adapters that speak protocol 2 (parse once, check many); the ports of Google's
# parser parse on every call and stay on protocol 1.
BATCHING = {"python-urllib", "python-protego", "python-robotspy",
            "python-robotexclusionrulesparser", "python-robots-txt-parser", "python-reppy2",
            "python-fastrobots", "python-texting-robots-py", "python-ai-crawler-robots",
            "python-susbot", "python-respectscraper"}
# The adapters whose library takes a path and query (full_urls: false): the tests send
# them what reptest would, the path and query of each URL.
PATHS = {"python-fastrobots", "python-ai-crawler-robots", "python-susbot"}
# The adapters whose library fetches through its own API (capability `fetches`).
FETCHING = {"python-urllib", "python-robotspy"}


def registered() -> dict[str, list[str]]:
    """name -> command from adapters.toml, placeholders filled in as reptest does."""
    text = (HERE / "adapters.toml").read_text()
    try:
        import tomllib

        entries = tomllib.loads(text)["adapter"]
    except ImportError:  # Python 3.10: the file is simple enough to read by hand
        names = re.findall(r'^name = "([^"]+)"', text, re.M)
        commands = [json.loads(c) for c in re.findall(r"^command = (\[.*\])$", text, re.M)]
        entries = [{"name": n, "command": c} for n, c in zip(names, commands)]
    fill = {"{dir}": str(HERE), "{state}": str(STATE), "{venv}": str(STATE / "venv")}
    out = {}
    for entry in entries:
        command = []
        for arg in entry["command"]:
            for key, value in fill.items():
                arg = arg.replace(key, value)
            command.append(arg)
        out[entry["name"]] = command
    return out


ADAPTERS = registered()


def b64(body: bytes) -> str:
    return base64.b64encode(body).decode("ascii")


def req(rid, body: bytes, agent: str, url: str) -> dict:
    return {"id": rid, "robots_b64": b64(body), "agent": agent, "url": url}


class Adapter:
    """One running adapter process; reads its stdout with timeouts and checks that every
    line it writes is ASCII."""

    def __init__(self, command: list[str]):
        if not Path(command[0]).exists():
            pytest.fail(f"{command[0]} is missing: run `bash harness/external/setup python`")
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.buffer = b""
        self.stderr_tail = b""
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        self.handshake = self.read_json()

    def _drain_stderr(self):
        for chunk in iter(lambda: self.proc.stderr.read1(4096), b""):
            self.stderr_tail = (self.stderr_tail + chunk)[-4000:]

    def read_line(self) -> bytes:
        deadline = time.monotonic() + TIMEOUT
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise AssertionError(f"no answer in {TIMEOUT}s; stderr: {self.stderr_tail!r}")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise AssertionError(f"adapter closed stdout; stderr: {self.stderr_tail!r}")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        assert all(byte < 0x80 for byte in line), f"non-ASCII output: {line!r}"
        assert b"\r" not in line
        return line

    def read_json(self) -> dict:
        obj = json.loads(self.read_line())
        assert isinstance(obj, dict)
        return obj

    def send_lines(self, lines: list[bytes]):
        # From a thread: a large batch must not deadlock against unread answers.
        data = b"".join(line + b"\n" for line in lines)

        def write():
            self.proc.stdin.write(data)
            self.proc.stdin.flush()

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        return writer

    def as_sent(self, line: bytes) -> bytes:
        """The request line as reptest sends it to this adapter: to one that says
        full_urls: false, each URL as its path and query only."""
        if self.handshake.get("capabilities", {}).get("full_urls", True):
            return line
        try:
            request = json.loads(line)
        except ValueError:
            return line
        if not isinstance(request, dict):
            return line
        for query in [request, *request.get("queries", [])]:
            if isinstance(query, dict) and isinstance(query.get("url"), str):
                parts = urllib.parse.urlsplit(query["url"])
                query["url"] = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        return json.dumps(request).encode("ascii")

    def ask_raw(self, lines: list[bytes]) -> list[dict]:
        writer = self.send_lines([self.as_sent(line) for line in lines])
        answers = [self.read_json() for _ in lines]
        writer.join(TIMEOUT)
        return answers

    def ask(self, *requests: dict) -> list[dict]:
        answers = self.ask_raw([json.dumps(r).encode("ascii") for r in requests])
        for request, answer in zip(requests, answers):
            assert answer.get("id") == request["id"], (request, answer)
            assert ("verdict" in answer) != ("error" in answer), answer
            if "verdict" in answer:
                assert answer["verdict"] in ("allowed", "disallowed"), answer
        return answers

    def verdicts(self, *requests: dict) -> list[str]:
        answers = self.ask(*requests)
        for answer in answers:
            assert "verdict" in answer, f"error where a verdict was expected: {answer}"
        return [answer["verdict"] for answer in answers]

    def close(self) -> int:
        if self.proc.stdin and not self.proc.stdin.closed:
            self.proc.stdin.close()
        try:
            return self.proc.wait(TIMEOUT)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture(scope="module", params=sorted(ADAPTERS))
def adapter(request):
    running = Adapter(ADAPTERS[request.param])
    running.key = request.param
    yield running
    running.close()


def test_every_expected_adapter_is_registered():
    assert sorted(ADAPTERS) == sorted(EXPECTED)


def test_handshake(adapter):
    hs = adapter.handshake
    name, dist = EXPECTED[adapter.key]
    version = importlib.metadata.version(dist) if dist else platform.python_version()
    capabilities = {"full_urls": adapter.key not in PATHS, "reports_line": False}
    if adapter.key in FETCHING:
        capabilities["fetches"] = True
    assert hs == {
        "protocol": 2 if adapter.key in BATCHING else 1,
        "name": name,
        "version": version,
        "language": "Python",
        "capabilities": capabilities,
    }


FOOBOT = b"User-agent: foobot\nDisallow: /\n"
PRIVATE = b"User-agent: *\nDisallow: /private\n"


def test_agent_and_url_are_not_swapped(adapter):
    assert adapter.verdicts(
        req(1, FOOBOT, "foobot", "https://example.com/page"),
        req(2, FOOBOT, "barbot", "https://example.com/page"),
    ) == ["disallowed", "allowed"]


def test_star_group_and_path_prefix(adapter):
    assert adapter.verdicts(
        req(3, PRIVATE, "foobot", "https://example.com/private/x"),
        req(4, PRIVATE, "foobot", "https://example.com/public"),
    ) == ["disallowed", "allowed"]


def test_crlf_line_ends(adapter):
    body = PRIVATE.replace(b"\n", b"\r\n")
    assert adapter.verdicts(
        req(5, body, "foobot", "https://example.com/private/x"),
        req(6, body, "foobot", "https://example.com/public"),
    ) == ["disallowed", "allowed"]


def test_each_request_gets_a_fresh_parser(adapter):
    deny, allow = b"User-agent: *\nDisallow: /\n", b"User-agent: *\nAllow: /\n"
    url = "https://example.com/a"
    assert adapter.verdicts(
        req(7, deny, "foobot", url),
        req(8, allow, "foobot", url),
        req(9, deny, "foobot", url),
    ) == ["disallowed", "allowed", "disallowed"]


AWKWARD = [
    b"\xef\xbb\xbfUser-agent: *\r\nDisallow: /private\r\n",  # BOM + CRLF
    b"User-agent: *\r\nDisallow: /caf\xe9\r\nDisallow: /\xff\xfe\r\n",  # invalid UTF-8
    b"\xef\xbb\xbfUser-agent: *\rDisallow: /private\x00x\r\n\xc3",  # lone CR, NUL, cut char
    b"\xff\xfeU\x00s\x00e\x00r\x00",  # UTF-16 BOM
    b"",  # empty body
    b"\n\r\n\r",
]


def test_awkward_bodies_get_an_answer_and_the_adapter_survives(adapter):
    # Verdict or error are both fine here (strict UTF-8 libraries raise, and that is
    # their behaviour); what matters is a well-formed answer for each, and no crash.
    requests = [
        req(100 + i, body, agent, url)
        for i, (body, agent, url) in enumerate(
            (body, agent, url)
            for body in AWKWARD
            for agent in ("foobot", "f\u00f6\u00f6bot")
            for url in ("https://example.com/private/x", "https://example.com/caf%C3%A9")
        )
    ]
    adapter.ask(*requests)
    assert adapter.verdicts(req(199, FOOBOT, "foobot", "https://example.com/")) == ["disallowed"]


def test_bad_requests_get_errors_not_verdicts(adapter):
    good = req(12, FOOBOT, "barbot", "https://example.com/")
    answers = adapter.ask_raw([
        b"not json",
        b"[1, 2]",
        b'{"id": 10, "agent": "x", "url": "https://example.com/"}',
        b'{"id": 11, "robots_b64": "%%%", "agent": "x", "url": "https://example.com/"}',
        json.dumps(good).encode("ascii"),
    ])
    assert [a.get("id") for a in answers] == [None, None, 10, 11, 12]
    assert all("error" in a and "verdict" not in a for a in answers[:4]), answers
    assert answers[4] == {"id": 12, "verdict": "allowed"}


def test_pipelined_requests_are_answered_in_order(adapter):
    bodies = [FOOBOT, PRIVATE]
    requests = [req(1000 + i, bodies[i % 2], "foobot", "https://example.com/private")
                for i in range(300)]
    assert adapter.verdicts(*requests) == ["disallowed"] * 300


def batch(rid, body: bytes, queries: list[tuple[str, str]]) -> dict:
    return {"id": rid, "robots_b64": b64(body),
            "queries": [{"agent": a, "url": u} for a, u in queries]}


def test_batch_requests_answer_like_single_ones(adapter):
    if adapter.key not in BATCHING:
        pytest.skip("protocol 1 adapter")
    body = b"User-agent: foobot\nDisallow: /private\nAllow: /private/open\n\nUser-agent: *\nDisallow: /\n"
    queries = [(agent, url)
               for agent in ("foobot", "barbot", "FooBot")
               for url in ("https://example.com/private/x", "https://example.com/private/open/y",
                           "https://example.com/public", "http://example.org:8080/private?q=1")]
    singles = adapter.ask(*[req(2000 + i, body, a, u) for i, (a, u) in enumerate(queries)])
    expected = [{k: v for k, v in a.items() if k != "id"} for a in singles]
    answers = adapter.ask_raw([json.dumps(batch(2100, body, queries)).encode("ascii"),
                               json.dumps(batch(2101, FOOBOT, [("foobot", "https://example.com/")]))
                               .encode("ascii"),
                               json.dumps(batch(2102, PRIVATE, [])).encode("ascii")])
    assert answers[0] == {"id": 2100, "answers": expected}
    assert answers[1] == {"id": 2101, "answers": [{"verdict": "disallowed"}]}
    assert answers[2] == {"id": 2102, "answers": []}
    # A batch's parse does not leak into the next request.
    assert adapter.verdicts(req(2103, PRIVATE, "foobot", "https://example.com/x")) == ["allowed"]


@pytest.mark.parametrize("key", sorted(ADAPTERS))
def test_exits_when_stdin_closes(key):
    running = Adapter(ADAPTERS[key])
    assert running.close() == 0


# --- the shared protocol module, in process ---


def serve_in_process(check, *lines: bytes) -> list[dict]:
    out = io.BytesIO()
    stdin = io.BytesIO(b"".join(line + b"\n" for line in lines))
    assert reptest_protocol.serve("lib", "1.0", check, stdin=stdin, stdout=out) == 0
    raw = out.getvalue()
    assert raw.isascii() and raw.endswith(b"\n")
    return [json.loads(line) for line in raw.splitlines()]


def line(rid, body=b"", agent="bot", url="https://example.com/") -> bytes:
    return json.dumps(req(rid, body, agent, url)).encode("ascii")


def test_protocol_non_bool_results_are_errors():
    for result in (1, 0, None, "allowed", -1):
        hs, answer = serve_in_process(lambda body, agent, url: result, line(1))
        assert hs["protocol"] == 1 and hs["name"] == "lib"
        assert answer["id"] == 1 and "verdict" not in answer
        assert answer["error"].startswith("NotAVerdict: "), answer


def test_protocol_exceptions_become_typed_errors_and_serving_goes_on():
    def check(body, agent, url):
        if agent == "bad":
            raise ValueError("b\u00f6\u00f6m\r\n\u2028")
        return body == b"\xef\xbb\xbf\xff\r\x00"

    answers = serve_in_process(check, line(1, agent="bad"), b"", line(2, b"\xef\xbb\xbf\xff\r\x00"))
    assert answers[1:] == [
        {"id": 1, "error": "ValueError: b\u00f6\u00f6m\r\n\u2028"},
        {"id": 2, "verdict": "allowed"},
    ]


def test_protocol_passes_exact_bytes_and_strings():
    seen = []

    def check(body, agent, url):
        seen.append((body, agent, url))
        return False

    body = bytes(range(256))
    answers = serve_in_process(check, line(5, body, "b\u00f6t", "https://example.com/\u00e9?x=\u2028"))
    assert answers[1] == {"id": 5, "verdict": "disallowed"}
    assert seen == [(body, "b\u00f6t", "https://example.com/\u00e9?x=\u2028")]


def test_protocol_library_output_on_stdout_goes_to_stderr(tmp_path):
    # A library that prints (from Python, or from C through fd 1) must not corrupt the
    # answers.
    script = tmp_path / "noisy.py"
    script.write_text(
        "import os, sys\n"
        f"sys.path.insert(0, {str(HERE)!r})\n"
        "import reptest_protocol\n"
        "def check(body, agent, url):\n"
        "    print('python noise')\n"
        "    os.write(1, b'fd noise\\n')\n"
        "    return True\n"
        "sys.exit(reptest_protocol.serve('noisy', '0', check))\n"
    )
    result = subprocess.run(
        [sys.executable, str(script)], input=line(1) + b"\n", capture_output=True, timeout=TIMEOUT
    )
    assert result.returncode == 0, result.stderr
    answers = [json.loads(x) for x in result.stdout.splitlines()]
    assert answers[1:] == [{"id": 1, "verdict": "allowed"}]
    assert b"python noise" in result.stderr and b"fd noise" in result.stderr


def serve_batches(parse, *lines: bytes) -> list[dict]:
    out = io.BytesIO()
    stdin = io.BytesIO(b"".join(line + b"\n" for line in lines))
    assert reptest_protocol.serve("lib", "1.0", parse=parse, stdin=stdin, stdout=out) == 0
    raw = out.getvalue()
    assert raw.isascii() and raw.endswith(b"\n")
    return [json.loads(line) for line in raw.splitlines()]


def test_protocol_2_parses_once_per_request_and_answers_in_order():
    parsed = []

    def parse(body):
        parsed.append(body)
        if body == b"bad":
            raise ValueError("cannot parse")

        def matcher(agent, url):
            if agent == "boom":
                raise KeyError(url)
            if agent == "one":
                return 1
            return url.endswith(body.decode())

        return matcher

    queries = [("a", "https://x/p"), ("boom", "/k"), ("b", "https://x/q"), ("one", "/")]
    answers = serve_batches(
        parse,
        json.dumps(batch(1, b"p", queries)).encode(),
        json.dumps(batch(2, b"bad", queries[:2])).encode(),
        line(3, b"q", "a", "https://x/q"),
        b'{"id": 4, "robots_b64": "", "queries": [{"agent": "a"}]}',
        b'{"id": 5, "robots_b64": "%%", "queries": []}',
    )
    assert answers[0]["protocol"] == 2
    assert answers[1] == {"id": 1, "answers": [
        {"verdict": "allowed"}, {"error": "KeyError: '/k'"}, {"verdict": "disallowed"},
        {"error": "NotAVerdict: the library returned 1"}]}
    assert answers[2] == {"id": 2, "answers": [{"error": "ValueError: cannot parse"}] * 2}
    assert answers[3] == {"id": 3, "verdict": "allowed"}
    assert answers[4]["id"] == 4 and "answers" not in answers[4] and "error" in answers[4]
    assert answers[5]["id"] == 5 and "error" in answers[5]
    assert parsed == [b"p", b"bad", b"q"]


class LoopbackSite:
    """A tiny HTTP server on 127.0.0.1 (never another address) that answers every path
    with the status `status` (set it between requests) and `body`, and records the paths
    asked."""

    def __init__(self, body: bytes):
        import http.server

        site = self
        self.paths: list[str] = []
        self.status = 200

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - http.server's name
                site.paths.append(self.path)
                self.send_response(site.status)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def fetch_req(rid, robots_url: str, queries: list[tuple[str, str]], timeout_ms=3000) -> dict:
    return {"id": rid, "robots_url": robots_url, "timeout_ms": timeout_ms,
            "queries": [{"agent": a, "url": u} for a, u in queries]}


@pytest.mark.parametrize("key", sorted(FETCHING))
def test_fetching_adapters_fetch_through_the_library_and_follow_the_status(key):
    site = LoopbackSite(PRIVATE)
    running = Adapter(ADAPTERS[key])
    try:
        def verdicts(status: int) -> list[str]:
            base = site.origin
            site.status = status
            (answer,) = running.ask_raw([json.dumps(fetch_req(
                status, f"{base}/robots.txt",
                [("bot", f"{base}/private"), ("bot", f"{base}/public")])).encode()])
            assert answer["id"] == status, answer
            assert all("verdict" in a for a in answer["answers"]), answer
            return [a["verdict"] for a in answer["answers"]]

        # §2.3.1.1: a 200's rules are followed.
        assert verdicts(200) == ["disallowed", "allowed"]
        # §2.3.1.3: a 404 makes the file unavailable; both libraries allow everything.
        assert verdicts(404) == ["allowed", "allowed"]
        # §2.3.1.4: a 503 makes it unreachable; both libraries disallow everything.
        assert verdicts(503) == ["disallowed", "disallowed"]
        # Both disallow everything on a 403 (RFC 9309 would let a crawler access any).
        assert verdicts(403) == ["disallowed", "disallowed"]
        assert site.paths == ["/robots.txt"] * 4
        # Body requests are still answered as before.
        assert running.verdicts(req(9, PRIVATE, "bot", "https://example.com/private")) == [
            "disallowed"]
    finally:
        running.close()
        site.close()


def test_fetching_adapters_answer_an_unreachable_file_as_the_library_does():
    # A port that refuses connections: urllib.robotparser's read() raises (an error, no
    # verdict); robotspy catches the URLError and disallows everything.
    import socket

    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{holder.getsockname()[1]}/robots.txt"
        got = {}
        for key in sorted(FETCHING):
            running = Adapter(ADAPTERS[key])
            try:
                (answer,) = running.ask_raw(
                    [json.dumps(fetch_req(1, url, [("bot", url[:-len("robots.txt")])])).encode()])
                got[key] = answer["answers"][0]
            finally:
                running.close()
    assert "URLError" in got["python-urllib"]["error"], got
    assert got["python-robotspy"] == {"verdict": "disallowed"}, got


def test_a_response_that_never_completes_ends_at_the_fetch_timeout():
    # Headers and half the body, then silence: each library's read hits the timeout the
    # adapter gave it (timeout_ms) and raises, an error answer well before reptest's own
    # timeout would make it `timeout`.
    import socket

    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        held = []

        def stall():
            while True:
                try:
                    conn, _ = server.accept()
                except OSError:
                    return
                held.append(conn)
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 40\r\n\r\nUser-agent: *\n")

        threading.Thread(target=stall, daemon=True).start()
        url = f"http://127.0.0.1:{server.getsockname()[1]}/robots.txt"
        for key in sorted(FETCHING):
            running = Adapter(ADAPTERS[key])
            try:
                started = time.monotonic()
                (answer,) = running.ask_raw([json.dumps(
                    fetch_req(1, url, [("bot", url)], timeout_ms=500)).encode()])
                elapsed = time.monotonic() - started
            finally:
                running.close()
            assert "timed out" in answer["answers"][0].get("error", ""), (key, answer)
            assert elapsed < 5, (key, elapsed)
        for conn in held:
            conn.close()


def test_protocol_fetch_requests_fetch_once_and_answer_like_batches():
    fetched = []

    def fetch(robots_url, timeout):
        fetched.append((robots_url, timeout))
        if robots_url.endswith("/bad"):
            raise OSError("refused")
        return lambda agent, url: url.endswith("/yes")

    out = io.BytesIO()
    lines = [
        json.dumps(fetch_req(1, "http://127.0.0.1:1/robots.txt",
                             [("a", "http://127.0.0.1:1/yes"), ("a", "http://127.0.0.1:1/no")],
                             timeout_ms=1500)).encode(),
        json.dumps(fetch_req(2, "http://127.0.0.1:1/bad", [("a", "/x")])).encode(),
        b'{"id": 3, "robots_url": "u", "timeout_ms": 0, "queries": []}',
        line(4, b"", "a", "https://x/"),
    ]
    stdin = io.BytesIO(b"".join(x + b"\n" for x in lines))
    assert reptest_protocol.serve("lib", "1.0", parse=lambda body: lambda a, u: True,
                                  fetch=fetch, stdin=stdin, stdout=out) == 0
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert answers[0]["capabilities"]["fetches"] is True
    assert answers[1] == {"id": 1, "answers": [{"verdict": "allowed"}, {"verdict": "disallowed"}]}
    assert answers[2] == {"id": 2, "answers": [{"error": "OSError: refused"}]}
    assert answers[3]["id"] == 3 and "error" in answers[3]
    assert answers[4] == {"id": 4, "verdict": "allowed"}
    assert fetched == [("http://127.0.0.1:1/robots.txt", 1.5), ("http://127.0.0.1:1/bad", 3.0)]


def test_adapter_list_imports_every_library():
    result = subprocess.run(
        [sys.executable, str(HERE / "adapter.py"), "--list"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.splitlines()) == len(EXPECTED)
