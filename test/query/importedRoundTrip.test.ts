import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addGoal } from '../support/eventFixtures.js';
import { type Account, bearer, createAccount, type TestApp } from '../support/testApp.js';
import { importZip } from './plausibleExport.js';
import { startSmallSite } from './smallSite.js';

/**
 * Round trip: SMALL_SITE's events → our export (Plausible's daily tables) → an import into a fresh
 * site with no events → the same answers through the query API with imports included, for what
 * daily tables keep. Left out on purpose: visitors over several days (daily tables sum daily
 * visitors, so a returning visitor counts once per day) and what the export does not carry (the
 * user agent's device type; cities).
 */
let t: TestApp;
let source: Account;
let target: Account;
const RANGE = ['2024-01-08', '2024-01-09'];

beforeAll(async () => {
  ({ t, account: source } = await startSmallSite());
  target = await createAccount(t.app);
  await addGoal(t.app, target.siteId, { eventName: 'Signup' });
  const exported = await fetch(`${t.url}/api/v1/sites/${source.domain}/export?from=2024-01-08&to=2024-01-09`, { headers: bearer(source.key) });
  expect(exported.status).toBe(200);
  expect(await importZip(t, target, Buffer.from(await exported.arrayBuffer()))).toMatchObject({ status: 'completed' });
});
afterAll(() => t.close());

async function results(site: Account, body: Record<string, unknown>) {
  const res = await fetch(`${t.url}/api/v2/query`, {
    method: 'POST',
    headers: { ...bearer(site.key), 'content-type': 'application/json' },
    body: JSON.stringify({ site_id: site.domain, date_range: RANGE, ...body, ...(site === target ? { include: { imports: true } } : {}) }),
  });
  const answer = await res.json();
  expect(res.status, JSON.stringify(answer)).toBe(200);
  if (site === target) expect(answer.meta.imports_included, JSON.stringify(answer.meta)).toBe(true);
  return answer.results;
}

type Query = { metrics: string[]; dimensions?: string[]; filters?: unknown[] };

describe('export → import round trip', () => {
  it.each<[string, Query]>([
    ['days', { metrics: ['visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration', 'views_per_visit'], dimensions: ['time:day'] }],
    ['the whole range', { metrics: ['visits', 'pageviews', 'bounce_rate', 'visit_duration', 'views_per_visit'] }],
    ['sources', { metrics: ['visits', 'bounce_rate', 'visit_duration'], dimensions: ['visit:source'] }],
    ['pages', { metrics: ['pageviews', 'time_on_page', 'scroll_depth'], dimensions: ['event:page'] }],
    ['entry pages', { metrics: ['visits', 'bounce_rate'], dimensions: ['visit:entry_page'] }],
    ['exit pages', { metrics: ['visits', 'visit_duration'], dimensions: ['visit:exit_page'] }],
    ['screen sizes', { metrics: ['visits'], dimensions: ['visit:screen'] }],
    ['browsers', { metrics: ['visits', 'bounce_rate'], dimensions: ['visit:browser', 'visit:browser_version'] }],
    ['operating systems', { metrics: ['visits'], dimensions: ['visit:os'] }],
    ['countries', { metrics: ['visits'], dimensions: ['visit:country'], filters: [['is', 'visit:country', ['DE', 'FR', 'US']]] }],
    ['goals', { metrics: ['visitors', 'events'], dimensions: ['time:day', 'event:goal'] }],
  ])('answers %s as the source site does', async (_name, query) => {
    const order = { order_by: [...(query.dimensions ?? []).map((d) => [d, 'asc']), [query.metrics[0], 'desc']] };
    const expected = await results(source, { ...query, ...order });
    expect(expected.length).toBeGreaterThan(0);
    expect(await results(target, { ...query, ...order })).toEqual(expected);
  });
});
