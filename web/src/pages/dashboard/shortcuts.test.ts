import { describe, expect, it } from 'vitest';
import { presetDays, shiftedRange, siteToday } from './periods';
import { SHORTCUTS, shortcutOf, viewChange } from './shortcuts';
import { readState } from './state';

const press = (key: string, extra: Partial<{ metaKey: boolean; ctrlKey: boolean; altKey: boolean; typing: boolean }> = {}) =>
  shortcutOf({ key, metaKey: false, ctrlKey: false, altKey: false, typing: false, ...extra });
const view = (query: string) => readState(new URLSearchParams(query));
const today = '2024-03-13';

// Plausible's letters (its assets/js/dashboard/dashboard-time-periods.ts), listed by the ? overlay.
describe('keyboard shortcuts', () => {
  it('maps Plausible letters to the ranges', () => {
    const periods = Object.fromEntries(SHORTCUTS.flatMap((s) => (s.action.kind === 'period' ? [[s.keys, s.action.period]] : [])));
    expect(periods).toEqual({
      D: 'day',
      E: 'yesterday',
      R: 'realtime',
      W: '7d',
      F: '28d',
      T: '30d',
      N: '91d',
      M: 'month',
      P: 'last_month',
      Y: 'year',
      L: '12mo',
      A: 'all',
    });
    expect(press('e')).toEqual({ kind: 'period', period: 'yesterday' });
    expect(press('T')).toEqual({ kind: 'period', period: '30d' });
    expect(press('c')).toEqual({ kind: 'custom' });
    expect(press('x')).toEqual({ kind: 'compare' });
    expect(press('?')).toEqual({ kind: 'help' });
    expect(press('ArrowLeft')).toEqual({ kind: 'shift', direction: -1 });
    expect(press('ArrowRight')).toEqual({ kind: 'shift', direction: 1 });
    expect(press('q')).toBeNull();
  });

  it('does nothing while typing or with a modifier held', () => {
    expect(press('e', { typing: true })).toBeNull();
    expect(press('e', { ctrlKey: true })).toBeNull();
    expect(press('e', { metaKey: true })).toBeNull();
    expect(press('ArrowLeft', { altKey: true })).toBeNull();
  });

  it('takes the digits 1–9 as places in the site list, never 0 nor while typing', () => {
    expect(press('1')).toEqual({ kind: 'site', position: 1 });
    expect(press('9')).toEqual({ kind: 'site', position: 9 });
    expect(press('0')).toBeNull();
    expect(press('3', { typing: true })).toBeNull();
    expect(press('3', { ctrlKey: true })).toBeNull();
  });

  it('toggles the comparison with the previous period', () => {
    expect(viewChange({ kind: 'compare' }, view(''), today)).toMatchObject({ compare: 'previous_period' });
    expect(viewChange({ kind: 'compare' }, view('compare=year_over_year'), today)).toMatchObject({ compare: 'off' });
  });

  it('moves a range back and forward by its length, months by months, never past today', () => {
    const shift = (query: string, direction: -1 | 1) => viewChange({ kind: 'shift', direction }, view(query), today);
    expect(shift('period=day', -1)).toEqual({ period: 'yesterday', from: null, to: null, interval: null });
    expect(shift('period=yesterday', 1)).toEqual({ period: 'day', from: null, to: null, interval: null });
    expect(shift('period=yesterday', -1)).toMatchObject({ period: 'custom', from: '2024-03-11', to: '2024-03-11' });
    expect(shift('period=7d', -1)).toMatchObject({ from: '2024-02-28', to: '2024-03-05' });
    expect(shift('period=last_month', -1)).toMatchObject({ from: '2024-01-01', to: '2024-01-31' });
    expect(shift('period=last_month', 1)).toMatchObject({ from: '2024-03-01', to: '2024-03-13' });
    expect(shift('period=day', 1)).toBeNull();
    expect(shift('period=realtime', -1)).toBeNull();
    expect(shift('period=all', -1)).toBeNull();
  });
});

describe('the days of a period', () => {
  it('ends the last N days yesterday, and months on their last day', () => {
    expect(presetDays('30d', today)).toEqual(['2024-02-12', '2024-03-12']);
    expect(presetDays('yesterday', '2024-03-01')).toEqual(['2024-02-29', '2024-02-29']);
    expect(presetDays('12mo', today)).toEqual(['2023-03-01', '2024-02-29']);
    expect(presetDays('year', today)).toEqual(['2024-01-01', today]);
    expect(presetDays('realtime', today)).toBeNull();
    expect(shiftedRange(['2024-01-01', '2024-03-31'], -1, today)).toEqual(['2023-10-01', '2023-12-31']);
  });

  it("reads today in the site's time zone", () => {
    const instant = Date.parse('2024-03-13T23:30:00Z');
    expect(siteToday('Etc/UTC', instant)).toBe('2024-03-13');
    expect(siteToday('Europe/Berlin', instant)).toBe('2024-03-14');
    expect(siteToday('America/New_York', instant)).toBe('2024-03-13');
  });
});
