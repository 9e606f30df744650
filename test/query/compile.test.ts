import { describe, expect, it } from 'vitest';
import { loadExchangeRates } from '../../src/query/exchangeRates.js';
import type { SiteContext } from '../../src/query/model.js';
import { resolveQuery } from '../../src/query/plan/resolve.js';
import { parseRequest } from '../../src/query/request/v2.js';
import { compileQuery, planTables } from '../../src/query/sql/compile.js';
import { SqlParams } from '../../src/query/sqlParams.js';

const site: SiteContext = {
  id: 7,
  domain: 'example.com',
  timezone: 'Etc/UTC',
  includedClassifications: [],
  rawEventsFrom: null,
  goals: [{ displayName: 'Buy', eventName: 'Buy', pagePath: null, scrollThreshold: -1, currency: 'EUR' }],
};
const rates = loadExchangeRates(null);

function compile(body: Record<string, unknown>) {
  const q = resolveQuery(parseRequest({ site_id: 'example.com', date_range: '7d', ...body }), {
    site,
    now: Date.parse('2024-01-10T12:00:00Z'),
    siteStart: null,
  });
  return { q, compiled: compileQuery({ q, params: new SqlParams(), range: q.range, sampleRate: null }, { rates, paginate: true }) };
}

describe('compileQuery', () => {
  it('binds every request value as a parameter, so names and patterns cannot alter the SQL', () => {
    const evil = "x') OR 1=1 --";
    const { compiled } = compile({
      metrics: [`sum(event:props:${evil})`],
      dimensions: [`event:props:${evil}`],
      filters: [
        ['matches', 'event:page', [`^/a'; DROP TABLE events; --`]],
        ['is', `event:props:${evil}`, [evil]],
        ['contains', 'visit:source', ["'"]],
      ],
    });
    expect(compiled.sql).not.toContain(evil);
    expect(compiled.sql).not.toContain('DROP TABLE');
    expect(Object.values(compiled.params)).toContain(evil);
    expect(Object.values(compiled.params)).toContain(`(?:^/a'; DROP TABLE events; --)`);
  });

  it('reads visits alone from sessions, events from events, and splits when both are asked', () => {
    expect(planTables(compile({ metrics: ['visitors', 'bounce_rate'], dimensions: ['visit:source'] }).q)).toBe('sessions');
    expect(planTables(compile({ metrics: ['visitors', 'pageviews'], dimensions: ['visit:source'] }).q)).toBe('events');
    expect(planTables(compile({ metrics: ['bounce_rate'], filters: [['is', 'event:name', ['Buy']]] }).q)).toBe('sessions');
    expect(planTables(compile({ metrics: ['pageviews', 'bounce_rate'], dimensions: ['event:page'] }).q)).toBe('split');
  });

  it('reads the visit ids a filter through the other table keeps first (PREWHERE), the rest of the conditions after', () => {
    const { sql } = compile({ metrics: ['visitors', 'bounce_rate'], dimensions: ['visit:entry_page'], filters: [['is', 'event:page', ['/pricing']]] }).compiled;
    expect(sql).toMatch(/FROM sessions PREWHERE \(session_id IN \(SELECT session_id FROM events WHERE .*pathname IN .*\)\) WHERE \(site_id = /);
    const visitFilter = compile({
      metrics: ['pageviews'],
      filters: [
        ['is', 'visit:entry_page', ['/']],
        ['is', 'event:name', ['Buy']],
      ],
    }).compiled.sql;
    expect(visitFilter).toMatch(/FROM events PREWHERE \(session_id IN \(SELECT session_id FROM sessions WHERE .*\)\) WHERE .*name IN/);
    // A filter the rows carry themselves stays in WHERE.
    expect(compile({ metrics: ['pageviews'], filters: [['is', 'event:page', ['/']]] }).compiled.sql).not.toContain('PREWHERE');
  });

  it('excludes classified events unless the site puts them back', () => {
    expect(compile({ metrics: ['pageviews'] }).compiled.sql).toContain("classification = ''");
  });

  it('samples every table read at the same rate', () => {
    const q = compile({
      metrics: ['visitors', 'pageviews'],
      filters: [
        ['has_done', ['is', 'event:name', ['Buy']]],
        ['is', 'visit:entry_page', ['/']],
      ],
    }).q;
    const { sql } = compileQuery({ q, params: new SqlParams(), range: q.range, sampleRate: 0.25 }, { rates, paginate: true });
    expect(sql.match(/FROM events SAMPLE 0\.25/g)).toHaveLength(2);
    expect(sql.match(/FROM sessions SAMPLE 0\.25/g)).toHaveLength(1);
    expect(sql).toContain('* 4)');
  });
  it('leaves rows that reached no goal out of a goal breakdown before the array join', () => {
    const { compiled } = compile({ metrics: ['visitors', 'events'], dimensions: ['event:goal'] });
    const where = compiled.sql.slice(compiled.sql.indexOf('WHERE'));
    const buy = Object.entries(compiled.params)
      .filter(([, value]) => value === 'Buy')
      .map(([key]) => `(name = {${key}:String})`);
    expect(buy.some((condition) => where.includes(condition))).toBe(true);
  });
});

describe('request validation', () => {
  const error = (body: Record<string, unknown>) => {
    try {
      compile(body);
    } catch (e) {
      return (e as Error).message;
    }
    return 'no error';
  };

  it('explains each invalid input', () => {
    expect(error({ metrics: ['visitors'], dimensions: ['visit:source', 'visit:os', 'visit:browser', 'visit:device', 'visit:city', 'visit:region'] })).toMatch(
      /at most 5 dimensions/,
    );
    expect(error({ metrics: ['visitors'], filters: Array.from({ length: 33 }, () => ['is', 'visit:os', ['x']]) })).toMatch(/at most 32 filters/);
    expect(error({ metrics: ['visitors'], filters: [['is', 'visit:os', Array.from({ length: 1001 }, (_, i) => `v${i}`)]] })).toMatch(/at most 1,000 values/);
    expect(error({ metrics: ['visitors'], pagination: { limit: 10_001 } })).toMatch(/#\/pagination\/limit may be at most 10,000/);
    expect(error({ metrics: ['visitors'], filters: [['is', 'time:day', ['2024-01-01']]] })).toMatch(/time dimension .* cannot be filtered/);
    expect(error({ metrics: ['conversion_rate'] })).toMatch(/^Metric `conversion_rate` can only be queried with event:goal filters or dimensions/);
    expect(error({ metrics: ['scroll_depth'] })).toMatch(/^Metric `scroll_depth` can only be queried with event:page filters or dimensions/);
    expect(error({ metrics: ['bounce_rate'], dimensions: ['event:name'] })).toMatch(
      /^Session metric\(s\) `bounce_rate` cannot be queried along with event dimensions \(`event:name`\)/,
    );
    expect(error({ metrics: ['pageviews'], dimensions: ['visit:exit_page'] })).toMatch(/cannot be combined with visit dimension\(s\) visit:exit_page/);
    expect(error({ metrics: ['visitors'], date_range: ['2024-01-01', 'soon'] })).toMatch(/"soon" is not a valid ISO date/);
    expect(error({ metrics: ['visitors'], timezone: 'Mars/Olympus' })).toMatch(/"Mars\/Olympus" is not an IANA time zone/);
    expect(error({ metrics: ['visitors'], filters: [['matches', 'event:page', ['(?=x)']]] })).toMatch(/look-around/);
    expect(error({ metrics: ['visitors'], filters: [['matches', 'event:page', ['(']]] })).toMatch(/not a valid regular expression/);
    expect(error({ metrics: ['visitors'], filters: [['is', 'event:goal', ['Sell']]] })).toMatch(/goal `Sell` is not configured/);
    expect(error({ metrics: ['visitors'], filters: [['has_done', ['has_done', ['is', 'event:name', ['x']]]]] })).toMatch(/cannot be nested/);
    expect(error({ metrics: ['visitors'], order_by: [['pageviews', 'desc']] })).toMatch(/neither a queried metric nor a queried dimension/);
    expect(error({ metrics: ['visitors'], dimensions: ['time:minute'], date_range: '7d' })).toMatch(/time:minute is only available/);
  });
});
