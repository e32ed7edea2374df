'use strict';
// reptest external adapter protocol, versions 1 and 2 (harness/PROTOCOL.md), shared by
// every Node adapter.
//
// A library module exports:
//   name          reptest name, e.g. 'node-robots-parser'
//   version()     the installed version, read at run time
//   capabilities  { full_urls, reports_line }
// and either (protocol 2: one parse per request, many checks)
//   parse(robots)  robots is a Buffer (raw bytes); returns, or resolves to, a matcher
//                 ({ agent, url }) => { allowed: boolean, line?: number } (or a promise
//                 of it), asked once per query of the request; throws/rejects on failure
// or (protocol 1)
//   check({ robots, agent, url })  returns, or resolves to, { allowed, line? }.
// Either builds a fresh parser for every request, never shared between requests. A
// protocol 2 module answers v1 requests too (parse, then one check).

const fs = require('fs');
const path = require('path');
const { createRequire } = require('module');

// JSON.stringify escapes control characters and lone surrogates; escape every other
// character above 0x7E too, so the line is pure ASCII (surrogate pairs come out as two
// \uXXXX escapes, as JSON wants).
function asciiJson(value) {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g,
    (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

function writeLine(value) {
  // Writes to pipes and files are synchronous on Linux, so each answer is flushed here.
  process.stdout.write(asciiJson(value) + '\n');
}

function describe(err) {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return `thrown: ${String(err)}`;
}

// Where the libraries are looked up from: this folder (node_modules holds the pins of
// package.json), or the npm prefix adapter.js was given as its second argument
// (`setup --latest` installs the newest releases into $REPTEST_STATE/node-latest).
let prefix = __dirname;

// Makes `dir` the folder libraries are looked up from (nothing when `dir` is empty).
function usePrefix(dir) {
  if (dir) prefix = path.resolve(dir);
}

// require() as if from a file in the prefix folder.
function prefixRequire() {
  return createRequire(path.join(prefix, 'adapter.js'));
}

// A library, resolved from the prefix folder.
function load(name) {
  return prefixRequire()(name);
}

// The version of an installed package, from its own package.json, found the way Node
// resolves the bare name from the prefix folder.
function packageVersion(name) {
  for (const dir of prefixRequire().resolve.paths(name) || []) {
    const file = path.join(dir, name, 'package.json');
    if (fs.existsSync(file)) return String(JSON.parse(fs.readFileSync(file, 'utf8')).version);
  }
  throw new Error(`package ${name} is not installed in ${prefix} (run harness/external/setup node, or with --latest for the newest releases)`);
}

// The robots.txt URL for a query URL: the file at the root of its origin.
function robotsUrlFor(url) {
  const u = new URL(url);
  if (!u.host) throw new Error(`cannot derive a robots.txt URL from ${JSON.stringify(url)}`);
  return `${u.protocol}//${u.host}/robots.txt`;
}

// Validates a request object and decodes its body.
function readRequest(req) {
  if (req === null || typeof req !== 'object' || Array.isArray(req)) {
    throw new Error('request is not a JSON object');
  }
  for (const field of ['robots_b64', 'agent', 'url']) {
    if (typeof req[field] !== 'string') throw new Error(`request field ${field} is not a string`);
  }
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(req.robots_b64) || req.robots_b64.length % 4 !== 0) {
    throw new Error('robots_b64 is not padded standard base64');
  }
  return { robots: Buffer.from(req.robots_b64, 'base64'), agent: req.agent, url: req.url };
}

// Settles with the first uncaught exception or unhandled rejection raised while a
// request is being answered (a library failing inside a stream callback, say), so that
// request gets an error answer instead of hanging until reptest's timeout.
let fault = null;
function onStray(err) {
  if (fault) {
    const f = fault;
    fault = null;
    f(err);
  } else {
    process.stderr.write(`adapter: stray error between requests: ${describe(err)}\n`);
  }
}
process.on('uncaughtException', onStray);
process.on('unhandledRejection', onStray);
// reptest gone (EPIPE on stdout): nobody reads the answers any more.
process.stdout.on('error', () => process.exit(1));

// Runs fn (sync or async) and settles with its result, or with the first stray error
// raised meanwhile.
async function guarded(fn) {
  const stray = new Promise((resolve, reject) => { fault = reject; });
  try {
    return await Promise.race([Promise.resolve().then(fn), stray]);
  } finally {
    fault = null;
  }
}

// Calls fn: a plain value (a synchronous library) is taken as it is, a promise is awaited
// guarded against stray errors. (A batch asks a synchronous matcher many times; this
// spares each query the promise machinery of guarded.)
function settle(fn) {
  const result = fn();
  if (result !== null && typeof result === 'object' && typeof result.then === 'function') {
    return guarded(() => result);
  }
  return result;
}

// The answer fields for a library's result: a verdict (and line), else an Error thrown.
function verdictFields(result) {
  if (result === null || typeof result !== 'object' || typeof result.allowed !== 'boolean') {
    throw new Error(`library answered ${String(result && result.allowed)}, not a boolean`);
  }
  const out = { verdict: result.allowed ? 'allowed' : 'disallowed' };
  if (Number.isInteger(result.line) && result.line > 0) out.line = result.line;
  return out;
}

// Validates a batch request (protocol 2) and decodes its body.
function readBatch(req) {
  if (typeof req.robots_b64 !== 'string') throw new Error('request field robots_b64 is not a string');
  if (!Array.isArray(req.queries)) throw new Error('request field queries is not an array');
  const queries = req.queries.map((q) => {
    if (q === null || typeof q !== 'object' || typeof q.agent !== 'string' || typeof q.url !== 'string') {
      throw new Error('each query must be an object with string agent and url');
    }
    return { agent: q.agent, url: q.url };
  });
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(req.robots_b64) || req.robots_b64.length % 4 !== 0) {
    throw new Error('robots_b64 is not padded standard base64');
  }
  return { robots: Buffer.from(req.robots_b64, 'base64'), queries };
}

// Answers a request of protocol 2 (a batch, or a v1 request) with lib.parse: one parse,
// then one check per query. A failing parse is an error for every query; a failing
// check, for its query only.
async function answerBatch(lib, req, id) {
  const single = !('queries' in req);
  const { robots, queries } = single
    ? (({ robots: r, agent, url }) => ({ robots: r, queries: [{ agent, url }] }))(readRequest(req))
    : readBatch(req);
  let answers;
  try {
    const matcher = await settle(() => lib.parse(robots));
    answers = [];
    for (const query of queries) {
      try {
        answers.push(verdictFields(await settle(() => matcher(query))));
      } catch (err) {
        answers.push({ error: describe(err) });
      }
    }
  } catch (err) {
    answers = queries.map(() => ({ error: describe(err) }));
  }
  return single ? { id, ...answers[0] } : { id, answers };
}

async function answer(lib, line) {
  let req;
  try {
    req = JSON.parse(line);
  } catch (err) {
    return { id: null, error: `invalid JSON request: ${describe(err)}` };
  }
  const id = req !== null && typeof req === 'object' && Number.isInteger(req.id) ? req.id : null;
  try {
    if (id === null) throw new Error('request has no integer id');
    if (typeof lib.parse === 'function') return await answerBatch(lib, req, id);
    const input = readRequest(req);
    const result = await guarded(() => lib.check(input));
    return { id, ...verdictFields(result) };
  } catch (err) {
    return { id, error: describe(err) };
  }
}

// Runs the protocol on stdin/stdout for one library module.
function serve(lib) {
  writeLine({
    protocol: typeof lib.parse === 'function' ? 2 : 1,
    name: lib.name,
    version: lib.version(),
    language: 'JavaScript',
    capabilities: { full_urls: !!lib.capabilities.full_urls, reports_line: !!lib.capabilities.reports_line },
  });

  // Requests are answered strictly one at a time, in order: each line's work is chained
  // after the previous one's, whatever the library does asynchronously.
  let queue = Promise.resolve();
  const enqueue = (lineBuf) => {
    const line = lineBuf.toString('utf8');
    if (/^\s*$/.test(line)) return;
    queue = queue.then(() => answer(lib, line)).then(writeLine);
  };

  // Lines end at LF and nowhere else: chunks are buffered and split on byte 0x0A.
  let pending = Buffer.alloc(0);
  process.stdin.on('data', (chunk) => {
    let buf = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    let nl;
    while ((nl = buf.indexOf(0x0a)) !== -1) {
      enqueue(buf.subarray(0, nl));
      buf = buf.subarray(nl + 1);
    }
    pending = Buffer.from(buf);
  });
  process.stdin.on('end', () => {
    if (pending.length) enqueue(pending);
    pending = Buffer.alloc(0);
    queue.then(() => process.exit(0));
  });
}

module.exports = { serve, packageVersion, robotsUrlFor, asciiJson, readRequest, usePrefix, load };
