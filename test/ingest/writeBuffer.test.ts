import { describe, expect, it } from 'vitest';
import { HealthCounters } from '../../src/ingest/healthCounters.js';
import type { EventRow, SessionRow } from '../../src/ingest/rows.js';
import { WriteBuffer } from '../../src/ingest/writeBuffer.js';
import { type IngestionStore, ingestionStore } from '../../src/stores/clickhouse/ingestionStore.js';
import { CHROME_MAC } from '../support/collect.js';
import { buildRows } from '../support/eventFixtures.js';
import { ManualClock } from '../support/manualClock.js';
import { createAccount, startTestApp, type TestApp } from '../support/testApp.js';

/** Counts rows without flushing first: these tests are about when flushes happen. */
async function count(t: TestApp, table = 'events'): Promise<number> {
  const result = await t.app.events.query.query({ query: `SELECT count() AS c FROM ${table}`, format: 'JSONEachRow' });
  const [row] = await result.json<{ c: string }>();
  return Number(row?.c);
}

/** Waits for an insert already under way (real I/O, not a timer being waited out). */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i += 1) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('condition not reached');
}

function sender(t: TestApp, domain: string) {
  let n = 0;
  return async (extra: Record<string, unknown> = {}) => {
    n += 1;
    const res = await fetch(`${t.url}/api/event`, {
      method: 'POST',
      headers: { 'user-agent': CHROME_MAC, 'x-forwarded-for': `81.2.${Math.floor(n / 200)}.${(n % 200) + 1}` },
      body: JSON.stringify({ n: 'pageview', d: domain, u: `https://${domain}/p${n}`, ...extra }),
    });
    return res;
  };
}

describe('the write buffer', () => {
  it('flushes events at 250, and everything after 0.5 s on the clock', async () => {
    const clock = new ManualClock(Date.parse('2026-07-02T10:00:00Z'));
    const t = await startTestApp({ clock, env: { TRUSTED_PROXIES: '127.0.0.1' } });
    try {
      const account = await createAccount(t.app);
      const send = sender(t, account.domain);
      for (let i = 0; i < 249; i += 1) await send();
      expect(await count(t)).toBe(0);
      await send();
      await eventually(async () => (await count(t)) === 250);
      // Their visit rows (and the health counters) wait for the 0.5 s flush.
      expect(await count(t, 'sessions')).toBe(0);

      for (let i = 0; i < 10; i += 1) await send();
      clock.advance(499);
      await t.app.ingestion.tick();
      expect(await count(t)).toBe(250);
      clock.advance(1);
      await t.app.ingestion.tick();
      expect(await count(t)).toBe(260);
      expect(await count(t, 'sessions')).toBe(260);
    } finally {
      await t.close();
    }
  });

  it('keeps events through a store outage, refuses new ones past its bound, and writes everything once the store is back', async () => {
    const clock = new ManualClock(Date.parse('2026-07-02T11:00:00Z'));
    const t = await startTestApp({ clock, env: { TRUSTED_PROXIES: '127.0.0.1' }, ingestion: { maxPendingEvents: 20 } });
    try {
      const account = await createAccount(t.app);
      const send = sender(t, account.domain);
      await t.app.events.jobs.command({ query: 'RENAME TABLE events TO events_away' });
      for (let i = 0; i < 20; i += 1) expect((await send()).headers.get('x-svc-dropped')).toBeNull();
      clock.advance(500);
      await t.app.ingestion.tick();
      expect(t.app.ingestion.buffer.pendingEvents).toBe(20);
      const refused = await send();
      expect(refused.status).toBe(202);
      expect(refused.headers.get('x-svc-dropped')).toBe('internal_error');

      await t.app.events.jobs.command({ query: 'RENAME TABLE events_away TO events' });
      clock.advance(60_000);
      await t.app.ingestion.tick();
      expect(t.app.ingestion.buffer.pendingEvents).toBe(0);
      expect(await count(t)).toBe(20);
      expect(await count(t, 'sessions')).toBe(20);
    } finally {
      await t.close();
    }
  });

  it('drains on graceful shutdown, and visits in progress continue after the restart', async () => {
    const clock = new ManualClock(Date.parse('2026-07-02T12:00:00Z'));
    const first = await startTestApp({ clock, env: { TRUSTED_PROXIES: '127.0.0.1' } });
    const account = await createAccount(first.app);
    const send = sender(first, account.domain);
    for (let i = 0; i < 7; i += 1) await send();
    expect(await count(first)).toBe(0);
    await first.app.close();

    clock.advance(5 * 60_000);
    const again = await startTestApp({ clock, dataDir: first.dataDir, env: { TRUSTED_PROXIES: '127.0.0.1' } });
    try {
      expect(await count(again)).toBe(7);
      // The first visitor comes back five minutes later: the same visit, now two pageviews long.
      await sender(again, account.domain)();
      await again.app.ingestion.buffer.flush();
      const result = await again.app.events.query.query({
        query: 'SELECT sum(sign) AS visits, sum(sign * pageviews) AS pageviews, sum(sign * is_bounce) AS bounces FROM sessions',
        format: 'JSONEachRow',
      });
      expect(await result.json()).toEqual([{ visits: '7', pageviews: '8', bounces: '6' }]);
    } finally {
      await again.close();
    }
  });

  it('writes visits while events keep arriving during every insert', async () => {
    const clock = new ManualClock(Date.parse('2026-07-02T13:00:00Z'));
    const t = await startTestApp({ clock });
    try {
      const visit = (n: number) => {
        const rows = buildRows(1, [{ visitor: `v${n}`, at: '2026-07-02 13:00:00' }]);
        return { events: rows.events as unknown as EventRow[], sessions: rows.sessions as unknown as SessionRow[] };
      };
      // Traffic that never pauses: each events insert sees another visit arrive before it returns.
      let arrivals = 30;
      const real = ingestionStore(t.app.events);
      const busy: IngestionStore = {
        ...real,
        insertRows: async (table, lines, token) => {
          await real.insertRows(table, lines, token);
          if (table === 'events' && arrivals-- > 0) {
            const next = visit(100 + arrivals);
            buffer.add(next.events, next.sessions);
          }
        },
      };
      const buffer = new WriteBuffer({ store: busy, clock, counters: new HealthCounters(), log: { error() {}, warn() {} } });
      const first = visit(1);
      buffer.add(first.events, first.sessions);
      await buffer.flush();
      // The flush wrote what was waiting when it began, in both tables, and left the newcomer for the next one.
      expect(await count(t)).toBe(1);
      expect(await count(t, 'sessions')).toBe(1);
      expect(buffer.pendingEvents).toBe(1);
      while (buffer.pendingEvents > 0) await buffer.flush();
      expect(await count(t)).toBe(31);
      expect(await count(t, 'sessions')).toBe(31);
    } finally {
      await t.close();
    }
  });

  it('recognises an idempotency key after a restart, for 24 hours', async () => {
    const clock = new ManualClock(Date.parse('2026-07-02T14:00:00Z'));
    const k = '6c1e9a3f-2b7d-4e58-9f01-3a4b5c6d7e8f';
    const first = await startTestApp({ clock, env: { TRUSTED_PROXIES: '127.0.0.1' } });
    const account = await createAccount(first.app);
    expect((await sender(first, account.domain)({ k })).status).toBe(202);
    await first.app.close();

    clock.advance(60 * 60_000);
    const again = await startTestApp({ clock, dataDir: first.dataDir, env: { TRUSTED_PROXIES: '127.0.0.1' } });
    try {
      const retry = await sender(again, account.domain)({ k: k.toUpperCase() });
      expect(retry.status).toBe(202);
      await again.app.ingestion.buffer.flush();
      expect(await count(again)).toBe(1);
    } finally {
      await again.app.close();
    }

    clock.advance(24 * 3_600_000);
    const dayLater = await startTestApp({ clock, dataDir: first.dataDir, env: { TRUSTED_PROXIES: '127.0.0.1' } });
    try {
      await sender(dayLater, account.domain)({ k });
      await dayLater.app.ingestion.buffer.flush();
      expect(await count(dayLater)).toBe(2);
    } finally {
      await dayLater.close();
    }
  });
});
