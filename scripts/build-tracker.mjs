#!/usr/bin/env node
// Builds the browser tracker (tracker/) into dist/tracker/: the core script, the full script
// (optional features compiled in), and an ES module for bundlers. `npm run build:tracker`.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// tsconfigRaw: the scripts need no "use strict" prologue (tracker/tsconfig.json's strict mode
// would add one); every byte of the snippet counts toward its 1.5 KB budget.
const common = { bundle: true, minify: true, target: 'es2020', logLevel: 'warning', legalComments: 'none', tsconfigRaw: '{}' };
const define = (full) => ({ FULL: String(full), VERSION: JSON.stringify(version) });

await Promise.all([
  build({ ...common, entryPoints: ['tracker/script.ts'], outfile: 'dist/tracker/script.js', format: 'iife', define: define(false) }),
  build({ ...common, entryPoints: ['tracker/script.ts'], outfile: 'dist/tracker/script.full.js', format: 'iife', define: define(true) }),
  build({ ...common, entryPoints: ['tracker/module.ts'], outfile: 'dist/tracker/module.js', format: 'esm', define: define(true) }),
]);
for (const file of ['script.js', 'script.full.js']) {
  const bytes = readFileSync(new URL(`../dist/tracker/${file}`, import.meta.url));
  console.log(`tracker ${file}: ${bytes.length} bytes, ${gzipSync(bytes, { level: 9 }).length} gzipped`);
}
