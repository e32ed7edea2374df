"""The reptest external adapter protocol, versions 1 and 2 (harness/PROTOCOL.md), for
Python.

Every Python adapter is one call to `serve`, with either
- a verdict function `check(body: bytes, agent: str, url: str) -> bool` (True =
  allowed): protocol 1, one parse per query; or
- `parse=`, a function `parse(body: bytes) -> matcher` whose matcher answers
  `matcher(agent: str, url: str) -> bool`: protocol 2, the body of a batch request is
  parsed once and the matcher asked once per query (a fresh parse per request, never
  shared between requests). v1 requests are answered too, with one parse each.
Either may come with `fetch=`, a function `fetch(robots_url: str, timeout: float) ->
matcher` that fetches the robots.txt through the library's own fetching API (capability
`fetches`): a fetch request names the robots.txt URL on reptest's loopback site instead
of carrying a body, and is answered like a batch request.
This module owns everything else: the handshake, the request loop, base64, ASCII-only
JSON output, flushing, and turning exceptions and non-bool results into `error` answers.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import sys
from typing import Any, BinaryIO, Callable

PROTOCOL_VERSION = 1
BATCH_PROTOCOL_VERSION = 2

# An error message longer than this is cut: reptest only shows it, and a library's
# message may quote the whole input.
MAX_ERROR_CHARS = 2000

Check = Callable[[bytes, str, str], Any]
Matcher = Callable[[str, str], Any]
Parse = Callable[[bytes], Matcher]
Fetch = Callable[[str, float], Matcher]


class BadRequest(Exception):
    """The request line itself is unusable (not JSON, a field missing or mistyped)."""


def error_text(exc: BaseException) -> str:
    """`ExceptionType: message`, as the `error` field carries it."""
    text = f"{type(exc).__name__}: {exc}"
    if len(text) > MAX_ERROR_CHARS:
        text = text[:MAX_ERROR_CHARS] + "..."
    return text


def encode_line(obj: dict) -> bytes:
    """One protocol line: JSON with every non-ASCII and control character escaped."""
    return json.dumps(obj, ensure_ascii=True, separators=(",", ":")).encode("ascii") + b"\n"


def parse_request(line: bytes) -> tuple[Any, bytes, str, str]:
    """(id, body, agent, url) from a request line; BadRequest if it is not one."""
    try:
        request = json.loads(line)
    except (ValueError, UnicodeDecodeError) as exc:
        raise BadRequest(f"not JSON: {exc}") from None
    if not isinstance(request, dict):
        raise BadRequest("not a JSON object")
    for field in ("id", "robots_b64", "agent", "url"):
        if field not in request:
            raise BadRequest(f"missing field {field!r}")
    robots_b64, agent, url = request["robots_b64"], request["agent"], request["url"]
    if not (isinstance(robots_b64, str) and isinstance(agent, str) and isinstance(url, str)):
        raise BadRequest("robots_b64, agent and url must be strings")
    try:
        body = base64.b64decode(robots_b64, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise BadRequest(f"robots_b64 is not base64: {exc}") from None
    return request["id"], body, agent, url


def parse_any_request(line: bytes) -> tuple[Any, bytes, list[tuple[str, str]] | None, str, str]:
    """(id, body, queries, agent, url): `queries` is the list of (agent, url) of a batch
    request (protocol 2), None for a v1 request (then agent and url are set)."""
    try:
        request = json.loads(line)
    except (ValueError, UnicodeDecodeError) as exc:
        raise BadRequest(f"not JSON: {exc}") from None
    if not isinstance(request, dict):
        raise BadRequest("not a JSON object")
    if "queries" not in request:
        rid, body, agent, url = parse_request(line)
        return rid, body, None, agent, url
    for field in ("id", "robots_b64"):
        if field not in request:
            raise BadRequest(f"missing field {field!r}")
    robots_b64, raw = request["robots_b64"], request["queries"]
    if not isinstance(robots_b64, str):
        raise BadRequest("robots_b64 must be a string")
    queries = parse_queries(raw)
    try:
        body = base64.b64decode(robots_b64, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise BadRequest(f"robots_b64 is not base64: {exc}") from None
    return request["id"], body, queries, "", ""


def request_id(line: bytes) -> Any:
    """The id of a request line that failed to parse, if one can be read, else None."""
    try:
        request = json.loads(line)
        return request.get("id") if isinstance(request, dict) else None
    except (ValueError, UnicodeDecodeError):
        return None


def answer(line: bytes, check: Check) -> dict:
    """The answer object for one request line. Never raises for a bad request or a
    failing library, and never guesses a verdict."""
    try:
        rid, body, agent, url = parse_request(line)
    except BadRequest as exc:
        return {"id": request_id(line), "error": error_text(exc)}
    try:
        verdict = check(body, agent, url)
    except Exception as exc:  # the library failed: report it, keep serving
        return {"id": rid, "error": error_text(exc)}
    return {"id": rid, **verdict_answer(verdict)}


def verdict_answer(verdict: Any) -> dict:
    """The answer fields for a library's result: a verdict, or an error for a non-bool."""
    if type(verdict) is not bool:  # noqa: E721 - 0/1/None/numpy bools are not verdicts
        return {"error": f"NotAVerdict: the library returned {verdict!r:.200}"}
    return {"verdict": "allowed" if verdict else "disallowed"}


def batch_answer(line: bytes, parse: Parse) -> dict:
    """The answer object for one request line of protocol 2 (a batch, or a v1 request):
    the body is parsed once, then each query is checked. A failing parse is an error for
    every query; a failing check, for its query only."""
    try:
        rid, body, queries, agent, url = parse_any_request(line)
    except BadRequest as exc:
        return {"id": request_id(line), "error": error_text(exc)}
    single = queries is None
    if single:
        queries = [(agent, url)]
    answers: list[dict] = []
    try:
        matcher = parse(body)
    except Exception as exc:  # the library failed to parse: every query gets it
        failed = {"error": error_text(exc)}
        answers = [failed] * len(queries)
    else:
        for q_agent, q_url in queries:
            try:
                answers.append(verdict_answer(matcher(q_agent, q_url)))
            except Exception as exc:  # the library failed on this query
                answers.append({"error": error_text(exc)})
    if single:
        return {"id": rid, **answers[0]}
    return {"id": rid, "answers": answers}


def parse_queries(raw: Any) -> list[tuple[str, str]]:
    """The (agent, url) pairs of a request's `queries` list (batch and fetch requests)."""
    if not isinstance(raw, list):
        raise BadRequest("queries must be a list")
    queries = []
    for query in raw:
        if not (isinstance(query, dict) and isinstance(query.get("agent"), str)
                and isinstance(query.get("url"), str)):
            raise BadRequest("each query must be an object with string agent and url")
        queries.append((query["agent"], query["url"]))
    return queries


def parse_fetch_request(request: dict) -> tuple[Any, str, float, list[tuple[str, str]]]:
    """(id, robots_url, timeout in seconds, queries) from a decoded fetch request."""
    robots_url, timeout_ms, raw = (request.get("robots_url"), request.get("timeout_ms"),
                                   request.get("queries"))
    if not isinstance(robots_url, str):
        raise BadRequest("robots_url must be a string")
    if type(timeout_ms) is not int or timeout_ms <= 0:  # noqa: E721 - bools are not ints here
        raise BadRequest("timeout_ms must be a positive integer")
    queries = parse_queries(raw)
    return request.get("id"), robots_url, timeout_ms / 1000, queries


def fetch_answer(request: dict, fetch: Fetch) -> dict:
    """The answer object for a fetch request: the library fetches once, then each query is
    checked; a failing fetch is an error for every query, a failing check for its own."""
    try:
        rid, robots_url, timeout, queries = parse_fetch_request(request)
    except BadRequest as exc:
        return {"id": request.get("id"), "error": error_text(exc)}
    try:
        matcher = fetch(robots_url, timeout)
    except Exception as exc:  # the library's fetch failed: no verdict for any query
        return {"id": rid, "answers": [{"error": error_text(exc)}] * len(queries)}
    answers = []
    for agent, url in queries:
        try:
            answers.append(verdict_answer(matcher(agent, url)))
        except Exception as exc:  # the library failed on this query
            answers.append({"error": error_text(exc)})
    return {"id": rid, "answers": answers}


def fetch_request(line: bytes) -> dict | None:
    """The decoded request if the line is a fetch request (it names `robots_url`)."""
    try:
        request = json.loads(line)
    except (ValueError, UnicodeDecodeError):
        return None
    return request if isinstance(request, dict) and "robots_url" in request else None


def protocol_stdout() -> BinaryIO:
    """The stream answers go to. fd 1 is kept for the protocol alone: it is duplicated,
    and fd 1 and sys.stdout are pointed at stderr, so whatever a library prints (from
    Python or from C/C++) lands in reptest's diagnostics, not in the answers."""
    sys.stdout.flush()
    fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return os.fdopen(fd, "wb")


def serve(name: str, version: str, check: Check | None = None, *, parse: Parse | None = None,
          fetch: Fetch | None = None, full_urls: bool = True, stdin: BinaryIO | None = None,
          stdout: BinaryIO | None = None) -> int:
    """Run the protocol until stdin closes; returns the exit status. Give `check`
    (protocol 1) or `parse` (protocol 2), and `fetch` for a library that fetches (the
    capability `fetches`)."""
    if (check is None) == (parse is None):
        raise TypeError("serve() takes a check function or parse=, not both or neither")
    stdin = stdin if stdin is not None else sys.stdin.buffer
    out = stdout if stdout is not None else protocol_stdout()
    if parse is not None:
        respond = lambda line: batch_answer(line, parse)  # noqa: E731
    else:
        respond = lambda line: answer(line, check)  # noqa: E731
    if fetch is not None:
        by_body = respond

        def respond(line: bytes) -> dict:
            request = fetch_request(line)
            return fetch_answer(request, fetch) if request is not None else by_body(line)
    handshake = {
        "protocol": BATCH_PROTOCOL_VERSION if parse is not None else PROTOCOL_VERSION,
        "name": name,
        "version": version,
        "language": "Python",
        "capabilities": {"full_urls": full_urls, "reports_line": False},
    }
    if fetch is not None:
        handshake["capabilities"]["fetches"] = True
    try:
        out.write(encode_line(handshake))
        out.flush()
        # Iterating a binary stream yields each line as soon as its LF arrives, so
        # pipelined requests are answered one at a time, in order. The protocol asks for
        # a flush after each answer; one write+flush per answer is cheap next to parsing.
        for line in stdin:
            if not line.strip():
                continue
            out.write(encode_line(respond(line)))
            out.flush()
    except BrokenPipeError:
        # reptest closed our stdout: nothing left to answer. Point the fd at /dev/null
        # so the flush at interpreter exit does not raise again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, out.fileno())
        return 0
    return 0
