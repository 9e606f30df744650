import type { Browser } from 'playwright-core';
import type { App } from '../../src/app.js';
import { registerSite } from '../../src/management/sites.js';
import { createApiKey } from '../../src/stores/meta/apiKeys.js';
import { addCustomProp } from '../../src/stores/meta/customProps.js';
import { insertFunnel } from '../../src/stores/meta/funnels.js';
import { listSiteGoals } from '../../src/stores/meta/goals.js';
import { createUserWithTeam } from '../../src/stores/meta/users.js';
import { launchBrowser } from '../support/browser.js';
import { addGoal, type FixtureEvent, insertEvents } from '../support/eventFixtures.js';
import { ManualClock } from '../support/manualClock.js';
import { startTestApp, type TestApp } from '../support/testApp.js';

/**
 * Two months of a plausible small business site, for screenshots that look like real use (the
 * README's, test-results/): about 8,000 visits over 56 days (so the last 28 have a period to be
 * compared with) with a weekly rhythm and a slow rise, visitors who come back, skewed sources, countries, pages and devices, engagement (time on
 * page, scroll depth), sign-ups, purchases in euros and a "plan" property. A seeded generator
 * makes every run the same.
 */
export const REALISTIC_NOW = Date.parse('2024-05-29T15:40:00Z');
const DAYS = 56;

/** mulberry32: small, seeded, good enough to spread fixture data. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Weighted<T> = [T, number][];
function weighted<T>(next: () => number, list: Weighted<T>): T {
  const total = list.reduce((sum, [, weight]) => sum + weight, 0);
  let at = next() * total;
  for (const [value, weight] of list) {
    at -= weight;
    if (at <= 0) return value;
  }
  return list[list.length - 1]![0];
}

const SOURCES: Weighted<{ source?: string; channel: string; utmSource?: string; utmMedium?: string; utmCampaign?: string }> = [
  [{ channel: 'Direct' }, 30],
  [{ source: 'Google', channel: 'Organic Search' }, 34],
  [{ source: 'DuckDuckGo', channel: 'Organic Search' }, 5],
  [{ source: 'Bing', channel: 'Organic Search' }, 4],
  [{ source: 'Hacker News', channel: 'Referral' }, 6],
  [{ source: 'GitHub', channel: 'Referral' }, 5],
  [{ source: 'Twitter', channel: 'Organic Social' }, 5],
  [{ source: 'Reddit', channel: 'Organic Social' }, 3],
  [{ source: 'LinkedIn', channel: 'Organic Social' }, 2],
  [{ source: 'Newsletter', channel: 'Email', utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'may-update' }, 6],
];
const COUNTRIES: Weighted<{ country: string; region: string; city: string }> = [
  [{ country: 'US', region: 'US-CA', city: 'San Francisco' }, 22],
  [{ country: 'DE', region: 'DE-BE', city: 'Berlin' }, 18],
  [{ country: 'GB', region: 'GB-ENG', city: 'London' }, 10],
  [{ country: 'FR', region: 'FR-IDF', city: 'Paris' }, 8],
  [{ country: 'NL', region: 'NL-NH', city: 'Amsterdam' }, 6],
  [{ country: 'IN', region: 'IN-KA', city: 'Bengaluru' }, 6],
  [{ country: 'CA', region: 'CA-ON', city: 'Toronto' }, 5],
  [{ country: 'BR', region: 'BR-SP', city: 'São Paulo' }, 4],
  [{ country: 'SE', region: 'SE-AB', city: 'Stockholm' }, 4],
  [{ country: 'JP', region: 'JP-13', city: 'Tokyo' }, 3],
  [{ country: 'AU', region: 'AU-NSW', city: 'Sydney' }, 3],
  [{ country: 'ES', region: 'ES-MD', city: 'Madrid' }, 3],
  [{ country: 'PL', region: 'PL-14', city: 'Warsaw' }, 2],
  [{ country: 'CH', region: 'CH-ZH', city: 'Zürich' }, 2],
];
const DEVICES: Weighted<Pick<FixtureEvent, 'device' | 'screen' | 'browser' | 'browserVersion' | 'os' | 'osVersion'>> = [
  [{ device: 'Desktop', screen: 'Desktop', browser: 'Chrome', browserVersion: '125.0', os: 'Windows', osVersion: '11' }, 20],
  [{ device: 'Desktop', screen: 'Laptop', browser: 'Chrome', browserVersion: '124.0', os: 'Mac', osVersion: '14.4' }, 12],
  [{ device: 'Desktop', screen: 'Laptop', browser: 'Safari', browserVersion: '17.4', os: 'Mac', osVersion: '14.4' }, 9],
  [{ device: 'Desktop', screen: 'Desktop', browser: 'Firefox', browserVersion: '126.0', os: 'Linux', osVersion: '' }, 7],
  [{ device: 'Desktop', screen: 'Desktop', browser: 'Edge', browserVersion: '125.0', os: 'Windows', osVersion: '10' }, 6],
  [{ device: 'Mobile', screen: 'Mobile', browser: 'Safari', browserVersion: '17.4', os: 'iOS', osVersion: '17.4' }, 18],
  [{ device: 'Mobile', screen: 'Mobile', browser: 'Chrome', browserVersion: '125.0', os: 'Android', osVersion: '14' }, 15],
  [{ device: 'Mobile', screen: 'Mobile', browser: 'Samsung Internet', browserVersion: '24.0', os: 'Android', osVersion: '13' }, 3],
  [{ device: 'Tablet', screen: 'Tablet', browser: 'Safari', browserVersion: '17.4', os: 'iOS', osVersion: '17.4' }, 4],
];
const ENTRIES: Weighted<string> = [
  ['/', 40],
  ['/blog/cookieless-analytics', 14],
  ['/pricing', 10],
  ['/blog', 8],
  ['/docs/getting-started', 8],
  ['/blog/why-we-left-google-analytics', 6],
  ['/features', 6],
  ['/about', 3],
];
const NEXT: Weighted<string> = [
  ['/pricing', 20],
  ['/features', 16],
  ['/docs/getting-started', 14],
  ['/blog', 10],
  ['/signup', 10],
  ['/docs/api', 8],
  ['/', 8],
  ['/about', 5],
  ['/contact', 3],
];
const PLANS: Weighted<string> = [
  ['Starter', 55],
  ['Growth', 35],
  ['Business', 10],
];
const PRICES: Record<string, number> = { Starter: 9, Growth: 29, Business: 99 };

/** The events of the two months, and who is on the site at REALISTIC_NOW. */
export function realisticEvents(): FixtureEvent[] {
  const next = random(20240529);
  const events: FixtureEvent[] = [];
  const known: string[] = [];
  const firstDay = Math.floor(REALISTIC_NOW / 86_400_000) * 86_400_000 - DAYS * 86_400_000;
  const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
  const visit = (start: number, visitor: string) => {
    const source = weighted(next, SOURCES);
    const place = weighted(next, COUNTRIES);
    const device = weighted(next, DEVICES);
    let at = start;
    let page = weighted(next, ENTRIES);
    const views = weighted(next, [
      [1, 45],
      [2, 25],
      [3, 15],
      [4, 10],
      [6, 5],
    ] as Weighted<number>);
    for (let i = 0; i < views && at < REALISTIC_NOW; i += 1) {
      events.push({ visitor, at: stamp(at), page, ...(i === 0 ? { ...source, ...place, ...device } : {}) });
      const seconds = 8 + Math.round(next() ** 2 * 240);
      if (seconds > 12)
        events.push({
          visitor,
          at: stamp(at + seconds * 1000),
          name: 'engagement',
          page,
          scrollDepth: Math.round(20 + next() * 80),
          engagementMs: seconds * 1000,
        });
      at += (seconds + 3) * 1000;
      if (page === '/signup' && next() < 0.45) {
        const plan = weighted(next, PLANS);
        events.push({ visitor, at: stamp(at), name: 'Signup', page, props: { plan } });
        if (next() < 0.4)
          events.push({
            visitor,
            at: stamp(at + 60_000),
            name: 'Purchase',
            page: '/checkout',
            props: { plan },
            revenue: { amount: PRICES[plan]!, currency: 'EUR' },
          });
        break;
      }
      page = weighted(next, NEXT);
    }
  };
  for (let day = 0; day <= DAYS; day += 1) {
    const date = new Date(firstDay + day * 86_400_000);
    const weekend = date.getUTCDay() === 0 || date.getUTCDay() === 6;
    // A slow rise over the month, quieter weekends, and one day on Hacker News's front page.
    const visits = Math.round((80 + day * 2) * (weekend ? 0.6 : 1) * (day === 45 ? 2.6 : 1) * (0.9 + next() * 0.2));
    for (let v = 0; v < visits; v += 1) {
      // Most visits in European and American working hours.
      const hour = weighted(next, Array.from({ length: 24 }, (_, h) => [h, h < 6 ? 1 : h < 8 ? 3 : h < 18 ? 8 : h < 22 ? 5 : 2]) as Weighted<number>);
      const start = firstDay + day * 86_400_000 + hour * 3_600_000 + Math.floor(next() * 3_600_000);
      if (start >= REALISTIC_NOW) continue;
      const returning = known.length > 0 && next() < 0.28;
      const visitor = returning ? known[Math.floor(next() * known.length)]! : `visitor-${day}-${v}`;
      if (!returning) known.push(visitor);
      visit(start, visitor);
    }
  }
  // On the site right now.
  for (let i = 0; i < 7; i += 1) visit(REALISTIC_NOW - (i + 1) * 3 * 60_000, `now-${i}`);
  return events;
}

/** Jane's team, the site blog.example.com (Europe/Berlin) with its goals, a funnel and the two months' data. */
export interface RealisticSite {
  userId: number;
  domain: string;
  key: string;
}

export async function createRealisticSite(app: App): Promise<RealisticSite> {
  const now = app.clock.now();
  const { userId, teamId } = await createUserWithTeam(app.meta.db, { email: 'jane@example.com', name: 'Jane Doe' }, now);
  const site = await registerSite(app.meta.db, { teamId, domain: 'blog.example.com', timezone: 'Europe/Berlin' }, now);
  const { key } = await createApiKey(app.meta.db, { teamId, userId, name: 'screenshots' }, now);
  await addGoal(app, site.id, { eventName: 'Signup' });
  await addGoal(app, site.id, { eventName: 'Purchase', currency: 'EUR' });
  await addGoal(app, site.id, { pagePath: '/pricing' });
  await addCustomProp(app.meta.db, site.id, 'plan', now);
  const goals = await listSiteGoals(app.meta.db, site.id);
  const goalId = (name: string) => goals.find((goal) => goal.displayName === name)!.id;
  await insertFunnel(
    app.meta.db,
    { siteId: site.id, name: 'Pricing to purchase', goalIds: [goalId('Visit /pricing'), goalId('Signup'), goalId('Purchase')] },
    now,
  );
  await insertEvents(app, site.id, realisticEvents());
  return { userId, domain: site.domain, key };
}

/** The service at REALISTIC_NOW holding the realistic site, and Chromium: a browser test file's set-up; `close` ends both. */
export async function startRealisticDashboard(): Promise<{ t: TestApp; site: RealisticSite; browser: Browser; close: () => Promise<void> }> {
  const t = await startTestApp({ clock: new ManualClock(REALISTIC_NOW) });
  const site = await createRealisticSite(t.app);
  const browser = await launchBrowser();
  return {
    t,
    site,
    browser,
    close: async () => {
      await browser.close();
      await t.close();
    },
  };
}
