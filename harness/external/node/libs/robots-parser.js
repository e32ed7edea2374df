'use strict';
// robots-parser: robotsParser(robotsTxtUrl, contents).isAllowed(url, ua); synchronous.
// isAllowed answers undefined for a URL off the robots.txt's origin; reptest gets an error.
// Protocol 2: a request's body is parsed once per origin its queries name (the parser
// is bound to its robots.txt URL, as in a crawler that fetched that file), and each
// query is checked against the parser of its own origin.
const { load, packageVersion, robotsUrlFor } = require('../protocol');
const robotsParser = load('robots-parser');

module.exports = {
  name: 'node-robots-parser',
  version: () => packageVersion('robots-parser'),
  capabilities: { full_urls: true, reports_line: true },
  parse(robots) {
    const contents = robots.toString('utf8');
    const parsers = new Map(); // robots.txt URL -> parser, for this request only
    return ({ agent, url }) => {
      const robotsUrl = robotsUrlFor(url);
      let parser = parsers.get(robotsUrl);
      if (!parser) {
        parser = robotsParser(robotsUrl, contents);
        parsers.set(robotsUrl, parser);
      }
      const allowed = parser.isAllowed(url, agent);
      if (typeof allowed !== 'boolean') return { allowed };
      // getMatchingLineNumber: the deciding rule's 1-based line, or -1 when none matched.
      return { allowed, line: parser.getMatchingLineNumber(url, agent) };
    };
  },
};
