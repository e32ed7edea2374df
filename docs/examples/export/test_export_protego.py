"""Runs a Python robots.txt library over reptest's exported corpus, with no Rust.

    reptest corpus export --out reptest-export
    REPTEST_EXPORT=reptest-export pytest docs/examples/export/test_export_protego.py

It uses protego (`pip install protego==0.7.0`); put your own library in `allowed`.
Only what a body-only parser can be judged on is checked: decided queries (not fuzzing
findings awaiting their verdict) without a fetch scenario, whose `rfc9309` expectation
is a verdict (not `either`).
"""

import base64
import hashlib
import json
import os
import pathlib

from protego import Protego

EXPORT = pathlib.Path(os.environ.get("REPTEST_EXPORT", "reptest-export"))


def load():
    manifest = json.loads((EXPORT / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["format"] == 2, "an export this example does not know"
    lines = (EXPORT / "queries.jsonl").read_text(encoding="utf-8").splitlines()
    queries = [json.loads(line) for line in lines]
    assert len(queries) == manifest["queries"]
    return manifest, queries


def load_bodies():
    """bodies.json: the SHA-256 of each distinct body (hex) to its parts."""
    return json.loads((EXPORT / "bodies.json").read_text(encoding="utf-8"))


def body_bytes(bodies, sha256):
    """The exact bytes of the body whose SHA-256 is `sha256`: its parts concatenated,
    each `text` (UTF-8) or `b64` (base64), `repeat` times (1 when absent)."""
    body = bodies[sha256]
    data = b"".join(
        (part["text"].encode("utf-8") if "text" in part else base64.b64decode(part["b64"]))
        * part.get("repeat", 1)
        for part in body["parts"]
    )
    assert len(data) == body["size"] and hashlib.sha256(data).hexdigest() == sha256
    return data


def judged(queries):
    return [
        q
        for q in queries
        if not q["undecided"] and q["fetch"] is None and q["expect"]["rfc9309"] != "either"
    ]


def allowed(query, bodies):
    """The library's verdict: True when the URL may be crawled."""
    body = body_bytes(bodies, query["body_sha256"]).decode("utf-8", errors="replace")
    url = query["url"]
    if url.startswith("//"):  # protocol-relative (RFC 3986 §4.2)
        url = "https:" + url
    elif "://" not in url:
        url = "https://example.com" + url
    return Protego.parse(body).can_fetch(url, query["agent"])


def test_the_export_is_complete():
    manifest, queries = load()
    bodies = load_bodies()
    assert manifest["corpus_version"] and manifest["corpus_fingerprint"]
    assert len(bodies) == manifest["bodies"]
    # Every body rebuilds to its size and hash (body_bytes checks both), and every one is used.
    used = {q["body_sha256"] for q in queries}
    used |= {q["fetch"]["cache_body_sha256"] for q in queries if q["fetch"] and q["fetch"]["cache_body_sha256"]}
    assert used == set(bodies)
    for sha256, body in bodies.items():
        body_bytes(bodies, sha256)
        # Text exactly when the part's bytes are valid UTF-8.
        for part in body["parts"]:
            assert ("text" in part) != ("b64" in part)
            if "b64" in part:
                try:
                    base64.b64decode(part["b64"]).decode("utf-8")
                except UnicodeDecodeError:
                    pass
                else:
                    raise AssertionError(f"{sha256}: valid UTF-8 stored as base64")
    assert judged(queries), "some queries can be judged without a fetch"


def test_protego_over_the_must_queries():
    _, queries = load()
    bodies = load_bodies()
    must = [q for q in judged(queries) if q["level"] == "MUST"]
    failed = [q["id"] for q in must if allowed(q, bodies) != (q["expect"]["rfc9309"] == "allowed")]
    print(f"protego: {len(must) - len(failed)}/{len(must)} MUST queries passed; failed: {failed}")
    # A regression canary for this example: protego 0.7.0 failed 33 of these 762 MUST
    # queries with corpus 3.0.0 (a little room is left for queries a minor version adds).
    assert len(failed) <= 36, failed
