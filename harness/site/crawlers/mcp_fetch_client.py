"""A minimal MCP client that drives the fetch server (PyPI ``mcp-server-fetch``) the way an
AI assistant does, for reptest's ``crawler-mcp-fetch`` (harness/site/src/crawl/pinned.rs).

It starts the server program SERVER (the ``mcp-server-fetch`` console script) over stdio:
``mcp-server-fetch --user-agent AGENT --allow-private-ips`` (the server refuses loopback
addresses without that flag), sends ``initialize`` and
``notifications/initialized``, then calls the ``fetch`` tool with ``raw: true`` on the
start page, and once on every same-origin ``<a href>`` the start page's HTML holds, in
order: the model's part, reading a page and asking for the pages it links. Everything
about robots.txt is the server's own: before each model-initiated fetch it requests the
origin's ``/robots.txt`` with the agent as ``User-Agent`` and refuses the call (an
``isError`` result) when the file forbids the URL. The JSON-RPC messages are written by
hand (newline-delimited JSON on stdio), so the client needs nothing but the standard
library.

Usage: python3 mcp_fetch_client.py START_URL AGENT [SERVER]   (SERVER: mcp-server-fetch)
"""

import json
import re
import subprocess
import sys
from html import unescape
from urllib.parse import urljoin, urlsplit

PROTOCOL = "2025-11-25"


class Session:
    """One stdio session with the server: requests out, their responses back."""

    def __init__(self, server, agent):
        self.server = subprocess.Popen(
            [server, "--user-agent", agent, "--allow-private-ips"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.next_id = 0

    def send(self, message):
        self.server.stdin.write(json.dumps(message) + "\n")
        self.server.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        for line in self.server.stdout:
            message = json.loads(line)
            if message.get("id") == self.next_id:
                return message
        raise RuntimeError("the server closed its output")

    def fetch(self, url):
        """The fetch tool's text, or None when the call failed (robots.txt refused it,
        the page could not be fetched)."""
        reply = self.request("tools/call", {"name": "fetch", "arguments": {"url": url, "raw": True}})
        result = reply.get("result") or {}
        text = "".join(part.get("text", "") for part in result.get("content", []))
        print(f"fetch {url}: {'error: ' + text[:200] if result.get('isError') or 'error' in reply else 'ok'}",
              file=sys.stderr)
        return None if result.get("isError") or "error" in reply else text

    def close(self):
        """Closes the session: stdin closed, then the server ended if it lingers."""
        self.server.stdin.close()
        try:
            self.server.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.server.kill()
            self.server.wait()


def links(html, base):
    """The same-origin targets of the page's ``<a href>``, each once, in order."""
    origin = urlsplit(base)[:2]
    found = []
    for href in re.findall(r'<a\s[^>]*href="([^"]*)"', html):
        url = urljoin(base, unescape(href)).split("#")[0]
        if urlsplit(url)[:2] == origin and url not in found:
            found.append(url)
    return found


def main(start, agent, server="mcp-server-fetch"):
    session = Session(server, agent)
    session.request("initialize", {
        "protocolVersion": PROTOCOL, "capabilities": {},
        "clientInfo": {"name": "reptest", "version": "0.1.0"}})
    session.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    page = session.fetch(start)
    for url in links(page or "", start):
        if url != start:
            session.fetch(url)
    session.close()


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: mcp_fetch_client.py START_URL AGENT [SERVER]")
    main(*sys.argv[1:])
