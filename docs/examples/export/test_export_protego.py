"""Runs a Python robots.txt library over reptest's exported corpus, with no Rust.

    reptest corpus export --out reptest-export
    REPTEST_EXPORT=reptest-export pytest docs/examples/export/test_export_protego.py

It uses protego (`pip install protego==0.7.0`); put your own library in `allowed`.
Only what a body-only parser can be judged on is checked: decided queries (not fuzzing
findings awaiting their verdict) without a fetch scenario, whose `rfc9309` expectation
is a verdict (not `either`).
"""

import base64
import json
import os
import pathlib

from protego import Protego

EXPORT = pathlib.Path(os.environ.get("REPTEST_EXPORT", "reptest-export"))


def load():
    manifest = json.loads((EXPORT / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["format"] == 1, "an export this example does not know"
    lines = (EXPORT / "queries.jsonl").read_text(encoding="utf-8").splitlines()
    queries = [json.loads(line) for line in lines]
    assert len(queries) == manifest["queries"]
    return manifest, queries


def judged(queries):
    return [
        q
        for q in queries
        if not q["undecided"] and q["fetch"] is None and q["expect"]["rfc9309"] != "either"
    ]


def allowed(query):
    """The library's verdict: True when the URL may be crawled."""
    body = base64.b64decode(query["body_b64"]).decode("utf-8", errors="replace")
    url = query["url"]
    if url.startswith("//"):  # protocol-relative (RFC 3986 §4.2)
        url = "https:" + url
    elif "://" not in url:
        url = "https://example.com" + url
    return Protego.parse(body).can_fetch(url, query["agent"])


def test_the_export_is_complete():
    manifest, queries = load()
    assert manifest["corpus_version"] and manifest["corpus_fingerprint"]
    assert all(base64.b64decode(q["body_b64"]) == q["body"].encode() for q in queries if q["body"] is not None)
    assert judged(queries), "some queries can be judged without a fetch"


def test_protego_over_the_must_queries():
    _, queries = load()
    must = [q for q in judged(queries) if q["level"] == "MUST"]
    failed = [q["id"] for q in must if allowed(q) != (q["expect"]["rfc9309"] == "allowed")]
    print(f"protego: {len(must) - len(failed)}/{len(must)} MUST queries passed; failed: {failed}")
    # A regression canary for this example: protego 0.7.0 failed 33 of these 762 MUST
    # queries with corpus 3.0.0 (a little room is left for queries a minor version adds).
    assert len(failed) <= 36, failed
