import { describe, expect, it } from 'vitest';
import { latestDuePeriod, periodEndingBefore } from '../../src/reports/periods.js';
import { unsubscribeTokens } from '../../src/reports/unsubscribe.js';

describe('report periods', () => {
  it('covers the Monday–Sunday before, due at 06:00 on Monday in the site’s time zone', () => {
    expect(periodEndingBefore('weekly', { year: 2026, month: 11, day: 25 }, 'Europe/Berlin')).toEqual({
      kind: 'weekly',
      from: '2026-11-16',
      to: '2026-11-22',
      previous: { from: '2026-11-09', to: '2026-11-15' },
      dueAt: Date.parse('2026-11-23T05:00:00Z'),
    });
    // 05:59 on Monday in Berlin: last week's report is not due yet, the one before it is the latest.
    expect(latestDuePeriod('weekly', Date.parse('2026-11-23T04:59:00Z'), 'Europe/Berlin').from).toBe('2026-11-09');
    expect(latestDuePeriod('weekly', Date.parse('2026-11-23T05:00:00Z'), 'Europe/Berlin').from).toBe('2026-11-16');
    // Still Sunday in New York when it is Monday in UTC.
    expect(latestDuePeriod('weekly', Date.parse('2026-11-23T08:00:00Z'), 'America/New_York').from).toBe('2026-11-09');
  });

  it('covers the month before, due on the 1st, across a year and a clock change', () => {
    expect(periodEndingBefore('monthly', { year: 2027, month: 1, day: 1 }, 'Etc/UTC')).toMatchObject({
      from: '2026-12-01',
      to: '2026-12-31',
      previous: { from: '2026-11-01', to: '2026-11-30' },
      dueAt: Date.parse('2027-01-01T06:00:00Z'),
    });
    // Berlin leaves summer time on 25 October 2026: the 1 November report is due at 06:00 CET.
    expect(periodEndingBefore('monthly', { year: 2026, month: 11, day: 15 }, 'Europe/Berlin')).toMatchObject({
      from: '2026-10-01',
      to: '2026-10-31',
      dueAt: Date.parse('2026-11-01T05:00:00Z'),
    });
    expect(periodEndingBefore('monthly', { year: 2026, month: 3, day: 1 }, 'Etc/UTC').previous).toEqual({ from: '2026-01-01', to: '2026-01-31' });
  });
});

describe('unsubscribe tokens', () => {
  const tokens = unsubscribeTokens('a'.repeat(64));
  const claims = { site: 7, topic: 'weekly' as const, email: 'a@example.com' };

  it('verify what they signed, and nothing altered or signed under another secret', () => {
    const token = tokens.sign(claims);
    expect(tokens.verify(token)).toEqual(claims);
    const [payload, signature] = token.split('.') as [string, string];
    const other = Buffer.from(JSON.stringify({ ...claims, email: 'b@example.com' })).toString('base64url');
    expect(tokens.verify(`${other}.${signature}`)).toBeNull();
    expect(tokens.verify(`${payload}.${signature.slice(0, -2)}`)).toBeNull();
    expect(tokens.verify(unsubscribeTokens('b'.repeat(64)).sign(claims))).toBeNull();
    expect(tokens.verify('not a token')).toBeNull();
    expect(tokens.verify(`${token}.extra`)).toBeNull();
  });
});
