'use strict';
// robots-txt-parser: robotsParser({ userAgent }), .parseRobots(key, body) caches the parsed
// file under the key's origin, .canCrawl(url) resolves to a boolean for the cached origin.
// canCrawl fetches robots.txt over the network when the origin is not cached; this adapter
// never lets it (fetch is replaced by a rejection), so every answer comes from the body.
//
// Protocol 2: one parser per request. The body is parsed once per origin the queries
// name (parseRobots, which also makes that origin the active one); a later query of an
// origin already parsed makes it active again with useRobotsFor, which finds it cached.
// The agent is set per query with setUserAgent: the constructor takes an empty agent as
// '*' and lower-cases any other, setUserAgent lower-cases, so '' is passed as '*' there.
const { load, packageVersion, robotsUrlFor } = require('../protocol');
const robotsParser = load('robots-txt-parser');

function noFetch(link) {
  return Promise.reject(new Error(`library tried to fetch robots.txt for ${link}`));
}

module.exports = {
  name: 'node-robots-txt-parser',
  version: () => packageVersion('robots-txt-parser'),
  capabilities: { full_urls: true, reports_line: false },
  parse(robots) {
    const body = robots.toString('utf8');
    const parser = robotsParser({ userAgent: '*' });
    parser.fetch = noFetch;
    const parsed = new Set(); // robots.txt URLs parsed in this request
    return async ({ agent, url }) => {
      parser.setUserAgent(agent || '*');
      const robotsUrl = robotsUrlFor(url);
      if (parsed.has(robotsUrl)) {
        await parser.useRobotsFor(robotsUrl);
      } else {
        parser.parseRobots(robotsUrl, body);
        parsed.add(robotsUrl);
      }
      return { allowed: await parser.canCrawl(url) };
    };
  },
};
