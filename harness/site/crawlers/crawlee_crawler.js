// Runs Crawlee for JavaScript (npm `@crawlee/cheerio`, the plain-HTTP crawler of Crawlee
// 3, with no browser package) for reptest's `crawler-crawlee-js`
// (harness/site/src/crawl/pinned.rs).
//
// A `CheerioCrawler` from Crawlee's documented API, with `respectRobotsTxtFile: {
// userAgent: AGENT }` (the documented object form: the token its robots.txt rules are
// matched for; `true` matches `*`): it starts at the start page and enqueues every link
// on the same hostname (`enqueueLinks`, whose default strategy that is), to depth 1 below
// the start page (`maxCrawlDepth: 1`), without retries (`maxRequestRetries: 0`), 5 s per
// request, eight at a time, storage in memory only (`persistStorage: false`). The agent is
// its `User-Agent` on page requests, set in a `preNavigationHooks` hook (the documented
// way to change got-scraping's request headers). Everything about robots.txt is Crawlee's
// own: before the first request to an origin `RobotsTxtFile.find` fetches `/robots.txt`
// (with got-scraping's own generated headers) and parses it with `robots-parser`.
//
// Given several start pages (reptest's batches: one loopback site per case, each on an
// origin of its own) it crawls them all in one run, up to eight requests at a time; each
// origin gets its own robots.txt, as Crawlee keeps one per origin.
//
// Usage: node crawlee_crawler.js AGENT START_URL [START_URL...]
//        (NODE_PATH: the pinned node_modules)
'use strict';

const { CheerioCrawler, Configuration } = require('@crawlee/cheerio');

async function main(agent, starts) {
    const crawler = new CheerioCrawler({
        respectRobotsTxtFile: { userAgent: agent },
        maxCrawlDepth: 1,
        maxRequestRetries: 0,
        navigationTimeoutSecs: 5,
        requestHandlerTimeoutSecs: 5,
        maxConcurrency: 8,
        preNavigationHooks: [
            (_context, gotOptions) => {
                gotOptions.headers = { ...gotOptions.headers, 'user-agent': agent };
            },
        ],
        async requestHandler({ enqueueLinks }) {
            await enqueueLinks();
        },
    }, new Configuration({ persistStorage: false }));
    await crawler.run(starts);
}

if (process.argv.length < 4) {
    console.error('usage: node crawlee_crawler.js AGENT START_URL [START_URL...]');
    process.exit(2);
}
main(process.argv[2], process.argv.slice(3)).catch((error) => {
    console.error(error);
    process.exit(1);
});
