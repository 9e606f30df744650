import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRACKER_FLAGS } from '../../src/contracts/sites.js';
import { completeTrackerConfiguration, renderTrackerSnippet, SCRIPT_EXTENSIONS } from '../../src/management/trackerSnippet.js';
import { launchBrowser } from '../support/browser.js';
import { CHROME_MAC } from '../support/collect.js';
import { type Account, bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';

// The browser tracker in Debian's Chromium, on pages served by this test, sending to the real service.
describe('browser tracker', () => {
  let t: TestApp;
  let account: Account;
  let browser: Browser;
  let pages: Server;
  let pagesUrl = '';
  let script = 'script.js';
  let attributes = 'data-capture-on-localhost data-allow-automation';
  // What a site owner pastes: the snippet route's answer, with this test's script (its BASE_URL is
  // the default's port 0), name and attributes.
  let snippet = '';
  // Calls a page makes right after the snippet, before the deferred script has run.
  let early = '';

  beforeAll(async () => {
    t = await startTestApp();
    account = await createAccount(t.app, { domain: 'tracked.example' });
    const answer = await fetch(`${t.url}/api/v1/sites/${account.domain}/snippet`, { headers: bearer(account.key) });
    snippet = ((await answer.json()) as { snippet: string }).snippet;
    browser = await launchBrowser();
    pages = createServer((request, response) => {
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      const domain = path.startsWith('/unknown') ? 'unknown.example' : 'tracked.example';
      response.setHeader('content-type', 'text/html');
      response.end(`<!doctype html><html><head><title>${path}</title>
        ${snippet.replace('data-domain="tracked.example"', `data-domain="${domain}" ${attributes}`).replace(/src="[^"]*\/js\/script\.js"/, `src="${t.url}/js/${script}"`)}
        <script>${early}</script>
        </head><body style="margin:0"><div style="height:3000px">${path}</div>
        <a id="out" href="https://elsewhere.example/x">out</a><a id="pdf" href="/files/report.pdf">pdf</a>
        <button id="tagged" class="svc-event-name=Signup svc-event-plan=pro">tag</button>
        <form id="form" action="javascript:void(0)"><input name="q"><button id="submit">go</button></form></body></html>`);
    });
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    pagesUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => pages?.close(resolve));
    await t?.close();
  });

  // Headless Chromium says so in its user agent, which the service classifies as automation.
  const newPage = async () => (await browser.newContext({ userAgent: CHROME_MAC })).newPage();
  const count = async (body: Record<string, unknown>) => {
    await t.app.ingestion.buffer.flush();
    const res = await fetch(`${t.url}/api/v2/query`, {
      method: 'POST',
      headers: { ...bearer(account.key), 'content-type': 'application/json' },
      body: JSON.stringify({ site_id: account.domain, date_range: 'day', ...body }),
    });
    return (await res.json()).results as { dimensions: string[]; metrics: (number | null)[] }[];
  };
  const settle = async (page: Page) => {
    await page.waitForLoadState('networkidle');
    await t.app.ingestion.buffer.flush();
  };

  it('counts a page load, two single-page navigations, and engagement (scroll depth, time on page) when the page is hidden', async () => {
    const page = await newPage();
    // The page's clock stands still unless the test moves it, so engaged time is exact.
    await page.clock.install({ time: new Date('2026-03-02T10:00:00Z') });
    await page.clock.pauseAt(new Date('2026-03-02T10:00:01Z'));
    await page.goto(`${pagesUrl}/spa`);
    await page.waitForFunction(
      () => typeof (window as unknown as { svc: { q?: unknown } }).svc === 'function' && !(window as unknown as { svc: { q?: unknown } }).svc.q,
    );
    await page.clock.fastForward(5000);
    await page.evaluate(() => {
      history.pushState({}, '', '/spa/one');
      history.replaceState({}, '', '/spa/one');
      history.pushState({}, '', '/spa/two');
      window.scrollTo(0, document.documentElement.scrollHeight);
    });
    await page.clock.fastForward(7000);
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      Object.defineProperty(document, 'hidden', { value: true, configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await settle(page);
    const pageviews = await count({ metrics: ['pageviews'], dimensions: ['event:page'], order_by: [['event:page', 'asc']] });
    expect(pageviews).toEqual([
      { dimensions: ['/spa'], metrics: [1] },
      { dimensions: ['/spa/one'], metrics: [1] },
      { dimensions: ['/spa/two'], metrics: [1] },
    ]);
    // /spa: 5 s read without scrolling (the viewport shows a quarter of it); /spa/two: scrolled to the bottom, 7 s.
    const engagement = async () =>
      count({
        metrics: ['scroll_depth', 'time_on_page'],
        dimensions: ['event:page'],
        filters: [['is', 'event:page', ['/spa', '/spa/two']]],
        order_by: [['event:page', 'asc']],
      });
    await expect.poll(engagement).toEqual([
      { dimensions: ['/spa'], metrics: [expect.any(Number), 5] },
      { dimensions: ['/spa/two'], metrics: [100, 7] },
    ]);
    expect((await engagement())[0]?.metrics[0]).toBeLessThan(100);
    await page.close();
  });

  it("replays each call queued by the snippet's stub once, through svc and plausible", async () => {
    early = "svc('Queued', { props: { via: 'svc' } }); plausible('Queued', { props: { via: 'plausible' } });";
    const page = await newPage();
    await page.goto(`${pagesUrl}/queued`);
    await settle(page);
    early = '';
    await expect
      .poll(() =>
        count({ metrics: ['events'], dimensions: ['event:props:via'], filters: [['is', 'event:name', ['Queued']]], order_by: [['event:props:via', 'asc']] }),
      )
      .toEqual([
        { dimensions: ['plausible'], metrics: [1] },
        { dimensions: ['svc'], metrics: [1] },
      ]);
    await page.close();
  });

  it('records outbound clicks, downloads, tagged events and form submissions with the full script', async () => {
    script = 'script.file-downloads.form-submissions.outbound-links.tagged-events.js';
    const page = await newPage();
    await page.goto(`${pagesUrl}/features`);
    await page.waitForFunction(() => typeof (window as unknown as { svc: unknown }).svc === 'function');
    await page.evaluate(() => {
      for (const id of ['out', 'pdf']) document.getElementById(id)?.addEventListener('click', (event) => event.preventDefault());
    });
    await page.click('#out');
    await page.click('#pdf');
    await page.click('#tagged');
    await page.click('#submit');
    await settle(page);
    const events = await count({
      metrics: ['events'],
      dimensions: ['event:name'],
      filters: [
        ['is_not', 'event:name', ['pageview']],
        ['is', 'event:page', ['/features']],
      ],
      order_by: [['event:name', 'asc']],
    });
    expect(events.map((row) => row.dimensions[0])).toEqual(['File Download', 'Form: Submission', 'Outbound Link: Click', 'Signup']);
    const plan = await count({ metrics: ['events'], dimensions: ['event:props:plan'], filters: [['is', 'event:name', ['Signup']]] });
    expect(plan).toEqual([{ dimensions: ['pro'], metrics: [1] }]);
    const url = await count({ metrics: ['events'], dimensions: ['event:props:url'], filters: [['is', 'event:name', ['Outbound Link: Click']]] });
    expect(url[0]?.dimensions[0]).toBe('https://elsewhere.example/x');
    const download = await count({ metrics: ['events'], dimensions: ['event:props:url'], filters: [['is', 'event:name', ['File Download']]] });
    expect(download).toEqual([{ dimensions: [`${pagesUrl}/files/report.pdf`], metrics: [1] }]);
    const form = await count({ metrics: ['events'], dimensions: ['event:props:path'], filters: [['is', 'event:name', ['Form: Submission']]] });
    expect(form).toEqual([{ dimensions: ['/features'], metrics: [1] }]);
    script = 'script.js';
    await page.close();
  });

  it("hands a custom event's callback the drop reason, or null when counted", async () => {
    const page = await newPage();
    const call = (url: string) =>
      page.goto(url).then(() =>
        page.evaluate(
          () =>
            new Promise((resolve) => {
              (window as unknown as { svc: (n: string, o: unknown) => void }).svc('Signup', { callback: resolve, props: { via: 'callback' } });
            }),
        ),
      );
    expect(await call(`${pagesUrl}/unknown`)).toEqual({ status: 202, dropped: 'unknown_site' });
    expect(await call(`${pagesUrl}/counted`)).toEqual({ status: 202, dropped: null });
    await page.close();
  });

  it('sends nothing for an opted-out browser, nor for an automated one unless allowed', async () => {
    const before = (await count({ metrics: ['pageviews'] }))[0]?.metrics[0] ?? 0;
    const context = await browser.newContext({ userAgent: CHROME_MAC });
    // The owner opted out in this browser before the page loaded (the README says how).
    await context.addInitScript(() => localStorage.setItem('svc_ignore', 'true'));
    const page = await context.newPage();
    await page.goto(`${pagesUrl}/optout`);
    await settle(page);
    const automated = await newPage();
    attributes = 'data-capture-on-localhost';
    await automated.goto(`${pagesUrl}/automated`);
    await settle(automated);
    attributes = 'data-capture-on-localhost data-allow-automation';
    expect((await count({ metrics: ['pageviews'] }))[0]?.metrics[0]).toBe(before);
    await context.close();
    await automated.close();
  });

  it('is served under every name the snippet route hands out, cached and revalidated, and small', async () => {
    // Every combination of options a site can switch on, as the snippet route names its script.
    const names = new Set<string>();
    for (let mask = 0; mask < 1 << TRACKER_FLAGS.length; mask += 1) {
      const configuration = completeTrackerConfiguration(Object.fromEntries(TRACKER_FLAGS.map((flag, i) => [flag, (mask & (1 << i)) !== 0])));
      names.add(new URL(renderTrackerSnippet({ baseUrl: t.url, domain: account.domain, configuration }).script_url).pathname);
    }
    expect(names.size).toBe(2 ** SCRIPT_EXTENSIONS.length);
    const bodies = new Map<string, string>();
    for (const path of names) {
      const res = await fetch(`${t.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toContain('javascript');
      expect(res.headers.get('cache-control')).toBe('public, max-age=86400, must-revalidate');
      const etag = res.headers.get('etag') ?? '';
      expect(etag).toMatch(/^"[\w-]{22}"$/);
      bodies.set(etag, await res.text());
      const again = await fetch(`${t.url}${path}`, { headers: { 'if-none-match': etag } });
      expect(again.status, path).toBe(304);
      expect(await again.text()).toBe('');
    }
    // A proxy that compresses the script weakens its tag; a cache may hold several.
    const [etag] = [...bodies.keys()];
    for (const header of [`W/${etag}`, `"older", ${etag}`, '*']) {
      expect((await fetch(`${t.url}/js/script.js`, { headers: { 'if-none-match': header } })).status, header).toBe(304);
    }
    expect((await fetch(`${t.url}/js/script.js`, { headers: { 'if-none-match': '"older"' } })).status).toBe(200);
    // Two builds: the core and the one with every optional feature.
    expect(bodies.size).toBe(2);
    expect((await fetch(`${t.url}/js/script.nope.js`)).status).toBe(404);
    const gzipped = (file: string) => gzipSync(readFileSync(new URL(`../../dist/tracker/${file}`, import.meta.url)), { level: 9 }).length;
    expect(gzipped('script.js')).toBeLessThanOrEqual(1536);
    expect(gzipped('script.full.js')).toBeLessThanOrEqual(3072);
  });
});
