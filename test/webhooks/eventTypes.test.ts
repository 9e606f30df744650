import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENTS } from '../../src/contracts/webhookEventTypes.js';

// docs/webhooks.md tells receivers which event types arrive: it must say what the one list says.
describe('webhook event types in the docs', () => {
  it('lists every type with the list’s sent or not', () => {
    const docs = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
    const rows = [...docs.matchAll(/^\| `([a-z_]+\.[a-z_]+)` +\| (yes|no) +\|/gm)].map(([, type, sent]) => [type, sent === 'yes']);
    expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(Object.entries(WEBHOOK_EVENTS).map(([type, facts]) => [type, facts.sent])));
  });
});
