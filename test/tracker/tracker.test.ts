import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  beforeAll(async () => {
    t = await startTestApp();
    account = await createAccount(t.app, { domain: 'tracked.example' });
    browser = await launchBrowser();
    pages = createServer((request, response) => {
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      response.setHeader('content-type', 'text/html');
      response.end(`<!doctype html><html><head><title>${path}</title>
        <script>window.svc = window.svc || function () { (window.svc.q = window.svc.q || []).push(arguments) }</script>
        <script defer data-domain="${path.startsWith('/unknown') ? 'unknown.example' : 'tracked.example'}" ${attributes} src="${t.url}/js/${script}"></script>
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

  it('counts a page load, two single-page navigations, and engagement when the page is hidden', async () => {
    const page = await newPage();
    await page.goto(`${pagesUrl}/spa`);
    await page.waitForFunction(
      () => typeof (window as unknown as { svc: { q?: unknown } }).svc === 'function' && !(window as unknown as { svc: { q?: unknown } }).svc.q,
    );
    await page.evaluate(() => {
      history.pushState({}, '', '/spa/one');
      history.replaceState({}, '', '/spa/one');
      history.pushState({}, '', '/spa/two');
      window.scrollTo(0, document.documentElement.scrollHeight);
    });
    await page.waitForTimeout(50);
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await settle(page);
    const pageviews = await count({ metrics: ['pageviews'], dimensions: ['event:page'], order_by: [['event:page', 'asc']] });
    expect(pageviews).toEqual([
      { dimensions: ['/spa'], metrics: [1] },
      { dimensions: ['/spa/one'], metrics: [1] },
      { dimensions: ['/spa/two'], metrics: [1] },
    ]);
    await expect.poll(async () => (await count({ metrics: ['scroll_depth'], filters: [['is', 'event:page', ['/spa/two']]] }))[0]?.metrics[0]).toBe(100);
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
      filters: [['is_not', 'event:name', ['pageview']]],
      order_by: [['event:name', 'asc']],
    });
    expect(events.map((row) => row.dimensions[0])).toEqual(['File Download', 'Form: Submission', 'Outbound Link: Click', 'Signup']);
    const plan = await count({ metrics: ['events'], dimensions: ['event:props:plan'], filters: [['is', 'event:name', ['Signup']]] });
    expect(plan).toEqual([{ dimensions: ['pro'], metrics: [1] }]);
    const url = await count({ metrics: ['events'], dimensions: ['event:props:url'], filters: [['is', 'event:name', ['Outbound Link: Click']]] });
    expect(url[0]?.dimensions[0]).toBe('https://elsewhere.example/x');
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

  it('is served under every snippet name, cached and revalidated, and small', async () => {
    for (const name of ['script.js', 'script.hash.js', 'script.file-downloads.outbound-links.js', 'script.revenue.tagged-events.js']) {
      const res = await fetch(`${t.url}/js/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type')).toContain('javascript');
      const again = await fetch(`${t.url}/js/${name}`, { headers: { 'if-none-match': res.headers.get('etag') ?? '' } });
      expect(again.status).toBe(304);
    }
    expect((await fetch(`${t.url}/js/script.nope.js`)).status).toBe(404);
    const gzipped = (file: string) => gzipSync(readFileSync(new URL(`../../dist/tracker/${file}`, import.meta.url)), { level: 9 }).length;
    expect(gzipped('script.js')).toBeLessThanOrEqual(1536);
    expect(gzipped('script.full.js')).toBeLessThanOrEqual(3072);
  });
});
