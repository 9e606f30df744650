import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROME_MAC, collect, stored } from '../support/collect.js';
import { ManualClock } from '../support/manualClock.js';
import { type Account, bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';

const clock = new ManualClock(Date.parse('2026-06-01T10:00:00Z'));
let t: TestApp;
let site: Account;

beforeAll(async () => {
  // Loopback is the trusted proxy, so each test picks its visitor's address with X-Forwarded-For.
  t = await startTestApp({ clock, env: { TRUSTED_PROXIES: '127.0.0.1' } });
  site = await createAccount(t.app, { domain: 'collect.example.com' });
});
afterAll(() => t.close());

let ipCounter = 0;
/** A fresh residential-looking address per call, so rate limits and visits never interfere. */
const nextIp = () => {
  ipCounter += 1;
  return `81.2.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
};

const pageview = (extra: Record<string, unknown> = {}) => ({ n: 'pageview', d: site.domain, u: 'https://collect.example.com/', ...extra });

async function countEvents(where: string, params: Record<string, unknown> = {}) {
  const [row] = await stored<{ c: string }>(t, `SELECT count() AS c FROM events WHERE ${where}`, params);
  return Number(row?.c);
}

describe('POST /api/event', () => {
  it.each([['application/json'], ['text/plain'], ['application/x-www-form-urlencoded'], [undefined]])(
    'reads the body as JSON whatever the content type (%s)',
    async (contentType) => {
      const path = `/ct-${contentType ?? 'none'}`;
      const res = await fetch(`${t.url}/api/event`, {
        method: 'POST',
        headers: { ...(contentType ? { 'content-type': contentType } : {}), 'user-agent': CHROME_MAC, 'x-forwarded-for': nextIp() },
        body: JSON.stringify(pageview({ u: `https://collect.example.com${path}` })),
      });
      expect(res.status).toBe(202);
      expect(res.headers.get('x-svc-dropped')).toBeNull();
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-expose-headers')).toBe('x-svc-dropped');
      expect(await countEvents('pathname = {p:String}', { p: path })).toBe(1);
    },
  );

  it('answers a CORS preflight', async () => {
    const res = await fetch(`${t.url}/api/event`, {
      method: 'OPTIONS',
      headers: { origin: 'https://collect.example.com', 'access-control-request-method': 'POST' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it.each([
    ['an unreadable body', '{"n": "pageview",', /not readable/],
    ['an empty body', '', /not readable/],
    ['a JSON array', '[]', /must be a JSON object/],
    ['a JSON string', '"pageview"', /must be a JSON object/],
    ['a missing name', JSON.stringify({ d: 'collect.example.com', u: 'https://collect.example.com/' }), /"n" is required/],
    ['a blank name', JSON.stringify({ n: '  ', d: 'collect.example.com' }), /"n" is required/],
    ['a missing domain', JSON.stringify({ n: 'pageview', u: 'https://collect.example.com/' }), /"d" is required/],
    ['a malformed idempotency key', JSON.stringify({ n: 'pageview', d: 'collect.example.com', k: 'not-a-uuid' }), /"k".*UUID/],
  ])('answers 400 with a sentence for %s', async (_what, body, message) => {
    const res = await collect(t, body, { ip: nextIp() });
    expect(res.status).toBe(400);
    const json = await res.json();
    expect(json.error).toMatch(message);
    expect(json.error).toMatch(/\.$/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers 413 with a sentence beyond 64 KiB', async () => {
    const res = await collect(t, pageview({ p: { blob: 'x'.repeat(70 * 1024) } }), { ip: nextIp() });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatch(/larger than .*65536 bytes/);
  });

  it.each([
    ['unknown_site', () => ({ n: 'pageview', d: 'nobody-registered-this.example', u: 'https://x.example/' })],
    ['invalid_payload', () => pageview({ p: { nested: { no: 'objects' } } })],
    ['invalid_payload', () => pageview({ p: ['a list'] })],
    ['invalid_payload', () => pageview({ $: { amount: -5, currency: 'EUR' } })],
    ['invalid_payload', () => pageview({ $: { amount: '12.5', currency: 'EURO' } })],
    ['invalid_payload', () => ({ n: 'engagement', d: site.domain, u: 'https://collect.example.com/' })],
  ])('drops with x-svc-dropped: %s', async (reason, body) => {
    const res = await collect(t, body(), { ip: nextIp() });
    expect(res.status).toBe(202);
    expect(res.headers.get('x-svc-dropped')).toBe(reason);
  });

  it('drops events for a deleted site, and for a team whose collection has stopped', async () => {
    const deleted = await createAccount(t.app);
    await t.app.meta.db.updateTable('sites').set({ deleted_at: clock.now() }).where('id', '=', deleted.siteId).execute();
    t.app.ingestion.sites.invalidate(deleted.siteId);
    const res = await collect(t, { n: 'pageview', d: deleted.domain, u: `https://${deleted.domain}/` }, { ip: nextIp() });
    expect(res.headers.get('x-svc-dropped')).toBe('site_deleted');

    const dormant = await createAccount(t.app);
    await t.app.meta.db.updateTable('teams').set({ collection_stopped_at: clock.now() }).where('id', '=', dormant.teamId).execute();
    t.app.ingestion.sites.invalidate(dormant.siteId);
    const res2 = await collect(t, { n: 'pageview', d: dormant.domain, u: `https://${dormant.domain}/` }, { ip: nextIp() });
    expect(res2.headers.get('x-svc-dropped')).toBe('account_dormant');
  });

  it('keeps collecting while the team is locked', async () => {
    const locked = await createAccount(t.app);
    await t.app.meta.db.updateTable('teams').set({ locked_at: clock.now(), locked_reason: 'unpaid' }).where('id', '=', locked.teamId).execute();
    const res = await collect(t, { n: 'pageview', d: locked.domain, u: `https://${locked.domain}/` }, { ip: nextIp() });
    expect(res.status).toBe(202);
    expect(res.headers.get('x-svc-dropped')).toBeNull();
    expect(await countEvents('site_id = {s:UInt64}', { s: locked.siteId })).toBe(1);
  });

  it('applies IP shields before the response, other shields after it (counted, never in the header)', async () => {
    const shielded = await createAccount(t.app);
    const now = clock.now();
    await t.app.meta.db
      .insertInto('site_shields')
      .values([
        { site_id: shielded.siteId, kind: 'ip', value: '203.0.113.0/24', description: null, created_at: now },
        { site_id: shielded.siteId, kind: 'country', value: 'GB', description: null, created_at: now },
        { site_id: shielded.siteId, kind: 'page', value: '/admin/**', description: null, created_at: now },
        { site_id: shielded.siteId, kind: 'hostname', value: `*.${shielded.domain}`, description: null, created_at: now },
        { site_id: shielded.siteId, kind: 'hostname', value: shielded.domain, description: null, created_at: now },
      ])
      .execute();
    t.app.ingestion.sites.invalidate(shielded.siteId);
    const send = (u: string, ip: string) => collect(t, { n: 'pageview', d: shielded.domain, u }, { ip });
    const base = `https://${shielded.domain}`;
    expect((await send(`${base}/`, '203.0.113.9')).headers.get('x-svc-dropped')).toBe('shield_ip');
    for (const res of [
      await send(`${base}/`, '81.2.69.142'),
      await send(`${base}/admin/users`, '8.8.4.4'),
      await send('https://elsewhere.example/', '8.8.4.4'),
    ]) {
      expect(res.status).toBe(202);
      expect(res.headers.get('x-svc-dropped')).toBeNull();
    }
    expect((await send(`${base}/pricing`, '8.8.4.4')).headers.get('x-svc-dropped')).toBeNull();
    expect(await countEvents('site_id = {s:UInt64}', { s: shielded.siteId })).toBe(1);
    const health = await (await fetch(`${t.url}/api/v1/sites/${shielded.domain}/ingestion`, { headers: bearer(shielded.key) })).json();
    expect(health.totals).toEqual({ shield_ip: 1, shield_country: 1, shield_page: 1, hostname_not_allowed: 1, accepted: 1 });
  });

  it('answers a service failure with 202 internal_error, counted for the site, never a 500', async () => {
    const failing = await createAccount(t.app, { domain: 'failing.example.com' });
    const send = (domain: string) => collect(t, { n: 'pageview', d: domain, u: `https://${domain}/` }, { ip: nextIp() });
    // Fault injection into the real service: the write buffer breaks in the middle of an event.
    const buffer = t.app.ingestion.buffer;
    const add = buffer.add;
    buffer.add = () => {
      throw new Error('injected write-buffer failure');
    };
    try {
      const res = await send(failing.domain);
      expect(res.status).toBe(202);
      expect(res.headers.get('x-svc-dropped')).toBe('internal_error');
    } finally {
      buffer.add = add;
    }
    const health = await (await fetch(`${t.url}/api/v1/sites/${failing.domain}/ingestion`, { headers: bearer(failing.key) })).json();
    expect(health.totals).toEqual({ internal_error: 1 });

    // A failure before any site is known: the metadata store loses its sites table.
    await sql`ALTER TABLE sites RENAME TO sites_away`.execute(t.app.meta.db);
    try {
      const res = await send('not-cached-yet.example.com');
      expect(res.status).toBe(202);
      expect(res.headers.get('x-svc-dropped')).toBe('internal_error');
    } finally {
      await sql`ALTER TABLE sites_away RENAME TO sites`.execute(t.app.meta.db);
    }
    expect((await send(failing.domain)).headers.get('x-svc-dropped')).toBeNull();
  });

  it('records one event per site when d names several', async () => {
    const other = await createAccount(t.app, { domain: 'second.example.com' });
    const res = await collect(
      t,
      { n: 'pageview', d: `${site.domain}, second.example.com,unknown.example.org`, u: 'https://collect.example.com/multi' },
      { ip: nextIp() },
    );
    expect(res.status).toBe(202);
    expect(res.headers.get('x-svc-dropped')).toBe('unknown_site');
    const rows = await stored<{ site_id: string; user_id: string }>(t, "SELECT site_id, user_id FROM events WHERE pathname = '/multi' ORDER BY site_id");
    expect(rows.map((r) => Number(r.site_id))).toEqual([site.siteId, other.siteId]);
    expect(rows[0]!.user_id).not.toBe(rows[1]!.user_id);
  });

  it('stores a repeated idempotency key once within 24 hours', async () => {
    const k = '9b2f7c1e-4d3a-4f6b-8c2d-1a2b3c4d5e6f';
    const ip = nextIp();
    for (let i = 0; i < 3; i += 1) {
      const res = await collect(t, pageview({ u: 'https://collect.example.com/idem', k }), { ip });
      expect(res.status).toBe(202);
      expect(res.headers.get('x-svc-dropped')).toBeNull();
    }
    expect(await countEvents("pathname = '/idem'")).toBe(1);
    clock.advance(24 * 3_600_000);
    await collect(t, pageview({ u: 'https://collect.example.com/idem', k }), { ip });
    expect(await countEvents("pathname = '/idem'")).toBe(2);
    clock.set('2026-06-01T10:00:00Z');
  });

  it('rate-limits a source address at a burst of 500, refilling at 100 per second', async () => {
    const ip = '81.2.200.200';
    const statuses: Array<string | null> = [];
    for (let i = 0; i < 501; i += 1) {
      const res = await collect(t, { n: 'rl', d: 'unknown-rate.example' }, { ip });
      statuses.push(res.headers.get('x-svc-dropped'));
    }
    expect(statuses.slice(0, 500).every((s) => s === 'unknown_site')).toBe(true);
    expect(statuses[500]).toBe('rate_limited');
    clock.advance(1000);
    const refilled = [];
    for (let i = 0; i < 101; i += 1) refilled.push((await collect(t, { n: 'rl', d: 'unknown-rate.example' }, { ip })).headers.get('x-svc-dropped'));
    expect(refilled.filter((s) => s === 'rate_limited')).toHaveLength(1);
    expect((await collect(t, pageview(), { ip: nextIp() })).headers.get('x-svc-dropped')).toBeNull();
  });
});

describe('classification', () => {
  it.each([
    ['bot', { ua: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }],
    ['bot', { ua: 'curl/8.4.0' }],
    ['automation', { ua: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36' }],
    ['referrer_spam', { body: { r: 'https://semalt.com/crawler' } }],
  ])('stores %s events with their reason and says so', async (reason, variant: { ua?: string; body?: Record<string, unknown> }) => {
    const path = `/classified-${reason}-${ipCounter}`;
    const res = await collect(t, pageview({ u: `https://collect.example.com${path}`, ...variant.body }), { ip: nextIp(), ua: variant.ua });
    expect(res.status).toBe(202);
    expect(res.headers.get('x-svc-dropped')).toBe(reason);
    const [row] = await stored<{ classification: string }>(t, 'SELECT classification FROM events WHERE pathname = {p:String}', { p: path });
    expect(row?.classification).toBe(reason);
    const [visit] = await stored<{ classification: string }>(t, 'SELECT classification FROM sessions WHERE entry_page = {p:String}', { p: path });
    expect(visit?.classification).toBe(reason);
  });
});

describe('X-Debug-Request', () => {
  it('returns the derived event and writes nothing, touching no counter', async () => {
    const debugSite = await createAccount(t.app, { domain: 'debug.example.com' });
    const body = {
      n: 'Signup',
      d: debugSite.domain,
      u: 'https://www.debug.example.com/pricing?utm_source=newsletter&utm_medium=email&utm_campaign=spring&x=1',
      r: 'https://www.google.com/search?q=x',
      p: { plan: 'pro', seats: 3, trial: true },
      $: { amount: '49.90', currency: 'eur' },
      w: 1280,
      t: 'Pricing',
      v: 3,
      [`long${''}`]: undefined,
    };
    const res = await collect(t, body, { ip: '81.2.69.142', headers: { 'x-debug-request': 'true', 'accept-language': 'en-GB,en;q=0.8' } });
    expect(res.status).toBe(200);
    const debug = await res.json();
    expect(debug).toMatchObject({
      address: { value: '81.2.69.142', source: 'x-forwarded-for', trusted_proxy_configured: true },
      salt_day: '2026-06-01',
      geolocation: { countryCode: 'GB', city: 'London' },
      channel: 'Email',
      dropped: null,
      written: false,
    });
    const [outcome] = debug.sites;
    expect(outcome).toMatchObject({ domain: 'debug.example.com', outcome: 'stored', visitorId: expect.stringMatching(/^\d+$/) });
    expect(outcome.event).toMatchObject({
      name: 'Signup',
      hostname: 'debug.example.com',
      pathname: '/pricing',
      page_title: 'Pricing',
      props: { plan: 'pro', seats: '3', trial: 'true' },
      revenue_source_amount: '49.900',
      revenue_source_currency: 'EUR',
      screen_size: 'Laptop',
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'spring',
      language: 'en-GB',
      country_code: 'GB',
      tracker_version: '3',
      classification: '',
    });
    expect(outcome.session).toMatchObject({ entry_page: '', pageviews: 0, events: 1, is_bounce: 0 });
    // `1` is not `true`: only the exact value asks for a debug answer.
    const notDebug = await collect(t, pageview({ d: debugSite.domain, u: 'https://debug.example.com/real' }), {
      ip: '81.2.69.142',
      headers: { 'x-debug-request': '1' },
    });
    expect(notDebug.status).toBe(202);
    expect(await countEvents('site_id = {s:UInt64}', { s: debugSite.siteId })).toBe(1);
    const health = await (await fetch(`${t.url}/api/v1/sites/${debugSite.domain}/ingestion`, { headers: bearer(debugSite.key) })).json();
    expect(health.totals).toEqual({ accepted: 1 });
  });

  it('adds the page as a path prop to 404 and form events, as the reference does', async () => {
    const debug = async (body: Record<string, unknown>) =>
      (await (await collect(t, pageview(body), { ip: nextIp(), headers: { 'x-debug-request': 'true' } })).json()).sites[0].event.props;
    expect(await debug({ n: '404', u: 'https://collect.example.com/missing' })).toEqual({ path: '/missing' });
    expect(await debug({ n: 404, u: 'https://collect.example.com/gone', p: { path: '/given' } })).toEqual({ path: '/given' });
    expect(await debug({ n: 'Form: Submission', u: 'https://collect.example.com/contact' })).toEqual({ path: '/contact' });
    expect(await debug({ n: 'Signup', u: 'https://collect.example.com/x' })).toEqual({});
  });

  it('stores props named like Object members as ordinary props', async () => {
    // Parsed, not written as a literal: in a literal __proto__ would set the prototype, not a key.
    const p = JSON.parse('{"__proto__": "a", "constructor": "b", "toString": "c"}');
    expect((await collect(t, pageview({ n: 'Signup', u: 'https://collect.example.com/proto', p }), { ip: nextIp() })).status).toBe(202);
    const [row] = await stored<{ props: Record<string, string> }>(t, "SELECT props FROM events WHERE pathname = '/proto'");
    expect(Object.entries(row!.props).sort()).toEqual([
      ['__proto__', 'a'],
      ['constructor', 'b'],
      ['toString', 'c'],
    ]);
  });

  it('reports truncations and the drop reason', async () => {
    const res = await collect(
      t,
      { ...pageview({ u: `https://collect.example.com/${'a'.repeat(2100)}` }), p: Object.fromEntries(Array.from({ length: 35 }, (_, i) => [`k${i}`, 'v'])) },
      { ip: nextIp(), headers: { 'x-debug-request': 'true' } },
    );
    const debug = await res.json();
    expect(debug.truncated).toEqual({ u: 1, p: 5 });
    expect(Object.keys(debug.sites[0].event.props)).toHaveLength(30);
    const many = Array.from({ length: 12 }, (_, i) => `extra${i}.example`).join(',');
    const crowded = await (await collect(t, pageview({ d: `${site.domain},${many}` }), { ip: nextIp(), headers: { 'x-debug-request': 'true' } })).json();
    expect(crowded.truncated).toEqual({ d: 3 });
    expect(crowded.sites).toHaveLength(10);
    const dropped = await (await collect(t, { n: 'pageview', d: 'nope.example' }, { ip: nextIp(), headers: { 'x-debug-request': 'true' } })).json();
    expect(dropped.dropped).toBe('unknown_site');
  });
});

describe('GET /api/event/pixel.gif', () => {
  it('always answers with the GIF, using Referer when u is absent', async () => {
    const res = await fetch(`${t.url}/api/event/pixel.gif?d=${site.domain}&p=${encodeURIComponent('{"via":"pixel"}')}`, {
      headers: { referer: 'https://collect.example.com/no-script', 'user-agent': CHROME_MAC, 'x-forwarded-for': nextIp() },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/gif');
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(0, 6)
        .toString(),
    ).toBe('GIF89a');
    const [row] = await stored<{ name: string; via: string }>(t, "SELECT name, props['via'] AS via FROM events WHERE pathname = '/no-script'");
    expect(row).toEqual({ name: 'pageview', via: 'pixel' });
  });

  it('reports failures in x-svc-dropped, still with the image', async () => {
    for (const [query, reason] of [
      ['', 'invalid_payload'],
      ['?d=unknown.example&u=https://unknown.example/', 'unknown_site'],
    ] as const) {
      const res = await fetch(`${t.url}/api/event/pixel.gif${query}`, { headers: { 'user-agent': CHROME_MAC, 'x-forwarded-for': nextIp() } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/gif');
      expect(res.headers.get('x-svc-dropped')).toBe(reason);
    }
  });

  it('writes nothing for a debug request and answers with the derived event', async () => {
    const path = `/pixel-debug-${Date.now()}`;
    const res = await fetch(`${t.url}/api/event/pixel.gif?d=${site.domain}&u=${encodeURIComponent(`https://collect.example.com${path}`)}`, {
      headers: { 'user-agent': CHROME_MAC, 'x-forwarded-for': nextIp(), 'x-debug-request': 'true' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toMatchObject({ dropped: null });
    expect(await stored(t, 'SELECT name FROM events WHERE pathname = {path:String}', { path })).toEqual([]);
  });

  it('takes the first of a repeated parameter', async () => {
    const res = await fetch(`${t.url}/api/event/pixel.gif?d=${site.domain}&d=other.example&u=https://collect.example.com/twice`, {
      headers: { 'user-agent': CHROME_MAC, 'x-forwarded-for': nextIp() },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-svc-dropped')).toBeNull();
  });
});
