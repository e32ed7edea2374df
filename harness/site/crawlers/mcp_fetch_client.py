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

Given several start pages (reptest's batches: one loopback site per case, each on an
origin of its own) it reads them all in one session, up to eight sites at a time (the
server answers concurrent requests; each site's pages are asked for in order), as an
assistant with several pages to read does.

Usage: python3 mcp_fetch_client.py SERVER AGENT START_URL [START_URL...]
       (SERVER: the mcp-server-fetch program)
"""

import json
import re
import subprocess
import sys
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from html import unescape
from urllib.parse import urljoin, urlsplit

PROTOCOL = "2025-11-25"


class Session:
    """One stdio session with the server: requests out (from any thread), each response
    handed to the request that waits for it by a reader thread."""

    def __init__(self, server, agent):
        self.server = subprocess.Popen(
            [server, "--user-agent", agent, "--allow-private-ips"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.next_id = 0
        self.lock = threading.Lock()
        self.waiting = {}
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        for line in self.server.stdout:
            message = json.loads(line)
            with self.lock:
                waiter = self.waiting.pop(message.get("id"), None)
            if waiter is not None:
                waiter.set_result(message)
        with self.lock:
            waiters, self.waiting = list(self.waiting.values()), {}
        for waiter in waiters:
            waiter.set_exception(RuntimeError("the server closed its output"))

    def send(self, message):
        self.server.stdin.write(json.dumps(message) + "\n")
        self.server.stdin.flush()

    def request(self, method, params):
        waiter = Future()
        with self.lock:
            self.next_id += 1
            self.waiting[self.next_id] = waiter
            self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return waiter.result()

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


def read_site(session, start):
    """The start page, then each same-origin page it links, in order."""
    page = session.fetch(start)
    for url in links(page or "", start):
        if url != start:
            session.fetch(url)


def main(server, agent, starts):
    session = Session(server, agent)
    session.request("initialize", {
        "protocolVersion": PROTOCOL, "capabilities": {},
        "clientInfo": {"name": "reptest", "version": "0.1.0"}})
    session.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    with ThreadPoolExecutor(max_workers=8) as pool:
        for done in [pool.submit(read_site, session, start) for start in starts]:
            done.result()
    session.close()


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit("usage: mcp_fetch_client.py SERVER AGENT START_URL [START_URL...]")
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
