#!/usr/bin/env node
'use strict';
// reptest adapter entry: node adapter.js LIBNAME [NPM_PREFIX]  (robots-parser,
// robots-txt-guard, robots-txt-parser, robots, robots-txt: libs/LIBNAME.js). Speaks harness/PROTOCOL.md on stdin/stdout. The
// library is loaded from NPM_PREFIX/node_modules (default: this folder's, the pins).
const path = require('path');
const fs = require('fs');

const libName = process.argv[2];
const file = libName && path.join(__dirname, 'libs', `${path.basename(libName)}.js`);
if (!file || !fs.existsSync(file)) {
  const known = fs.readdirSync(path.join(__dirname, 'libs')).map((f) => f.replace(/\.js$/, ''));
  process.stderr.write(`usage: node adapter.js LIBNAME (one of: ${known.join(', ')})\n`);
  process.exit(2);
}
const protocol = require('./protocol');
protocol.usePrefix(process.argv[3]);
protocol.serve(require(file));
