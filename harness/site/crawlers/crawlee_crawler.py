"""Runs Crawlee for Python (PyPI ``crawlee``) for reptest's ``crawler-crawlee-python``
(harness/site/src/crawl/pinned.rs).

A ``BeautifulSoupCrawler`` (plain HTTP, no browser) with ``respect_robots_txt_file=True``,
from Crawlee's documented API: it starts at the start page and enqueues every link on the
same hostname (``enqueue_links``, Crawlee's default strategy), to depth 1 below the start
page (``max_crawl_depth=1``), one retry-free request at a time
(``max_request_retries=0``), 5 s per request (the handler's timeout, and the HTTP
client's, which bounds the robots.txt request too). Its HTTP client is Crawlee's default,
``ImpitHttpClient``, given the agent as its ``User-Agent`` header. Storage stays in
memory (``MemoryStorageClient``), so nothing is written to disk. Everything about
robots.txt is Crawlee's own: before the first request to an origin it fetches
``/robots.txt`` (``RobotsTxtFile.find``), parses it with Protego, and skips each request
``RobotsTxtFile.is_allowed`` refuses.

Given several start pages (reptest's batches: one loopback site per case, each on an
origin of its own) it crawls them all in one run, up to eight requests at a time; each
origin gets its own robots.txt, as Crawlee keeps one per origin.

Usage: python crawlee_crawler.py AGENT START_URL [START_URL...]
"""

import asyncio
import sys
from datetime import timedelta

from crawlee import ConcurrencySettings
from crawlee.crawlers import BeautifulSoupCrawler, BeautifulSoupCrawlingContext
from crawlee.http_clients import ImpitHttpClient
from crawlee.storage_clients import MemoryStorageClient


async def main(agent, starts):
    crawler = BeautifulSoupCrawler(
        http_client=ImpitHttpClient(headers={"User-Agent": agent}, timeout=5.0),
        storage_client=MemoryStorageClient(),
        respect_robots_txt_file=True,
        max_crawl_depth=1,
        max_request_retries=0,
        request_handler_timeout=timedelta(seconds=5),
        concurrency_settings=ConcurrencySettings(max_concurrency=8, desired_concurrency=8),
        configure_logging=False,
    )

    @crawler.router.default_handler
    async def handler(context: BeautifulSoupCrawlingContext) -> None:
        await context.enqueue_links()

    await crawler.run(starts)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: crawlee_crawler.py AGENT START_URL [START_URL...]")
    asyncio.run(main(sys.argv[1], sys.argv[2:]))
