import { describe, expect, it } from 'vitest';
import { comparisonRange, impliedInterval, resolveDateRange } from '../../src/query/plan/dateRange.js';
import { timeLabels } from '../../src/query/plan/timeLabels.js';
import { isoWithOffset } from '../../src/time/localTime.js';

// Wednesday 10 January 2024, 14:30:15 in Berlin (UTC+1).
const NOW = Date.parse('2024-01-10T13:30:15Z');
const TZ = 'Europe/Berlin';

function bounds(input: string | [string, string], options: { tz?: string; now?: number; siteStart?: number | null; extraPresets?: boolean } = {}) {
  const tz = options.tz ?? TZ;
  const range = resolveDateRange(input, { now: options.now ?? NOW, tz, siteStart: options.siteStart ?? null, extraPresets: options.extraPresets });
  return [isoWithOffset(range.first, tz), isoWithOffset(range.last, tz)];
}

describe('resolveDateRange', () => {
  it.each([
    ['day', '2024-01-10T00:00:00+01:00', '2024-01-10T14:30:15+01:00'],
    ['24h', '2024-01-09T14:30:15+01:00', '2024-01-10T14:30:15+01:00'],
    ['7d', '2024-01-03T00:00:00+01:00', '2024-01-09T23:59:59+01:00'],
    ['28d', '2023-12-13T00:00:00+01:00', '2024-01-09T23:59:59+01:00'],
    ['91d', '2023-10-11T00:00:00+02:00', '2024-01-09T23:59:59+01:00'],
    ['month', '2024-01-01T00:00:00+01:00', '2024-01-31T23:59:59+01:00'],
    ['last_month', '2023-12-01T00:00:00+01:00', '2023-12-31T23:59:59+01:00'],
    ['year', '2024-01-01T00:00:00+01:00', '2024-12-31T23:59:59+01:00'],
    ['12mo', '2023-01-01T00:00:00+01:00', '2023-12-31T23:59:59+01:00'],
    ['realtime', '2024-01-10T14:00:15+01:00', '2024-01-10T14:30:15+01:00'],
    ['5m', '2024-01-10T14:25:15+01:00', '2024-01-10T14:30:15+01:00'],
  ])('bounds %s in the site time zone', (preset, first, last) => {
    expect(bounds(preset)).toEqual([first, last]);
  });

  it('takes 30d and 6mo only when v1 asks', () => {
    expect(bounds('30d', { extraPresets: true })).toEqual(['2023-12-11T00:00:00+01:00', '2024-01-09T23:59:59+01:00']);
    expect(bounds('6mo', { extraPresets: true })).toEqual(['2023-07-01T00:00:00+02:00', '2023-12-31T23:59:59+01:00']);
    expect(() => bounds('30d')).toThrow(/Invalid date range "30d"/);
  });

  it('starts all at the first day with data, or today', () => {
    expect(bounds('all', { siteStart: Date.parse('2023-06-15T22:30:00Z') })).toEqual(['2023-06-16T00:00:00+02:00', '2024-01-10T23:59:59+01:00']);
    expect(bounds('all')).toEqual(['2024-01-10T00:00:00+01:00', '2024-01-10T23:59:59+01:00']);
  });

  it('covers the whole end day of an explicit pair, and accepts date-times with offsets', () => {
    expect(bounds(['2024-01-01', '2024-01-01'])).toEqual(['2024-01-01T00:00:00+01:00', '2024-01-01T23:59:59+01:00']);
    expect(bounds(['2024-01-01T10:00:00+01:00', '2024-01-01T11:00:00Z'], { tz: 'Etc/UTC' })).toEqual([
      '2024-01-01T09:00:00+00:00',
      '2024-01-01T11:00:00+00:00',
    ]);
  });

  it('refuses bad dates with a sentence', () => {
    expect(() => bounds(['2024-02-30', '2024-03-01'])).toThrow(/"2024-02-30" is not a valid ISO date/);
    expect(() => bounds(['2024-03-02', '2024-03-01'])).toThrow(/is after the end date/);
  });

  it('handles a day that is 23 hours long', () => {
    expect(bounds(['2024-03-31', '2024-03-31'])).toEqual(['2024-03-31T00:00:00+01:00', '2024-03-31T23:59:59+02:00']);
  });

  it('moves a midnight that does not exist to the first instant after the gap', () => {
    // Santiago springs forward at midnight: 2024-09-08 00:00 does not exist.
    expect(bounds(['2024-09-08', '2024-09-08'], { tz: 'America/Santiago' })[0]).toBe('2024-09-08T01:00:00-03:00');
  });
});

describe('impliedInterval', () => {
  it('picks the width from the length of the range', () => {
    const width = (preset: string) => impliedInterval(resolveDateRange(preset, { now: NOW, tz: TZ, siteStart: null }));
    expect([width('realtime'), width('day'), width('7d'), width('91d'), width('12mo')]).toEqual(['minute', 'hour', 'day', 'week', 'month']);
  });
});

describe('comparisonRange', () => {
  const compare = (input: string | [string, string], mode: 'previous_period' | 'year_over_year', matchDayOfWeek = false) => {
    const range = resolveDateRange(input, { now: NOW, tz: TZ, siteStart: null });
    const earlier = comparisonRange(range, { mode, matchDayOfWeek }, { now: NOW, tz: TZ });
    return [isoWithOffset(earlier.first, TZ), isoWithOffset(earlier.last, TZ)];
  };

  it('shifts a finished range back by its own length', () => {
    expect(compare('7d', 'previous_period')).toEqual(['2023-12-27T00:00:00+01:00', '2024-01-02T23:59:59+01:00']);
    expect(compare('7d', 'year_over_year')).toEqual(['2023-01-03T00:00:00+01:00', '2023-01-09T23:59:59+01:00']);
  });

  it('compares a period in progress with the same elapsed part of the earlier one', () => {
    expect(compare('day', 'previous_period')).toEqual(['2024-01-09T00:00:00+01:00', '2024-01-09T14:30:15+01:00']);
    // Ten days of January have begun: the ten days before them, up to the same time of day.
    expect(compare('month', 'previous_period')).toEqual(['2023-12-22T00:00:00+01:00', '2023-12-31T14:30:15+01:00']);
    expect(compare('month', 'year_over_year')).toEqual(['2023-01-01T00:00:00+01:00', '2023-01-10T14:30:15+01:00']);
  });

  it('matches the day of the week on request', () => {
    // 2024-01-01 is a Monday; a year earlier is a Sunday, moved forward to Monday 2023-01-02.
    expect(compare(['2024-01-01', '2024-01-07'], 'year_over_year', true)).toEqual(['2023-01-02T00:00:00+01:00', '2023-01-08T23:59:59+01:00']);
  });
});

describe('timeLabels', () => {
  it('labels weeks from the first day, then Mondays', () => {
    const range = resolveDateRange(['2024-01-03', '2024-01-16'], { now: NOW, tz: TZ, siteStart: null });
    expect(timeLabels(range, 'week', TZ)).toEqual(['2024-01-03', '2024-01-08', '2024-01-15']);
  });

  it('labels the hours of a day in a zone offset by 45 minutes', () => {
    const range = resolveDateRange(['2024-01-10', '2024-01-10'], { now: NOW, tz: 'Asia/Kathmandu', siteStart: null });
    const labels = timeLabels(range, 'hour', 'Asia/Kathmandu');
    expect(labels).toHaveLength(24);
    expect(labels[0]).toBe('2024-01-10 00:00:00');
  });
});
