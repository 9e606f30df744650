import { readFileSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOrCreateFunnel } from '../../src/management/funnels.js';
import { lockTeam } from '../../src/stores/meta/teams.js';
import { importPlausibleExport } from '../query/plausibleExport.js';
import { startSmallSite } from '../query/smallSite.js';
import { addGoal, insertEvents } from '../support/eventFixtures.js';
import { type Account, bearer, createAccount, type TestApp } from '../support/testApp.js';
import { call as api } from '../webhooks/support/api.js';
import { startReceiver } from '../webhooks/support/receiver.js';
import { caller, httpClient, ok, refused, type ToolCall } from './client.js';

let t: TestApp;
let account: Account;
let client: Client;
let call: ToolCall;

const RANGE = ['2024-01-08', '2024-01-09'];
const VERSION: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

beforeAll(async () => {
  ({ t, account } = await startSmallSite());
  await addGoal(t.app, account.siteId, { pagePath: '/pricing', displayName: 'Pricing' });
  await findOrCreateFunnel(t.app.meta.db, account.siteId, { site_id: account.domain, name: 'Buy', steps: ['Pricing', 'Signup'] }, t.app.clock.now());
  client = await httpClient(t.url, account.key);
  call = caller(client);
});
afterAll(async () => {
  await client?.close();
  await t.close();
});

describe('the tool list', () => {
  it('lists every tool with a description, an input schema and its annotations', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'svc-analytics', version: VERSION });
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name).sort();
    expect(names).toEqual(
      [
        'list_sites',
        'describe_site',
        'query',
        'top_pages',
        'top_sources',
        'top_countries',
        'devices',
        'timeseries',
        'realtime_visitors',
        'funnel_report',
        'journeys',
        'compare_periods',
        'list_goals',
        'create_goal',
        'delete_goal',
        'list_custom_properties',
        'add_custom_property',
        'list_webhooks',
        'recent_deliveries',
      ].sort(),
    );
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.inputSchema.additionalProperties).toBe(false);
    }
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.query!.inputSchema.required).toEqual(['site_id', 'metrics', 'date_range']);
    expect(byName.query!.inputSchema.properties).toHaveProperty('filters');
    expect(byName.create_goal!.inputSchema.properties!.goal_type).toMatchObject({ enum: ['event', 'page', 'scroll'] });
    expect(byName.top_pages!.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.delete_goal!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.create_goal!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
  });

  it('offers each site as a resource and the two prompts', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([`site://${account.domain}`]);
    const read = await client.readResource({ uri: `site://${account.domain}` });
    const first = read.contents[0]!;
    expect(JSON.parse('text' in first ? first.text : '')).toMatchObject({ domain: account.domain, timezone: 'Etc/UTC' });
    await expect(client.readResource({ uri: 'site://nowhere.example' })).rejects.toThrow('Site could not be found.');
    await expect(client.readResource({ uri: 'site://%ZZ' })).rejects.toThrow("site://%ZZ is not a site's address: its percent-encoding is broken.");
    await expect(client.readResource({ uri: 'nowhere' })).rejects.toThrow('"nowhere" is not a resource address; sites are read as site://<domain>.');
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['weekly_summary', 'why_did_traffic_change']);
    const prompt = await client.getPrompt({ name: 'weekly_summary', arguments: { site_id: account.domain } });
    const message = prompt.messages[0]!.content;
    expect(message.type === 'text' ? message.text : '').toContain('compare_periods');
  });
});

describe('sites', () => {
  it('lists the sites of the key team and describes one', async () => {
    expect(await ok(call, 'list_sites')).toEqual({ sites: [{ domain: account.domain, timezone: 'Etc/UTC' }] });
    const site = await ok(call, 'describe_site', { site_id: account.domain });
    expect(site).toMatchObject({
      domain: account.domain,
      timezone: 'Etc/UTC',
      data: { first_day: '2024-01-08', last_day: '2024-01-09' },
      custom_properties: [],
    });
    expect(site.goals.map((g: any) => g.display_name)).toEqual(['Pricing', 'Signup']);
    expect(site.funnels).toEqual([
      {
        id: expect.any(Number),
        name: 'Buy',
        steps: [expect.objectContaining({ display_name: 'Pricing' }), expect.objectContaining({ display_name: 'Signup' })],
      },
    ]);
    expect(site.metrics).toContain('bounce_rate');
    expect(site.dimensions).toContain('visit:source');
  });

  it('answers a site of another team like a missing one', async () => {
    const other = await createAccount(t.app);
    expect(await refused(call, 'describe_site', { site_id: other.domain })).toBe('Site could not be found.');
  });
});

describe('statistics', () => {
  it('answers the query object with units and the resolved range', async () => {
    const body = await ok(call, 'query', {
      site_id: account.domain,
      metrics: ['visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration'],
      date_range: RANGE,
    });
    expect(body).toMatchObject({
      site: account.domain,
      date_range: { from: '2024-01-08T00:00:00+00:00', to: '2024-01-09T23:59:59+00:00', timezone: 'Etc/UTC' },
      units: { visitors: 'count', visits: 'count', pageviews: 'count', bounce_rate: 'percent', visit_duration: 'seconds' },
      rows: [{ visitors: 4, visits: 5, pageviews: 8, bounce_rate: 60, visit_duration: 312 }],
    });
  });

  it('gives an invalid query the sentence the query API gives', async () => {
    for (const query of [
      { site_id: account.domain, metrics: ['visitorz'], date_range: '7d' },
      { site_id: account.domain, metrics: ['visitors'] },
      { site_id: account.domain, metrics: ['visitors'], date_range: '7d', colour: 'red' },
    ]) {
      const api = await fetch(`${t.url}/api/v2/query`, {
        method: 'POST',
        headers: { ...bearer(account.key), 'content-type': 'application/json' },
        body: JSON.stringify(query),
      });
      expect(api.status).toBe(400);
      const { error } = (await api.json()) as { error: string };
      expect(await refused(call, 'query', query)).toBe(error);
    }
  });

  it('lists top pages, sources, countries and devices', async () => {
    const pages = await ok(call, 'top_pages', { site_id: account.domain, date_range: RANGE });
    expect(pages.rows[0]).toEqual({ 'event:page': '/', visitors: 3, pageviews: 4 });
    expect(
      pages.rows
        .slice(1)
        .map((r: any) => [r['event:page'], r.visitors, r.pageviews])
        .sort(),
    ).toEqual([
      ['/blog', 2, 2],
      ['/pricing', 2, 2],
    ]);
    const sources = await ok(call, 'top_sources', { site_id: account.domain, date_range: RANGE });
    expect(Object.fromEntries(sources.rows.map((r: any) => [r['visit:source'], [r.visitors, r.visits, r.bounce_rate, r.visit_duration]]))).toEqual({
      Google: [2, 2, 0, 780],
      'Direct / None': [2, 2, 100, 0],
      Twitter: [1, 1, 100, 0],
    });
    const countries = await ok(call, 'top_countries', { site_id: account.domain, date_range: RANGE });
    expect(countries.units).toEqual({ visitors: 'count', percentage: 'percent' });
    expect(countries.rows[0]).toEqual({ 'visit:country': 'DE', visitors: 2, percentage: 50 });
    // Alice's second visit carries no device, so she counts under Desktop and (not set).
    const devices = await ok(call, 'devices', { site_id: account.domain, date_range: RANGE });
    expect(devices.rows).toEqual([
      { 'visit:device': 'Desktop', visitors: 3, percentage: 75 },
      { 'visit:device': '(not set)', visitors: 1, percentage: 25 },
      { 'visit:device': 'Mobile', visitors: 1, percentage: 25 },
    ]);
    const browsers = await ok(call, 'devices', { site_id: account.domain, date_range: RANGE, by: 'browser', filters: [['is', 'visit:country', ['DE']]] });
    expect(browsers.rows.map((r: any) => [r['visit:browser'], r.visitors]).sort()).toEqual([
      ['Chrome', 1],
      ['Firefox', 1],
    ]);
  });

  it('pages a large breakdown with a note', async () => {
    const first = await ok(call, 'top_pages', { site_id: account.domain, date_range: RANGE, limit: 2 });
    expect(first.rows).toHaveLength(2);
    expect(first.more).toBe('Rows 1–2 are shown and more exist; call again with offset 2 for the next page.');
    const rest = await ok(call, 'top_pages', { site_id: account.domain, date_range: RANGE, limit: 2, offset: 2 });
    expect(rest.rows).toHaveLength(1);
    expect(rest.more).toBeUndefined();
  });

  it('gives every bucket of a time series', async () => {
    const series = await ok(call, 'timeseries', { site_id: account.domain, date_range: ['2024-01-07', '2024-01-09'], interval: 'day' });
    expect(series.rows).toEqual([
      { 'time:day': '2024-01-07', visitors: 0, pageviews: 0 },
      { 'time:day': '2024-01-08', visitors: 3, pageviews: 4 },
      { 'time:day': '2024-01-09', visitors: 2, pageviews: 4 },
    ]);
  });

  it('compares a period with the one before', async () => {
    const body = await ok(call, 'compare_periods', {
      site_id: account.domain,
      date_range: ['2024-01-09', '2024-01-09'],
      metrics: ['visitors', 'pageviews', 'bounce_rate'],
    });
    expect(body.date_range).toMatchObject({ from: '2024-01-09T00:00:00+00:00', to: '2024-01-09T23:59:59+00:00' });
    expect(body.compared_with).toMatchObject({ from: '2024-01-08T00:00:00+00:00', to: '2024-01-08T23:59:59+00:00' });
    expect(body.metrics.visitors).toEqual({ value: 2, previous: 3, change: -33, unit: 'count', change_unit: 'percent' });
    expect(body.metrics.pageviews).toEqual({ value: 4, previous: 4, change: 0, unit: 'count', change_unit: 'percent' });
    expect(body.metrics.bounce_rate).toEqual({ value: 50, previous: 67, change: -17, unit: 'percent', change_unit: 'percentage points' });
  });

  it('names the currency of revenue metrics', async () => {
    const shop = await createAccount(t.app);
    await addGoal(t.app, shop.siteId, { eventName: 'Purchase', currency: 'EUR' });
    await insertEvents(t.app, shop.siteId, [
      { visitor: 'hana', at: '2024-01-09 10:00:00', page: '/cart' },
      { visitor: 'hana', at: '2024-01-09 10:01:00', name: 'Purchase', page: '/cart', revenue: { amount: 10, currency: 'EUR' } },
      { visitor: 'ivan', at: '2024-01-09 11:00:00', page: '/cart' },
      { visitor: 'ivan', at: '2024-01-09 11:01:00', name: 'Purchase', page: '/cart', revenue: { amount: 30, currency: 'EUR' } },
    ]);
    const shopClient = await httpClient(t.url, shop.key);
    const body = await ok(caller(shopClient), 'query', {
      site_id: shop.domain,
      metrics: ['visitors', 'total_revenue', 'average_revenue', 'conversion_rate'],
      date_range: ['2024-01-09', '2024-01-09'],
      filters: [['is', 'event:goal', ['Purchase']]],
    });
    await shopClient.close();
    expect(body.units).toEqual({ visitors: 'count', total_revenue: 'currency (EUR)', average_revenue: 'currency (EUR)', conversion_rate: 'percent' });
    expect(body.rows).toEqual([{ visitors: 2, total_revenue: 40, average_revenue: 20, conversion_rate: 100 }]);
  });

  it('reports a funnel and realtime visitors', async () => {
    const funnel = await ok(call, 'funnel_report', { site_id: account.domain, funnel: 'Buy', date_range: RANGE });
    expect(funnel).toMatchObject({
      date_range: { from: '2024-01-08T00:00:00+00:00', to: '2024-01-09T23:59:59+00:00' },
      all_visitors: 4,
      entering_visitors: 2,
      steps: [
        { label: 'Pricing', visitors: 2, conversion_rate: '100' },
        { label: 'Signup', visitors: 1, conversion_rate: '50', dropoff: 1 },
      ],
    });
    expect(await refused(call, 'funnel_report', { site_id: account.domain, funnel: 'Nope' })).toBe('There is no funnel "Nope" on this site.');
    // The clock stands a day after the last event, until two visitors arrive 2 and 4 minutes before it (and one 10 minutes before).
    expect(await ok(call, 'realtime_visitors', { site_id: account.domain })).toMatchObject({ visitors: 0, unit: 'count', window: 'the last 5 minutes' });
    await insertEvents(t.app, account.siteId, [
      { visitor: 'erin', at: '2024-01-10 11:58:00', page: '/' },
      { visitor: 'frank', at: '2024-01-10 11:56:00', page: '/blog' },
      { visitor: 'gina', at: '2024-01-10 11:50:00', page: '/' },
    ]);
    expect(await ok(call, 'realtime_visitors', { site_id: account.domain })).toEqual({
      site: account.domain,
      visitors: 2,
      unit: 'count',
      window: 'the last 5 minutes',
      as_of: '2024-01-10T12:00:00+00:00',
    });
  });
});

describe('journeys', () => {
  it('answers as POST /api/v2/journeys does, and refuses a bad step with its sentence', async () => {
    const args = { site_id: account.domain, date_range: RANGE, steps: [{ page: '/' }] };
    const answer = await ok(call, 'journeys', args);
    // After /: alice went to /pricing, dave to /blog; carol left.
    expect(answer.funnel).toEqual([
      { step: { page: '/', label: '/' }, visitors: 3, dropoff: 0, dropoff_percentage: 0, conversion_rate: 100, conversion_rate_step: 100 },
    ]);
    expect(answer.next).toEqual([
      { step: { page: '/blog', label: '/blog' }, visitors: 1 },
      { step: { page: '/pricing', label: '/pricing' }, visitors: 1 },
    ]);
    const api = await fetch(`${t.url}/api/v2/journeys`, {
      method: 'POST',
      headers: { ...bearer(account.key), 'content-type': 'application/json' },
      body: JSON.stringify(args),
    });
    expect(answer).toEqual(await api.json());
    const backward = await ok(call, 'journeys', { site_id: account.domain, steps: [{ event: 'Signup' }], direction: 'backward', date_range: RANGE });
    expect(backward.next).toEqual([{ step: { page: '/pricing', label: '/pricing' }, visitors: 1 }]);
    expect(await refused(call, 'journeys', { site_id: account.domain, steps: [{ page: '/', goal: 'Signup' }] })).toContain('Unknown key "goal" in #/steps/0');
  });
});

describe('imported history', () => {
  it('is part of the shortcut tools, and said so', async () => {
    // The hand-written export of test/query/importedMerge.test.ts (1–2 January 2024), on a site with no events of its own.
    const site = await createAccount(t.app);
    expect(await importPlausibleExport(t, site)).toMatchObject({ status: 'completed' });
    const siteClient = await httpClient(t.url, site.key);
    const use = caller(siteClient);
    expect((await ok(use, 'describe_site', { site_id: site.domain })).data).toEqual({
      first_day: null,
      last_day: null,
      note: 'No events recorded yet.',
      imported_days: [{ from: '2024-01-01', to: '2024-01-02' }],
    });
    const days = ['2024-01-01', '2024-01-02'];
    const sources = await ok(use, 'top_sources', { site_id: site.domain, date_range: days });
    expect(sources.imported_data).toMatch(/^included/);
    expect(sources.rows).toEqual([
      { 'visit:source': 'Google', visitors: 8, visits: 9, bounce_rate: 33, visit_duration: 56 },
      { 'visit:source': 'Hacker News', visitors: 7, visits: 8, bounce_rate: 75, visit_duration: 15 },
      { 'visit:source': 'Direct / None', visitors: 2, visits: 3, bounce_rate: 33, visit_duration: 33 },
    ]);
    const series = await ok(use, 'timeseries', { site_id: site.domain, date_range: days, interval: 'day' });
    expect(series.rows).toEqual([
      { 'time:day': '2024-01-01', visitors: 10, pageviews: 25 },
      { 'time:day': '2024-01-02', visitors: 7, pageviews: 9 },
    ]);
    const compared = await ok(use, 'compare_periods', { site_id: site.domain, date_range: ['2024-01-02', '2024-01-02'], metrics: ['visitors'] });
    expect(compared.metrics.visitors).toMatchObject({ value: 7, previous: 10, change: -30 });
    expect(compared.imported_data).toMatch(/^included/);
    // A filter the imported tables cannot answer: recorded events only, and a word why.
    const filtered = await ok(use, 'top_pages', { site_id: site.domain, date_range: days, filters: [['is', 'visit:browser', ['Firefox']]] });
    expect(filtered.imported_data).toBeUndefined();
    expect(filtered.warnings).toEqual([expect.stringMatching(/^Imported stats are not included in the results because query parameters are not supported/)]);
    // A site without imports hears nothing about them, whatever the interval.
    const hourly = await ok(call, 'timeseries', { site_id: account.domain, date_range: ['2024-01-08', '2024-01-08'], interval: 'hour' });
    expect(hourly).not.toHaveProperty('warnings');
    expect(hourly).not.toHaveProperty('imported_data');
    await siteClient.close();
  });
});

describe('set-up', () => {
  it('lists, creates and deletes goals and allows custom properties', async () => {
    expect((await ok(call, 'list_goals', { site_id: account.domain })).goals.map((g: any) => g.display_name)).toEqual(['Pricing', 'Signup']);
    const created = await ok(call, 'create_goal', { site_id: account.domain, goal_type: 'page', page_path: '/blog*', display_name: 'Blog' });
    expect(created).toMatchObject({ created: true, goal: { goal_type: 'page', page_path: '/blog*', display_name: 'Blog' } });
    const again = await ok(call, 'create_goal', { site_id: account.domain, goal_type: 'page', page_path: '/blog*' });
    expect(again).toMatchObject({ created: false, goal: { id: created.goal.id } });
    const conversions = await ok(call, 'query', { site_id: account.domain, metrics: ['visitors'], date_range: RANGE, dimensions: ['event:goal'] });
    expect(conversions.rows).toContainEqual({ 'event:goal': 'Blog', visitors: 2 });
    expect(await refused(call, 'create_goal', { site_id: account.domain, goal_type: 'event' })).toBe('Field "event_name" is required for an event goal.');
    expect(await refused(call, 'create_goal', { site_id: account.domain, goal_type: 'visit' })).toBe('Field "goal_type" must be one of event, page, scroll.');
    expect(await ok(call, 'delete_goal', { site_id: account.domain, goal_id: created.goal.id })).toEqual({ deleted: true, goal_id: created.goal.id });
    expect(await refused(call, 'delete_goal', { site_id: account.domain, goal_id: created.goal.id })).toBe('Goal could not be found.');

    expect(await ok(call, 'list_custom_properties', { site_id: account.domain })).toEqual({ custom_properties: [] });
    expect(await ok(call, 'add_custom_property', { site_id: account.domain, property: ' plan ' })).toEqual({ custom_properties: ['plan'] });
    expect(await refused(call, 'add_custom_property', { site_id: account.domain, property: '   ' })).toBe('Field "property" must not be blank.');
    const byPlan = await ok(call, 'query', {
      site_id: account.domain,
      metrics: ['visitors'],
      date_range: RANGE,
      dimensions: ['event:props:plan'],
      filters: [['is', 'event:name', ['Signup']]],
    });
    expect(byPlan.rows).toEqual([{ 'event:props:plan': 'pro', visitors: 1 }]);
  });

  it('lists webhooks and their delivery attempts', async () => {
    // A receiver that is down: the app's own worker records a failed attempt.
    const receiver = await startReceiver({ tls: false });
    receiver.answer = () => ({ status: 503, body: 'down for maintenance' });
    try {
      const hook = await api(t.url, account.key, 'POST', '/api/v1/webhooks', { url: `${receiver.url}/hooks`, event_types: ['site.created'] });
      expect(hook.status).toBe(201);
      const id: number = hook.body.id;
      expect(await ok(call, 'list_webhooks')).toEqual({
        webhooks: [expect.objectContaining({ id, url: `${receiver.url}/hooks`, event_types: ['site.created'], state: 'sending', consecutive_failures: 0 })],
      });
      expect(await ok(call, 'recent_deliveries', { webhook_id: id })).toEqual({ deliveries: [] });

      expect((await api(t.url, account.key, 'POST', '/api/v1/sites', { domain: `second-${process.pid}.example.com` })).status).toBe(200);
      const deadline = Date.now() + 15_000;
      let deliveries: any[] = [];
      while (deliveries.length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        ({ deliveries } = await ok(call, 'recent_deliveries', { webhook_id: id }));
      }
      // One attempt: the retry is 30 s away on a clock that stands still, and the team's first
      // site, published at the same instant before the webhook was registered, is not sent to it
      // (it was, when the worker had not fanned it out yet; test/webhooks/delivery.test.ts).
      expect(deliveries).toEqual([expect.objectContaining({ event_type: 'site.created', status_code: 503, response_body: 'down for maintenance' })]);
      expect(await refused(call, 'recent_deliveries', { webhook_id: id + 100 })).toBe(`This team has no webhook ${id + 100}.`);
      expect(await refused(call, 'recent_deliveries', { webhook_id: id, limit: 500 })).toBe('Field "limit" must be at most 100.');
    } finally {
      await receiver.close();
    }
  });
});

describe('the key', () => {
  it('lists tools its scopes do not cover, and refuses them naming the scope', async () => {
    const statsOnly = await createAccount(t.app, { scopes: ['stats:read'] });
    const narrow = await httpClient(t.url, statsOnly.key);
    try {
      expect((await narrow.listTools()).tools.map((tool) => tool.name)).toContain('create_goal');
      const use = caller(narrow);
      expect(await refused(use, 'create_goal', { site_id: statsOnly.domain, goal_type: 'event', event_name: 'X' })).toBe(
        'This API key lacks the "sites:provision" scope that this tool requires.',
      );
      expect(await refused(use, 'list_webhooks')).toBe('This API key lacks the "webhooks:write" scope that this tool requires.');
      expect(await refused(use, 'list_sites')).toBe('This API key lacks the "sites:read" scope that this tool requires.');
      expect(await ok(use, 'realtime_visitors', { site_id: statsOnly.domain })).toMatchObject({ visitors: 0 });
      expect((await narrow.listResources()).resources).toEqual([]);
      await expect(narrow.readResource({ uri: `site://${statsOnly.domain}` })).rejects.toThrow(
        'This API key lacks the "sites:read" scope that this resource requires.',
      );
    } finally {
      await narrow.close();
    }
  });

  const initialize = (key?: string) =>
    fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { ...(key ? bearer(key) : {}), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });

  it('answers wrong arguments, unknown tools and other methods with a sentence', async () => {
    expect(await refused(call, 'top_pages', { site_id: account.domain, limit: 'ten' })).toBe('Field "limit" must be a number.');
    expect(await refused(call, 'top_pages', { site_id: account.domain, colour: 'red' })).toBe(
      'Unknown field "colour"; the accepted fields are site_id, date_range, filters, limit, offset.',
    );
    expect(await refused(call, 'top_pages', {})).toBe('Field "site_id" is required.');
    expect(await refused(call, 'top_pages', { site_id: account.domain, date_range: 'fortnight' })).toMatch(/^#\/date_range: Invalid date range "fortnight"/);
    expect(await refused(call, 'make_coffee')).toMatch(/make_coffee not found/);
    // Params that do not fit the method: an invalid-params error saying which, not zod's issue list.
    const raw = async (method: string, params?: unknown) => {
      const res = await fetch(`${t.url}/mcp`, {
        method: 'POST',
        headers: { ...bearer(account.key), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { error?: { code: number; message: string } }).error;
    };
    expect(await raw('tools/call', { name: 'list_sites', arguments: 5 })).toEqual({
      code: -32602,
      message: "The tools/call request's params.arguments must be an object.",
    });
    expect(await raw('tools/call', { arguments: {} })).toEqual({ code: -32602, message: 'The tools/call request needs params.name.' });
    expect(await raw('resources/read', { uri: 5 })).toEqual({ code: -32602, message: "The resources/read request's params.uri must be a string." });
    expect(await raw('prompts/get', { name: 'weekly_summary', arguments: { site_id: 5 } })).toEqual({
      code: -32602,
      message: "The prompts/get request's params.arguments.site_id must be a string.",
    });
    expect(await raw('tools/list', { cursor: 5 })).toEqual({ code: -32602, message: "The tools/list request's params.cursor must be a string." });
    // In a batch too: the misshapen request's answer says which param, beside the others' answers.
    const batch = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { ...bearer(account.key), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_sites', arguments: 5 } },
        { jsonrpc: '2.0', id: 2, method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
      ]),
    });
    expect(batch.status).toBe(200);
    const answers = (await batch.json()) as { id: number }[];
    expect(answers.sort((a, b) => a.id - b.id)).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32602, message: "The tools/call request's params.arguments must be an object." } },
      { jsonrpc: '2.0', id: 2, result: {} },
    ]);
    const get = await fetch(`${t.url}/mcp`, { headers: bearer(account.key) });
    expect(get.status).toBe(405);
    expect(((await get.json()) as { error: string }).error).toMatch(/^This MCP endpoint is stateless/);
    const garbage = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { ...bearer(account.key), 'content-type': 'application/json' },
      body: '{"jsonrpc":',
    });
    expect(garbage.status).toBe(400);
    expect(await garbage.json()).toEqual({ error: 'The request body is not valid JSON.', code: 'bad_request' });
  });

  it('is refused without a key, as /api/v1 refuses it', async () => {
    const res = await initialize();
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'A valid API key is required in the header "Authorization: Bearer <key>".', code: 'unauthorized' });
  });

  it('answers a locked team 402 and the SDK client fails to connect', async () => {
    const locked = await createAccount(t.app);
    await lockTeam(t.app.meta.db, locked.teamId, 'card declined', t.app.clock.now());
    const res = await initialize(locked.key);
    expect(res.status).toBe(402);
    expect(((await res.json()) as { error: string }).error).toMatch(/^This team's account is locked \(card declined\)/);
    await expect(httpClient(t.url, locked.key)).rejects.toThrow(/402|locked/);
  });

  it('counts every message against the hourly limit with the rate headers', async () => {
    const limited = await createAccount(t.app, { hourlyLimit: 2 });
    const answers = [await initialize(limited.key), await initialize(limited.key), await initialize(limited.key)];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 429]);
    expect(answers[0]!.headers.get('x-ratelimit-limit')).toBe('2');
    expect(answers[1]!.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(answers[2]!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await answers[2]!.json()) as { error: string }).error).toMatch(/^This API key has used its 2 requests for this hour/);
  });
});
