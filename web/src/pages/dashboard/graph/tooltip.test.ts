import type { Annotation } from '@contracts/annotations';
import { describe, expect, it } from 'vitest';
import { annotationsIn, bucketDays } from './annotations';
import type { Series } from './series';
import { changeText, tooltipContent } from './tooltip';

const note = (date: string, end_date: string | null, text: string): Annotation => ({
  id: 1,
  date,
  end_date,
  note: text,
  created_at: '2024-01-01T00:00:00Z',
  updated_at: '2024-01-01T00:00:00Z',
});

const series: Series = {
  labels: ['2024-01-08', '2024-01-09'],
  values: [3, 2],
  previous: [0, 1],
  previousLabels: ['2024-01-01', '2024-01-02'],
  changes: [null, 100],
  presentIndex: null,
  partial: [null, null],
  interval: 'day',
  intervals: ['day'],
  comparisonLabel: 'Previous period',
  imports: { applies: false, warning: null },
};

// What the graph's tooltip says of a bucket (usePlot.ts draws it at the pointer).
describe('the graph tooltip', () => {
  it('names the bucket, both figures with the compared date, the change and the notes on its days', () => {
    const content = tooltipContent(series, 1, 'visitors', 'Unique visitors', [note('2024-01-09', null, 'Newsletter'), note('2024-01-10', null, 'Later')]);
    expect(content.rows.map((row) => [row.key, row.value])).toEqual([
      ['current', '2'],
      ['previous', '1'],
    ]);
    expect(content.rows[1]?.label).toContain('2024');
    expect(content.change).toBe('↑ 100%');
    expect(content.notes).toEqual(['Newsletter']);
    expect(tooltipContent({ ...series, previous: null, previousLabels: null, changes: null }, 0, 'visitors', 'Unique visitors', []).change).toBeNull();
  });

  it('says when a bucket is cut short by the range or still filling', () => {
    const weeks: Series = { ...series, interval: 'week', partial: [6, 1], presentIndex: null };
    expect(tooltipContent(weeks, 1, 'visitors', 'Unique visitors', []).status).toBe('Partial week: 1 day');
    expect(tooltipContent({ ...weeks, interval: 'month', partial: [12, null] }, 0, 'visitors', 'Unique visitors', []).status).toBe('Partial month: 12 days');
    expect(tooltipContent({ ...weeks, presentIndex: 1 }, 1, 'visitors', 'Unique visitors', []).status).toBe('Partial week: 1 day, in progress');
    expect(tooltipContent({ ...series, presentIndex: 1 }, 1, 'visitors', 'Unique visitors', []).status).toBe('In progress');
    expect(tooltipContent(series, 1, 'visitors', 'Unique visitors', []).status).toBeNull();
  });

  it('reports rates in percentage points and nothing to compare with as a dash', () => {
    expect(changeText('bounce_rate', -3)).toBe('↓ 3 pts');
    expect(changeText('visitors', 0)).toBe('0%');
    expect(changeText('visitors', null)).toBe('—');
  });

  it('finds the notes touching a week or a month, spans included', () => {
    expect(bucketDays('2024-01-08', 'week')).toEqual(['2024-01-08', '2024-01-14']);
    // A range's first week, starting on a Tuesday, ends on its Sunday like the others.
    expect(bucketDays('2024-01-09', 'week')).toEqual(['2024-01-09', '2024-01-14']);
    expect(bucketDays('2024-02-01', 'month')).toEqual(['2024-02-01', '2024-02-29']);
    expect(bucketDays('2024-01-08 14:00:00', 'hour')).toEqual(['2024-01-08', '2024-01-08']);
    const span = note('2024-01-05', '2024-01-09', 'Campaign');
    expect(annotationsIn([span], '2024-01-08', 'week')).toEqual([span]);
    expect(annotationsIn([span], '2024-01-10', 'day')).toEqual([]);
    expect(annotationsIn([span], '2024-01-01', 'month')).toEqual([span]);
  });
});
