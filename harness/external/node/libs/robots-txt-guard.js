'use strict';
// robots-txt-guard fed by robots-txt-parse: parse(readableStream) resolves to
// { groups, extensions }; guard(thatResult).isAllowed(userAgent, path). Paths only.
// Protocol 2: the body is parsed and guarded once per request; isAllowed per query.
const { Readable } = require('stream');
const { load, packageVersion } = require('../protocol');
const parse = load('robots-txt-parse');
const guard = load('robots-txt-guard');

module.exports = {
  name: 'node-robots-txt-guard',
  version: () => `${packageVersion('robots-txt-guard')} (robots-txt-parse ${packageVersion('robots-txt-parse')})`,
  capabilities: { full_urls: false, reports_line: false },
  async parse(robots) {
    // The raw bytes go in as one Buffer chunk; robots-txt-parse decodes and splits them.
    const config = await parse(Readable.from([robots]));
    const rules = guard(config);
    return ({ agent, url }) => ({ allowed: rules.isAllowed(agent, url) });
  },
};
