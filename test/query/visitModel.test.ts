import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../support/manualClock.js';
import { type Account, bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';

/**
 * Random one-day histories imported through the real pipeline, then asked of the real engine:
 * visitors, visits, pageviews, events, bounce rate and visit duration must equal what a direct
 * model of the reference's visit rules gives: a visit ends after 30 minutes without an event; it
 * stays a bounce until a second pageview or an interactive custom event (one that starts it is not
 * a bounce, a non-interactive one is); its duration runs from its first to its last event.
 */
const clock = new ManualClock(Date.parse('2026-03-10T12:00:00Z'));
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ clock });
});
afterAll(() => t.close());

const DAY_START = Date.parse('2026-03-05T01:00:00Z');
const VISIT_GAP_MS = 30 * 60_000;

type Kind = 'pageview' | 'interactive' | 'non-interactive';
interface Hit {
  visitor: number;
  at: number;
  page: string;
  kind: Kind;
}
const KINDS: Kind[] = ['pageview', 'pageview', 'pageview', 'interactive', 'non-interactive'];

/** Per visitor, the gaps between its pageviews: clear of the 30-minute edge either way. */
const history = fc
  .array(
    fc.record({
      firstAt: fc.integer({ min: 0, max: 10 * 3600 }),
      gaps: fc.array(fc.oneof(fc.integer({ min: 1, max: 29 * 60 }), fc.integer({ min: 31 * 60, max: 3 * 3600 })), { maxLength: 6 }),
      pages: fc.array(fc.constantFrom('/', '/a', '/b', '/c'), { minLength: 7, maxLength: 7 }),
      kinds: fc.array(fc.constantFrom(...KINDS), { minLength: 7, maxLength: 7 }),
    }),
    { minLength: 1, maxLength: 6 },
  )
  .map((visitors) =>
    visitors.flatMap((v, visitor) => {
      let at = DAY_START + v.firstAt * 1000;
      const hits: Hit[] = [{ visitor, at, page: v.pages[0]!, kind: v.kinds[0]! }];
      v.gaps.forEach((gap, i) => {
        at += gap * 1000;
        hits.push({ visitor, at, page: v.pages[i + 1]!, kind: v.kinds[i + 1]! });
      });
      return hits;
    }),
  );

/** ClickHouse's round() on floats, which the reference's metric SQL uses too: ties go to the even neighbour. */
function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (Math.abs(diff - 0.5) > 1e-9) return Math.round(x);
  return floor % 2 === 0 ? floor : floor + 1;
}

/** The reference's visit rules (reference §2.11), applied to each visitor's events in time order. */
function model(hits: Hit[]) {
  const visits: { bounce: boolean; duration: number }[] = [];
  const byVisitor = new Map<number, Hit[]>();
  for (const hit of hits) byVisitor.set(hit.visitor, [...(byVisitor.get(hit.visitor) ?? []), hit]);
  for (const own of byVisitor.values()) {
    own.sort((a, b) => a.at - b.at);
    let visit: { start: number; last: number; pageviews: number; bounce: boolean } | null = null;
    const close = () => visit && visits.push({ bounce: visit.bounce, duration: (visit.last - visit.start) / 1000 });
    for (const hit of own) {
      const pageview = hit.kind === 'pageview';
      if (!visit || hit.at - visit.last > VISIT_GAP_MS) {
        close();
        visit = { start: hit.at, last: hit.at, pageviews: pageview ? 1 : 0, bounce: pageview || hit.kind === 'non-interactive' };
        continue;
      }
      visit.last = hit.at;
      if (pageview) visit.pageviews += 1;
      if (visit.bounce) visit.bounce = !(visit.pageviews >= 2 || (hit.kind === 'interactive' && !pageview));
    }
    close();
  }
  return {
    visitors: byVisitor.size,
    visits: visits.length,
    pageviews: hits.filter((hit) => hit.kind === 'pageview').length,
    events: hits.length,
    bounce_rate: roundHalfEven((visits.filter((v) => v.bounce).length / visits.length) * 100),
    visit_duration: roundHalfEven(visits.reduce((sum, v) => sum + v.duration, 0) / visits.length),
  };
}

/** Imports the hits through the real pipeline: one address per visitor, one browser for all. */
async function importHits(account: Account, hits: { visitor: number; at: number; kind: Kind; page?: string }[]) {
  const lines = hits.map((hit) =>
    JSON.stringify({
      timestamp: new Date(hit.at).toISOString(),
      // The visitor id is a keyed hash of address and agent (and the day's salt).
      ip: `81.2.69.${10 + hit.visitor}`,
      user_agent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
      n: hit.kind === 'pageview' ? 'pageview' : 'Signup',
      ...(hit.kind === 'non-interactive' ? { i: false } : {}),
      u: `https://${account.domain}${hit.page ?? '/'}`,
    }),
  );
  const imported = await fetch(`${t.url}/api/v1/sites/${account.domain}/events/import`, {
    method: 'POST',
    headers: { ...bearer(account.key), 'content-type': 'application/x-ndjson' },
    body: lines.join('\n'),
  });
  expect(imported.status).toBe(200);
  expect((await imported.json()).outcomes).toEqual({ stored: hits.length });
}

/** A v2 query's rows as [...dimensions, ...metrics]. */
async function queryRows(account: Account, body: Record<string, unknown>): Promise<unknown[][]> {
  const res = await fetch(`${t.url}/api/v2/query`, {
    method: 'POST',
    headers: { ...bearer(account.key), 'content-type': 'application/json' },
    body: JSON.stringify({ site_id: account.domain, ...body }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { results: { dimensions: unknown[]; metrics: unknown[] }[] }).results.map((r) => [...r.dimensions, ...r.metrics]);
}

describe('visit metrics against a model', () => {
  it('match the model for random one-day histories', async () => {
    await fc.assert(
      fc.asyncProperty(history, async (hits) => {
        const account = await createAccount(t.app);
        await importHits(account, hits);
        const metrics = ['visitors', 'visits', 'pageviews', 'events', 'bounce_rate', 'visit_duration'];
        const [totals] = await queryRows(account, { metrics, date_range: ['2026-03-05', '2026-03-05'] });
        expect(Object.fromEntries(metrics.map((m, i) => [m, totals![i]]))).toEqual(model(hits));

        // Per page: visitors with any event there, and its pageviews.
        const perPage = await queryRows(account, { metrics: ['visitors', 'pageviews'], dimensions: ['event:page'], date_range: ['2026-03-05', '2026-03-05'] });
        const expected = [...new Set(hits.map((hit) => hit.page))].map((page) => {
          const there = hits.filter((hit) => hit.page === page);
          return [page, new Set(there.map((hit) => hit.visitor)).size, there.filter((hit) => hit.kind === 'pageview').length];
        });
        expect(perPage.sort()).toEqual(expected.sort());
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 40) },
    );
  });

  it("bucket visitors, pageviews and events by the site's local day over several days", async () => {
    // New York is UTC-5 on these days (before DST): local days end at 05:00 UTC. Each visitor's
    // day of activity stays within one UTC day, so its identity is (visitor, UTC day): a new
    // daily salt makes the same person a new visitor the next day.
    const days = fc.array(
      fc.record({
        visitor: fc.integer({ min: 0, max: 3 }),
        day: fc.integer({ min: 0, max: 2 }),
        firstAt: fc.integer({ min: 3600, max: 12 * 3600 }),
        gaps: fc.array(fc.integer({ min: 1, max: 90 * 60 }), { maxLength: 6 }),
        kinds: fc.array(fc.constantFrom(...KINDS), { minLength: 7, maxLength: 7 }),
      }),
      { minLength: 1, maxLength: 6 },
    );
    const UTC_DAY0 = Date.parse('2026-03-02T00:00:00Z');
    const localDay = (at: number) => new Date(at - 5 * 3600_000).toISOString().slice(0, 10);
    await fc.assert(
      fc.asyncProperty(days, async (activity) => {
        const account = await createAccount(t.app, { timezone: 'America/New_York' });
        // Two activities of one visitor on one UTC day would interleave; keep the first of each.
        const seen = new Set<string>();
        const hits = activity
          .filter((a) => !seen.has(`${a.visitor}/${a.day}`) && seen.add(`${a.visitor}/${a.day}`))
          .flatMap((a) => {
            let at = UTC_DAY0 + a.day * 86_400_000 + a.firstAt * 1000;
            return [0, ...a.gaps].map((gap, i) => {
              at += gap * 1000;
              return { visitor: a.visitor, utcDay: a.day, at, kind: a.kinds[i]! };
            });
          });
        await importHits(account, hits);
        const rows = await queryRows(account, {
          metrics: ['visitors', 'pageviews', 'events'],
          dimensions: ['time:day'],
          date_range: ['2026-03-01', '2026-03-05'],
        });
        const expected = [...new Set(hits.map((hit) => localDay(hit.at)))].sort().map((day) => {
          const there = hits.filter((hit) => localDay(hit.at) === day);
          return [day, new Set(there.map((hit) => `${hit.visitor}/${hit.utcDay}`)).size, there.filter((hit) => hit.kind === 'pageview').length, there.length];
        });
        expect(rows).toEqual(expected);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 25) },
    );
  });
});
