import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EVENT_MIGRATIONS } from '../../src/stores/clickhouse/migrations.js';

/**
 * Released migrations have run on stored data: what each one runs stays as released, whatever
 * the tables it is derived from (src/stores/clickhouse/columns.ts) come to look like. The fixture
 * holds the statements of every released migration, for one node and for a cluster.
 */
const FIXTURE = new URL('./fixtures/eventMigrations.sql', import.meta.url);

function statements(versions: Set<number>): string {
  return [null, 'analytics']
    .flatMap((cluster) =>
      EVENT_MIGRATIONS.filter((m) => versions.has(m.version)).flatMap((m) => [`-- ${m.version} ${m.name} ${cluster}`, ...m.statements({ cluster })]),
    )
    .join(';\n\n');
}

describe('event store migrations', () => {
  it('run the same statements as when they were released', () => {
    const released = readFileSync(FIXTURE, 'utf8');
    const versions = new Set([...released.matchAll(/^-- (\d+) /gm)].map((match) => Number(match[1])));
    expect(versions.size).toBeGreaterThan(0);
    expect(`${statements(versions)}\n`).toBe(released);
  });
});
