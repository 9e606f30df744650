#!/usr/bin/env node
// Writes src/accounts/timeZoneNames.json: the time zones both the embedded engine (its
// system.time_zones) and this runtime's Intl know, exactly as spelled there. The service accepts
// only these names, for sites and queries alike, so no name reaches the engine that it cannot
// load (issue 11: "etc/utc" and "SystemV/AST4" passed the runtime's check and broke queries).
// Run after upgrading chdb or Node: `node scripts/time-zones.mjs`; test/query/timeZones.test.ts
// checks the list against the engine.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
writeFileSync(new URL('../src/accounts/timeZoneNames.json', import.meta.url), `${JSON.stringify(names, null, 0)}\n`);
console.log(`${names.length} time zones (engine ${engine.length}; left out: ${engine.filter((n) => !runtimeKnows(n)).join(', ') || 'none'})`);
