'use strict';
// robots-txt (npm 1.0.0): makeRobot(config).isAllowed(userAgent, url) resolves to a
// boolean. Its only way to a robots.txt is its own fetch: it GETs
// `${origin}/robots.txt` with `request`, parses the response with its own pinned
// robots-txt-parse 0.0.x and checks it with robots-txt-guard 0.0.x (older releases than
// the node-robots-txt-guard adapter's, nested under node_modules/robots-txt).
// So the adapter serves the request's body byte for byte, with status 200, from an HTTP
// server on 127.0.0.1 (one per process, started on first use, serving the body of the
// request being answered: requests are answered one at a time), and asks the library
// about the query's path and query on that origin (full_urls: false: the corpus URL's
// origin is replaced by the loopback one, which none of the library's matching looks
// at).
// Protocol 2 framing, but no parse once: without a `db` in its config the library keeps
// nothing between sequential calls, so each query fetches and parses the body anew
// (from a fresh robot per request, so nothing carries over between requests).
const http = require('http');
const { load, packageVersion } = require('../protocol');
const makeRobot = load('robots-txt');

// `request` sends through $HTTP_PROXY unless NO_PROXY names the host: the loopback
// server is reached directly.
process.env.NO_PROXY = ['127.0.0.1', process.env.NO_PROXY || process.env.no_proxy].filter(Boolean).join(',');

let current = Buffer.alloc(0); // the body of the request being answered
let listening = null; // resolves to the loopback origin

function origin() {
  if (!listening) {
    listening = new Promise((resolve, reject) => {
      const server = http.createServer((req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': current.length });
        res.end(current);
      });
      server.on('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.unref(); // the process still exits when stdin closes
        resolve(`http://127.0.0.1:${server.address().port}`);
      });
    });
  }
  return listening;
}

module.exports = {
  name: 'node-robots-txt',
  version: () => packageVersion('robots-txt'),
  capabilities: { full_urls: false, reports_line: false },
  async parse(body) {
    const base = await origin();
    current = body;
    const robot = makeRobot({ request: { timeout: 5000 } });
    return async ({ agent, url }) => ({ allowed: await robot.isAllowed(agent, base + url) });
  },
};
