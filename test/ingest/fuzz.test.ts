import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createAccount, startTestApp } from '../support/testApp.js';

let t: TestApp;
let domain: string;
beforeAll(async () => {
  t = await startTestApp({ env: { TRUSTED_PROXIES: '127.0.0.1' } });
  domain = (await createAccount(t.app)).domain;
});
afterAll(() => t.close());

describe('ingestion under random input', () => {
  // Built once the site exists, so the generators can name it.
  const arbitraries = () => {
    const HEADER_NAMES = ['x-forwarded-for', 'x-real-ip', 'forwarded', 'cf-connecting-ip', 'user-agent', 'accept-language', 'referer', 'x-debug-request', 'content-type'];
    const headerValue = fc.oneof(fc.string({ maxLength: 80 }), fc.constantFrom('true', '::1', '[::1]:80', 'for="[2001:db8::1]:4711"', '1.2.3.4, 5.6.7.8', '999.1.1.1', 'text/plain'));
    const headers = fc
      .dictionary(fc.constantFrom(...HEADER_NAMES), headerValue, { maxKeys: 5 })
      // fetch refuses header values it cannot send; those are not requests a server can receive.
      .map((h) => Object.fromEntries(Object.entries(h).filter(([, v]) => /^[\t\x20-\x7e]*$/.test(v))));

    const fieldValue = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(domain),
      fc.constantFrom('pageview', 'engagement', 'https://x.example/p?utm_source=a#h', '{"a":1}', '8f14e45f-ceea-467f-a9b1-2b6f0e6f5c3a'),
      fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.dictionary(fc.string(), fc.string())), { maxKeys: 4 }),
    );
    const eventBody = fc.dictionary(fc.constantFrom('n', 'd', 'u', 'r', 'p', 't', '$', 'sd', 'e', 'k', 'i', 'w', 'v', 'h', 'referrer', 'utm_source', 'props', 'm'), fieldValue, { maxKeys: 10 });
    const rawBody = fc.oneof(eventBody.map((b) => JSON.stringify({ d: domain, ...b })), fc.string({ maxLength: 200 }), fc.json(), fc.constant(''));
    return { headers, rawBody, domain };
  };

  it('POST /api/event answers only 202, 400 or 413, never crashing', async () => {
    const { headers, rawBody } = arbitraries();
    await fc.assert(
      fc.asyncProperty(rawBody, headers, async (body, requestHeaders) => {
        const res = await fetch(`${t.url}/api/event`, { method: 'POST', headers: requestHeaders, body });
        expect([200, 202, 400, 413]).toContain(res.status);
        if (res.status === 200) expect(requestHeaders['x-debug-request']).toBe('true');
        await res.arrayBuffer();
      }),
      { numRuns: 300 },
    );
    expect((await fetch(`${t.url}/api/health`)).status).toBe(200);
  });

  it('the pixel always answers with the image', async () => {
    const { headers } = arbitraries();
    const query = fc.dictionary(fc.constantFrom('d', 'u', 'n', 'r', 'p', 'x'), fc.oneof(fc.string({ maxLength: 60 }), fc.constant(domain)), { maxKeys: 5 });
    await fc.assert(
      fc.asyncProperty(query, headers, async (params, requestHeaders) => {
        const res = await fetch(`${t.url}/api/event/pixel.gif?${new URLSearchParams(params)}`, { headers: requestHeaders });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/gif');
        await res.arrayBuffer();
      }),
      { numRuns: 200 },
    );
  });
});
