import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryResponse } from '../../src/contracts/query.js';
import { createSmtpMailer } from '../../src/mail/smtpMailer.js';
import { queryEngineDeps } from '../../src/queryEngine.js';
import type { EmailDeps } from '../../src/reports/emailDeps.js';
import type { Figure } from '../../src/reports/reportContent.js';
import { figureChange, figureValue } from '../../src/reports/reportMail.js';
import { sendDueReports } from '../../src/reports/reportSender.js';
import { unsubscribeTokens } from '../../src/reports/unsubscribe.js';
import { type FixtureEvent, insertEvents } from '../support/eventFixtures.js';
import { ManualClock } from '../support/manualClock.js';
import { svc } from '../support/processes.js';
import { type Account, bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { signedInHeaders } from '../support/webSession.js';
import { type IsolatedMetadata, isolatedMetadata } from '../webhooks/support/database.js';
import { type MailServer, type ReceivedMail, startMailServer } from './mailServer.js';

/**
 * Email reports and traffic notices against a real SMTP server, read as they arrived
 * (docs/settings.md, Email reports and Traffic notices). Every figure in a report is checked
 * against POST /api/v2/query's answer for the same range.
 */

const clock = new ManualClock(Date.parse('2026-11-20T10:00:00Z'));
let mail: MailServer;
let t: TestApp;
/** SQLite, or with TEST_DATABASE_URL a PostgreSQL database of this file's own. */
let metadata: IsolatedMetadata;
let site: Account;
const silent = { info() {}, warn() {}, error() {} };

/** A second worker: its own mailer and engine over the same stores, sending without the lease (as the CLI's route does). */
let secondWorker: EmailDeps;

beforeAll(async () => {
  mail = await startMailServer();
  metadata = await isolatedMetadata();
  t = await startTestApp({ clock, env: { ...metadata.env, SMTP_URL: `smtp://127.0.0.1:${mail.port}?from=reports@svc.example` } });
  // Rounds run when a test asks: the app's timer would start one halfway through a test, and the
  // test's own round would then wait for it.
  await t.app.jobs.stop();
  const { app } = t;
  secondWorker = {
    db: app.meta.db,
    engine: queryEngineDeps({ config: app.config, clock, meta: app.meta, events: app.events, rollups: app.rollups }),
    mailer: createSmtpMailer(`smtp://127.0.0.1:${mail.port}?from=reports@svc.example`),
    clock,
    baseUrl: app.config.baseUrl,
    tokens: unsubscribeTokens(app.config.secretKeyBase),
    log: silent,
  };
  site = await createAccount(app, { timezone: 'Europe/Berlin', domain: 'reports.example.com' });
  await insertEvents(app, site.siteId, EVENTS);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await mail?.close();
  await metadata?.dispose();
});

const visit = (visitor: string, at: string, pages: string[], source?: string): FixtureEvent[] =>
  pages.map((page, i) => ({ visitor, at: new Date(Date.parse(at) + i * 95_000).toISOString(), page, ...(source ? { source } : {}) }));

/** Times are UTC; Berlin is an hour ahead in November. */
const EVENTS: FixtureEvent[] = [
  // The week of 9–15 November (the comparison).
  ...visit('w0-a', '2026-11-10T09:00:00Z', ['/', '/pricing']),
  ...visit('w0-b', '2026-11-12T09:00:00Z', ['/blog']),
  // The week of 16–22 November, Berlin time.
  ...visit('w1-a', '2026-11-16T08:00:00Z', ['/', '/pricing', '/signup'], 'Google'),
  ...visit('w1-b', '2026-11-17T08:00:00Z', ['/'], 'Google'),
  ...visit('w1-c', '2026-11-18T08:00:00Z', ['/blog/launch'], 'Hacker News'),
  ...visit('w1-d', '2026-11-19T08:00:00Z', ['/pricing', '/']),
  ...visit('w1-e', '2026-11-22T22:30:00Z', ['/'], 'Google'),
  // Monday 23 November 00:30 in Berlin, still Sunday in UTC: the next week's.
  ...visit('w2-a', '2026-11-22T23:30:00Z', ['/blog/launch'], 'Bing'),
  // October (the monthly report's comparison).
  ...visit('oct-a', '2026-10-05T09:00:00Z', ['/']),
];

const query = async (body: unknown): Promise<QueryResponse> => {
  const response = await fetch(`${t.url}/api/v2/query`, {
    method: 'POST',
    headers: { ...bearer(site.key), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as QueryResponse;
};

async function web(method: string, path: string, body?: unknown): Promise<Response> {
  const headers = await signedInHeaders(t.app, site.userId);
  return fetch(`${t.url}${path}`, {
    method,
    headers: { cookie: headers.cookie, 'x-csrf-token': headers['x-csrf-token'], ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const addRecipient = async (topic: string, email: string) => {
  const response = await web('PUT', `/app/api/sites/${site.domain}/email-recipients`, { topic, email });
  expect(response.status).toBe(200);
};

const mailsTo = (email: string, subject?: RegExp) => mail.mails.filter((m) => m.to.includes(email) && (!subject || subject.test(m.headers.subject ?? '')));

/** The report's figures, as the mail must show them, from the query API's answer for the same range. */
async function expectFiguresOfApi(received: ReceivedMail, range: [string, string]) {
  const totals = await query({
    site_id: site.domain,
    metrics: ['visitors', 'pageviews', 'bounce_rate', 'visit_duration'],
    date_range: range,
    include: { comparisons: { mode: 'previous_period' } },
  });
  const row = totals.results[0]!;
  const metrics = ['visitors', 'pageviews', 'bounce_rate', 'visit_duration'] as const;
  const labels = ['Unique visitors', 'Total pageviews', 'Bounce rate', 'Visit duration'];
  metrics.forEach((metric, i) => {
    const figure: Figure = { metric, value: row.metrics[i] ?? null, change: row.comparison?.change[i] ?? null };
    expect(received.text).toContain(`${labels[i]}: ${figureValue(figure)} (${figureChange(figure)})`);
    expect(received.html).toContain(figureValue(figure));
  });
  for (const dimension of ['visit:source', 'event:page']) {
    const top = await query({
      site_id: site.domain,
      metrics: ['visitors'],
      date_range: range,
      dimensions: [dimension],
      order_by: [['visitors', 'desc']],
      pagination: { limit: 5 },
    });
    expect(top.results.length).toBeGreaterThan(0);
    top.results.forEach((r, i) => {
      expect(received.text).toContain(`${i + 1}. ${r.dimensions[0]} — ${r.metrics[0]} visitors`);
      expect(received.html).toContain(r.dimensions[0]);
    });
  }
  return row;
}

describe('email reports', () => {
  it('sends nothing before Monday 06:00 in the site’s time zone, and nothing to a recipient added after a report fell due', async () => {
    await addRecipient('weekly', 'a@example.com');
    await addRecipient('weekly', ' B@Example.com ');
    await addRecipient('monthly', 'c@example.com');
    clock.set('2026-11-23T04:59:00Z');
    await t.app.jobs.runOnce();
    expect(mail.mails).toHaveLength(0);
  });

  it('sends the weekly report on Monday for Monday–Sunday with the query API’s figures, text and HTML, one mail per recipient', async () => {
    clock.set('2026-11-23T05:01:00Z');
    await t.app.jobs.runOnce();
    expect(mail.mails.map((m) => m.to).sort()).toEqual([['a@example.com'], ['b@example.com']]);
    const received = mailsTo('a@example.com')[0]!;
    expect(received.headers.subject).toBe('Weekly report for reports.example.com: 16 Nov 2026 – 22 Nov 2026');
    expect(received.from).toBe('reports@svc.example');
    const row = await expectFiguresOfApi(received, ['2026-11-16', '2026-11-22']);
    // Five visitors in Berlin's week: the visit at 00:30 on Monday belongs to the next one.
    expect(row.metrics[0]).toBe(5);
    expect(received.text).not.toContain('Bing');
    expect(received.text).toContain('Days in Europe/Berlin; changes against the week before.');
    expect(received.text).toContain(`/reports.example.com?period=custom&from=2026-11-16&to=2026-11-22`);
    expect(received.headers['list-unsubscribe']).toMatch(/^<http.*\/unsubscribe\?token=.+>$/);
    expect(received.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
  });

  it('sends each report once per recipient, however many rounds and workers run', async () => {
    await Promise.all([t.app.jobs.runOnce(), sendDueReports(secondWorker), sendDueReports(secondWorker)]);
    await t.app.jobs.runOnce();
    expect(mail.mails).toHaveLength(2);
    const rows = await t.app.meta.db.selectFrom('report_sendings').select(['email', 'state', 'period_start']).orderBy('email').execute();
    expect(rows).toEqual([
      { email: 'a@example.com', state: 'sent', period_start: '2026-11-16' },
      { email: 'b@example.com', state: 'sent', period_start: '2026-11-16' },
    ]);
  });

  it('unsubscribes through the mail’s link without signing in, and that address gets no more reports', async () => {
    const link = /(http\S+\/unsubscribe\?token=\S+)/.exec(mailsTo('a@example.com')[0]!.text)![1]!;
    const local = `${t.url}${new URL(link).pathname}${new URL(link).search}`;
    const page = await fetch(local);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Stop sending the weekly report of reports.example.com to <strong>a@example.com</strong>?');
    expect((await fetch(local.replace(/token=[^&]+/, 'token=forged.token'))).status).toBe(400);
    // The page's button, or a mail client's one-click request (RFC 8058).
    const done = await fetch(local, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('gets no more the weekly report of reports.example.com');

    clock.set('2026-11-30T05:01:00Z');
    await t.app.jobs.runOnce();
    expect(mailsTo('a@example.com')).toHaveLength(1);
    expect(mailsTo('b@example.com')).toHaveLength(2);
  });

  it('sends the monthly report on the 1st for the month before, once, from two workers at once', async () => {
    clock.set('2026-12-01T05:30:00Z');
    await Promise.all([t.app.jobs.runOnce(), sendDueReports(secondWorker)]);
    const monthly = mailsTo('c@example.com');
    expect(monthly).toHaveLength(1);
    expect(monthly[0]!.headers.subject).toBe('Monthly report for reports.example.com: November 2026');
    expect(monthly[0]!.text).toContain('changes against the month before');
    await expectFiguresOfApi(monthly[0]!, ['2026-11-01', '2026-11-30']);
  });

  it('./bin/svc reports send --date sends the periods before that day to every current recipient, through the same record', async () => {
    await addRecipient('weekly', 'e@example.com');
    // The command signs in with a session it dates by the system clock; the server reads it by this one.
    clock.set(Date.now());
    const run = await svc(['reports', 'send', '--site', site.domain, '--kind', 'weekly', '--date', '2026-11-23', '--url', t.url, '--json'], t.env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      reports: [
        {
          site: site.domain,
          sendings: [
            { kind: 'weekly', from: '2026-11-16', to: '2026-11-22', email: 'b@example.com', outcome: 'already_sent' },
            { kind: 'weekly', from: '2026-11-16', to: '2026-11-22', email: 'e@example.com', outcome: 'sent' },
          ],
        },
      ],
    });
    expect(mailsTo('e@example.com', /16 Nov 2026/)).toHaveLength(1);
    const refused = await svc(['reports', 'send', '--site', site.domain, '--kind', 'daily', '--url', t.url], t.env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Field "kind" must be one of weekly, monthly.');
  }, 60_000);

  it('./bin/svc reports send --to sends one report to one address now, on a list or not, as often as asked', async () => {
    clock.set(Date.now());
    const send = () =>
      svc(['reports', 'send', '--site', site.domain, '--kind', 'monthly', '--date', '2026-12-01', '--to', 'Boss@Example.com', '--url', t.url, '--json'], t.env);
    for (const round of [1, 2]) {
      const run = await send();
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout)).toEqual({
        reports: [{ site: site.domain, sendings: [{ kind: 'monthly', from: '2026-11-01', to: '2026-11-30', email: 'boss@example.com', outcome: 'sent' }] }],
      });
      expect(mailsTo('boss@example.com', /^Monthly report for reports\.example\.com: November 2026$/)).toHaveLength(round);
    }
    await expectFiguresOfApi(mailsTo('boss@example.com')[0]!, ['2026-11-01', '2026-11-30']);
    // Outside the schedule's record: the list's recipient still gets the period's report once, and boss is not on a list.
    const listed = await svc(['reports', 'send', '--site', site.domain, '--kind', 'monthly', '--date', '2026-12-01', '--url', t.url, '--json'], t.env);
    expect(JSON.parse(listed.stdout).reports[0].sendings.map((s: { email: string }) => s.email)).not.toContain('boss@example.com');
    // Weekly unless told, and a line to read without --json.
    const weekly = await svc(['reports', 'send', '--site', site.domain, '--date', '2026-11-23', '--to', 'boss@example.com', '--url', t.url], t.env);
    expect(weekly.stdout.trim()).toBe(`${site.domain} weekly 2026-11-16–2026-11-22 boss@example.com: sent`);

    const noSite = await svc(['reports', 'send', '--to', 'boss@example.com', '--url', t.url], t.env);
    expect(noSite.code).toBe(2);
    expect(noSite.stderr).toContain('--to sends one site’s report: name the site with --site.');
    const badAddress = await svc(['reports', 'send', '--site', site.domain, '--to', 'not an address', '--url', t.url], t.env);
    expect(badAddress.code).toBe(2);
    expect(badAddress.stderr).toMatch(/address/);
  }, 90_000);
});

describe('a refused or interrupted sending', () => {
  const asOf = { year: 2026, month: 11, day: 23 };
  let retried: Account;

  it('retries a mail the SMTP server refused, and never resends one whose sender stopped before the answer', async () => {
    retried = await createAccount(t.app, { domain: 'retries.example.com', timezone: 'Europe/Berlin' });
    const settings = await web('GET', `/app/api/sites/${site.domain}/email-settings`);
    expect((await settings.json()).mail_configured).toBe(true);
    for (const email of ['r@example.com', 'x@example.com']) {
      await t.app.meta.db.insertInto('email_recipients').values({ site_id: retried.siteId, topic: 'weekly', email, created_at: clock.now() }).execute();
    }
    // x@'s sender died 20 minutes ago between its claim and the SMTP server's answer.
    await t.app.meta.db
      .insertInto('report_sendings')
      .values({
        site_id: retried.siteId,
        kind: 'weekly',
        period_start: '2026-11-16',
        email: 'x@example.com',
        state: 'sending',
        attempts: 1,
        claimed_at: clock.now() - 20 * 60_000,
      })
      .execute();
    const refusing = await startMailServer({ refuseLogin: true });
    try {
      const refused = await sendDueReports(
        { ...secondWorker, mailer: createSmtpMailer(`smtp://u:p@127.0.0.1:${refusing.port}`) },
        { siteId: retried.siteId, kind: 'weekly', asOf },
      );
      expect(refused[0]!.sendings.map((s) => [s.email, s.outcome])).toEqual([
        ['r@example.com', 'failed'],
        ['x@example.com', 'interrupted'],
      ]);
    } finally {
      await refusing.close();
    }
    const again = await sendDueReports(secondWorker, { siteId: retried.siteId, kind: 'weekly', asOf });
    expect(again[0]!.sendings.map((s) => [s.email, s.outcome])).toEqual([
      ['r@example.com', 'sent'],
      ['x@example.com', 'interrupted'],
    ]);
    expect(mailsTo('r@example.com')).toHaveLength(1);
    expect(mailsTo('x@example.com')).toHaveLength(0);
    const rows = await t.app.meta.db
      .selectFrom('report_sendings')
      .select(['email', 'state', 'attempts'])
      .where('site_id', '=', retried.siteId)
      .orderBy('email')
      .execute();
    expect(rows).toEqual([
      { email: 'r@example.com', state: 'sent', attempts: 2 },
      { email: 'x@example.com', state: 'interrupted', attempts: 1 },
    ]);
  });
});

describe('traffic notices', () => {
  let other: Account;
  const at = (ms: number) => new Date(ms).toISOString();

  it('mails a spike and a drop notice from the one detector, with the webhook events beside them', async () => {
    clock.set('2026-12-02T12:00:00Z');
    other = await createAccount(t.app, { domain: 'notices.example.com' });
    const headers = await signedInHeaders(t.app, other.userId);
    const put = (path: string, body: unknown) =>
      fetch(`${t.url}/app/api/sites/${other.domain}/${path}`, {
        method: 'PUT',
        headers: { cookie: headers.cookie, 'x-csrf-token': headers['x-csrf-token'], 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await put('email-recipients', { topic: 'spike', email: 's@example.com' })).status).toBe(200);
    expect((await put('email-recipients', { topic: 'drop', email: 'd@example.com' })).status).toBe(200);
    expect((await put('traffic-thresholds', { kind: 'spike', threshold: 3 })).status).toBe(200);
    expect((await put('traffic-thresholds', { kind: 'drop', threshold: 50 })).status).toBe(200);
    const bad = await put('traffic-thresholds', { kind: 'spike', threshold: 0 });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe('Field "threshold" must be at least 1.');

    const now = clock.now();
    await insertEvents(t.app, other.siteId, [
      { visitor: 'n1', at: at(now - 60_000), page: '/' },
      { visitor: 'n2', at: at(now - 120_000), page: '/' },
      { visitor: 'n3', at: at(now - 180_000), page: '/' },
    ]);
    await t.app.jobs.runOnce();
    const spike = mailsTo('s@example.com');
    expect(spike).toHaveLength(1);
    expect(spike[0]!.headers.subject).toBe('Traffic spike on notices.example.com: 3 visitors now');
    expect(spike[0]!.text).toContain('at or above your threshold of 3');
    const drop = mailsTo('d@example.com');
    expect(drop).toHaveLength(1);
    expect(drop[0]!.headers.subject).toBe('Traffic drop on notices.example.com: 3 visitors in 12 hours');
    const events = await t.app.meta.db
      .selectFrom('webhook_events')
      .select(['type', 'payload'])
      .where('site_id', '=', other.siteId)
      .where('type', 'like', 'traffic.%')
      .orderBy('type', 'desc')
      .execute();
    expect(events.map((e) => [e.type, JSON.parse(e.payload)])).toEqual([
      ['traffic.spike', { domain: other.domain, visitors: 3, threshold: 3, window_minutes: 5 }],
      ['traffic.drop', { domain: other.domain, visitors: 3, threshold: 50, window_minutes: 720 }],
    ]);
  });

  it('keeps 12 hours of quiet per kind, then notices again', async () => {
    await t.app.jobs.runOnce();
    clock.advance(12 * 3_600_000 - 60_000);
    const now = clock.now();
    await insertEvents(
      t.app,
      other.siteId,
      ['q1', 'q2', 'q3', 'q4'].map((visitor, i) => ({ visitor, at: at(now - (i + 1) * 30_000), page: '/' })),
    );
    await t.app.jobs.runOnce();
    expect(mailsTo('s@example.com')).toHaveLength(1);
    expect(mailsTo('d@example.com')).toHaveLength(1);
    clock.advance(90_000);
    await t.app.jobs.runOnce();
    expect(mailsTo('s@example.com').map((m) => m.headers.subject)).toEqual([
      'Traffic spike on notices.example.com: 3 visitors now',
      'Traffic spike on notices.example.com: 4 visitors now',
    ]);
    expect(mailsTo('d@example.com')).toHaveLength(2);
  });

  it('stops a notice’s mails through its unsubscribe link', async () => {
    const link = new URL(/(http\S+\/unsubscribe\?token=\S+)/.exec(mailsTo('s@example.com')[0]!.text)![1]!);
    expect((await fetch(`${t.url}${link.pathname}${link.search}`, { method: 'POST' })).status).toBe(200);
    clock.advance(12 * 3_600_000 + 60_000);
    const now = clock.now();
    await insertEvents(
      t.app,
      other.siteId,
      ['r1', 'r2', 'r3'].map((visitor, i) => ({ visitor, at: at(now - (i + 1) * 30_000), page: '/' })),
    );
    await t.app.jobs.runOnce();
    expect(mailsTo('s@example.com')).toHaveLength(2);
    expect(mailsTo('d@example.com')).toHaveLength(3);
  });
});
