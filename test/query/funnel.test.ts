import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFunnel } from '../../src/query/run/funnel.js';
import { queryEngineDeps } from '../../src/queryEngine.js';
import { addGoal, insertEvents } from '../support/eventFixtures.js';
import { ManualClock } from '../support/manualClock.js';
import { type Account, bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { SMALL_SITE } from './smallSite.js';

let t: TestApp;
let account: Account;

beforeAll(async () => {
  t = await startTestApp({ clock: new ManualClock(Date.parse('2024-01-10T12:00:00Z')) });
  account = await createAccount(t.app);
  await insertEvents(t.app, account.siteId, SMALL_SITE);
  await addGoal(t.app, account.siteId, { pagePath: '/' });
  await addGoal(t.app, account.siteId, { eventName: 'Signup' });
  const db = t.app.meta.db;
  const funnel = await db
    .insertInto('funnels')
    .values({ site_id: account.siteId, name: 'Home to signup', created_at: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const goals = await db.selectFrom('goals').select(['id', 'display_name']).where('site_id', '=', account.siteId).execute();
  const goalId = (name: string) => goals.find((g) => g.display_name === name)!.id;
  await db
    .insertInto('funnel_steps')
    .values([
      { funnel_id: funnel.id, step_order: 1, goal_id: goalId('Visit /') },
      { funnel_id: funnel.id, step_order: 2, goal_id: goalId('Signup') },
    ])
    .execute();
});
afterAll(() => t.close());

describe('funnels on the query engine', () => {
  it('counts visitors reaching each step in order', async () => {
    // Home: alice, carol, dave (bob only saw /pricing); of them only alice signed up.
    const report = await runFunnel(queryEngineDeps(t.app), account.teamId, {
      site_id: account.domain,
      funnel: 'Home to signup',
      date_range: ['2024-01-08', '2024-01-09'],
    });
    expect(report).toEqual({
      name: 'Home to signup',
      steps: [
        { label: 'Visit /', visitors: 3, conversion_rate: '100', conversion_rate_step: '0', dropoff: 0, dropoff_percentage: '0' },
        { label: 'Signup', visitors: 1, conversion_rate: '33.33', conversion_rate_step: '33.33', dropoff: 2, dropoff_percentage: '66.67' },
      ],
      all_visitors: 4,
      entering_visitors: 3,
      entering_visitors_percentage: '75',
      never_entering_visitors: 1,
      never_entering_visitors_percentage: '25',
    });
  });

  it('takes the query filters and refuses an unknown funnel', async () => {
    const report = await runFunnel(queryEngineDeps(t.app), account.teamId, {
      site_id: account.domain,
      funnel: 'Home to signup',
      date_range: ['2024-01-08', '2024-01-09'],
      filters: [['is', 'visit:country', ['DE']]],
    });
    expect(report.steps.map((s) => s.visitors)).toEqual([2, 1]);
    await expect(runFunnel(queryEngineDeps(t.app), account.teamId, { site_id: account.domain, funnel: 'Nope', date_range: '7d' })).rejects.toMatchObject({
      status: 404,
    });
  });

  it('counts the visits a goal, page or property filter keeps, with every event of those visits', async () => {
    const stepsUnder = async (filters: unknown[]) => {
      const report = await runFunnel(queryEngineDeps(t.app), account.teamId, {
        site_id: account.domain,
        funnel: 'Home to signup',
        date_range: ['2024-01-08', '2024-01-09'],
        filters,
      });
      return [report.all_visitors, ...report.steps.map((s) => s.visitors)];
    };
    // Only alice's first visit converted; it began on / and ended in the signup.
    expect(await stepsUnder([['is', 'event:goal', ['Signup']]])).toEqual([1, 1, 1]);
    // /pricing was seen in alice's first visit and by bob, who never saw /.
    expect(await stepsUnder([['is', 'event:page', ['/pricing']]])).toEqual([2, 1, 1]);
    expect(await stepsUnder([['is', 'event:props:plan', ['pro']]])).toEqual([1, 1, 1]);
    // dave's visit carries seats on its first pageview; he viewed / but did not sign up.
    expect(
      await stepsUnder([
        ['is', 'event:props:seats', ['3']],
        ['is', 'visit:country', ['FR']],
      ]),
    ).toEqual([1, 1, 0]);
    expect(
      await stepsUnder([
        ['is_not', 'event:goal', ['Signup']],
        ['is', 'visit:source', ['Twitter']],
      ]),
    ).toEqual([1, 1, 0]);
  });

  it('is served by GET /api/v1/sites/funnels/{id}/report, counting steps only within one visit', async () => {
    // erin views / on the 8th and signs up two hours later, in a second visit: she enters the
    // funnel but does not convert, because the steps must happen in order within one visit.
    await insertEvents(t.app, account.siteId, [
      { visitor: 'erin', at: '2024-01-08 16:00:00', page: '/' },
      { visitor: 'erin', at: '2024-01-08 18:00:00', name: 'Signup', page: '/pricing' },
    ]);
    const [funnel] = await t.app.meta.db.selectFrom('funnels').select('id').where('site_id', '=', account.siteId).execute();
    const res = await fetch(`${t.url}/api/v1/sites/funnels/${funnel!.id}/report?site_id=${account.domain}&from=2024-01-08&to=2024-01-09`, {
      headers: bearer(account.key),
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ funnel: { id: funnel!.id, name: 'Home to signup' }, from: '2024-01-08', to: '2024-01-09', entering_visitors: 4 });
    expect(body.steps.map((s: { label: string; visitors: number }) => [s.label, s.visitors])).toEqual([
      ['Visit /', 4],
      ['Signup', 1],
    ]);
    const statsOnly = await createAccount(t.app, { scopes: ['sites:read'] });
    const refused = await fetch(`${t.url}/api/v1/sites/funnels/${funnel!.id}/report?site_id=${statsOnly.domain}&from=2024-01-08&to=2024-01-09`, {
      headers: bearer(statsOnly.key),
    });
    expect(refused.status).toBe(403);
  });
});
