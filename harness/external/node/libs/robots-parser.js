'use strict';
// robots-parser: robotsParser(robotsTxtUrl, contents).isAllowed(url, ua); synchronous.
// isAllowed answers undefined for a URL off the robots.txt's origin; reptest gets an error.
const robotsParser = require('robots-parser');
const { packageVersion, robotsUrlFor } = require('../protocol');

module.exports = {
  name: 'node-robots-parser',
  version: () => packageVersion('robots-parser'),
  capabilities: { full_urls: true, reports_line: true },
  check({ robots, agent, url }) {
    const parser = robotsParser(robotsUrlFor(url), robots.toString('utf8'));
    const allowed = parser.isAllowed(url, agent);
    if (typeof allowed !== 'boolean') return { allowed };
    // getMatchingLineNumber: the deciding rule's 1-based line, or -1 when none matched.
    return { allowed, line: parser.getMatchingLineNumber(url, agent) };
  },
};
