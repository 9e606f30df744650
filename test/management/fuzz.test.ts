import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { testEnv } from './client.js';

/**
 * Random bodies, query strings and path segments at every management and webhook route, with a
 * key allowed to do everything: each answer is a success or a 4xx whose body names the problem in
 * a sentence, never a 5xx, and the service keeps answering.
 */
let t: TestApp;
let account: Account;
beforeAll(async () => {
  t = await startTestApp({ env: testEnv({ LOG_LEVEL: process.env.FUZZ_LOG ?? 'silent' }) });
  account = await createAccount(t.app, { hourlyLimit: 1_000_000 });
});
afterAll(() => t.close());

const ROUTES: [method: string, path: string][] = [
  ['POST', '/api/v1/sites'],
  ['PUT', '/api/v1/sites/{site}'],
  ['GET', '/api/v1/sites/{site}'],
  ['DELETE', '/api/v1/sites/{other}'],
  ['GET', '/api/v1/sites/{site}/snippet'],
  ['GET', '/api/v1/sites'],
  ['GET', '/api/v1/sites/teams'],
  ['PUT', '/api/v1/sites/goals'],
  ['GET', '/api/v1/sites/goals'],
  ['DELETE', '/api/v1/sites/goals/{id}'],
  ['PUT', '/api/v1/sites/custom-props'],
  ['GET', '/api/v1/sites/custom-props'],
  ['DELETE', '/api/v1/sites/custom-props/{text}'],
  ['PUT', '/api/v1/sites/funnels'],
  ['GET', '/api/v1/sites/funnels'],
  ['GET', '/api/v1/sites/funnels/{id}/report'],
  ['DELETE', '/api/v1/sites/funnels/{id}'],
  ['PUT', '/api/v1/sites/shared-links'],
  ['GET', '/api/v1/sites/shared-links'],
  ['DELETE', '/api/v1/sites/shared-links/{text}'],
  ['PUT', '/api/v1/sites/guests'],
  ['GET', '/api/v1/sites/guests'],
  ['DELETE', '/api/v1/sites/guests/{text}'],
  ['PUT', '/api/v1/teams/memberships'],
  ['GET', '/api/v1/teams/memberships'],
  ['DELETE', '/api/v1/teams/memberships/{text}'],
  ['GET', '/api/v1/teams/invitations'],
  ['DELETE', '/api/v1/teams/invitations/{id}'],
  ['POST', '/api/v1/teams/ownership-transfer'],
  ['GET', '/api/v1/teams/ownership-transfer'],
  ['DELETE', '/api/v1/teams/ownership-transfer'],
  ['GET', '/api/v1/sites/shields'],
  ['GET', '/api/v1/sites/shields/{kind}'],
  ['PUT', '/api/v1/sites/shields/{kind}'],
  ['DELETE', '/api/v1/sites/shields/{kind}/{id}'],
  ['GET', '/api/v1/sites/classifications'],
  ['PUT', '/api/v1/sites/classifications'],
  ['GET', '/api/v1/sites/{site}/ingestion'],
  ['GET', '/api/v1/sites/{site}/export'],
  ['GET', '/api/v1/sites/{site}/imports'],
  ['GET', '/api/v1/sites/{site}/imports/{id}'],
  ['GET', '/api/v1/sites/{site}/annotations'],
  ['POST', '/api/v1/sites/{site}/annotations'],
  ['PUT', '/api/v1/sites/{site}/annotations/{id}'],
  ['DELETE', '/api/v1/sites/{site}/annotations/{id}'],
  ['DELETE', '/api/v1/sites/{site}/imports/{id}'],
  ['POST', '/api/v1/webhooks'],
  ['GET', '/api/v1/webhooks'],
  ['GET', '/api/v1/webhooks/{id}'],
  ['PATCH', '/api/v1/webhooks/{id}'],
  ['DELETE', '/api/v1/webhooks/{id}'],
  ['POST', '/api/v1/webhooks/{id}/enable'],
  ['POST', '/api/v1/webhooks/{id}/rotate-secret'],
  ['GET', '/api/v1/webhooks/{id}/deliveries'],
  ['POST', '/api/v1/webhooks/deliveries/{id}/redeliver'],
  ['POST', '/api/invitations/accept'],
  ['POST', '/api/ownership-transfers/accept'],
];

const FIELDS = [
  'site_id',
  'domain',
  'new_domain',
  'timezone',
  'team_id',
  'goal_type',
  'event_name',
  'page_path',
  'display_name',
  'custom_props',
  'currency',
  'scroll_threshold',
  'property',
  'name',
  'steps',
  'email',
  'role',
  'password',
  'kind',
  'value',
  'description',
  'rules',
  'url',
  'events',
  'types',
  'enabled',
  'token',
  'limit',
  'after',
  'before',
  'tracker_script_configuration',
  'include',
  'bot',
  'datacenter_ip',
  'referrer_spam',
];

describe('the management API under random input', () => {
  it('answers every route with a success or a 4xx sentence, never a 5xx', async () => {
    const site = account.domain;
    const oddText = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom(
        '',
        ' ',
        '%',
        '..',
        'a/b',
        '\u0000',
        'ü.example',
        'x'.repeat(3000),
        'https://hooks.example.com/x',
        'http://127.0.0.1/',
        'Europe/Berlin',
        'EUR',
        'Visit /x',
      ),
    );
    const leafValue = fc.oneof(
      oddText,
      fc.constant(site),
      fc.integer({ min: -5, max: 1_000_000_000_000 }),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constantFrom('editor', 'viewer', 'owner', 'billing', 'custom', 'page', 'ip', 'country', 'hostname', 'site.created', 'someone@example.com'),
    );
    const value = fc.oneof(
      { weight: 6, arbitrary: leafValue },
      {
        weight: 1,
        arbitrary: fc.array(fc.oneof(leafValue, fc.dictionary(fc.constantFrom('event_name', 'page_path', 'value', 'description'), leafValue, { maxKeys: 2 })), {
          maxLength: 4,
        }),
      },
      { weight: 1, arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 6 })), leafValue, { maxKeys: 4 }) },
    );
    const body = fc.oneof(
      { weight: 8, arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 6 }).map((b) => JSON.stringify({ site_id: site, ...b })) },
      { weight: 1, arbitrary: fc.oneof(fc.json(), fc.string({ maxLength: 40 }), fc.constant('')) },
    );
    const segment = fc.oneof(
      fc.constant(site),
      fc.constantFrom('1', '0', '-1', '99999999999999999999', 'ip', 'country', 'page', 'hostname', 'nope', '%00', '%E0%A4%A', 'a%2Fb'),
      fc.string({ maxLength: 12 }).map(encodeURIComponent),
    );
    const query = fc.dictionary(fc.constantFrom('site_id', 'limit', 'after', 'before', 'team_id', 'from', 'to'), fc.oneof(fc.constant(site), oddText), {
      maxKeys: 3,
    });
    // Parameters given twice: a route that cast a repeated one would answer 500 instead of a 400.
    const repeated = fc.uniqueArray(fc.constantFrom('site_id', 'limit', 'after', 'before', 'team_id', 'hours', 'from', 'to'), { maxLength: 2 });
    const request = fc.record({ route: fc.constantFrom(...ROUTES), body, segment, other: segment, query, repeated });

    await fc.assert(
      fc.asyncProperty(request, async ({ route: [method, template], body: requestBody, segment: part, other, query: params, repeated: twice }) => {
        const path = template
          .replace('{site}', part)
          .replace('{other}', other === site ? 'not-this-one.example' : other)
          .replace(/\{(id|text|kind)\}/g, () => part);
        const search = new URLSearchParams({ site_id: site, ...params });
        for (const name of twice) search.append(name, search.get(name) ?? site);
        const withBody = method !== 'GET' && method !== 'DELETE';
        const res = await fetch(`${t.url}${path}?${search}`, {
          method,
          headers: { ...bearer(account.key), ...(withBody ? { 'content-type': 'application/json' } : {}) },
          body: withBody ? requestBody : undefined,
        });
        const text = await res.text();
        expect(res.status, `${method} ${path} ${requestBody} → ${text}`).toBeLessThan(500);
        if (res.status >= 400) expect((JSON.parse(text) as { error?: unknown }).error, text).toMatch(/\w.{8,}/);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 500) },
    );
    expect((await fetch(`${t.url}/api/health`)).status).toBe(200);
  });
});
