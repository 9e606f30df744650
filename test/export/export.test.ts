import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExportJobs, INTERRUPTED_EXPORT } from '../../src/export/exportJobs.js';
import { exportRange } from '../../src/export/exportRequest.js';
import { groupDays } from '../../src/export/siteExport.js';
import { findLiveSiteByName } from '../../src/stores/meta/sites.js';
import { lockTeam } from '../../src/stores/meta/teams.js';
import { startSmallSite } from '../query/smallSite.js';
import { svc } from '../support/processes.js';
import type { Account, TestApp } from '../support/testApp.js';
import { bearer } from '../support/testApp.js';
import { signedInHeaders } from '../support/webSession.js';
import { csvRows, readZip } from '../support/zip.js';

const TABLES = [
  'imported_visitors',
  'imported_sources',
  'imported_pages',
  'imported_entry_pages',
  'imported_exit_pages',
  'imported_custom_events',
  'imported_locations',
  'imported_devices',
  'imported_browsers',
  'imported_operating_systems',
  'events',
];

/**
 * Each file's columns in the order Plausible's export writes them (its lib/plausible/exports.ex,
 * with the time-on-page columns it adds when the new metric is on), so its importer and scripts
 * reading by position take our files.
 */
const COUNTS = ['visitors', 'visits', 'visit_duration', 'bounces', 'pageviews'];
const PLAUSIBLE_HEADERS: Record<string, string[]> = {
  imported_visitors: ['date', 'visitors', 'pageviews', 'bounces', 'visits', 'visit_duration'],
  imported_sources: [
    ...['date', 'source', 'referrer', 'utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term'],
    ...['pageviews', 'visitors', 'visits', 'visit_duration', 'bounces'],
  ],
  imported_pages: [
    ...['date', 'hostname', 'page', 'visits', 'visitors', 'pageviews'],
    ...['total_scroll_depth', 'total_scroll_depth_visits', 'total_time_on_page', 'total_time_on_page_visits'],
  ],
  imported_entry_pages: ['date', 'entry_page', 'visitors', 'entrances', 'visit_duration', 'bounces', 'pageviews'],
  imported_exit_pages: ['date', 'exit_page', 'visitors', 'visit_duration', 'exits', 'bounces', 'pageviews'],
  imported_custom_events: ['date', 'name', 'link_url', 'path', 'visitors', 'events'],
  imported_locations: ['date', 'country', 'region', 'city', ...COUNTS],
  imported_devices: ['date', 'device', ...COUNTS],
  imported_browsers: ['date', 'browser', 'browser_version', ...COUNTS],
  imported_operating_systems: ['date', 'operating_system', 'operating_system_version', ...COUNTS],
};

describe('site export', () => {
  let t: TestApp;
  let account: Account;
  let files: Map<string, string>;

  const query = async (body: Record<string, unknown>) => {
    const response = await fetch(`${t.url}/api/v2/query`, {
      method: 'POST',
      headers: { ...bearer(account.key), 'content-type': 'application/json' },
      body: JSON.stringify({ site_id: account.domain, date_range: ['2024-01-08', '2024-01-09'], ...body }),
    });
    return (await response.json()).results as { dimensions: string[]; metrics: number[] }[];
  };

  beforeAll(async () => {
    ({ t, account } = await startSmallSite());
    const response = await fetch(`${t.url}/api/v1/sites/${account.domain}/export?from=2024-01-08&to=2024-01-09`, { headers: bearer(account.key) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toContain(`${account.domain.replaceAll('.', '_')}_20240109.zip`);
    files = await readZip(Buffer.from(await response.arrayBuffer()));
  });
  afterAll(() => t.close());

  it("holds the ten tables in Plausible's file names and columns, and every raw event", () => {
    expect([...files.keys()]).toEqual(TABLES.map((table) => `${table}_20240108_20240109.csv`));
    for (const [table, columns] of Object.entries(PLAUSIBLE_HEADERS)) {
      const header = files.get(`${table}_20240108_20240109.csv`)?.split('\n')[0];
      expect(header, table).toBe(columns.map((column) => `"${column}"`).join(','));
    }
  });

  it('counts each day as the query API does', async () => {
    const visitors = csvRows(files.get('imported_visitors_20240108_20240109.csv') ?? '');
    const api = await query({ metrics: ['visitors', 'pageviews', 'visits'], dimensions: ['time:day'] });
    expect(visitors.map((row) => [row.date, Number(row.visitors), Number(row.pageviews), Number(row.visits)])).toEqual(
      api.map((row) => [row.dimensions[0], ...row.metrics]),
    );
  });

  it('breaks pages and sources down as the query API does', async () => {
    const pages = csvRows(files.get('imported_pages_20240108_20240109.csv') ?? '');
    const pageviews = new Map<string, number>();
    for (const row of pages) pageviews.set(row.page ?? '', (pageviews.get(row.page ?? '') ?? 0) + Number(row.pageviews));
    const api = await query({ metrics: ['pageviews'], dimensions: ['event:page'] });
    expect(Object.fromEntries(pageviews)).toEqual(Object.fromEntries(api.map((row) => [row.dimensions[0], row.metrics[0]])));
    // carol scrolled 80 % of / on 8 Jan and stayed 30 s.
    expect(pages.find((row) => row.date === '2024-01-08' && row.page === '/')).toMatchObject({
      total_scroll_depth: '80',
      total_scroll_depth_visits: '1',
      total_time_on_page: '30',
    });
    const events = csvRows(files.get('imported_custom_events_20240108_20240109.csv') ?? '');
    expect(events).toEqual([{ date: '2024-01-08', name: 'Signup', link_url: '', path: '', visitors: '1', events: '1' }]);
  });

  it('exports every stored event, the bot included, with its classification', () => {
    const raw = csvRows(files.get('events_20240108_20240109.csv') ?? '');
    expect(raw).toHaveLength(11);
    expect(raw.filter((row) => row.classification === 'bot')).toHaveLength(1);
  });

  it('works from the settings screen when the team is locked, while the API route answers 402', async () => {
    await lockTeam(t.app.meta.db, account.teamId, 'unpaid invoice', t.app.clock.now());
    const api = await fetch(`${t.url}/api/v1/sites/${account.domain}/export`, { headers: bearer(account.key) });
    expect(api.status).toBe(402);
    const { cookie } = await signedInHeaders(t.app, account.userId);
    const web = await fetch(`${t.url}/app/api/sites/${account.domain}/export?from=2024-01-08&to=2024-01-09`, { headers: { cookie } });
    expect(web.status).toBe(200);
    expect((await readZip(Buffer.from(await web.arrayBuffer()))).size).toBe(11);
  });

  it('is downloaded by svc export through the running server, locked or not (requires the build)', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'svc-export-')), 'export.zip');
    const result = await svc(['export', '--site', account.domain, '--out', out, '--from', '2024-01-08', '--to', '2024-01-09', '--url', t.url, '--json'], t.env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ site: account.domain, out });
    const entries = await readZip(readFileSync(out));
    expect(csvRows(entries.get('events_20240108_20240109.csv') ?? '')).toHaveLength(11);
    const missing = await svc(['export', '--site', 'nowhere.example', '--out', out, '--url', t.url, '--json'], t.env);
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stderr).error).toBe('There is no site nowhere.example.');
  });

  it('keeps prepared exports across a restart; one being written then is shown as failed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-exports-'));
    const site = (await findLiveSiteByName(t.app.meta.db, account.domain, Date.now()))!;
    const deps = { db: t.app.meta.db, events: t.app.events, clock: t.app.clock, dataDir };
    const range = { from: '2024-01-08', to: '2024-01-09' };
    const first = createExportJobs(deps);
    const ready = first.start(site, range);
    for (let i = 0; i < 200 && first.list(site.id)[0]!.status === 'preparing'; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(first.list(site.id)[0]).toMatchObject({ id: ready.id, status: 'ready' });
    const interrupted = first.start(site, range);
    first.stop();

    const second = createExportJobs(deps);
    const listed = second.list(site.id).map(({ id, status, error }) => ({ id, status, error }));
    expect(listed).toHaveLength(2);
    expect(listed).toContainEqual({ id: interrupted.id, status: 'failed', error: INTERRUPTED_EXPORT });
    expect(listed).toContainEqual({ id: ready.id, status: 'ready', error: null });
    const kept = second.ready(site.id, ready.id)!;
    expect([...(await readZip(readFileSync(kept.path))).keys()]).toEqual([...files.keys()]);
    // A record that cannot be read is dropped, never listed.
    writeFileSync(join(dataDir, 'exports', 'ffffffffffffffffffffffff.json'), '{"id":');
    expect(second.remove(site.id, interrupted.id)).toBe(true);
    second.stop();
    expect(
      createExportJobs(deps)
        .list(site.id)
        .map((job) => job.id),
    ).toEqual([ready.id]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('an export recorded by a node that does not write exports is written by a worker that takes it up', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-exports-'));
    const site = (await findLiveSiteByName(t.app.meta.db, account.domain, Date.now()))!;
    const deps = { db: t.app.meta.db, events: t.app.events, clock: t.app.clock, dataDir };
    const web = createExportJobs({ ...deps, writes: false });
    const job = web.start(site, { from: '2024-01-08', to: '2024-01-09' });
    expect(job).toMatchObject({ status: 'preparing', holder: null });
    // Nothing writes it here: it waits for a worker.
    await web.sweep();
    expect(web.list(site.id)[0]).toMatchObject({ id: job.id, status: 'preparing', holder: null });
    const workers = [createExportJobs(deps), createExportJobs(deps)];
    await Promise.all(workers.map((worker) => worker.pickUp()));
    for (let i = 0; i < 200 && web.list(site.id)[0]!.status === 'preparing'; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    const listed = web.list(site.id)[0]!;
    expect(listed).toMatchObject({ id: job.id, status: 'ready', error: null });
    // The worker that took it up named itself in the record.
    expect(listed.holder).toMatch(/\/exports\/[0-9a-f]{8}$/);
    const ready = web.ready(site.id, job.id)!;
    expect([...(await readZip(readFileSync(ready.path))).keys()]).toEqual([...files.keys()]);
    for (const jobs of [web, ...workers]) jobs.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a bad range with a sentence', async () => {
    const { cookie } = await signedInHeaders(t.app, account.userId);
    const bad = await fetch(`${t.url}/app/api/sites/${account.domain}/export?from=2024-02-30`, { headers: { cookie } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toContain('"from" must be a date');
  });
});

describe('export ranges and slices', () => {
  const site = { timezone: 'Europe/Berlin', createdAt: Date.parse('2024-01-01T00:00:00Z') };
  const now = Date.parse('2024-03-01T23:30:00Z');

  it("defaults to the site's first day, or its first event's when history was imported, through today, in the site's time zone", () => {
    expect(exportRange({}, site, null, now)).toEqual({ from: '2024-01-01', to: '2024-03-02' });
    expect(exportRange({}, site, Date.parse('2024-01-20T10:00:00Z'), now)).toEqual({ from: '2024-01-01', to: '2024-03-02' });
    expect(exportRange({}, site, Date.parse('2023-10-14T23:30:00Z'), now)).toEqual({ from: '2023-10-15', to: '2024-03-02' });
    expect(() => exportRange({ from: '2024-03-05' }, site, null, now)).toThrow('after "to"');
    expect(() => exportRange({ to: '2024-04-01' }, site, null, now)).toThrow('cannot be after today');
  });

  it('groups days into slices of bounded size, a big day alone', () => {
    const days = [
      { day: '2024-01-01', events: 10 },
      { day: '2024-01-02', events: 30 },
      { day: '2024-01-03', events: 100 },
      { day: '2024-01-04', events: 5 },
    ];
    expect(groupDays(days, 50)).toEqual([
      { from: '2024-01-01', to: '2024-01-02', events: 40 },
      { from: '2024-01-03', to: '2024-01-03', events: 100 },
      { from: '2024-01-04', to: '2024-01-04', events: 5 },
    ]);
  });
});
