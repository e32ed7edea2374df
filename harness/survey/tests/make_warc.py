#!/usr/bin/env python3
"""Writes a WARC file with Python's warcio, and a manifest of what a reader must find in it.

Used by tests/integration/warcio.rs: a second WARC writer, independent of the Rust `warc` crate, makes
the file that reptest-survey reads. Tested with warcio 1.8.1
(`python3 -m pip install warcio==1.8.1`).

    make_warc.py OUT.warc.gz MANIFEST.json [--plain] [--bodies DIR] [--max N]

The file holds, in this order: a warcinfo record; then for each body a request record
and a response record, the responses cycling through the statuses 200, 301, 404, 500,
503 (a 301 carries a Location and an empty body; the others carry the body); then a 200
whose entity is stored chunked (`Transfer-Encoding: chunked`), a 200 stored
gzip-compressed (`Content-Encoding: gzip`), a 200 whose body the crawler cut
(`WARC-Truncated: length`), a metadata record and a revisit record. The bodies are the
files of DIR (sorted by name, at most N, default 25: e.g. real robots.txt files from
protego's test data) or, without --bodies, a few built-in robots.txt files.

Each record is its own gzip member (warcio's default); --plain writes an uncompressed
.warc instead. The manifest lists, for each response record in file order, the host,
status, body (hex), whether it is cut, and the record's offset as warcio's own
ArchiveIterator reports it (for a gzip file: the offset of the record's gzip member).
"""

import argparse
import gzip
import io
import json
import os
import sys
from importlib import metadata

from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

BUILT_IN = {
    "www.example.com": b"User-agent: *\nDisallow: /private/\nAllow: /private/public.html\n"
    b"\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: https://www.example.com/sitemap.xml\n",
    "shop.example": b"User-agent: *\r\nDisallow: /cart\r\nDisallow: /*?sort=\r\n"
    b"Disallow: /*.pdf$\r\n",
    "news.example": b"# comment only\nUser-agent: Googlebot\nUser-agent: Bingbot\n"
    b"Disallow: /drafts/\n\nUser-agent: *\nCrawl-delay: 10\nDisallow: /search\n",
    "intl.example": "User-agent: *\nDisallow: /café/\nDisallow: /%E6%97%A5%E6%9C%AC/\n".encode(),
    "empty.example": b"",
    "binary.example": bytes(range(256)),
}

STATUSES = [
    ("200", "OK"),
    ("301", "Moved Permanently"),
    ("404", "Not Found"),
    ("500", "Internal Server Error"),
    ("503", "Service Unavailable"),
]


def bodies(args):
    if not args.bodies:
        return list(BUILT_IN.items())
    names = sorted(n for n in os.listdir(args.bodies) if not n.startswith("."))
    out = []
    for name in names:
        path = os.path.join(args.bodies, name)
        if os.path.isfile(path):
            with open(path, "rb") as f:
                out.append((name, f.read()))
        if len(out) == args.max:
            break
    return out


def chunked(data, size=7):
    out = b""
    for i in range(0, len(data), size):
        piece = data[i : i + size]
        out += b"%x\r\n" % len(piece) + piece + b"\r\n"
    return out + b"0\r\n\r\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out")
    parser.add_argument("manifest")
    parser.add_argument("--plain", action="store_true")
    parser.add_argument("--bodies")
    parser.add_argument("--max", type=int, default=25)
    args = parser.parse_args()

    expected = []  # (host, status, body, cut), in response-record order
    with open(args.out, "wb") as out:
        writer = WARCWriter(out, gzip=not args.plain)
        writer.write_record(
            writer.create_warcinfo_record(
                os.path.basename(args.out), {"software": "reptest make_warc.py"}
            )
        )

        def response(host, status, reason, fields, entity, body, cut=False, warc=None):
            uri = "https://%s/robots.txt" % host
            request = writer.create_warc_record(
                uri,
                "request",
                payload=io.BytesIO(
                    b"GET /robots.txt HTTP/1.1\r\nHost: %s\r\n\r\n" % host.encode()
                ),
            )
            writer.write_record(request)
            http = StatusAndHeaders(
                "%s %s" % (status, reason), fields, protocol="HTTP/1.1"
            )
            record = writer.create_warc_record(
                uri,
                "response",
                payload=io.BytesIO(entity),
                length=len(entity),
                http_headers=http,
                warc_headers_dict=warc or {},
            )
            writer.write_record(record)
            expected.append((host, int(status), body, cut))

        for i, (host, body) in enumerate(bodies(args)):
            status, reason = STATUSES[i % len(STATUSES)]
            if status == "301":
                fields = [("Location", "https://www.%s/robots.txt" % host)]
                response(host, status, reason, fields, b"", b"")
            else:
                fields = [("Content-Type", "text/plain")]
                response(host, status, reason, fields, body, body)

        text = BUILT_IN["shop.example"]
        response(
            "chunked.example",
            "200",
            "OK",
            [("Transfer-Encoding", "chunked")],
            chunked(text),
            text,
        )
        response(
            "gzip.example",
            "200",
            "OK",
            [("Content-Encoding", "gzip")],
            gzip.compress(text),
            text,
        )
        response(
            "cut.example",
            "200",
            "OK",
            [("Content-Length", "9999")],
            text[:10],
            text[:10],
            cut=True,
            warc={"WARC-Truncated": "length"},
        )
        writer.write_record(
            writer.create_warc_record(
                "https://cut.example/robots.txt",
                "metadata",
                payload=io.BytesIO(b"fetchTimeMs: 12\r\n"),
                warc_content_type="application/warc-fields",
            )
        )
        writer.write_record(
            writer.create_revisit_record(
                "https://www.example.com/robots.txt",
                digest="sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
                refers_to_uri="https://www.example.com/robots.txt",
                refers_to_date="2024-01-01T00:00:00Z",
            )
        )

    offsets = []
    with open(args.out, "rb") as f:
        it = ArchiveIterator(f)
        for record in it:
            if record.rec_type == "response":
                offsets.append(it.get_record_offset())
    if len(offsets) != len(expected):
        sys.exit("warcio read %d responses, wrote %d" % (len(offsets), len(expected)))

    manifest = [
        {"host": h, "status": s, "body_hex": b.hex(), "cut": c, "offset": o}
        for (h, s, b, c), o in zip(expected, offsets)
    ]
    with open(args.manifest, "w") as f:
        json.dump({"warcio": metadata.version("warcio"), "responses": manifest}, f)


if __name__ == "__main__":
    main()
