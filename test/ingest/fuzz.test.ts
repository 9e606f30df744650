import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';

// Hundreds of requests per property: a ceiling for a busy 2-core machine, not a speed claim.
const PROPERTY_TIMEOUT = 180_000;

let t: TestApp;
let domain: string;
let account: Account;
beforeAll(async () => {
  t = await startTestApp({ env: { TRUSTED_PROXIES: '127.0.0.1' } });
  account = await createAccount(t.app);
  domain = account.domain;
});
afterAll(() => t.close());

describe('ingestion under random input', () => {
  // Built once the site exists, so the generators can name it.
  const arbitraries = () => {
    const HEADER_NAMES = [
      'x-forwarded-for',
      'x-real-ip',
      'forwarded',
      'cf-connecting-ip',
      'user-agent',
      'accept-language',
      'referer',
      'x-debug-request',
      'content-type',
    ];
    const headerValue = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.constantFrom('true', '::1', '[::1]:80', 'for="[2001:db8::1]:4711"', '1.2.3.4, 5.6.7.8', '999.1.1.1', 'text/plain'),
    );
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
    const eventBody = fc.dictionary(
      fc.constantFrom('n', 'd', 'u', 'r', 'p', 't', '$', 'sd', 'e', 'k', 'i', 'w', 'v', 'h', 'referrer', 'utm_source', 'props', 'm'),
      fieldValue,
      { maxKeys: 10 },
    );
    const rawBody = fc.oneof(
      eventBody.map((b) => JSON.stringify({ d: domain, ...b })),
      fc.string({ maxLength: 200 }),
      fc.json(),
      fc.constant(''),
    );
    return { headers, rawBody, domain };
  };

  it(
    'POST /api/event answers only 202, 400 or 413, never crashing',
    async () => {
      const { headers, rawBody } = arbitraries();
      await fc.assert(
        fc.asyncProperty(rawBody, headers, async (body, requestHeaders) => {
          const res = await fetch(`${t.url}/api/event`, { method: 'POST', headers: requestHeaders, body });
          expect([200, 202, 400, 413]).toContain(res.status);
          if (res.status === 200) expect(requestHeaders['x-debug-request']).toBe('true');
          await res.arrayBuffer();
        }),
        { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
      );
      expect((await fetch(`${t.url}/api/health`)).status).toBe(200);
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'the pixel always answers with the image (or, asked to debug, the derived event)',
    async () => {
      const { headers } = arbitraries();
      const query = fc.dictionary(fc.constantFrom('d', 'u', 'n', 'r', 'p', 'x'), fc.oneof(fc.string({ maxLength: 60 }), fc.constant(domain)), { maxKeys: 5 });
      await fc.assert(
        fc.asyncProperty(query, headers, async (params, requestHeaders) => {
          const res = await fetch(`${t.url}/api/event/pixel.gif?${new URLSearchParams(params)}`, { headers: requestHeaders });
          expect(res.status).toBe(200);
          const debugged = requestHeaders['x-debug-request'] === 'true' && res.headers.get('content-type')?.startsWith('application/json');
          if (!debugged) expect(res.headers.get('content-type')).toBe('image/gif');
          await res.arrayBuffer();
        }),
        { numRuns: Number(process.env.FUZZ_RUNS ?? 200) },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'the NDJSON import reports every line, never crashing',
    async () => {
      const { headers } = arbitraries();
      const field = fc.oneof(
        fc.string({ maxLength: 30 }),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }),
      );
      const event = fc.record(
        {
          timestamp: fc.oneof(
            fc.constantFrom('2026-01-05T10:00:00Z', '2026-01-05T10:20:00+01:00', '2999-01-01T00:00:00Z', 'soon', ''),
            fc.date({ noInvalidDate: true, min: new Date('2000-01-01'), max: new Date('2030-01-01') }).map((d) => d.toISOString()),
          ),
          ip: fc.oneof(fc.constantFrom('81.2.69.142', '2001:db8::1', '3.5.140.2', 'x'), fc.ipV4()),
          user_agent: fc.oneof(
            fc.constantFrom('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36', '', 'curl/8'),
            fc.string({ maxLength: 20 }),
          ),
          headers,
          n: fc.oneof(fc.constantFrom('pageview', 'engagement', 'Signup'), field),
          u: fc.oneof(fc.constant(`https://${domain}/p`), field),
          p: field,
          $: fc.oneof(fc.record({ amount: fc.oneof(fc.constant('9.99'), field), currency: fc.oneof(fc.constant('EUR'), field) }), field),
          sd: field,
          e: field,
          k: fc.oneof(fc.uuid(), field),
        },
        { requiredKeys: [] },
      );
      const line = fc.oneof(
        { weight: 6, arbitrary: event.map((e) => JSON.stringify(e)) },
        { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 40 }), fc.json()) },
      );
      await fc.assert(
        fc.asyncProperty(fc.array(line, { maxLength: 8 }), async (lines) => {
          const res = await fetch(`${t.url}/api/v1/sites/${domain}/events/import`, {
            method: 'POST',
            headers: { ...bearer(account.key), 'content-type': 'application/x-ndjson' },
            body: lines.join('\n'),
          });
          const text = await res.text();
          expect([200, 400], text).toContain(res.status);
          if (res.status === 200) {
            // Every non-blank line is either rejected (with its number) or has an outcome.
            const report = JSON.parse(text) as { rejected: unknown[]; outcomes: Record<string, number> };
            const outcomes = Object.values(report.outcomes).reduce((sum, n) => sum + n, 0);
            expect(report.rejected.length + outcomes, text).toBe(lines.filter((l) => l.trim() !== '').length);
          }
        }),
        { numRuns: Number(process.env.FUZZ_RUNS ?? 150) },
      );
    },
    PROPERTY_TIMEOUT,
  );
});
