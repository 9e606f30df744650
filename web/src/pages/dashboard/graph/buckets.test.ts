import { describe, expect, it } from 'vitest';
import { bucketTicks, dayTickLabels, partialDays, partialText, strokes } from './buckets';

// Which buckets the graph marks as not like the others, and where its time axis puts its ticks (usePlot.ts).
describe('the graph buckets', () => {
  it('counts the days of a week or month the range cuts short', () => {
    // 91 days from Tue 1 Sep to Mon 30 Nov 2026: a six-day first week, a one-day last one.
    const weeks = ['2026-09-01', '2026-09-07', '2026-11-23', '2026-11-30'];
    expect(partialDays(weeks, 'week', ['2026-09-01T00:00:00+02:00', '2026-11-30T23:59:59+01:00'])).toEqual([6, null, null, 1]);
    const months = ['2026-01-01', '2026-02-01', '2026-03-01'];
    expect(partialDays(months, 'month', ['2026-01-20T00:00:00Z', '2026-03-31T23:59:59Z'])).toEqual([12, null, null]);
    expect(partialDays(months, 'month', ['2026-01-01T00:00:00Z', '2026-03-12T23:59:59Z'])).toEqual([null, null, 12]);
    // A leap February is whole with its 29 days.
    expect(partialDays(['2024-02-01'], 'month', ['2024-02-01T00:00:00Z', '2024-02-29T23:59:59Z'])).toEqual([null]);
    expect(partialDays(['2026-09-01', '2026-09-02'], 'day', ['2026-09-01T00:00:00Z', '2026-09-02T23:59:59Z'])).toEqual([null, null]);
  });

  it('says a partial bucket in days', () => {
    expect(partialText(1, 'week')).toBe('Partial week: 1 day');
    expect(partialText(12, 'month')).toBe('Partial month: 12 days');
  });

  it('dashes the bucket still filling and the partial ends, and draws nothing after now', () => {
    const values = [1, 2, 3, 4, 5];
    expect(strokes(values, null, [null, null, null, null, null], true)).toEqual({ solid: values, head: null, tail: null, dashed: [] });
    // Today at 14:xx: the line is solid to 13:00, dashed from there to now, and stops.
    expect(strokes(values, 3, [null, null, null, null, null], true)).toEqual({
      solid: [1, 2, 3, null, null],
      head: null,
      tail: [null, null, 3, 4, null],
      dashed: [3],
    });
    // Weeks cut at both ends: dashed from the first to the second, and from the last but one to the last.
    expect(strokes(values, null, [6, null, null, null, 1], true)).toEqual({
      solid: [null, 2, 3, 4, null],
      head: [1, 2, null, null, null],
      tail: [null, null, null, 4, 5],
      dashed: [0, 4],
    });
    // Bars stand alone: the dashed one is only itself.
    expect(strokes(values, 4, [null, null, null, null, null], false)).toEqual({
      solid: [1, 2, 3, 4, null],
      head: null,
      tail: [null, null, null, null, 5],
      dashed: [4],
    });
  });

  it('puts ticks on the buckets, every so many as the axis has room for', () => {
    const week = 7 * 86_400;
    const times = [0, 6, 13, 20, 27].map((days) => days * 86_400);
    expect(bucketTicks(times, week, week)).toEqual(times);
    expect(bucketTicks(times, week, 2 * week)).toEqual([0, 13 * 86_400, 27 * 86_400]);
    expect(bucketTicks(times, week, 86_400)).toEqual(times);
  });

  it('names weekly ticks by their day, the year where it starts and changes', () => {
    const at = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;
    expect(dayTickLabels([at('2023-10-10'), at('2023-11-06'), at('2024-01-01'), at('2024-01-08')])).toEqual(['10/10\n2023', '11/6', '1/1\n2024', '1/8']);
  });
});
