import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const ASSETS = new URL('../../dist/webapp/assets/', import.meta.url);
const gzipped = (file: string) => gzipSync(readFileSync(new URL(file, ASSETS)), { level: 9 }).length;
/** The budget for the JavaScript a first visit loads, gzipped. */
const BUDGET = 150 * 1024;

// What a first visit to a dashboard loads before it can draw: the entry script index.html names
// (and any it preloads) plus the dashboard route's own chunks; lazily loaded parts (settings,
// the map) come later and are not counted.
describe('the web app bundle', () => {
  it(`loads at most ${BUDGET / 1024} KB of gzipped JavaScript before the dashboard draws`, () => {
    const html = readFileSync(new URL('../index.html', ASSETS), 'utf8');
    const entry = [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((match) => match[1]!);
    expect(entry.length).toBeGreaterThan(0);
    const dashboard = readdirSync(ASSETS).filter((file) => /^Dashboard(Page|View)-.+\.js$/.test(file));
    expect(dashboard.length).toBeGreaterThan(0);
    const total = [...entry, ...dashboard].reduce((sum, file) => sum + gzipped(file), 0);
    console.log(`initial JavaScript: ${(total / 1024).toFixed(1)} KB gzipped (${[...entry, ...dashboard].join(', ')})`);
    expect(total).toBeLessThanOrEqual(BUDGET);
  });
});
