"""Runs trafilatura's spider (PyPI ``trafilatura``) for reptest's ``crawler-trafilatura``
(harness/site/src/crawl/pinned.rs).

For each start URL (each on an origin of its own), trafilatura's documented spider API,
``trafilatura.spider.focused_crawler``, with at most ``MAX_SEEN_URLS`` pages visited per
site. The config is trafilatura's own ``settings.cfg`` (``use_config()``) with four
settings changed: ``USER_AGENTS`` is the agent (so it is the ``User-Agent`` of every
request, /robots.txt included), ``DOWNLOAD_TIMEOUT`` 5 s, ``SLEEP_TIME`` 0 (trafilatura
waits 5 s between two pages by default; a ``Crawl-delay`` of the ``*`` group still
applies) and ``SSRF_PROTECTION`` off (on, it refuses every connection to a loopback
address). Everything about robots.txt is trafilatura's own: before the start page it
fetches ``/robots.txt`` (``spider.get_rules``, through ``downloads.fetch_url``), parses a
200 answer with the standard library's ``urllib.robotparser``, and drops each link that
``rules.can_fetch("*", link)`` refuses (``CrawlParameters.is_valid_link``): the ``*``
group, whatever the agent. Any other answer (4xx, 5xx after urllib3's retries, a failed
connection, more than ``MAX_REDIRECTS`` = 2 redirects, a body under 10 bytes) leaves it
without rules, and then it fetches every link. The start page itself is never checked.

One change to trafilatura's link filter: courlan (``courlan.core.check_url``) rejects a
link whose host is an IP address with a port (``filters.domain_filter`` hands
``127.0.0.2:8080`` to ``ipaddress.ip_address``), so on reptest's sites, which are all
``http://127.a.b.c:PORT/``, it follows no link at all. ``check_url`` is wrapped so that such
a link is checked without its port, and the port put back; no other link is touched.
courlan's other filters stay, so some links are never fetched whatever robots.txt says
(paths ending in .pdf, .js, .json and other non-HTML extensions, /login, /contact,
/feed, nofollow links) and some are rewritten first (query parameters sorted, tracking
ones such as utm_source dropped, a trailing ``?`` dropped, ``;`` percent-encoded,
``/dir/`` and ``/dir`` counted as one page).

The sites are crawled at once, on a pool of at most 8 threads: the spider's state is
module-global (``spider.URL_STORE``, a courlan ``UrlStore``; ``downloads.HTTP_POOL``, a
thread-safe urllib3 ``PoolManager``), but the store keeps each origin's URLs, rules and
counts apart, so crawls of different origins do not meet (a start URL given twice is
crawled once). One line per start URL on stderr says how its crawl went; the exit
status is 0, or 1 when a site's crawl raised.

Usage: python trafilatura_crawler.py AGENT START_URL [START_URL...]
"""

import ipaddress
import logging
import sys
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit, urlunsplit

import courlan.core
from trafilatura.settings import use_config
from trafilatura.spider import URL_STORE, focused_crawler

# Pages visited per site, the start page included (trafilatura's default is 10; a start
# page links one page per query of a case, and a case can have more than nine).
MAX_SEEN_URLS = 100
THREADS = 8

_check_url = courlan.core.check_url


def check_url_with_ip_port(url, *args, **kwargs):
    """courlan's check_url, for http://IP:PORT/... links too (see the module's docstring)."""
    parts = urlsplit(url)
    try:
        port = parts.port
        ipaddress.ip_address(parts.hostname or "")
    except ValueError:
        return _check_url(url, *args, **kwargs)
    if port is None:
        return _check_url(url, *args, **kwargs)
    checked = _check_url(urlunsplit(parts._replace(netloc=parts.netloc.rsplit(":", 1)[0])), *args, **kwargs)
    if checked is None:
        return None
    found = urlsplit(checked[0])
    return urlunsplit(found._replace(netloc=f"{found.netloc}:{port}")), checked[1]


courlan.core.check_url = check_url_with_ip_port


def crawl(start, config):
    try:
        todo, known = focused_crawler(start, max_seen_urls=MAX_SEEN_URLS, config=config)
    except Exception as err:  # one site's failure is reported, the others go on
        return f"trafilatura: {start}: crawl failed: {type(err).__name__}: {err}", False
    base = courlan.get_base_url(start)
    rules = URL_STORE.get_rules(base)
    visited = len(known) - len(todo)
    return (
        f"trafilatura: {start}: robots.txt {'rules parsed' if rules else 'gave no rules (all allowed)'}; "
        f"{visited} URL(s) requested, {len(todo)} left unrequested",
        True,
    )


def main(agent, starts):
    config = use_config()
    config.set("DEFAULT", "USER_AGENTS", agent)
    config.set("DEFAULT", "DOWNLOAD_TIMEOUT", "5")
    config.set("DEFAULT", "SLEEP_TIME", "0")
    config.set("DEFAULT", "SSRF_PROTECTION", "off")
    # trafilatura logs each failed download as an error; the summary lines say enough
    logging.getLogger().addHandler(logging.NullHandler())
    starts = list(dict.fromkeys(starts))
    with ThreadPoolExecutor(max_workers=min(THREADS, len(starts))) as pool:
        results = list(pool.map(lambda start: crawl(start, config), starts))
    for line, _ in results:
        print(line, file=sys.stderr)
    return 0 if all(ok for _, ok in results) else 1


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: trafilatura_crawler.py AGENT START_URL [START_URL...]")
    sys.exit(main(sys.argv[1], sys.argv[2:]))
