// Runs a JavaScript robots.txt library over reptest's exported corpus, with no Rust.
//
//   reptest corpus export --out reptest-export
//   REPTEST_EXPORT=reptest-export node --test docs/examples/export/
//
// It uses robots-parser (`npm install robots-parser@3.0.1`; NODE_PATH may point at the
// node_modules holding it); put your own library in `allowed`. Only what a body-only
// parser can be judged on is checked: decided queries without a fetch scenario whose
// `rfc9309` expectation is a verdict.
'use strict';
const { test } = require('node:test');
const assert = require('node:assert');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const robotsParser = require('robots-parser');

const dir = process.env.REPTEST_EXPORT || 'reptest-export';

function load() {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  assert.strictEqual(manifest.format, 2, 'an export this example does not know');
  const queries = fs
    .readFileSync(path.join(dir, 'queries.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line));
  assert.strictEqual(queries.length, manifest.queries);
  const bodies = JSON.parse(fs.readFileSync(path.join(dir, 'bodies.json'), 'utf8'));
  assert.strictEqual(Object.keys(bodies).length, manifest.bodies);
  return { queries, bodies };
}

// The exact bytes of the body whose SHA-256 is `sha256`: its parts concatenated, each
// `text` (UTF-8) or `b64` (base64), `repeat` times (1 when absent).
function bodyBytes(bodies, sha256) {
  const body = bodies[sha256];
  const data = Buffer.concat(body.parts.map((part) => {
    const unit = 'text' in part ? Buffer.from(part.text, 'utf8') : Buffer.from(part.b64, 'base64');
    const repeat = part.repeat ?? 1;
    return repeat === 1 ? unit : Buffer.alloc(unit.length * repeat, unit);
  }));
  assert.strictEqual(data.length, body.size);
  assert.strictEqual(crypto.createHash('sha256').update(data).digest('hex'), sha256);
  return data;
}

function judged(queries) {
  return queries.filter((q) => !q.undecided && q.fetch === null && q.expect.rfc9309 !== 'either');
}

// The library's verdict: true when the URL may be crawled (undefined counts as a miss).
function allowed(q, bodies) {
  const body = bodyBytes(bodies, q.body_sha256).toString('utf8');
  const url = q.url.startsWith('//') ? 'https:' + q.url // protocol-relative (RFC 3986 §4.2)
    : q.url.includes('://') ? q.url : 'https://example.com' + q.url;
  const origin = new URL(url).origin;
  return robotsParser(origin + '/robots.txt', body).isAllowed(url, q.agent);
}

test('every body rebuilds to its size and SHA-256', () => {
  const { bodies } = load();
  for (const sha256 of Object.keys(bodies)) {
    bodyBytes(bodies, sha256);
  }
});

test('robots-parser over the MUST queries', () => {
  const { queries, bodies } = load();
  const must = judged(queries).filter((q) => q.level === 'MUST');
  const failed = must.filter((q) => allowed(q, bodies) !== (q.expect.rfc9309 === 'allowed')).map((q) => q.id);
  console.log(`robots-parser: ${must.length - failed.length}/${must.length} MUST queries passed`);
  // A regression canary for this example: robots-parser 3.0.1 failed 57 of these 762
  // MUST queries with corpus 3.0.0 (a little room is left for queries a minor version adds).
  assert.ok(failed.length <= 60, failed.join(', '));
});
