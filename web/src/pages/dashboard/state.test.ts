import { describe, expect, it } from 'vitest';
import type { Filter } from './context';
import { comparisonOf, dateRangeOf, describeFilter, dimensionLabel, intervalsFor, metricsBeside, readState, type ViewState, writeState } from './state';

const read = (query: string) => readState(new URLSearchParams(query));

// The dashboard's view lives in the URL (state.ts): what a bookmark or a back button restores.
describe('the dashboard view in the URL', () => {
  it('reads an empty URL as the default view, and writes the default view as no query at all', () => {
    const view = read('');
    expect(view).toEqual({
      period: '28d',
      from: null,
      to: null,
      filters: [],
      compare: 'off',
      compareFrom: null,
      compareTo: null,
      matchDayOfWeek: false,
      interval: null,
      imported: true,
      metric: 'visitors',
    });
    expect(writeState(view)).toBe('');
  });

  it('writes every part of a view and reads the same view back', () => {
    const view: ViewState = {
      period: 'custom',
      from: '2024-01-08',
      to: '2024-01-09',
      filters: [
        ['is', 'event:page', ['/pricing']],
        ['has_done', ['is', 'event:goal', ['Signup']]],
      ],
      compare: 'custom',
      compareFrom: '2023-12-01',
      compareTo: '2023-12-02',
      matchDayOfWeek: false,
      interval: 'hour',
      imported: false,
      metric: 'bounce_rate',
    };
    const written = writeState(view);
    expect(written.startsWith('?period=custom&from=2024-01-08&to=2024-01-09&filters=')).toBe(true);
    expect(read(written.slice(1))).toEqual(view);
  });

  it('reads a hand-edited range the menu cannot show as one it can, so the engine never refuses it', () => {
    expect(read('period=custom&from=2024-01-09&to=2024-01-02')).toMatchObject({ period: 'custom', from: '2024-01-02', to: '2024-01-09' });
    expect(read('period=custom&from=2024-02-30&to=2024-03-02')).toMatchObject({ period: '28d', from: null, to: null });
    expect(read('period=custom&from=2024-01-02')).toMatchObject({ period: '28d' });
    expect(read('period=fortnight')).toMatchObject({ period: '28d' });
    expect(read('compare=custom&compare_from=2024-01-09&compare_to=2024-01-02')).toMatchObject({ compareFrom: '2024-01-02', compareTo: '2024-01-09' });
    expect(read('compare=custom&compare_from=soon&compare_to=2024-01-02').compare).toBe('off');
  });

  it('reads a from date without a period as a custom range', () => {
    expect(read('from=2024-01-08&to=2024-01-09')).toMatchObject({ period: 'custom', from: '2024-01-08', to: '2024-01-09' });
  });

  it('writes a custom period without both dates as the period alone', () => {
    expect(writeState({ ...read(''), period: 'custom', from: '2024-01-08' })).toBe('?period=custom');
    expect(writeState({ ...read(''), period: '7d' })).toBe('?period=7d');
  });

  it('drops filters that are not JSON, not a list, or not lists themselves', () => {
    expect(read('filters=not-json').filters).toEqual([]);
    expect(read(`filters=${encodeURIComponent('{"a":1}')}`).filters).toEqual([]);
    expect(read(`filters=${encodeURIComponent('[["is","event:page",["/"]],"stray",7]')}`).filters).toEqual([['is', 'event:page', ['/']]]);
  });

  it('turns a custom comparison without two dates off, and ignores a comparison or interval it does not know', () => {
    expect(read('compare=custom&compare_from=2024-01-01').compare).toBe('off');
    expect(read('compare=custom&compare_from=2024-01-01&compare_to=January').compare).toBe('off');
    expect(read('compare=custom&compare_from=2024-01-01&compare_to=2024-01-02')).toMatchObject({
      compare: 'custom',
      compareFrom: '2024-01-01',
      compareTo: '2024-01-02',
    });
    expect(read('compare=last_decade').compare).toBe('off');
    expect(read('compare=year_over_year').compare).toBe('year_over_year');
    expect(read('interval=fortnight').interval).toBeNull();
    expect(read('interval=week').interval).toBe('week');
  });

  it('leaves imported data in unless the URL says false', () => {
    expect(read('imported=false').imported).toBe(false);
    expect(read('imported=no').imported).toBe(true);
  });

  it('gives the query API its date range and comparison', () => {
    expect(dateRangeOf(read('period=custom&from=2024-01-08&to=2024-01-09'), '2024-03-01')).toEqual(['2024-01-08', '2024-01-09']);
    expect(dateRangeOf(read('period=7d'), '2024-03-01')).toBe('7d');
    expect(dateRangeOf({ ...read(''), period: 'custom', from: '2024-01-08' }, '2024-03-01')).toBe('custom');
    // Yesterday and the last 30 days are not presets of the query API: their days are asked for.
    expect(dateRangeOf(read('period=yesterday'), '2024-03-01')).toEqual(['2024-02-29', '2024-02-29']);
    expect(dateRangeOf(read('period=30d'), '2024-03-01')).toEqual(['2024-01-31', '2024-02-29']);
    expect(comparisonOf(read(''))).toBeNull();
    expect(comparisonOf(read('compare=previous_period'))).toEqual({ mode: 'previous_period' });
    expect(comparisonOf(read('compare=year_over_year&match_day_of_week=true'))).toEqual({ mode: 'year_over_year', match_day_of_week: true });
    expect(writeState(read('compare=previous_period&match_day_of_week=true'))).toBe('?compare=previous_period&match_day_of_week=true');
    // Weekdays are matched only by the modes that shift the range; a custom comparison names its days.
    expect(writeState({ ...read('compare=custom&compare_from=2024-01-01&compare_to=2024-01-02'), matchDayOfWeek: true })).not.toContain('match_day_of_week');
    expect(comparisonOf(read('compare=custom&compare_from=2024-01-01&compare_to=2024-01-02'))).toEqual({
      mode: 'custom',
      date_range: ['2024-01-01', '2024-01-02'],
    });
    expect(comparisonOf({ ...read(''), compare: 'custom' })).toBeNull();
  });
});

describe('the graph intervals a range offers', () => {
  it('offers buckets fine enough to show a shape and coarse enough to read', () => {
    expect(intervalsFor(1)).toEqual(['minute', 'hour']);
    expect(intervalsFor(7)).toEqual(['hour', 'day']);
    expect(intervalsFor(28)).toEqual(['hour', 'day', 'week']);
    expect(intervalsFor(91)).toEqual(['day', 'week', 'month']);
    expect(intervalsFor(2000)).toEqual(['week', 'month']);
  });
});

describe('the metrics asked beside filters', () => {
  const metrics = ['visitors', 'views_per_visit', 'exit_rate', 'bounce_rate'];

  it('leaves out views per visit and exit rate beside a plain event filter, nested ones too', () => {
    expect(metricsBeside(metrics, [['is', 'event:page', ['/']]])).toEqual(['visitors', 'bounce_rate']);
    expect(metricsBeside(metrics, [['not', ['is', 'event:name', ['Signup']]]])).toEqual(['visitors', 'bounce_rate']);
    expect(
      metricsBeside(metrics, [
        [
          'or',
          [
            ['is', 'visit:source', ['Google']],
            ['contains', 'event:page', ['/blog']],
          ],
        ],
      ]),
    ).toEqual(['visitors', 'bounce_rate']);
  });

  it('keeps them beside visit filters and behaviours, which keep whole visits', () => {
    expect(metricsBeside(metrics, [])).toEqual(metrics);
    expect(metricsBeside(metrics, [['is', 'visit:entry_page', ['/']]])).toEqual(metrics);
    expect(metricsBeside(metrics, [['has_done', ['is', 'event:goal', ['Signup']]]])).toEqual(metrics);
    expect(metricsBeside(metrics, [['has_not_done', ['is', 'event:page', ['/']]]])).toEqual(metrics);
  });
});

describe('filters in words', () => {
  const says = (filter: Filter) => describeFilter(filter);

  it('names the dimension, the operator and the values', () => {
    expect(says(['is', 'event:page', ['/pricing']])).toBe('Page is /pricing');
    expect(says(['contains_not', 'visit:source', ['Google', 'Bing']])).toBe('Source does not contain Google or Bing');
    expect(says(['matches', 'event:props:plan', ['^pro']])).toBe('Property plan matches ^pro');
    // A country by its name in the reader's language (its flag is a picture beside the chip's words).
    expect(says(['is', 'visit:country', ['FR']])).toBe(`Country is ${new Intl.DisplayNames(undefined, { type: 'region' }).of('FR')}`);
    expect(says(['is', 'visit:country', ['']])).toBe('Country is (unknown)');
  });

  it('says what a visit did, or never did', () => {
    expect(says(['has_done', ['is', 'event:goal', ['Signup']]])).toBe('Visits that reached goal Signup');
    expect(says(['has_not_done', ['contains', 'event:page', ['/blog']]])).toBe('Visits that did not view a page that contains /blog');
    expect(says(['has_done', ['is', 'event:hostname', ['example.com']]])).toBe('Visits that had an event whose hostname is example.com');
  });

  it('reads combinators, and shows any other filter as it is', () => {
    expect(says(['not', ['is', 'event:page', ['/a']]])).toBe('not (Page is /a)');
    expect(
      says([
        'or',
        [
          ['is', 'event:page', ['/a']],
          ['is', 'visit:source', ['Google']],
        ],
      ]),
    ).toBe('(Page is /a or Source is Google)');
    expect(says(['whatever', 1])).toBe('["whatever",1]');
  });

  it('labels dimensions it does not list by their own name', () => {
    expect(dimensionLabel('visit:utm_term')).toBe('visit:utm_term');
    expect(dimensionLabel('visit:os_version')).toBe('OS version');
  });
});
