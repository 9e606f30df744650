import type { App } from '../../../src/app.js';
import { registerSite } from '../../../src/management/sites.js';
import type { ManualClock } from '../../support/manualClock.js';
import { type Account, bearer, createAccount } from '../../support/testApp.js';

export interface ApiAnswer {
  status: number;
  body: any;
}

/** A JSON call to the running app with the account's key. */
export async function call(baseUrl: string, key: string, method: string, path: string, body?: unknown): Promise<ApiAnswer> {
  const headers: Record<string, string> = bearer(key);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

export interface Endpoint {
  account: Account;
  id: number;
  secret: string;
}

/** A fresh team with one webhook registered a second after the team's own first site. */
export async function registerEndpoint(app: App, baseUrl: string, clock: ManualClock, url: string, eventTypes: string[] = []): Promise<Endpoint> {
  const account = await createAccount(app);
  clock.advance(1000);
  const created = await call(baseUrl, account.key, 'POST', '/api/v1/webhooks', { url, event_types: eventTypes });
  if (created.status !== 201) throw new Error(`registration failed: ${JSON.stringify(created.body)}`);
  return { account, id: created.body.id, secret: created.body.secret };
}

let sites = 0;

/** A new site for the team, which publishes site.created. */
export async function addSite(app: App, clock: ManualClock, teamId: number) {
  sites += 1;
  clock.advance(1000);
  return registerSite(app.meta.db, { teamId, domain: `hooked-${process.pid}-${sites}.example.com`, timezone: 'Europe/Berlin' }, clock.now());
}
