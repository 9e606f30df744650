import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import timeZoneNames from '../../src/contracts/timeZoneNames.json' with { type: 'json' };
import { type Account, bearer, createAccount, type TestApp } from '../support/testApp.js';
import { startSmallSite } from './smallSite.js';

// One service per file: the embedded engine binds one data directory per process.
let t: TestApp;
let account: Account;
beforeAll(async () => {
  ({ t, account } = await startSmallSite());
});
afterAll(() => t.close());

// Ranges and time zones the engine cannot hold are 400s with a sentence.
describe('query bounds', () => {
  const v2 = async (body: Record<string, unknown>) => {
    const res = await fetch(`${t.url}/api/v2/query`, {
      method: 'POST',
      headers: { ...bearer(account.key), 'content-type': 'application/json' },
      body: JSON.stringify({ site_id: account.domain, metrics: ['visitors'], ...body }),
    });
    return { status: res.status, body: await res.json() };
  };

  it('refuses dates outside what the event store holds, naming the bounds', async () => {
    for (const date_range of [
      ['0001-01-01', '9999-12-31'],
      ['1969-12-31', '1970-01-02'],
      ['2024-01-01', '2106-02-08'],
    ]) {
      const res = await v2({ date_range });
      expect(res.status).toBe(400);
      expect(res.body.error).toContain('dates must lie between 1970-01-01 and 2106-02-06');
    }
    const early = await v2({ date_range: ['1970-01-01', '1970-01-02'] });
    expect(early.status).toBe(200);
    expect(early.body.results).toEqual([{ dimensions: [], metrics: [0] }]);
    const comparison = await v2({ date_range: ['1970-01-02', '1970-01-03'], include: { comparisons: { mode: 'previous_period' } } });
    expect(comparison.status).toBe(400);
    expect(comparison.body.error).toContain('#/include/comparisons');
    const custom = await v2({
      date_range: ['2024-01-08', '2024-01-09'],
      include: { comparisons: { mode: 'custom', date_range: ['0001-01-01', '0001-01-02'] } },
    });
    expect(custom.status).toBe(400);
    const v1 = await fetch(`${t.url}/api/v1/stats/aggregate?site_id=${account.domain}&period=custom&date=0001-01-01,9999-12-31&metrics=visitors`, {
      headers: bearer(account.key),
    });
    expect(v1.status).toBe(400);
  });

  it('refuses time zones the engine cannot load, with the right spelling when only the case is wrong', async () => {
    const lower = await v2({ date_range: 'day', timezone: 'etc/utc' });
    expect(lower.status).toBe(400);
    expect(lower.body.error).toBe('#/timezone: "etc/utc" is not spelled as the IANA time zone database spells it: use "Etc/UTC".');
    const legacy = await v2({ date_range: 'day', timezone: 'SystemV/AST4' });
    expect(legacy.status).toBe(400);
    const site = await fetch(`${t.url}/api/v1/sites`, {
      method: 'POST',
      headers: { ...bearer(account.key), 'content-type': 'application/json' },
      body: JSON.stringify({ domain: 'tz.example.com', timezone: 'europe/berlin' }),
    });
    expect(site.status).toBe(400);
    expect((await site.json()).error).toContain('use "Europe/Berlin"');
  });

  it('accepts only time zones the engine loads, and answers queries in them', async () => {
    // A sample: the list itself is the engine's own (scripts/time-zones.mjs), and every zone the
    // engine loads stays in its memory, so loading all 596 in one test process would exhaust the
    // test engine's 1 GiB.
    const other = await createAccount(t.app);
    for (const timezone of timeZoneNames.filter((_, i) => i % 40 === 0)) {
      const res = await fetch(`${t.url}/api/v2/query`, {
        method: 'POST',
        headers: { ...bearer(other.key), 'content-type': 'application/json' },
        body: JSON.stringify({ site_id: other.domain, metrics: ['visitors'], date_range: '7d', dimensions: ['time:day'], timezone }),
      });
      expect(res.status, timezone).toBe(200);
    }
  });
});

describe('time buckets', () => {
  const v2 = async (body: Record<string, unknown>) => {
    const res = await fetch(`${t.url}/api/v2/query`, {
      method: 'POST',
      headers: { ...bearer(account.key), 'content-type': 'application/json' },
      body: JSON.stringify({ site_id: account.domain, metrics: ['visitors'], ...body }),
    });
    return { status: res.status, body: await res.json() };
  };

  it('refuses more hourly buckets than the cap, naming the interval that fits', async () => {
    const res = await v2({ date_range: ['2016-01-01', '2023-12-31'], dimensions: ['time:hour'], include: { time_labels: true } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(
      'The dimension time:hour over this date range asks for more than 10,000 buckets; use the day interval (time:day) or a shorter range.',
    );
    const v1 = await fetch(`${t.url}/api/v1/stats/timeseries?site_id=${account.domain}&period=custom&date=2016-01-01,2023-12-31&interval=hour`, {
      headers: bearer(account.key),
    });
    expect(v1.status).toBe(400);
  });

  it('answers a year of hours with every label', async () => {
    const res = await v2({
      date_range: ['2023-01-10', '2024-01-09'],
      dimensions: ['time:hour'],
      include: { time_labels: true, comparisons: { mode: 'previous_period' } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.meta.time_labels).toHaveLength(365 * 24);
    expect(new Set(res.body.meta.time_labels).size).toBe(365 * 24);
  });
});

describe('deep nesting', () => {
  const nest = (depth: number, op: string) => {
    let filter: unknown = ['is', 'visit:country', ['DE']];
    for (let i = 0; i < depth; i += 1) filter = op === 'and' || op === 'or' ? [op, [filter]] : [op, filter];
    return filter;
  };

  it('refuses filters nested past the limit with a sentence naming it', async () => {
    for (const op of ['not', 'and', 'or']) {
      const res = await fetch(`${t.url}/api/v2/query`, {
        method: 'POST',
        headers: { ...bearer(account.key), 'content-type': 'application/json' },
        body: JSON.stringify({ site_id: account.domain, metrics: ['visitors'], date_range: 'day', filters: [nest(500, op)] }),
      });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toContain('filters may be nested at most 16 levels deep');
    }
    const fine = await fetch(`${t.url}/api/v2/query`, {
      method: 'POST',
      headers: { ...bearer(account.key), 'content-type': 'application/json' },
      body: JSON.stringify({ site_id: account.domain, metrics: ['visitors'], date_range: 'day', filters: [nest(15, 'not')] }),
    });
    expect(fine.status).toBe(200);
    const v1 = await fetch(
      `${t.url}/api/v1/stats/aggregate?site_id=${account.domain}&metrics=visitors&filters=${encodeURIComponent(JSON.stringify([nest(500, 'and')]))}`,
      {
        headers: bearer(account.key),
      },
    );
    expect(v1.status).toBe(400);
  });

  it('answers a body nested 10,000 deep with a sentence, on keyed routes and on the open acceptance routes', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const deepObject = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    for (const [path, headers] of [
      ['/api/v2/query', bearer(account.key)],
      ['/api/v1/sites/goals', bearer(account.key)],
      ['/api/invitations/accept', {}],
      ['/api/ownership-transfers/accept', {}],
    ] as const) {
      for (const body of [deep, deepObject, `{"site_id":${deep}}`]) {
        const res = await fetch(`${t.url}${path}`, {
          method: path.includes('goals') ? 'PUT' : 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body,
        });
        expect(res.status, `${path} ${body.slice(0, 12)}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${path} ${body.slice(0, 12)}`).toBeLessThan(500);
        expect((await res.json()).error).toMatch(/\w.{8,}/);
      }
    }
    expect((await fetch(`${t.url}/api/health`)).status).toBe(200);
  });
});

describe('a filter value as large as the body allows', () => {
  const ask = async (filters: unknown[]) => {
    const res = await fetch(`${t.url}/api/v2/query`, {
      method: 'POST',
      headers: { ...bearer(account.key), 'content-type': 'application/json' },
      body: JSON.stringify({ site_id: account.domain, metrics: ['visitors'], date_range: 'all', filters }),
    });
    return { status: res.status, body: await res.json() };
  };

  it('is refused with a sentence naming the value, not a 500', async () => {
    const room =
      1024 * 1024 -
      JSON.stringify({ site_id: account.domain, metrics: ['visitors'], date_range: 'all', filters: [['is_not', 'event:props:plan', ['']]] }).length;
    for (const [op, dimension] of [
      ['contains', 'event:page'],
      ['is', 'event:page'],
      ['is', 'visit:source'],
      ['is_not', 'event:props:plan'],
    ]) {
      const answer = await ask([[op, dimension, ['a'.repeat(room)]]]);
      expect(answer.status, `${op} ${dimension}`).toBe(400);
      expect(answer.body.error).toBe(`#/filters/0/2/0: a filter value may be at most 2,048 characters long, got ${room.toLocaleString('en')}.`);
    }
  });

  it('refuses values each within bounds whose statement is longer than the engine reads, and answers them when fewer', async () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => `/${i}${'x'.repeat(2000)}`);
    const many = await ask([['is', 'event:page', values(450)]]);
    expect(many.status).toBe(400);
    expect(many.body).toEqual({
      error: "The query's filters make a statement longer than the engine reads; use fewer or shorter filter values.",
      code: 'query_too_long',
    });
    expect((await ask([['is', 'event:page', values(20)]])).status).toBe(200);
  });
});
