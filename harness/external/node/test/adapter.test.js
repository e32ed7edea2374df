'use strict';
// Speaks protocols v1 and v2 (harness/PROTOCOL.md) with each Node adapter, as reptest does.
// Run: node --test harness/external/node/test/   (after: bash harness/external/setup node)
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const dir = path.join(__dirname, '..');
const ADAPTERS = {
  'robots-parser': { name: 'node-robots-parser', fullUrls: true, packages: ['robots-parser'] },
  'robots-txt-guard': { name: 'node-robots-txt-guard', fullUrls: false, packages: ['robots-txt-guard', 'robots-txt-parse'] },
  'robots-txt-parser': { name: 'node-robots-txt-parser', fullUrls: true, packages: ['robots-txt-parser'] },
  robots: { name: 'node-robots', fullUrls: false, packages: ['robots'] },
  'robots-txt': { name: 'node-robots-txt', fullUrls: false, packages: ['robots-txt'] },
};

function installedVersion(pkg) {
  const file = path.join(dir, 'node_modules', pkg, 'package.json');
  assert.ok(fs.existsSync(file), `${pkg} is not installed: run bash harness/external/setup node`);
  return JSON.parse(fs.readFileSync(file, 'utf8')).version;
}

// Starts an adapter, writes `input` (a string, or an array of chunks written one by one),
// closes stdin and resolves to { hello, answers, raw, code } once it exits.
function converse(lib, input) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(dir, 'adapter.js'), lib], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out = [];
    let err = '';
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => { err += c; });
    child.on('error', reject);
    const timer = setTimeout(() => { child.kill(); reject(new Error(`adapter ${lib} timed out; stderr: ${err}`)); }, 20000);
    child.on('close', (code) => {
      clearTimeout(timer);
      const raw = Buffer.concat(out);
      const lines = raw.toString('latin1').split('\n');
      assert.equal(lines.pop(), '', 'output ends with LF');
      const [hello, ...answers] = lines.map((l) => JSON.parse(l));
      resolve({ hello, answers, raw, code, stderr: err });
    });
    const chunks = Array.isArray(input) ? input : [input];
    (async () => {
      for (const c of chunks) {
        child.stdin.write(c);
        if (chunks.length > 1) await new Promise((r) => setTimeout(r, 2));
      }
      child.stdin.end();
    })();
  });
}

const b64 = (s) => Buffer.from(s, 'latin1').toString('base64');
let nextId = 1;
function request(lib, body, agent, url) {
  const u = new URL(url);
  return { id: nextId++, robots_b64: b64(body), agent, url: ADAPTERS[lib].fullUrls ? url : u.pathname + u.search };
}
const wire = (reqs) => reqs.map((r) => JSON.stringify(r) + '\n').join('');

for (const [lib, info] of Object.entries(ADAPTERS)) {
  test(`${lib}: handshake`, async () => {
    const { hello, answers, code } = await converse(lib, '');
    assert.equal(code, 0);
    assert.deepEqual(answers, []);
    assert.equal(hello.protocol, 2);
    assert.equal(hello.name, info.name);
    assert.equal(hello.language, 'JavaScript');
    assert.equal(hello.capabilities.full_urls, info.fullUrls);
    assert.equal(typeof hello.capabilities.reports_line, 'boolean');
    for (const pkg of info.packages) assert.ok(hello.version.includes(installedVersion(pkg)), hello.version);
  });

  test(`${lib}: agent, URL and body reach the right arguments`, async () => {
    const foo = 'User-agent: foobot\nDisallow: /\n';
    const star = 'User-agent: *\nDisallow: /private\n';
    const reqs = [
      request(lib, foo, 'foobot', 'https://example.com/page'),
      request(lib, foo, 'barbot', 'https://example.com/page'),
      request(lib, star, 'foobot', 'https://example.com/private/x'),
      request(lib, star, 'foobot', 'https://example.com/public'),
    ];
    const { answers, code } = await converse(lib, wire(reqs));
    assert.equal(code, 0);
    assert.deepEqual(answers.map((a) => [a.id, a.verdict]), [
      [reqs[0].id, 'disallowed'],
      [reqs[1].id, 'allowed'],
      [reqs[2].id, 'disallowed'],
      [reqs[3].id, 'allowed'],
    ]);
  });

  test(`${lib}: a fresh parser per request (nothing cached per origin)`, async () => {
    const reqs = [
      request(lib, 'User-agent: *\nDisallow: /\n', 'foobot', 'https://example.com/a'),
      request(lib, 'User-agent: *\nDisallow: /b\n', 'foobot', 'https://example.com/a'),
      request(lib, 'User-agent: *\nDisallow: /\n', 'foobot', 'https://example.com/a'),
    ];
    const { answers } = await converse(lib, wire(reqs));
    assert.deepEqual(answers.map((a) => a.verdict), ['disallowed', 'allowed', 'disallowed']);
  });

  test(`${lib}: hostile bodies get an answer and the adapter lives on`, async () => {
    const hostile = [
      '\xef\xbb\xbfUser-agent: *\r\nDisallow: /a\x00b\r\nDisallow: /\xff\xfe\xc3\x28\r\n',
      '\r\r\n\x00\x00\xff',
      '',
      'Disallow',
      '\xef\xbb\xbf',
      'User-agent: *\nDisallow: /\xe2\x80\xa8x\x85y\n',
    ];
    const reqs = hostile.map((body) => request(lib, body, 'foobot', 'https://example.com/a%00b'));
    reqs.push(request(lib, 'User-agent: *\nDisallow: /\n', 'foobot', 'https://example.com/x'));
    const { answers, code } = await converse(lib, wire(reqs));
    assert.equal(code, 0);
    assert.deepEqual(answers.map((a) => a.id), reqs.map((r) => r.id));
    for (const a of answers) {
      assert.ok(a.verdict === 'allowed' || a.verdict === 'disallowed' || typeof a.error === 'string', JSON.stringify(a));
    }
    assert.equal(answers[answers.length - 1].verdict, 'disallowed');
  });

  test(`${lib}: pipelined requests answered in order, lines split on LF only`, async () => {
    const reqs = [];
    for (let i = 0; i < 60; i++) {
      const body = i % 2 ? 'User-agent: *\nDisallow: /\n' : 'User-agent: *\nAllow: /\n';
      // U+2028, U+0085 and CR arrive escaped; a reader that splits on them would break.
      const req = request(lib, body, `bot\u2028\u0085\r${i}`, `https://example.com/p${i}`);
      // Every third request fails fast (bad base64); its answer must not overtake the others.
      if (i % 3 === 2) req.robots_b64 = '!!!!';
      reqs.push(req);
    }
    const text = wire(reqs);
    // Chunks that cut requests (and the final LF) anywhere.
    const chunks = [];
    for (let i = 0; i < text.length; i += 97) chunks.push(text.slice(i, i + 97));
    const { answers, raw } = await converse(lib, chunks);
    assert.deepEqual(answers.map((a) => a.id), reqs.map((r) => r.id));
    assert.deepEqual(answers.map((a) => a.verdict || 'error'),
      reqs.map((_, i) => (i % 3 === 2 ? 'error' : i % 2 ? 'disallowed' : 'allowed')));
    assert.ok(raw.every((b) => b < 0x80), 'output is ASCII');
  });

  test(`${lib}: malformed requests get error answers`, async () => {
    const good = request(lib, 'User-agent: *\nDisallow: /\n', 'foobot', 'https://example.com/x');
    const input = [
      'not json',
      '[1,2]',
      JSON.stringify({ id: 900, robots_b64: '!!!', agent: 'a', url: good.url }),
      JSON.stringify({ id: 901, robots_b64: 'QQ==', agent: 7, url: good.url }),
      JSON.stringify({ robots_b64: 'QQ==', agent: 'a', url: good.url }),
      '',
      JSON.stringify(good),
    ].join('\n') + '\n';
    const { answers, code } = await converse(lib, input);
    assert.equal(code, 0);
    assert.deepEqual(answers.map((a) => [a.id, typeof a.error]), [
      [null, 'string'], [null, 'string'], [900, 'string'], [901, 'string'], [null, 'string'], [good.id, 'undefined'],
    ]);
    assert.equal(answers[5].verdict, 'disallowed');
  });
}

for (const lib of Object.keys(ADAPTERS)) {
  test(`${lib}: a batch request (protocol 2) answers each query as a request of its own would`, async () => {
    const body = 'User-agent: foobot\nDisallow: /private\nAllow: /private/open\n\nUser-agent: *\nDisallow: /\n';
    const queries = [];
    for (const agent of ['foobot', 'barbot', 'FooBot', '']) {
      for (const url of ['https://example.com/private/x', 'https://example.com/private/open/y',
        'https://example.com/public', 'http://example.org:8080/private?q=1']) {
        queries.push(request(lib, body, agent, url));
      }
    }
    const batch = { id: nextId++, robots_b64: b64(body), queries: queries.map(({ agent, url }) => ({ agent, url })) };
    const empty = { id: nextId++, robots_b64: b64(body), queries: [] };
    const bad = { id: nextId++, robots_b64: '!!!!', queries: [] };
    const after = request(lib, 'User-agent: *\nAllow: /\n', 'foobot', 'https://example.com/private/x');
    const { answers, code } = await converse(lib, wire([...queries, batch, empty, bad, after]));
    assert.equal(code, 0);
    const singles = answers.slice(0, queries.length).map(({ id, ...rest }) => rest);
    const [got, gotEmpty, gotBad, gotAfter] = answers.slice(queries.length);
    assert.deepEqual(got, { id: batch.id, answers: singles });
    assert.deepEqual(gotEmpty, { id: empty.id, answers: [] });
    assert.equal(gotBad.id, bad.id);
    assert.equal(typeof gotBad.error, 'string');
    // The batch's parse does not leak into the next request.
    assert.equal(gotAfter.verdict, 'allowed');
  });
}

test('protocol.js: protocol 2 parses once per request; a failing parse or check is an error for its queries', async () => {
  const script = `
    let parses = 0;
    require(${JSON.stringify(path.join(dir, 'protocol.js'))}).serve({
      name: 'fake2', version: () => '0', capabilities: { full_urls: true, reports_line: false },
      async parse(robots) {
        parses += 1;
        const text = robots.toString();
        if (text === 'bad') throw new SyntaxError('cannot parse');
        return ({ agent, url }) => {
          if (agent === 'throw') throw new TypeError('boom');
          if (agent === 'parses') return { allowed: true, line: parses };
          return { allowed: url.endsWith(text) };
        };
      },
    });`;
  const q = (agent, url) => ({ agent, url });
  const input = [
    { id: 1, robots_b64: b64('p'), queries: [q('a', 'https://e.com/p'), q('throw', 'https://e.com/'), q('b', 'https://e.com/q'), q('parses', '/')] },
    { id: 2, robots_b64: b64('bad'), queries: [q('a', '/'), q('b', '/')] },
    { id: 3, robots_b64: b64('q'), agent: 'a', url: 'https://e.com/q' },
    { id: 4, robots_b64: '', queries: [{ agent: 'a' }] },
  ].map((r) => JSON.stringify(r) + '\n').join('');
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const out = [];
  child.stdout.on('data', (c) => out.push(c));
  child.stdin.end(input);
  const code = await new Promise((r) => child.on('close', r));
  assert.equal(code, 0);
  const [hello, ...answers] = Buffer.concat(out).toString().trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(hello.protocol, 2);
  assert.deepEqual(answers[0], { id: 1, answers: [{ verdict: 'allowed' }, { error: 'TypeError: boom' }, { verdict: 'disallowed' }, { verdict: 'allowed', line: 1 }] });
  assert.deepEqual(answers[1], { id: 2, answers: [{ error: 'SyntaxError: cannot parse' }, { error: 'SyntaxError: cannot parse' }] });
  assert.deepEqual(answers[2], { id: 3, verdict: 'allowed' });
  assert.equal(answers[3].id, 4);
  assert.equal(typeof answers[3].error, 'string');
});

test('robots-parser: reports the deciding line', async () => {
  const body = '# comment\nUser-agent: *\nAllow: /a/b\nDisallow: /a\n';
  const reqs = [
    request('robots-parser', body, 'foobot', 'https://example.com/a/x'),
    request('robots-parser', body, 'foobot', 'https://example.com/a/b'),
    request('robots-parser', body, 'foobot', 'https://example.com/z'),
  ];
  const { hello, answers } = await converse('robots-parser', wire(reqs));
  assert.equal(hello.capabilities.reports_line, true);
  assert.deepEqual(answers.map((a) => [a.verdict, a.line]), [['disallowed', 4], ['allowed', 3], ['allowed', undefined]]);
});

test('adapter.js without a known library exits with usage', async () => {
  const child = spawn(process.execPath, [path.join(dir, 'adapter.js'), 'nope'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c) => { err += c; });
  const code = await new Promise((r) => child.on('close', r));
  assert.equal(code, 2);
  assert.match(err, /usage/);
});

test('adapter.js loads its library from the npm prefix it is given (NAME@latest)', async () => {
  // The pins' own folder as the prefix: the same library, the same version.
  const same = spawn(process.execPath, [path.join(dir, 'adapter.js'), 'robots-parser', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  same.stdout.on('data', (c) => { out += c; });
  assert.equal(await new Promise((r) => same.on('close', r)), 0);
  assert.equal(JSON.parse(out.split('\n')[0]).version, installedVersion('robots-parser'));
  // A prefix without node_modules: the pins next door are not used.
  const empty = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'reptest-npm-prefix-'));
  const none = spawn(process.execPath, [path.join(dir, 'adapter.js'), 'robots-parser', empty], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  out = '';
  none.stdout.on('data', (c) => { out += c; });
  none.stderr.on('data', (c) => { err += c; });
  const code = await new Promise((r) => none.on('close', r));
  fs.rmSync(empty, { recursive: true });
  assert.ok(code !== 0 || out === '', `started without its library: ${out}`);
  assert.match(err, /Cannot find module 'robots-parser'/);
});

test('protocol.js: odd library answers and stray async errors become error answers', async () => {
  // A stand-in library: the agent says how to misbehave.
  const script = `
    require(${JSON.stringify(path.join(dir, 'protocol.js'))}).serve({
      name: 'fake', version: () => '0', capabilities: { full_urls: true, reports_line: false },
      check({ agent }) {
        if (agent === 'undefined') return { allowed: undefined };
        if (agent === 'number') return { allowed: 1 };
        if (agent === 'throw') throw new TypeError('boom');
        if (agent === 'reject') return Promise.reject(new RangeError('late boom'));
        if (agent === 'stray') return new Promise(() => { setTimeout(() => { throw new Error('stray boom'); }, 5); });
        return new Promise((r) => setTimeout(() => r({ allowed: agent === 'yes' }), 5));
      },
    });`;
  const agents = ['undefined', 'number', 'throw', 'reject', 'stray', 'yes', 'no'];
  const input = agents.map((agent, i) => JSON.stringify({ id: i, robots_b64: '', agent, url: 'https://e.com/' }) + '\n').join('');
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const out = [];
  child.stdout.on('data', (c) => out.push(c));
  child.stdin.end(input);
  const code = await new Promise((r) => child.on('close', r));
  assert.equal(code, 0);
  const answers = Buffer.concat(out).toString().trim().split('\n').slice(1).map((l) => JSON.parse(l));
  assert.deepEqual(answers.map((a) => [a.id, a.verdict || 'error']), agents.map((a, i) => [i, a === 'yes' ? 'allowed' : a === 'no' ? 'disallowed' : 'error']));
  assert.match(answers[2].error, /TypeError: boom/);
  assert.match(answers[3].error, /RangeError: late boom/);
  assert.match(answers[4].error, /stray boom/);
});
