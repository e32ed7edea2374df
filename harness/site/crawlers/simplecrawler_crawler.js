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
// Given several start pages (reptest's batches: one loopback site per case, each on an
// origin of its own) it starts one crawler per start page in the same process, all at
// once; the process ends when every crawl has.
//
// Usage: node simplecrawler_crawler.js AGENT START_URL [START_URL...]
//        (NODE_PATH: the pinned node_modules)
'use strict';

const Crawler = require('simplecrawler');

if (process.argv.length < 4) {
    console.error('usage: node simplecrawler_crawler.js AGENT START_URL [START_URL...]');
    process.exit(2);
}
const agent = process.argv[2];
for (const start of process.argv.slice(3)) {
    const crawler = new Crawler(start);
    crawler.userAgent = agent;
    crawler.respectRobotsTxt = true;
    crawler.maxDepth = 2;
    crawler.interval = 10;
    crawler.maxConcurrency = 2;
    crawler.timeout = 5000;
    crawler.on('robotstxterror', (error) => console.error(`${start} robotstxterror: ${error.message}`));
    crawler.on('fetchdisallowed', (item) => console.error(`${start} disallowed: ${item.url}`));
    crawler.on('complete', () => console.error(`${start} complete`));
    crawler.start();
}
