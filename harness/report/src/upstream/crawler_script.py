
import gzip
import http.server
import os
import shutil
import socket
import socketserver
import subprocess
import sys
import tempfile
import threading
import time

START = "/reptest-start.html"


def second_host():
    """Another loopback address for the second origin, as reptest's site uses (a crawler
    may treat another host apart from another port); 127.0.0.1 where only it is routed."""
    try:
        with socket.socket() as probe:
            probe.bind(("127.0.0.2", 0))
        return "127.0.0.2"
    except OSError:
        return "127.0.0.1"


HOSTS = ["127.0.0.1", second_host()]
LOG = []  # (origin, method, path), in the order the requests arrived
STOP = threading.Event()


def hop_path(k):
    return "/robots.txt" if k == 0 else f"/hop/{k}/robots.txt"


def routes(origins):
    """(origin index, path) -> what it answers: a redirect hop or the robots.txt."""
    table, at = {}, 0
    for k, (status, cross) in enumerate(REDIRECTS):
        to = 1 - at if cross else at
        table[(at, hop_path(k))] = ("redirect", status, f"{origins[to]}{hop_path(k + 1)}")
        at = to
    table[(at, hop_path(len(REDIRECTS)))] = ("robots",)
    return table


def page_html(title, links=()):
    items = "".join(f'<li><a href="{p}">{p}</a></li>' for p in links)
    return (f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{title}</title>"
            f"</head><body><p>reptest page {title}</p><ul>{items}</ul></body></html>\n").encode()


def handler(index, table):
    class Handler(http.server.BaseHTTPRequestHandler):
        # HTTP/1.1 with keep-alive, as reptest's site (hyper) answers: an HTTP/1.0 server
        # closes after each answer, and a crawler that reuses the connection anyway (wget
        # after a 5xx) may write to it before the close arrives and give up on the page.
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_HEAD(self):
            self.do_GET()

        def send(self, status, body, content_type="text/html; charset=utf-8", extra=()):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            for key, value in extra:
                self.send_header(key, value)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def robots(self):
            body = gzip.compress(BODY) if GZIP else BODY
            extra = [("Content-Encoding", "gzip")] if GZIP else []
            if FAULT in ("reset", "never-completes"):
                self.send_response(200)
                self.send_header("Content-Type", CONTENT_TYPE)
                self.send_header("Content-Length", str(len(body)))
                for key, value in extra:
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                if FAULT == "reset":
                    time.sleep(0.05)
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                               b"\x01\x00\x00\x00\x00\x00\x00\x00")
                    self.connection.close()
                else:
                    STOP.wait(TIME_LIMIT + 5)
                self.close_connection = True
                return
            self.send(STATUS, body, CONTENT_TYPE, extra)

        def do_GET(self):
            LOG.append((index, self.command, self.path))
            route = table.get((index, self.path.split("?")[0] if self.path.startswith("/hop/") else self.path))
            if route and route[0] == "redirect":
                self.send(route[1], b"", extra=[("Location", route[2])])
            elif route:
                self.robots()
            elif index == 0 and self.path == START:
                self.send(200, page_html("reptest start page", PAGES))
            elif index == 0 and self.path in PAGES:
                self.send(200, page_html(self.path))
            else:
                self.send(404, b"not found\n", "text/plain")

    return Handler


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def main():
    servers, origins, reserved = [], [], None
    for index, host in enumerate(HOSTS):
        if FAULT == "refused" and index == 1:
            # A port bound but never listening: connecting to it is refused.
            reserved = socket.socket()
            reserved.bind((host, 0))
            origins.append(f"http://{host}:{reserved.getsockname()[1]}")
            continue
        server = Server((host, 0), None)
        servers.append(server)
        origins.append(f"http://{host}:{server.server_address[1]}")
    table = routes(origins)
    for index, server in enumerate(servers):
        server.RequestHandlerClass = handler(index, table)
        threading.Thread(target=server.serve_forever, daemon=True).start()
    workdir = tempfile.mkdtemp(prefix="reptest-crawl-")
    if DRIVER:
        with open(os.path.join(workdir, DRIVER_FILE), "wb") as f:
            f.write(DRIVER)
    # {start_urls} before {start_url}, which it begins with; one site, so one start page.
    fill = {"{agent}": AGENT, "{workdir}": workdir, "{start_urls}": origins[0] + START,
            "{start_url}": origins[0] + START}

    def filled(arg):
        for key, value in fill.items():
            arg = arg.replace(key, value)
        return arg

    env = dict(os.environ, **{k: filled(v) for k, v in ENV.items()})
    command = [filled(a) for a in COMMAND]
    print("crawl:", " ".join(command))
    try:
        subprocess.run(command, env=env, cwd=workdir, timeout=TIME_LIMIT + 20,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        print(f"the crawler ran past {TIME_LIMIT + 20} s and was stopped")
    finally:
        STOP.set()
        for server in servers:
            server.shutdown()
        shutil.rmtree(workdir, ignore_errors=True)
    for index, method, path in LOG:
        print(f"request: {method} {origins[index]}{path}")
    fetched = any(i == 0 and m == "GET" and p == PAGE for i, m, p in LOG)
    robots = any(i == 0 and p == "/robots.txt" for i, _, p in LOG)
    print("fetched /robots.txt:", "yes" if robots else "no")
    actual = "allowed" if fetched else "disallowed"
    print("expected:", EXPECTED)
    print("actual:  ", actual)
    return 0 if actual == EXPECTED else 1


if __name__ == "__main__":
    sys.exit(main())
