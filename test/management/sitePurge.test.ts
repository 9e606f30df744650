import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeDeletedSites } from '../../src/management/sitePurge.js';
import { ManualClock } from '../support/manualClock.js';
import { createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { apiClient, testEnv } from './client.js';

const clock = new ManualClock(Date.parse('2026-03-01T12:00:00Z'));
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ clock, env: testEnv() });
});
afterAll(() => t.close());

async function eventCount(siteId: number): Promise<number> {
  const result = await t.app.events.query.query({
    query: 'SELECT count() AS n FROM events WHERE site_id = {id:UInt64}',
    query_params: { id: siteId },
    format: 'JSONEachRow',
  });
  const [row] = await result.json<{ n: string }>();
  return Number(row?.n);
}

async function insertEvents(siteId: number, count: number): Promise<void> {
  const values = Array.from({ length: count }, (_, i) => ({
    timestamp: '2026-03-01 11:00:00',
    site_id: siteId,
    name: 'pageview',
    user_id: i + 1,
    session_id: i + 1,
    pathname: '/',
  }));
  await t.app.events.ingest.insert({
    table: 'events',
    values,
    format: 'JSONEachRow',
    clickhouse_settings: { input_format_skip_unknown_fields: 0, input_format_defaults_for_omitted_fields: 1 },
  });
}

describe('deleting a site', () => {
  it('soft-deletes at once and purges the analytics rows in the background job', async () => {
    const doomed = await createAccount(t.app);
    const kept = await createAccount(t.app);
    await insertEvents(doomed.siteId, 3);
    await insertEvents(kept.siteId, 2);

    expect((await apiClient(t.url, doomed.key).delete(`/api/v1/sites/${doomed.domain}`)).body).toEqual({ deleted: true });
    const row = await t.app.meta.db.selectFrom('sites').selectAll().where('id', '=', doomed.siteId).executeTakeFirstOrThrow();
    expect(row.deleted_at).toBe(clock.now());
    expect(await eventCount(doomed.siteId)).toBe(3);

    // Contain, not equal: on a shared PostgreSQL database other test files delete sites too.
    expect(await purgeDeletedSites(t.app.meta.db, t.app.events, clock.now())).toContain(doomed.siteId);
    expect(await eventCount(doomed.siteId)).toBe(0);
    expect(await eventCount(kept.siteId)).toBe(2);
    // Done once: a second run finds nothing to purge.
    expect(await purgeDeletedSites(t.app.meta.db, t.app.events, clock.now())).toEqual([]);
  });

  it('is for owners only', async () => {
    const owner = await createAccount(t.app);
    await t.app.meta.db.updateTable('memberships').set({ role: 'editor' }).where('team_id', '=', owner.teamId).execute();
    const res = await apiClient(t.url, owner.key).delete(`/api/v1/sites/${owner.domain}`);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden_role');
  });
});
