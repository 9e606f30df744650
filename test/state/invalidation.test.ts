import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiteDirectory } from '../../src/ingest/siteDirectory.js';
import { registerSite } from '../../src/management/sites.js';
import { Invalidation } from '../../src/state/invalidation.js';
import { SharedState } from '../../src/state/redis.js';
import { type MetaStore, openMetaStore } from '../../src/stores/meta/database.js';
import { deleteSite } from '../../src/stores/meta/sites.js';
import { createUserWithTeam } from '../../src/stores/meta/users.js';
import { ManualClock } from '../support/manualClock.js';
import { freshPostgresDatabase } from '../support/postgres.js';
import { startTestRedis, type TestRedis } from './redisServer.js';

const quiet = { warn() {}, info() {} };

/**
 * Two nodes' site caches on one metadata store (PostgreSQL with TEST_DATABASE_URL, as nodes share
 * it; otherwise one SQLite file opened twice), told of changes over one Redis.
 */
describe('invalidation of the site cache between nodes', () => {
  let redis: TestRedis;
  let dataDir: string;
  let postgres: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  const stores: MetaStore[] = [];
  const states: SharedState[] = [];

  beforeAll(async () => {
    redis = await startTestRedis();
    dataDir = mkdtempSync(join(tmpdir(), 'svc-state-'));
    postgres = await freshPostgresDatabase();
    const metadata = postgres ? ({ kind: 'postgres', url: postgres.url } as const) : ({ kind: 'sqlite', path: join(dataDir, 'meta.sqlite') } as const);
    stores.push(await openMetaStore(metadata));
    stores.push(await openMetaStore(metadata));
  });
  afterAll(async () => {
    for (const state of states) await state.close();
    for (const store of stores) await store.close();
    await postgres?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    await redis.stop();
  });

  it('refuses a site deleted through node A on node B within a second, long before B’s cache expires', async () => {
    const [metaA, metaB] = stores;
    if (!metaA || !metaB) throw new Error('unreachable');
    // Event time stands still: only the message can make B read the site again.
    const clock = new ManualClock(Date.parse('2025-03-01T12:00:00Z'));
    const directoryA = new SiteDirectory(metaA.db, clock);
    const directoryB = new SiteDirectory(metaB.db, clock);
    let told: () => void = () => {};
    const invalidatedOnB = new Promise<void>((resolve) => {
      told = resolve;
    });
    const stateA = new SharedState(redis.url, quiet);
    const stateB = new SharedState(redis.url, quiet);
    states.push(stateA, stateB);
    const nodeA = Invalidation.start(stateA, { sites: directoryA }, quiet);
    const nodeB = Invalidation.start(
      stateB,
      {
        sites: {
          invalidate(siteId) {
            directoryB.invalidate(siteId);
            told();
          },
        },
      },
      quiet,
    );
    await Promise.all([stateA.ready(), stateB.ready(), nodeA.subscribed(), nodeB.subscribed()]);

    const { teamId } = await createUserWithTeam(metaA.db, { email: 'owner@example.com', name: 'Owner' }, clock.now());
    const site = await registerSite(metaA.db, { teamId, domain: 'shared.example.com', timezone: 'Etc/UTC' }, clock.now());
    expect((await directoryB.lookup('shared.example.com')).kind).toBe('live');

    const started = performance.now();
    await deleteSite(metaA.db, site.id, clock.now());
    directoryA.invalidate(site.id);
    await nodeA.siteChanged(site.id);
    await invalidatedOnB;
    const lookup = await directoryB.lookup('shared.example.com');
    const elapsed = performance.now() - started;
    expect(lookup).toEqual({ kind: 'deleted', siteId: site.id });
    expect(elapsed).toBeLessThan(1_000);
  });

  it('does not keep a lookup that was read before an invalidation', async () => {
    const [metaA] = stores;
    if (!metaA) throw new Error('unreachable');
    const clock = new ManualClock(Date.parse('2025-03-01T12:00:00Z'));
    const directory = new SiteDirectory(metaA.db, clock);
    const { teamId } = await createUserWithTeam(metaA.db, { email: 'second@example.com', name: 'Second' }, clock.now());
    const site = await registerSite(metaA.db, { teamId, domain: 'race.example.com', timezone: 'Etc/UTC' }, clock.now());
    // The read begins, the site is deleted and the invalidation arrives before the read ends.
    const reading = directory.lookup('race.example.com');
    directory.invalidate(site.id);
    await deleteSite(metaA.db, site.id, clock.now());
    await reading;
    expect((await directory.lookup('race.example.com')).kind).toBe('deleted');
  });
});
