#!/usr/bin/env node
// Writes src/contracts/timeZoneNames.json: the time zones both the embedded engine (its
// system.time_zones) and this runtime's Intl know, exactly as spelled there. The service accepts
// only these names, for sites and queries alike, so no name reaches the engine that it cannot
// load ("etc/utc" and "SystemV/AST4" pass the runtime's check and would break queries).
// Run after upgrading chdb or Node: `node scripts/time-zones.mjs`; test/query/timeZones.test.ts
// checks the list against the engine.
//
// It also writes src/contracts/canonicalTimeZones.json, what the time-zone pickers offer: the
// accepted names that the IANA database defines as zones of a region (Europe/Berlin), not as
// links to another (Asia/Calcutta, GB-Eire, W-SU), with Etc/UTC; and each accepted link's zone, so
// a browser reporting an old name still gets its zone preselected. The zones and links are read
// from the system's tzdata (/usr/share/zoneinfo/tzdata.zi, Debian's tzdata package).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Session } from 'chdb';

const dir = mkdtempSync(join(tmpdir(), 'svc-tz-'));
const session = new Session(dir);
const engine = String(session.query('SELECT time_zone FROM system.time_zones ORDER BY time_zone', 'JSONEachRow'))
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line).time_zone);
session.cleanup?.();
rmSync(dir, { recursive: true, force: true });
const runtimeKnows = (name) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
};
const names = engine.filter(runtimeKnows);
writeFileSync(new URL('../src/contracts/timeZoneNames.json', import.meta.url), `${JSON.stringify(names, null, 0)}\n`);
console.log(`${names.length} time zones (engine ${engine.length}; left out: ${engine.filter((n) => !runtimeKnows(n)).join(', ') || 'none'})`);

const REGIONS = ['Africa', 'America', 'Antarctica', 'Asia', 'Atlantic', 'Australia', 'Europe', 'Indian', 'Pacific'];
const tzdata = readFileSync(process.env.TZDATA_ZI ?? '/usr/share/zoneinfo/tzdata.zi', 'utf8').split('\n');
const accepted = new Set(names);
const zones = new Set(tzdata.filter((line) => line.startsWith('Z ')).map((line) => line.split(' ')[1]));
const offered = names.filter((name) => name === 'Etc/UTC' || (zones.has(name) && REGIONS.includes(name.split('/')[0]) && name.includes('/')));
const links = Object.fromEntries(
  tzdata
    .filter((line) => line.startsWith('L '))
    .map((line) => line.split(' '))
    .filter(([, target, alias]) => accepted.has(alias) && offered.includes(target))
    .map(([, target, alias]) => [alias, target])
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);
writeFileSync(new URL('../src/contracts/canonicalTimeZones.json', import.meta.url), `${JSON.stringify({ zones: offered, links }, null, 0)}\n`);
console.log(`${offered.length} offered in the pickers, ${Object.keys(links).length} old names pointing to them`);
