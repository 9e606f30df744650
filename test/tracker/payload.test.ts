import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeTrackerConfiguration, renderTrackerSnippet } from '../../src/management/trackerSnippet.js';
import { launchBrowser } from '../support/browser.js';
import { CHROME_MAC } from '../support/collect.js';

const VERSION: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
const tracker = (file: string) => readFileSync(new URL(`../../dist/tracker/${file}`, import.meta.url));
/** The snippet's second line: the `svc`/`plausible` stub that queues calls until the script runs. */
const QUEUE_STUB = renderTrackerSnippet({ baseUrl: '', domain: 'shop.example', configuration: completeTrackerConfiguration({}) }).snippet.split('\n')[1];

interface Sent {
  path: string;
  contentType: string;
  payload: Record<string, unknown>;
}

/**
 * The tracker's payload for every option, read where it leaves the browser: pages and the built
 * scripts come from this test's server, and the browser hands each request to the test instead of
 * the network. tracker.test.ts sends the same scripts to the real service end to end.
 */
describe('browser tracker payloads', () => {
  let browser: Browser;
  let server: Server;
  let origin = '';
  // What the next page's <head> holds, and how the endpoint answers.
  let head = '';
  let body = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    server = createServer((request, response) => {
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      if (path.startsWith('/js/')) {
        response.setHeader('content-type', 'text/javascript');
        // Any feature in the name is the full build, as the service serves it (src/api/routes/trackerScript.ts).
        const name = path.slice(4);
        response.end(tracker(/^script\.(?!full\.).+\.js$/.test(name) ? 'script.full.js' : name));
        return;
      }
      response.setHeader('content-type', 'text/html');
      response.end(`<!doctype html><html><head><title>t</title>${head}</head><body style="margin:0">${body}</body></html>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  /** A page whose tracker requests are collected; `answer` decides the endpoint's reply. */
  async function open(
    path: string,
    options: { answer?: 'accept' | 'fail'; dropped?: string; prepare?: (context: BrowserContext) => Promise<void> } = {},
  ): Promise<{ page: Page; context: BrowserContext; sent: Sent[] }> {
    const context = await browser.newContext({ userAgent: CHROME_MAC });
    await options.prepare?.(context);
    const sent: Sent[] = [];
    await context.route('**/api/event', async (route) => {
      const request = route.request();
      sent.push({
        path: new URL(request.url()).pathname,
        contentType: request.headers()['content-type'] ?? '',
        payload: JSON.parse(request.postData() ?? '{}'),
      });
      if (options.answer === 'fail') await route.abort('connectionrefused');
      else await route.fulfill({ status: 202, headers: options.dropped ? { 'x-svc-dropped': options.dropped } : {}, body: '' });
    });
    const page = await context.newPage();
    await page.goto(`${origin}${path}`);
    await page.waitForFunction(() => typeof (window as unknown as { svc?: unknown }).svc === 'function');
    return { page, context, sent };
  }
  const tag = (attributes: string, script = 'script.js') =>
    `<script defer data-domain="shop.example" data-capture-on-localhost data-allow-automation ${attributes} src="/js/${script}"></script>`;
  const names = (sent: Sent[]) => sent.map((s) => s.payload.n);
  /** The page as the browser reports it when its tab is switched away from (or back to). */
  const setHidden = (page: Page, hidden: boolean) =>
    page.evaluate((value) => {
      Object.defineProperty(document, 'visibilityState', { value: value ? 'hidden' : 'visible', configurable: true });
      Object.defineProperty(document, 'hidden', { value, configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    }, hidden);
  const hide = (page: Page) => setHidden(page, true);
  const call = (page: Page, name: string, options: Record<string, unknown> = {}) =>
    page.evaluate(
      ([n, o]) =>
        new Promise((resolve) =>
          (window as unknown as { svc: (n: string, o: unknown) => void }).svc(n as string, {
            ...(o as object),
            callback: (result: { status: number; dropped?: string | null; error?: unknown }) =>
              resolve({ status: result.status, dropped: result.dropped, error: result.error === undefined ? undefined : String(result.error) }),
          }),
        ),
      [name, options] as const,
    );

  it('sends the spec’s event object as text/plain to the script’s own origin, and stores nothing', async () => {
    head = `<script defer data-domain="shop.example" data-capture-on-localhost data-allow-automation src="/js/script.js"></script>`;
    const { page, context, sent } = await open('/pricing?plan=pro#faq');
    await expect.poll(() => sent.length).toBe(1);
    expect(sent[0]).toEqual({
      path: '/api/event',
      contentType: expect.stringMatching(/^text\/plain/),
      payload: { n: 'pageview', u: `${origin}/pricing?plan=pro`, d: 'shop.example', r: '', w: 1280, v: VERSION },
    });
    expect(await context.cookies()).toEqual([]);
    expect(await page.evaluate(() => [localStorage.length, sessionStorage.length])).toEqual([0, 0]);
    await context.close();
  });

  it('sends to data-api, adds page properties to pageviews, and props, revenue and interactive: false to custom events', async () => {
    head = tag(`data-props='{"author":"ada"}' data-api="/proxy/api/event"`);
    const { page, context, sent } = await open('/post');
    await expect.poll(() => sent.length).toBe(1);
    expect(sent[0]).toMatchObject({ path: '/proxy/api/event', payload: { p: { author: 'ada' } } });
    expect(await call(page, 'Purchase', { props: { plan: 'pro' }, revenue: { amount: 29, currency: 'EUR' }, interactive: false })).toEqual({
      status: 202,
      dropped: null,
    });
    expect(sent[1]?.payload).toMatchObject({ n: 'Purchase', p: { plan: 'pro' }, $: { amount: 29, currency: 'EUR' }, i: false });
    expect(sent[0]?.payload).not.toHaveProperty('i');
    await context.close();

    // Plausible's pageview-props attributes on the tag, beside data-props.
    head = tag(`data-props='{"author":"ada"}' event-section="docs" event-lang="en"`, 'script.pageview-props.js');
    const plausible = await open('/docs');
    await expect.poll(() => plausible.sent.map((s) => s.payload.p)).toEqual([{ author: 'ada', section: 'docs', lang: 'en' }]);
    expect(await call(plausible.page, 'Signup')).toEqual({ status: 202, dropped: null });
    expect(plausible.sent[1]?.payload).not.toHaveProperty('p');
    await plausible.context.close();
  });

  it('counts single-page navigations once each, and keeps the hash only with hash routing', async () => {
    head = tag('');
    const plain = await open('/app');
    await plain.page.evaluate(() => {
      history.pushState({}, '', '/app/one');
      history.replaceState({}, '', '/app/one');
      location.hash = 'tab';
    });
    const pageviews = (sent: Sent[]) => sent.filter((s) => s.payload.n === 'pageview').map((s) => s.payload.u);
    await expect.poll(() => pageviews(plain.sent)).toEqual([`${origin}/app`, `${origin}/app/one`]);
    // Leaving /app in the single-page app sent its engagement (scroll depth; the page is short).
    await expect.poll(() => plain.sent.find((s) => s.payload.n === 'engagement')?.payload).toMatchObject({ u: `${origin}/app`, sd: 100 });
    await plain.context.close();

    head = tag('data-hash');
    const hashed = await open('/app#home');
    await hashed.page.evaluate(() => {
      location.hash = 'settings';
    });
    await expect.poll(() => pageviews(hashed.sent)).toEqual([`${origin}/app#home`, `${origin}/app#settings`]);
    await hashed.context.close();
  });

  it('sends engagement as deltas of visible, focused time, with a scroll depth of at least 1', async () => {
    head = tag('');
    // A page taller than the window, read at the top: its scroll depth is low but never 0.
    body = '<div style="height:100000px"></div>';
    const held = async (context: BrowserContext) => {
      await context.clock.install({ time: new Date('2026-03-02T10:00:00Z') });
      await context.clock.pauseAt(new Date('2026-03-02T10:00:01Z'));
    };
    const { page, context, sent } = await open('/long', { prepare: held });
    const engagement = () => sent.filter((s) => s.payload.n === 'engagement').map((s) => [s.payload.sd, s.payload.e]);
    await page.clock.fastForward(4000);
    await hide(page);
    await expect.poll(engagement).toEqual([[1, 4000]]);
    // Hidden time does not count; after coming back, only the time since is sent.
    await page.clock.fastForward(60_000);
    await setHidden(page, false);
    await page.clock.fastForward(3500);
    await hide(page);
    await expect.poll(engagement).toEqual([
      [1, 4000],
      [1, 3500],
    ]);
    // Time without focus does not count either: nothing new to send (no deeper scroll, under 3 s).
    await setHidden(page, false);
    await page.evaluate(() => {
      document.hasFocus = () => false;
      window.dispatchEvent(new Event('blur'));
    });
    await page.clock.fastForward(10_000);
    await hide(page);
    await page.waitForTimeout(100);
    expect(engagement()).toHaveLength(2);
    body = '';
    await context.close();
  });

  it('counts a pre-rendered page once it is shown, not before', async () => {
    head = tag('');
    const prerendered = async (context: BrowserContext) => {
      await context.addInitScript(() => Object.defineProperty(document, 'prerendering', { value: true, configurable: true }));
    };
    const { page, context, sent } = await open('/next', { prepare: prerendered });
    await page.waitForTimeout(200);
    expect(sent).toEqual([]);
    await page.evaluate(() => {
      Object.defineProperty(document, 'prerendering', { value: false, configurable: true });
      document.dispatchEvent(new Event('prerenderingchange'));
    });
    await expect.poll(() => names(sent)).toEqual(['pageview']);
    await context.close();
  });

  it('sends no automatic pageview with data-manual, and a manual pageview takes a custom URL', async () => {
    head = tag('data-manual');
    const { page, context, sent } = await open('/user/123');
    await page.waitForTimeout(100);
    expect(sent).toEqual([]);
    await call(page, 'pageview', { url: `${origin}/user/:id` });
    expect(sent.map((s) => s.payload)).toMatchObject([{ n: 'pageview', u: `${origin}/user/:id` }]);
    // The manual pageview's page is the one whose engagement is reported, under its custom URL.
    await hide(page);
    await expect
      .poll(() => sent.map((s) => [s.payload.n, s.payload.u]))
      .toEqual([
        ['pageview', `${origin}/user/:id`],
        ['engagement', `${origin}/user/:id`],
      ]);
    await context.close();

    // Plausible's own option name `u` keeps a page written for Plausible from sending the real path.
    const plausible = await open('/user/456');
    await plausible.page.evaluate(
      (u) => (window as unknown as { plausible: (n: string, o: unknown) => void }).plausible('pageview', { u }),
      `${origin}/user/:id`,
    );
    await expect.poll(() => plausible.sent.map((s) => s.payload.u)).toEqual([`${origin}/user/:id`]);
    await plausible.context.close();

    // A manual pageview without a URL is the current page, engaged with like any other.
    const plain = await open('/settings');
    await call(plain.page, 'pageview');
    await hide(plain.page);
    await expect
      .poll(() => plain.sent.map((s) => [s.payload.n, s.payload.u]))
      .toEqual([
        ['pageview', `${origin}/settings`],
        ['engagement', `${origin}/settings`],
      ]);
    await plain.context.close();
  });

  it('replays calls queued before the script loaded, through svc and the plausible alias, each once', async () => {
    // The snippet's own queue, where `plausible` is the same stub as `svc` (one queue for both).
    head = `${tag('')}${QUEUE_STUB}<script>svc('Early', { props: { order: 1 } }); plausible('Earlier', { props: { order: 2 } });</script>`;
    const { page, context, sent } = await open('/queue');
    await expect.poll(() => names(sent).sort()).toEqual(['Earlier', 'Early', 'pageview']);
    await page.evaluate(() => (window as unknown as { plausible: (n: string) => void }).plausible('Later'));
    await expect.poll(() => names(sent)).toContain('Later');
    expect(names(sent).sort()).toEqual(['Earlier', 'Early', 'Later', 'pageview']);

    // Plausible's own stub gives `plausible` a queue of its own; those calls replay too.
    head = `<script>
      window.svc = window.svc || function () { (window.svc.q = window.svc.q || []).push(arguments) };
      window.plausible = window.plausible || function () { (window.plausible.q = window.plausible.q || []).push(arguments) };
      svc('Early'); plausible('Earlier');
    </script>${tag('')}`;
    const separate = await open('/queue');
    await expect.poll(() => names(separate.sent).sort()).toEqual(['Earlier', 'Early', 'pageview']);
    await separate.context.close();
    await context.close();
  });

  it('calls back with the drop reason, and with status 0 and the error when the network fails', async () => {
    head = tag('');
    const dropped = await open('/d', { dropped: 'unknown_site' });
    expect(await call(dropped.page, 'Signup')).toEqual({ status: 202, dropped: 'unknown_site' });
    await dropped.context.close();
    const failing = await open('/f', { answer: 'fail' });
    expect(await call(failing.page, 'Signup')).toMatchObject({ status: 0, error: expect.stringContaining('Failed to fetch') });
    await failing.context.close();
  });

  it('sends nothing from localhost unless told to, and says why to a callback', async () => {
    head = `<script defer data-domain="shop.example" data-allow-automation src="/js/script.js"></script>`;
    const { page, context, sent } = await open('/local');
    expect(await call(page, 'Signup')).toEqual({ status: 0, dropped: undefined, error: 'localhost' });
    expect(sent).toEqual([]);
    await context.close();
  });

  it('records a 404 page with data-404', async () => {
    head = tag('data-404');
    const { context, sent } = await open('/missing');
    await expect.poll(() => names(sent)).toEqual(['pageview', '404']);
    await context.close();
  });

  it('records downloads of the chosen file types, tagged events with revenue, and only valid form submissions', async () => {
    head = tag('data-file-types="zip"', 'script.file-downloads.form-submissions.tagged-events.js');
    body = `<a id="pdf" href="/report.pdf">pdf</a><a id="zip" href="/report.zip">zip</a>
      <button id="buy" class="plausible-event-name=Buy+Now plausible-event-plan=pro svc-event-revenue-amount=10.5 svc-event-revenue-currency=EUR">buy</button>
      <form id="form" action="javascript:void(0)"><input name="email" required><button id="go">go</button></form>`;
    const { page, context, sent } = await open('/features');
    await page.evaluate(() => {
      for (const link of document.querySelectorAll('a')) link.addEventListener('click', (event) => event.preventDefault());
    });
    await page.click('#pdf');
    await page.click('#zip');
    await page.click('#buy');
    await page.click('#go');
    await page.fill('input[name=email]', 'ada@example.com');
    await page.click('#go');
    await expect.poll(() => sent.length).toBe(4);
    expect(sent.slice(1).map((s) => s.payload)).toMatchObject([
      { n: 'File Download', p: { url: `${origin}/report.zip` } },
      { n: 'Buy Now', p: { plan: 'pro' }, $: { amount: '10.5', currency: 'EUR' } },
      { n: 'Form: Submission', p: { path: '/features' } },
    ]);
    body = '';
    await context.close();
  });

  it('works as an ES module with init and track', async () => {
    head = `<script type="module">
      import { init, track } from '/js/module.js';
      init({ domain: 'shop.example', endpoint: '/api/event', captureOnLocalhost: true, allowAutomation: true, outboundLinks: true });
      window.svc = track;
    </script>`;
    body = '<a id="out" href="https://elsewhere.example/">out</a>';
    const { page, context, sent } = await open('/module');
    await call(page, 'Signup', { props: { via: 'module' } });
    await page.evaluate(() => document.getElementById('out')?.addEventListener('click', (event) => event.preventDefault()));
    await page.click('#out');
    await expect
      .poll(() => sent.map((s) => [s.payload.n, s.payload.p]))
      .toEqual([
        ['pageview', undefined],
        ['Signup', { via: 'module' }],
        ['Outbound Link: Click', { url: 'https://elsewhere.example/' }],
      ]);
    body = '';
    await context.close();
  });
});
