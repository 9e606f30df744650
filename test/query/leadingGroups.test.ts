import { describe, expect, it } from 'vitest';
import { resolveQuery } from '../../src/query/plan/resolve.js';
import { parseRequest } from '../../src/query/request/v2.js';
import { candidateCount, ESTIMATE_MARGIN, leadingRows, leadsAll, UNIQ_EXACT_LIMIT } from '../../src/query/rollupReads/leadingGroups.js';

const site = { id: 7, domain: 'example.com', timezone: 'Etc/UTC', includedClassifications: [], goals: [], rawEventsFrom: null };
const resolve = (body: Record<string, unknown>) =>
  resolveQuery(parseRequest({ site_id: 'example.com', date_range: '7d', metrics: ['visitors'], ...body }), {
    site,
    now: Date.parse('2024-01-10T12:00:00Z'),
    siteStart: null,
  });

describe('leading groups (src/query/rollupReads/leadingGroups.ts)', () => {
  it('are read for one stored dimension ordered by visitors, for the page and the row past it', () => {
    expect(leadingRows(resolve({ dimensions: ['event:page'], pagination: { limit: 10, offset: 20 } }), false)).toBe(31);
    expect(leadingRows(resolve({ dimensions: ['visit:source'], metrics: ['visitors', 'bounce_rate'] }), false)).not.toBeNull();
    expect(candidateCount(11)).toBeGreaterThan(11);
  });

  it('are not read when another order, more dimensions, time, imported data or a count of groups is asked', () => {
    expect(leadingRows(resolve({ dimensions: ['event:page'], order_by: [['visitors', 'asc']] }), false)).toBeNull();
    expect(leadingRows(resolve({ dimensions: ['event:page'], metrics: ['pageviews', 'visitors'] }), false)).toBeNull();
    expect(leadingRows(resolve({ dimensions: ['event:page', 'visit:source'] }), false)).toBeNull();
    expect(leadingRows(resolve({ dimensions: ['time:day'] }), false)).toBeNull();
    expect(leadingRows(resolve({ dimensions: ['event:goal'] }), false)).toBeNull();
    expect(leadingRows(resolve({ dimensions: ['event:page'] }), true)).toBeNull();
    expect(leadingRows(resolve({ dimensions: ['event:page'], include: { total_rows: true } }), false)).toBeNull();
  });

  it('settle a page only when its last row has more visitors than any group left out could have, counted exactly', () => {
    expect(leadsAll([50, 40, 30], 3, 0, 29)).toBe(true);
    expect(leadsAll([50, 40, 30], 3, 0, 30)).toBe(false);
    // With an offset the rows start further down: row 4 of the whole result is the second here.
    expect(leadsAll([50, 40], 4, 2, 39)).toBe(true);
    expect(leadsAll([50], 3, 0, 1)).toBe(false);
    // Beyond uniq's exact range a set's estimate may exceed the counts it was merged from by its
    // error: the last row must lead by the margin.
    expect(leadsAll([UNIQ_EXACT_LIMIT + 1], 1, 0, UNIQ_EXACT_LIMIT - 1)).toBe(true);
    expect(leadsAll([UNIQ_EXACT_LIMIT + 1], 1, 0, UNIQ_EXACT_LIMIT)).toBe(false);
    expect(leadsAll([Math.ceil(200_000 * ESTIMATE_MARGIN) + 1], 1, 0, 200_000)).toBe(true);
    expect(leadsAll([Math.floor(200_000 * ESTIMATE_MARGIN)], 1, 0, 200_000)).toBe(false);
  });
});
