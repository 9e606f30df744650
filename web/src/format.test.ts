import { METRIC_DESCRIPTIONS } from '@contracts/metrics';
import { describe, expect, it } from 'vitest';
import {
  countOf,
  exactFigure,
  exactNumber,
  formatDuration,
  formatMetric,
  formatMoney,
  formatNumber,
  formatPercent,
  formatPoints,
  formatTime,
  metricHeading,
} from './format';

describe('numbers as people read them', () => {
  it('shortens large numbers to k and M, keeping a decimal only where it tells', () => {
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber(1000)).toBe('1k');
    expect(formatNumber(1234)).toBe('1.2k');
    expect(formatNumber(10_500)).toBe('10.5k');
    expect(formatNumber(12_345)).toBe('12.3k');
    expect(formatNumber(10_000)).toBe('10k');
    expect(formatNumber(123_456)).toBe('123k');
    expect(formatNumber(999_999)).toBe('1M');
    expect(formatNumber(1_500_000)).toBe('1.5M');
    expect(formatNumber(12_300_000)).toBe('12.3M');
    expect(formatNumber(250_000_000)).toBe('250M');
    expect(formatNumber(-1500)).toBe('-1.5k');
  });

  it('gives the exact figure behind a shortened one, for a title on hover', () => {
    expect(exactNumber(10_512)).toBe((10_512).toLocaleString());
    expect(exactNumber(2.345)).toBe((2.35).toLocaleString());
    expect(exactNumber(null)).toBeUndefined();
  });

  it('counts in the singular for exactly one', () => {
    expect(countOf(1, 'visitor')).toBe('1 visitor');
    expect(countOf(0, 'visitor')).toBe('0 visitors');
    expect(countOf(2, 'visitor')).toBe('2 visitors');
    expect(countOf(1234, 'visitor')).toBe('1.2k visitors');
  });

  it('shows fractions with two decimals below ten and one above, without trailing zeros', () => {
    expect(formatNumber(2.5)).toBe('2.5');
    expect(formatNumber(4.567)).toBe('4.57');
    expect(formatNumber(12.34)).toBe('12.3');
    expect(formatNumber(2.001)).toBe('2');
  });

  it('shows nothing to compare with as a dash', () => {
    expect(formatNumber(null)).toBe('—');
    expect(formatNumber(undefined)).toBe('—');
    expect(formatDuration(null)).toBe('—');
    expect(formatPercent(null)).toBe('—');
    expect(formatMoney(null, 'EUR')).toBe('—');
    expect(formatTime(null)).toBe('—');
  });

  it('reads durations in seconds, minutes and hours', () => {
    expect(formatDuration(45.4)).toBe('45s');
    expect(formatDuration(200)).toBe('3m 20s');
    expect(formatDuration(3725)).toBe('1h 2m');
  });

  it('shows every percentage by one rule: one decimal, no trailing ".0", two decimals only under 0.1', () => {
    // The figures of one review's columns, each of which had come out in its own way.
    expect([52.43, 8.44, 51, 8.18].map(formatPercent)).toEqual(['52.4%', '8.4%', '51%', '8.2%']);
    expect([44.3, 44, 39].map(formatPercent)).toEqual(['44.3%', '44%', '39%']);
    expect(formatPercent(29.45)).toBe('29.5%');
    expect(formatPercent(12.345)).toBe('12.3%');
    expect(formatPercent(99.96)).toBe('100%');
    expect(formatPercent(100)).toBe('100%');
    expect(formatPercent(0)).toBe('0%');
    expect(formatPercent(0.04)).toBe('0.04%');
    expect(formatPercent(0.1)).toBe('0.1%');
    expect(formatPercent(-0.02)).toBe('-0.02%');
    expect(formatPercent(-0.001)).toBe('0.00%');
    expect(formatPercent(-0.04)).toBe('-0.04%');
    expect(formatPercent(-12.25)).toBe('-12.3%');
    expect(formatPercent(1250)).toBe('1250%');
    expect(formatPoints(2.25)).toBe('2.3 pts');
    expect(formatPoints(3)).toBe('3 pts');
    expect(formatPoints(null)).toBe('—');
  });

  it('shows money', () => {
    expect(formatMoney(12.5, 'EUR')).toBe(new Intl.NumberFormat(undefined, { style: 'currency', currency: 'EUR' }).format(12.5));
    // A code Intl does not take still shows the amount and the code.
    expect(formatMoney(12.5, 'EURO')).toBe('12.50 EURO');
  });
});

describe('metric figures by their unit in the registry', () => {
  it('formats durations, percentages, money and counts each their own way', () => {
    expect(formatMetric('visit_duration', 200)).toBe('3m 20s');
    expect(formatMetric('time_on_page', 45)).toBe('45s');
    expect(formatMetric('bounce_rate', 45)).toBe('45%');
    expect(formatMetric('scroll_depth', 70)).toBe('70%');
    expect(formatMetric('exit_rate', 12.5)).toBe('12.5%');
    expect(formatMetric('conversion_rate', 3.2)).toBe('3.2%');
    expect(formatMetric('group_conversion_rate', 3.2)).toBe('3.2%');
    expect(formatMetric('percentage', 50)).toBe('50%');
    expect(formatMetric('total_revenue', 1234.5, 'USD')).toBe(formatMoney(1234.5, 'USD'));
    expect(formatMetric('average_revenue', 10)).toBe(formatMoney(10, 'EUR'));
    expect(formatMetric('revenue_per_visitor', 2, 'GBP')).toBe(formatMoney(2, 'GBP'));
    expect(formatMetric('visitors', 1234)).toBe('1.2k');
    expect(formatMetric('views_per_visit', 2.5)).toBe('2.5');
  });

  it('gives the exact figure on hover only where the shown one is shortened', () => {
    expect(exactFigure('visitors', 10_512)).toBe((10_512).toLocaleString());
    expect(exactFigure('visitors', 999)).toBeUndefined();
    expect(exactFigure('visit_duration', 5000)).toBeUndefined();
    expect(exactFigure('bounce_rate', 45)).toBeUndefined();
  });

  it('formats a custom property aggregate, or a name that is no metric, as a number', () => {
    expect(formatMetric('sum(event:props:amount)', 1234)).toBe('1.2k');
    expect(formatMetric('constructor', 5)).toBe('5');
  });

  it('heads a column of every built-in metric by a name of its own, and any other by its name', () => {
    for (const metric of Object.keys(METRIC_DESCRIPTIONS)) expect(metricHeading(metric)).not.toBe(metric);
    expect(metricHeading('views_per_visit')).toBe('Views per visit');
    expect(metricHeading('bounce_rate')).toBe('Bounce');
    expect(metricHeading('sum(event:props:amount)')).toBe('sum(event:props:amount)');
    expect(metricHeading('toString')).toBe('toString');
  });
});
