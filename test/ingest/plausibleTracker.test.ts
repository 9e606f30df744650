/**
 * Plausible's own browser tracker against our collection endpoint, unchanged.
 *
 * The request shapes below are written from a reading of the tracker (its `track`, engagement,
 * link/form/tagged-element and networking modules, and the older single-file script), not copied:
 *
 * - Every event is one `POST {endpoint}` whose body is `JSON.stringify(payload)` with header
 *   `Content-Type: text/plain` (a CORS "simple" request, so no preflight): `fetch` with
 *   `keepalive: true` in current scripts, `XMLHttpRequest` in the `compat` ones (where browsers
 *   send `text/plain;charset=UTF-8`). The callback gets `{status}` (or `{error}` on a network
 *   failure), so the status must be readable cross-origin.
 * - Payload: `n`, `v` (integer script version), `u` (location.href, or the manual `u`),
 *   `d` (configured domain), `r` (document.referrer or `null`), `p` only when there are props,
 *   `i: false` only when asked, `$` when the revenue build gets any revenue option, `h: 1` in the
 *   hash-routing builds, `m` (JSON string) for the legacy `meta` option.
 * - Engagement: `{n: "engagement", sd, d, u, p, e, v}` plus `h: 1`; `p` is whatever the
 *   pageview had (absent when it had none); `sd` is `null` when the page height was 0.
 * - Outbound link: `Outbound Link: Click` with `p: {url}`; file download: `File Download` with
 *   `p: {url}` (query string removed); form: `Form: Submission` without props; tagged element:
 *   the class-given name and props (plus `url` for a link), and in the builds with revenue
 *   (the default per-site script among them) `$` is the class-given revenue — `{}` when the
 *   element has no revenue classes, with amount and currency as strings when it has.
 * - The older single-file script also sent `w` (viewport width) and `p` as a JSON string.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROME_MAC, stored } from '../support/collect.js';
import { ManualClock } from '../support/manualClock.js';
import { type Account, createAccount, startTestApp, type TestApp } from '../support/testApp.js';

const clock = new ManualClock(Date.parse('2026-06-02T09:00:00Z'));
let t: TestApp;
let site: Account;
const ORIGIN = 'https://tracker.example.com';
const VERSION = 31;

beforeAll(async () => {
  t = await startTestApp({ clock, env: { TRUSTED_PROXIES: '127.0.0.1' } });
  site = await createAccount(t.app, { domain: 'tracker.example.com' });
});
afterAll(() => t.close());

let ipCounter = 0;
const nextIp = () => {
  ipCounter += 1;
  return `81.2.${100 + Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
};

/** What the current script's `fetch` puts on the wire (a browser adds Origin and its user agent). */
function send(payload: Record<string, unknown>, options: { ip?: string; contentType?: string; debug?: boolean } = {}) {
  return fetch(`${t.url}/api/event`, {
    method: 'POST',
    headers: {
      'content-type': options.contentType ?? 'text/plain',
      origin: ORIGIN,
      'user-agent': CHROME_MAC,
      'x-forwarded-for': options.ip ?? nextIp(),
      ...(options.debug ? { 'x-debug-request': 'true' } : {}),
    },
    body: JSON.stringify(payload),
  });
}

/** The derived event for one site, written nowhere. */
async function derived(payload: Record<string, unknown>, ip?: string) {
  const res = await send(payload, { ip, debug: true });
  expect(res.status).toBe(200);
  const debug = await res.json();
  return { debug, outcome: debug.sites[0], event: debug.sites[0].event };
}

/** The fields `track` always sets, for a page on the site. */
const base = (n: string, path = '/', extra: Record<string, unknown> = {}) => ({ n, v: VERSION, u: `${ORIGIN}${path}`, d: site.domain, r: null, ...extra });

async function countEvents(where: string, params: Record<string, unknown> = {}) {
  const [row] = await stored<{ c: string }>(t, `SELECT count() AS c FROM events WHERE ${where}`, params);
  return Number(row?.c);
}

describe('transport', () => {
  it.each([
    ['fetch (text/plain)', 'text/plain'],
    ['XMLHttpRequest in compat builds (text/plain;charset=UTF-8)', 'text/plain;charset=UTF-8'],
  ])('accepts a pageview sent by %s, with a status the callback can read', async (_how, contentType) => {
    const path = `/transport-${contentType.length}`;
    const res = await send(base('pageview', path), { contentType });
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('ok');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toBe('x-svc-dropped');
    expect(res.headers.get('x-svc-dropped')).toBeNull();
    const [row] = await stored<{ name: string; hostname: string; tracker_version: string; referrer: string }>(
      t,
      'SELECT name, hostname, tracker_version, referrer FROM events WHERE pathname = {p:String}',
      { p: path },
    );
    expect(row).toEqual({ name: 'pageview', hostname: 'tracker.example.com', tracker_version: String(VERSION), referrer: '' });
  });

  it('lets a dropped event reach the callback as a readable 202 too', async () => {
    const res = await send({ ...base('pageview'), d: 'not-registered.example' });
    expect(res.status).toBe(202);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('x-svc-dropped')).toBe('unknown_site');
  });

  it('answers a preflight for the request shapes a page may send (JSON bodies, the debug header)', async () => {
    const res = await fetch(`${t.url}/api/event`, {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-debug-request' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    expect(allowed).toContain('content-type');
    expect(allowed).toContain('x-debug-request');
  });

  it('keeps the status readable when the body is over the limit', async () => {
    const res = await send(base('pageview', '/too-big', { p: { blob: 'x'.repeat(70 * 1024) } }));
    expect(res.status).toBe(413);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('pageviews and routing', () => {
  it('reports the path without query or fragment, and reads UTM tags from the query', async () => {
    const { event } = await derived(base('pageview', '/pricing/?utm_source=news&utm_medium=email#plans', { r: 'https://duckduckgo.com/' }));
    expect(event).toMatchObject({
      name: 'pageview',
      pathname: '/pricing/',
      hostname: 'tracker.example.com',
      utm_source: 'news',
      utm_medium: 'email',
      tracker_version: String(VERSION),
    });
  });

  it('appends the fragment with h: 1 (hash-routing builds), for pageviews and engagement alike', async () => {
    const ip = nextIp();
    const page = await derived(base('pageview', '/app#/settings/profile?tab=2', { h: 1 }), ip);
    expect(page.event.pathname).toBe('/app#/settings/profile?tab=2');
    const plain = await derived(base('pageview', '/app#/settings/profile'), ip);
    expect(plain.event.pathname).toBe('/app');
  });

  it('takes a www. host and an upper-case domain as the site', async () => {
    const { outcome, event } = await derived({ ...base('pageview'), u: 'https://www.tracker.example.com/x', d: 'WWW.Tracker.Example.com' });
    expect(outcome).toMatchObject({ domain: 'tracker.example.com', outcome: 'stored' });
    expect(event.hostname).toBe('tracker.example.com');
  });

  it('records a comma-separated data-domain once per site', async () => {
    const other = await createAccount(t.app, { domain: 'tracker-rollup.example.com' });
    const { debug } = await derived({ ...base('pageview'), d: `${site.domain},${other.domain}` });
    expect(debug.sites.map((s: { domain: string; outcome: string }) => [s.domain, s.outcome])).toEqual([
      [site.domain, 'stored'],
      [other.domain, 'stored'],
    ]);
  });

  it('adds pageview props from script attributes / customProperties (string values)', async () => {
    const { event } = await derived(base('pageview', '/props', { p: { author: 'Ada', logged_in: 'true' } }));
    expect(event.props).toEqual({ author: 'Ada', logged_in: 'true' });
  });
});

describe('custom events', () => {
  it('keeps props from plausible(name, {props}) and stringifies numbers and booleans', async () => {
    const { event, debug } = await derived(base('Signup', '/join', { p: { plan: 'pro', seats: 3, annual: false } }));
    expect(debug.dropped).toBeNull();
    expect(event).toMatchObject({ name: 'Signup', pathname: '/join', props: { plan: 'pro', seats: '3', annual: 'false' }, interactive: 1 });
  });

  it('drops only the pairs whose value is null (user code passes them through), as the reference does', async () => {
    const { event, debug } = await derived(base('Signup', '/join', { p: { plan: 'pro', coupon: null } }));
    expect(debug.dropped).toBeNull();
    expect(event.props).toEqual({ plan: 'pro' });
  });

  it('marks i: false non-interactive, so it does not un-bounce a visit', async () => {
    const ip = nextIp();
    await send(base('pageview', '/video'), { ip });
    const { event, outcome } = await derived(base('Video Autoplay', '/video', { i: false }), ip);
    expect(event.interactive).toBe(0);
    expect(outcome.session).toMatchObject({ is_bounce: 1 });
    const interactive = await derived(base('Video Play', '/video'), ip);
    expect(interactive.outcome.session).toMatchObject({ is_bounce: 0 });
  });

  it('ignores i: false on the events the tracker sends itself', async () => {
    const { event } = await derived(base('Outbound Link: Click', '/', { i: false, p: { url: 'https://elsewhere.example/' } }));
    expect(event.interactive).toBe(1);
  });

  it('records revenue from plausible(name, {revenue}) with a numeric amount', async () => {
    const { event, debug } = await derived(base('Purchase', '/checkout', { $: { currency: 'USD', amount: 29.99 } }));
    expect(debug.dropped).toBeNull();
    expect(event).toMatchObject({ revenue_source_amount: '29.990', revenue_source_currency: 'USD' });
  });

  it('records revenue from plausible-revenue-* classes (string amount and currency)', async () => {
    const { event } = await derived(base('Purchase', '/checkout', { p: {}, $: { amount: '10.29', currency: 'EUR' } }));
    expect(event).toMatchObject({ revenue_source_amount: '10.290', revenue_source_currency: 'EUR' });
  });

  it('accepts a tagged event with no revenue classes, which the revenue builds send with $: {}', async () => {
    const path = '/tagged-no-revenue';
    const payload = base('Newsletter Signup', path, { p: { position: 'footer' }, $: {} });
    const { event, debug } = await derived(payload);
    expect(debug.dropped).toBeNull();
    expect(event).toMatchObject({ name: 'Newsletter Signup', props: { position: 'footer' }, revenue_source_amount: null, revenue_source_currency: '' });
    const res = await send(payload);
    expect(res.headers.get('x-svc-dropped')).toBeNull();
    expect(await countEvents("name = 'Newsletter Signup' AND pathname = {p:String}", { p: path })).toBe(1);
  });

  it('still refuses revenue of the wrong shape', async () => {
    const { debug } = await derived(base('Purchase', '/checkout', { $: { amount: 'ten', currency: 'EUR' } }));
    expect(debug.dropped).toBe('invalid_payload');
  });

  it('accepts outbound link, file download, form submission and tagged link events', async () => {
    const outbound = await derived(base('Outbound Link: Click', '/links', { p: { url: 'https://github.com/plausible' } }));
    expect(outbound.event.props).toEqual({ url: 'https://github.com/plausible' });
    const download = await derived(base('File Download', '/links', { p: { url: `${ORIGIN}/files/report.pdf` } }));
    expect(download.event.props).toEqual({ url: `${ORIGIN}/files/report.pdf` });
    const form = await derived(base('Form: Submission', '/contact'));
    expect(form.event.props).toEqual({ path: '/contact' });
    const tagged = await derived(base('Cta Click', '/links', { p: { position: 'hero', url: 'https://example.org/' }, $: {} }));
    expect(tagged.debug.dropped).toBeNull();
    expect(tagged.event.props).toEqual({ position: 'hero', url: 'https://example.org/' });
  });

  it('reads a name given as a number (404 tracking) and legacy meta (m, a JSON string)', async () => {
    const missing = await derived(base(404 as unknown as string, '/nowhere'));
    expect(missing.event).toMatchObject({ name: '404', props: { path: '/nowhere' } });
    const meta = await derived(base('Legacy', '/old', { m: JSON.stringify({ source: 'meta' }) }));
    expect(meta.event.props).toEqual({ source: 'meta' });
  });

  it('reads the older single-file script: p as a JSON string and w', async () => {
    const { event } = await derived({ n: 'Download', u: `${ORIGIN}/old`, d: site.domain, r: null, w: 390, p: JSON.stringify({ format: 'pdf' }) });
    expect(event).toMatchObject({ props: { format: 'pdf' }, screen_size: 'Mobile' });
  });
});

describe('engagement', () => {
  it('stores the engagement that follows a pageview, with scroll depth, engaged time and the pageview props', async () => {
    const ip = nextIp();
    const path = '/article-engaged';
    const props = { author: 'Grace' };
    expect((await send(base('pageview', path, { p: props }), { ip })).status).toBe(202);
    const res = await send({ n: 'engagement', sd: 64, d: site.domain, u: `${ORIGIN}${path}`, p: props, e: 12_345, v: VERSION }, { ip });
    expect(res.status).toBe(202);
    expect(res.headers.get('x-svc-dropped')).toBeNull();
    const [row] = await stored<{ scroll_depth: number; engagement_time: number; author: string; session_id: string }>(
      t,
      "SELECT scroll_depth, engagement_time, props['author'] AS author, session_id FROM events WHERE name = 'engagement' AND pathname = {p:String}",
      { p: path },
    );
    expect(row).toMatchObject({ scroll_depth: 64, engagement_time: 12_345, author: 'Grace' });
    const [page] = await stored<{ session_id: string }>(t, "SELECT session_id FROM events WHERE name = 'pageview' AND pathname = {p:String}", { p: path });
    expect(row?.session_id).toBe(page?.session_id);
  });

  it('accepts the shapes engagement takes at the edges: no p, sd null (zero page height), h: 1', async () => {
    const ip = nextIp();
    await send(base('pageview', '/spa#/first', { h: 1 }), { ip });
    const noProps = await derived({ n: 'engagement', sd: 100, d: site.domain, u: `${ORIGIN}/spa#/first`, e: 3200, v: VERSION, h: 1 }, ip);
    expect(noProps.debug.dropped).toBeNull();
    expect(noProps.event).toMatchObject({ pathname: '/spa#/first', scroll_depth: 100, engagement_time: 3200, props: {} });
    const noHeight = await derived({ n: 'engagement', sd: null, d: site.domain, u: `${ORIGIN}/spa#/first`, p: {}, e: 4100, v: VERSION, h: 1 }, ip);
    expect(noHeight.debug.dropped).toBeNull();
    expect(noHeight.event).toMatchObject({ scroll_depth: 255, engagement_time: 4100 });
  });
});

describe('GET /api/event/pixel.gif (no-script)', () => {
  it('answers an <img> request with an uncached GIF and records the page from Referer', async () => {
    const res = await fetch(`${t.url}/api/event/pixel.gif?d=${site.domain}`, {
      headers: { accept: 'image/avif,image/webp,image/*,*/*;q=0.8', referer: `${ORIGIN}/noscript-page`, 'user-agent': CHROME_MAC, 'x-forwarded-for': nextIp() },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/gif');
    expect(res.headers.get('cache-control')).toMatch(/no-store/);
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(0, 6)
        .toString(),
    ).toBe('GIF89a');
    expect(await countEvents("name = 'pageview' AND pathname = '/noscript-page'")).toBe(1);
  });
});
