"""A minimal Scrapy spider that reptest runs as a real crawler (harness/site/src/crawl/pinned.rs).

It starts at the pages given with ``-a start=URL`` (several separated by spaces: reptest's
batches, one loopback site per case, each on an origin of its own), stays on those URLs'
hosts, follows every ``<a href>`` of each page it gets (``DEPTH_LIMIT`` bounds the depth)
and yields nothing.
Everything about robots.txt is Scrapy's own: ``ROBOTSTXT_OBEY`` turns on its
RobotsTxtMiddleware, which fetches ``/robots.txt`` before the first request to an origin
and asks the parser named by ``ROBOTSTXT_PARSER`` (Protego by default). The settings are
given on the command line by reptest (``-s NAME=VALUE``), not here.

Run: scrapy runspider scrapy_spider.py -a start=http://127.0.0.2:8080/reptest-start.html \
       -s USER_AGENT=ReptestBot -s ROBOTSTXT_OBEY=True ...
"""

from urllib.parse import urlsplit

import scrapy


class ReptestSpider(scrapy.Spider):
    """Crawls the hosts of the start pages in ``start`` (space-separated), following every
    link."""

    name = "reptest"

    def __init__(self, start=None, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not start:
            raise ValueError("give the start page with -a start=URL")
        self.start_urls = start.split()
        # Offsite filtering compares host names only (no port): the start URLs' hosts.
        self.allowed_domains = sorted({urlsplit(url).hostname for url in self.start_urls})

    def parse(self, response):
        if not isinstance(response, scrapy.http.TextResponse):
            return
        for href in response.css("a::attr(href)").getall():
            yield response.follow(href, callback=self.parse)
