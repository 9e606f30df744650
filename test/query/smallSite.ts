import { addGoal, type FixtureEvent, type FixtureGoal, insertEvents } from '../support/eventFixtures.js';
import { ManualClock } from '../support/manualClock.js';
import { type Account, createAccount, startTestApp, type TestApp } from '../support/testApp.js';

/**
 * Two days of a small site, every figure computable by hand:
 * 8 Jan: alice (Google, DE) views / then /pricing, signs up; bob (direct, US) bounces on /pricing;
 *        carol (Twitter, DE) views / and engages (80 % scroll, 30 s); a bot views / (excluded).
 * 9 Jan: alice returns directly on /blog and bounces; dave (Google, FR) views /, /blog, / over 20 min.
 */
export const SMALL_SITE: FixtureEvent[] = [
  { visitor: 'alice', at: '2024-01-08 10:00:00', page: '/', source: 'Google', country: 'DE', device: 'Desktop', browser: 'Chrome', screen: 'Desktop' },
  { visitor: 'alice', at: '2024-01-08 10:05:00', page: '/pricing' },
  { visitor: 'alice', at: '2024-01-08 10:06:00', name: 'Signup', page: '/pricing', props: { plan: 'pro', seats: '5' } },
  { visitor: 'bob', at: '2024-01-08 11:00:00', page: '/pricing', country: 'US', device: 'Mobile', browser: 'Safari', screen: 'Mobile' },
  { visitor: 'carol', at: '2024-01-08 12:00:00', page: '/', source: 'Twitter', country: 'DE', device: 'Desktop', browser: 'Firefox', screen: 'Laptop' },
  { visitor: 'carol', at: '2024-01-08 12:01:00', name: 'engagement', page: '/', scrollDepth: 80, engagementMs: 30_000 },
  { visitor: 'robot', at: '2024-01-08 10:30:00', page: '/', classification: 'bot' },
  { visitor: 'alice', at: '2024-01-09 09:00:00', page: '/blog' },
  {
    visitor: 'dave',
    at: '2024-01-09 15:00:00',
    page: '/',
    source: 'Google',
    country: 'FR',
    device: 'Desktop',
    browser: 'Chrome',
    screen: 'Desktop',
    props: { seats: '3' },
  },
  { visitor: 'dave', at: '2024-01-09 15:10:00', page: '/blog' },
  { visitor: 'dave', at: '2024-01-09 15:20:00', page: '/' },
];

/** "Now" for SMALL_SITE's tests: the day after its last event, at noon UTC. */
export const SMALL_SITE_NOW = Date.parse('2024-01-10T12:00:00Z');

/**
 * The real service on a fresh store, with SMALL_SITE on one account (time zone UTC), the Signup
 * goal and any others given; the clock stands at SMALL_SITE_NOW.
 */
export async function startSmallSite(
  options: { goals?: FixtureGoal[]; env?: Record<string, string> } = {},
): Promise<{ t: TestApp; account: Account; clock: ManualClock }> {
  const clock = new ManualClock(SMALL_SITE_NOW);
  const t = await startTestApp({ clock, env: options.env });
  const account = await createAccount(t.app);
  await insertEvents(t.app, account.siteId, SMALL_SITE);
  for (const goal of [{ eventName: 'Signup' }, ...(options.goals ?? [])]) await addGoal(t.app, account.siteId, goal);
  return { t, account, clock };
}
