import type { FixtureEvent } from '../support/eventFixtures.js';

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
  { visitor: 'dave', at: '2024-01-09 15:00:00', page: '/', source: 'Google', country: 'FR', device: 'Desktop', browser: 'Chrome', screen: 'Desktop', props: { seats: '3' } },
  { visitor: 'dave', at: '2024-01-09 15:10:00', page: '/blog' },
  { visitor: 'dave', at: '2024-01-09 15:20:00', page: '/' },
];
