import { describe, expect, it } from 'vitest';
import type { QueryResult } from '../context';
import { intervalsOf, seriesCsv, seriesOf } from './series';

const answer = (parts: { results: QueryResult['results']; meta?: Partial<QueryResult['meta']>; range?: [string, string] }): QueryResult => ({
  results: parts.results,
  meta: {
    time_labels: ['2024-01-08', '2024-01-09', '2024-01-10'],
    interval: 'day',
    present_index: null,
    sources: ['raw'],
    sample_rate: 1,
    metric_warnings: {},
    ...parts.meta,
  },
  query: {
    site_id: 'example.com',
    metrics: ['visitors'],
    date_range: parts.range ?? ['2024-01-08T00:00:00Z', '2024-01-10T23:59:59Z'],
    dimensions: ['time:day'],
    filters: [],
    order_by: [],
    pagination: { limit: 10_000, offset: 0 },
    include: {},
    timezone: 'Etc/UTC',
    exact: false,
  },
});

// The main graph's line from a time-series answer (MainGraph.tsx draws it, and downloads it as CSV).
describe('the graph series', () => {
  it('has a value for every bucket, empty ones as the metric reads with nothing in them', () => {
    const result = answer({ results: [{ dimensions: ['2024-01-09'], metrics: [4] }] });
    expect(seriesOf(result, 'visitors', null, ['day']).values).toEqual([0, 4, 0]);
    expect(seriesOf(result, 'visit_duration', null, ['day']).values).toEqual([null, 4, null]);
  });

  it('draws the comparison beside it, named by its mode', () => {
    const result = answer({ results: [{ dimensions: ['2024-01-08'], metrics: [2], comparison: { dimensions: ['2023-01-09'], metrics: [1], change: [100] } }] });
    result.query.include.comparisons = { mode: 'year_over_year', date_range: ['2023-01-08T00:00:00Z', '2023-01-10T23:59:59Z'] };
    const series = seriesOf(result, 'visitors', { mode: 'year_over_year' }, ['day']);
    expect(series.previous).toEqual([1, 0, 0]);
    // The compared bucket's date: the engine's where a row has it, else as far back as the compared range starts.
    expect(series.previousLabels).toEqual(['2023-01-09', '2023-01-09', '2023-01-10']);
    expect(series.changes).toEqual([100, null, null]);
    expect(series.comparisonLabel).toBe('A year before');
    expect(seriesOf(result, 'visitors', null, ['day']).previous).toBeNull();
  });

  it('takes the bucket still filling from the engine, which places it among the labels, row or none', () => {
    const result = answer({ results: [{ dimensions: ['2024-01-08'], metrics: [1] }], meta: { present_index: 2 } });
    expect(seriesOf(result, 'visitors', null, ['day']).presentIndex).toBe(2);
    expect(seriesOf(answer({ results: [] }), 'visitors', null, ['day']).presentIndex).toBeNull();
  });

  it('marks the weeks the range cuts short', () => {
    const result = answer({
      results: [],
      meta: { interval: 'week', time_labels: ['2024-01-02', '2024-01-08', '2024-01-15'] },
      range: ['2024-01-02T00:00:00+01:00', '2024-01-15T23:59:59+01:00'],
    });
    expect(seriesOf(result, 'visitors', null, ['day', 'week']).partial).toEqual([6, null, 1]);
  });

  it('shows the imported-data switch only when the engine says the site has imports in the range', () => {
    const imports = (meta: Partial<QueryResult['meta']>) => seriesOf(answer({ results: [], meta }), 'visitors', null, ['day']).imports;
    expect(imports({ imports_included: true })).toEqual({ applies: true, warning: null });
    expect(imports({ imports_skip_reason: 'unsupported_query', imports_warning: 'Not with this filter.' })).toEqual({
      applies: true,
      warning: 'Not with this filter.',
    });
    expect(imports({ imports_skip_reason: 'unsupported_interval' })).toEqual({ applies: false, warning: null });
  });

  it('offers minutes for the realtime view, otherwise the intervals of the answered range', () => {
    expect(intervalsOf(answer({ results: [] }), 'realtime')).toEqual(['minute']);
    expect(intervalsOf(answer({ results: [], range: ['2024-01-01T00:00:00Z', '2024-01-29T00:00:00Z'] }), '28d')).toEqual(['hour', 'day', 'week']);
  });

  it('downloads as CSV, a bucket a line, with the comparison when there is one', () => {
    const result = answer({ results: [{ dimensions: ['2024-01-09'], metrics: [4], comparison: { dimensions: ['2024-01-02'], metrics: [2], change: [100] } }] });
    expect(seriesCsv(seriesOf(result, 'visitors', null, ['day']), 'visitors')).toBe('bucket,visitors\n2024-01-08,0\n2024-01-09,4\n2024-01-10,0\n');
    expect(seriesCsv(seriesOf(result, 'visit_duration', { mode: 'previous_period' }, ['day']), 'visit_duration')).toBe(
      'bucket,visit_duration,previous_visit_duration\n2024-01-08,,\n2024-01-09,4,2\n2024-01-10,,\n',
    );
  });
});
