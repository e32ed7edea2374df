'use strict';
// robots-txt-parser: robotsParser({ userAgent }), .parseRobots(key, body) caches the parsed
// file under the key's origin, .canCrawl(url) resolves to a boolean for the cached origin.
// canCrawl fetches robots.txt over the network when the origin is not cached; this adapter
// never lets it (fetch is replaced by a rejection), so every answer comes from the body.
const robotsParser = require('robots-txt-parser');
const { packageVersion, robotsUrlFor } = require('../protocol');

function noFetch(link) {
  return Promise.reject(new Error(`library tried to fetch robots.txt for ${link}`));
}

module.exports = {
  name: 'node-robots-txt-parser',
  version: () => packageVersion('robots-txt-parser'),
  capabilities: { full_urls: true, reports_line: false },
  async check({ robots, agent, url }) {
    const parser = robotsParser({ userAgent: agent });
    parser.fetch = noFetch;
    parser.parseRobots(robotsUrlFor(url), robots.toString('utf8'));
    return { allowed: await parser.canCrawl(url) };
  },
};
