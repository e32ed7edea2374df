'use strict';
// robots (npm, Eugene Kalinin's port of Python's robotparser): new RobotsParser() with no
// URL does not fetch; parse(lines) takes the body's lines; canFetchSync(userAgent, path)
// answers synchronously. Paths only (its rules compare the URL-quoted path).
// The body is decoded and split the way the library's own read() does after a fetch:
// UTF-8 (resp.setEncoding('utf8'): invalid bytes become U+FFFD, a BOM stays U+FEFF),
// then split(/\r\n|\r|\n/).
// Protocol 2: the body is parsed once per request; canFetchSync per query.
const { load, packageVersion } = require('../protocol');
const robots = load('robots');

module.exports = {
  name: 'node-robots',
  version: () => packageVersion('robots'),
  capabilities: { full_urls: false, reports_line: false },
  parse(body) {
    const parser = new robots.RobotsParser();
    parser.parse(body.toString('utf8').split(/\r\n|\r|\n/));
    return ({ agent, url }) => ({ allowed: parser.canFetchSync(agent, url) });
  },
};
