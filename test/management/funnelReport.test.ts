import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { funnelSteps, pathPatternRegex } from '../../src/management/funnelReport.js';
import { type TestApp, createAccount, startTestApp } from '../support/testApp.js';
import { apiClient, q, testEnv } from './client.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: testEnv() });
});
afterAll(() => t.close());

type Row = { at: string; user: number; session: number; name: string; path?: string; classification?: string };

async function insertEvents(siteId: number, rows: Row[]): Promise<void> {
  await t.app.events.ingest.insert({
    table: 'events',
    format: 'JSONEachRow',
    values: rows.map((r) => ({
      timestamp: r.at,
      site_id: siteId,
      name: r.name,
      user_id: r.user,
      session_id: r.session,
      pathname: r.path ?? '/',
      classification: r.classification ?? '',
    })),
    clickhouse_settings: { input_format_defaults_for_omitted_fields: 1 },
  });
}

describe('path patterns', () => {
  it('turns * into one segment and ** into any depth', () => {
    const re = (p: string) => new RegExp(pathPatternRegex(p));
    expect(re('/blog/*').test('/blog/post')).toBe(true);
    expect(re('/blog/*').test('/blog/a/b')).toBe(false);
    expect(re('/blog/**').test('/blog/a/b')).toBe(true);
    expect(re('/a.b').test('/aXb')).toBe(false);
  });
});

describe('funnel steps', () => {
  it('computes conversion and drop-off per step', () => {
    const goal = (id: number) => ({ id, siteId: 1, eventName: `E${id}`, pagePath: null, scrollThreshold: -1, displayName: `E${id}`, currency: null, createdAt: 0 });
    expect(funnelSteps([goal(1), goal(2), goal(3)], [4, 2, 1]).map((s) => [s.visitors, s.conversion_rate, s.conversion_rate_step, s.dropoff, s.dropoff_percentage])).toEqual([
      [4, 100, 100, 0, 0],
      [2, 50, 50, 2, 50],
      [1, 25, 50, 1, 50],
    ]);
    expect(funnelSteps([goal(1), goal(2)], [0, 0]).map((s) => s.conversion_rate)).toEqual([0, 0]);
  });
});

describe('funnel report over HTTP', () => {
  it('counts visitors reaching each step in order within a visit', async () => {
    const account = await createAccount(t.app);
    const api = apiClient(t.url, account.key);
    const site_id = account.domain;
    await api.put('/api/v1/sites/goals', { site_id, goal_type: 'page', page_path: '/pricing' });
    await api.put('/api/v1/sites/goals', { site_id, goal_type: 'event', event_name: 'Signup' });
    await api.put('/api/v1/sites/goals', { site_id, goal_type: 'event', event_name: 'Purchase' });
    const funnel = (await api.put('/api/v1/sites/funnels', { site_id, name: 'Checkout', steps: ['Visit /pricing', 'Signup', 'Purchase'] })).body;

    const day = '2026-03-01';
    await insertEvents(account.siteId, [
      { at: `${day} 10:00:00`, user: 1, session: 1, name: 'pageview', path: '/pricing' },
      { at: `${day} 10:05:00`, user: 1, session: 1, name: 'Signup' },
      { at: `${day} 10:10:00`, user: 1, session: 1, name: 'Purchase' },
      { at: `${day} 11:00:00`, user: 2, session: 2, name: 'pageview', path: '/pricing' },
      { at: `${day} 11:01:00`, user: 2, session: 2, name: 'Signup' },
      // Out of order: the signup came before the pricing page.
      { at: `${day} 12:00:00`, user: 3, session: 3, name: 'Signup' },
      { at: `${day} 12:01:00`, user: 3, session: 3, name: 'pageview', path: '/pricing' },
      { at: `${day} 13:00:00`, user: 4, session: 4, name: 'Signup' },
      // Classified as a bot: excluded unless put back.
      { at: `${day} 14:00:00`, user: 5, session: 5, name: 'pageview', path: '/pricing', classification: 'bot' },
      { at: `${day} 14:01:00`, user: 5, session: 5, name: 'Signup', classification: 'bot' },
      // Two separate visits: steps must happen within one.
      { at: `${day} 15:00:00`, user: 6, session: 6, name: 'pageview', path: '/pricing' },
      { at: `${day} 18:00:00`, user: 6, session: 7, name: 'Signup' },
      // Outside the range.
      { at: '2026-02-27 10:00:00', user: 7, session: 8, name: 'pageview', path: '/pricing' },
      { at: '2026-02-27 10:01:00', user: 7, session: 8, name: 'Signup' },
    ]);

    const path = `/api/v1/sites/funnels/${funnel.id}/report` + q({ site_id, from: '2026-02-28', to: day });
    const report = await api.get(path);
    expect(report.status).toBe(200);
    expect(report.body.funnel).toEqual({ id: funnel.id, name: 'Checkout' });
    expect(report.body.steps.map((s: { display_name: string; visitors: number }) => [s.display_name, s.visitors])).toEqual([
      ['Visit /pricing', 4],
      ['Signup', 2],
      ['Purchase', 1],
    ]);
    expect(report.body.steps[1]).toMatchObject({ conversion_rate: 50, conversion_rate_step: 50, dropoff: 2, dropoff_percentage: 50 });

    await api.put('/api/v1/sites/classifications', { site_id, included: ['bot'] });
    expect((await api.get(path)).body.steps.map((s: { visitors: number }) => s.visitors)).toEqual([5, 3, 1]);

    expect((await api.get(`/api/v1/sites/funnels/${funnel.id}/report` + q({ site_id, from: day, to: '2026-02-01' }))).status).toBe(400);
    const noStats = apiClient(t.url, (await createAccount(t.app, { scopes: ['sites:read'] })).key);
    expect((await noStats.get(path)).body.error).toContain('stats:read');
  });
});
