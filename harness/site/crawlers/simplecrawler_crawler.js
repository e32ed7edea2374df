// Runs simplecrawler (npm `simplecrawler`) for reptest's `crawler-simplecrawler`
// (harness/site/src/crawl/pinned.rs).
//
// `new Crawler(START_URL)` from its documented API, robots.txt respected (its default,
// `respectRobotsTxt = true`, made explicit), `userAgent` the agent (its `User-Agent`
// header, and the name it asks robots-parser about), depth 2 (`maxDepth`: the start page
// and what it links), on the start page's host only (`filterByDomain`, its default), a
// 10 ms interval between requests (default 250 ms), two at a time, 5 s per request
// (default 5 min). Everything about robots.txt is simplecrawler's own: before the first
// request to a host it fetches `/robots.txt` and parses it with `robots-parser`
// (`Crawler#getRobotsTxt`); a request that fails emits `robotstxterror` and the crawl
// goes on as if there were no file.
//
// Usage: node simplecrawler_crawler.js START_URL AGENT   (NODE_PATH: the pinned node_modules)
'use strict';

const Crawler = require('simplecrawler');

if (process.argv.length !== 4) {
    console.error('usage: node simplecrawler_crawler.js START_URL AGENT');
    process.exit(2);
}
const crawler = new Crawler(process.argv[2]);
crawler.userAgent = process.argv[3];
crawler.respectRobotsTxt = true;
crawler.maxDepth = 2;
crawler.interval = 10;
crawler.maxConcurrency = 2;
crawler.timeout = 5000;
crawler.on('robotstxterror', (error) => console.error(`robotstxterror: ${error.message}`));
crawler.on('fetchdisallowed', (item) => console.error(`disallowed: ${item.url}`));
crawler.on('complete', () => console.error('complete'));
crawler.start();
