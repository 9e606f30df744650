#!/usr/bin/env node
// Adds lock-file entries for platform packages the registry mirror here does not serve.
//
// Packages such as chdb, esbuild and Biome ship their binaries as optional dependencies, one per
// platform (`@chdb/lib-darwin-arm64`, `@esbuild/win32-x64`, …). This machine's registry has only
// the Linux ones, so `npm install` leaves the others out of package-lock.json and `npm ci` then
// refuses the lock file as out of sync ("Missing: … from lock file"). Each missing package gets an
// entry with its exact version and its os/cpu/libc, so npm ci skips it on other platforms and
// fetches it (by name and version) on its own platform.
//
// Run after any change to dependencies: `npm run lock:complete`.
import { readFileSync, writeFileSync } from 'node:fs';

const LOCK = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(LOCK, 'utf8'));
const packages = lock.packages;

const OS = ['darwin', 'linux', 'win32', 'freebsd', 'openbsd', 'netbsd', 'android', 'sunos', 'aix', 'openharmony'];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'loong64', 'ppc64', 'riscv64', 's390x', 'mips64el', 'wasm32'];

/** os, cpu and libc read off a platform package's name, e.g. `cli-linux-x64-musl`. */
function platformOf(name) {
  const tokens = name.split('/').pop().split('-');
  const os = OS.find((o) => tokens.includes(o) || (o === 'win32' && tokens.includes('windows')));
  const cpu = CPU.find((c) => tokens.includes(c) || (c === 'x64' && tokens.includes('amd64')));
  const libc = tokens.includes('musl') ? 'musl' : tokens.includes('gnu') ? 'glibc' : undefined;
  return { os, cpu, libc };
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${path ? `${path}/` : ''}node_modules/${name}`;
    if (packages[nested] || packages[`node_modules/${name}`]) continue;
    const { os, cpu, libc } = platformOf(name);
    if (!os && !cpu) continue; // not a platform package: npm resolves it normally
    packages[`node_modules/${name}`] = {
      version: spec.replace(/^[\^~=]/, ''),
      ...(cpu ? { cpu: [cpu] } : {}),
      license: entry.license,
      optional: true,
      ...(os ? { os: [os] } : {}),
      ...(libc ? { libc: [libc] } : {}),
    };
    added += 1;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} platform package entr${added === 1 ? 'y' : 'ies'} added`);
