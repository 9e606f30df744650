import { describe, expect, it } from 'vitest';
import { loadExchangeRates } from '../../src/query/exchangeRates.js';
import type { SiteContext } from '../../src/query/model.js';
import { type CompletedImport, decideImports, IMPORTED_TABLES, importsWarning } from '../../src/query/plan/importedPlan.js';
import { resolveQuery } from '../../src/query/plan/resolve.js';
import { parseRequest } from '../../src/query/request/v2.js';
import { compileQuery } from '../../src/query/sql/compile.js';
import { SqlParams } from '../../src/query/sqlParams.js';
import { ROLLUPS } from '../../src/stores/clickhouse/schema.js';

const site: SiteContext = {
  id: 7,
  domain: 'example.com',
  timezone: 'Etc/UTC',
  includedClassifications: [],
  rawEventsFrom: null,
  goals: [
    { displayName: 'Signup', eventName: 'Signup', pagePath: null, scrollThreshold: -1, currency: null },
    { displayName: 'Visit /blog*', eventName: null, pagePath: '/blog*', scrollThreshold: -1, currency: null },
  ],
};
const IMPORTS: CompletedImport[] = [{ id: 3, from: '2024-01-01', to: '2024-01-31' }];

function resolve(body: Record<string, unknown>) {
  return resolveQuery(parseRequest({ site_id: site.domain, date_range: ['2024-01-05', '2024-01-06'], include: { imports: true }, ...body }), {
    site,
    now: Date.parse('2024-03-01T12:00:00Z'),
    siteStart: null,
  });
}

function decide(body: Record<string, unknown>, imports = IMPORTS) {
  const q = resolve(body);
  return decideImports(q, imports, [q.range]);
}

describe('decideImports', () => {
  it('picks the one table holding every dimension and filter', () => {
    const table = (body: Record<string, unknown>) => {
      const decision = decide(body);
      return decision.included ? decision.main.table.name : decision;
    };
    expect(table({ metrics: ['visitors', 'bounce_rate'] })).toBe('rollup_visitors');
    expect(table({ metrics: ['visitors'], dimensions: ['visit:utm_source', 'time:day'], filters: [['is', 'visit:source', ['Google']]] })).toBe(
      'rollup_sources',
    );
    expect(table({ metrics: ['visits'], dimensions: ['visit:screen'] })).toBe('rollup_devices');
    expect(
      table({
        metrics: ['visitors'],
        filters: [
          [
            'or',
            [
              ['is', 'visit:os', ['Mac']],
              ['not', ['is', 'visit:os_version', ['14']]],
            ],
          ],
        ],
      }),
    ).toBe('rollup_operating_systems');
    expect(table({ metrics: ['events'], filters: [['is', 'event:goal', ['Signup']]] })).toBe('rollup_custom_events');
  });

  it('gives the reference’s skip reasons in its order', () => {
    expect(decide({ metrics: ['visitors'], dimensions: ['time:hour'] }, [])).toEqual({ included: false, reason: 'unsupported_interval' });
    expect(decide({ metrics: ['exit_rate'], dimensions: ['visit:exit_page'] }, [])).toEqual({ included: false, reason: 'no_imported_data' });
    expect(decide({ metrics: ['exit_rate'], dimensions: ['visit:exit_page'] }, [{ id: 1, from: '2023-01-01', to: '2024-01-04' }])).toEqual({
      included: false,
      reason: 'out_of_range',
    });
    expect(decide({ metrics: ['exit_rate'], dimensions: ['visit:exit_page'] })).toEqual({
      included: false,
      reason: 'unsupported_query',
      why: 'the metric exit_rate has no imported form',
    });
  });

  it('says which part of a query imported data cannot answer', () => {
    const why = (body: Record<string, unknown>) => {
      const decision = decide(body);
      return decision.included ? null : decision.why;
    };
    expect(why({ metrics: ['visitors'], dimensions: ['visit:source', 'visit:country'] })).toBe('no imported table holds all of visit:country, visit:source');
    expect(why({ metrics: ['visitors'], dimensions: ['visit:language'] })).toBe('no imported table holds visit:language');
    expect(why({ metrics: ['visits'], dimensions: ['event:name'] })).toBe('imported custom events carry no visits');
    expect(why({ metrics: ['visitors'], dimensions: ['event:goal'] })).toBe('page goals are not matched against imported data, only custom-event goals');
    expect(why({ metrics: ['visitors'], filters: [['has_not_done', ['is', 'event:name', ['Signup']]]] })).toBe(
      'imported data holds no visits to filter by what they did (has_not_done)',
    );
  });

  it('reads the whole a share divides by from the table the native side would', () => {
    const whole = (body: Record<string, unknown>) => {
      const decision = decide(body);
      return decision.included ? [decision.main.table.name, decision.total?.table.name, decision.total?.dimensions] : decision;
    };
    expect(whole({ metrics: ['percentage'], dimensions: ['visit:browser'] })).toEqual(['rollup_browsers', 'rollup_browsers', []]);
    expect(whole({ metrics: ['conversion_rate'], dimensions: ['event:goal'], filters: [['is', 'event:goal', ['Signup']]] })).toEqual([
      'rollup_custom_events',
      'rollup_visitors',
      [],
    ]);
    expect(whole({ metrics: ['group_conversion_rate'], dimensions: ['time:day', 'event:goal'], filters: [['is', 'event:goal', ['Signup']]] })).toEqual([
      'rollup_custom_events',
      'rollup_visitors',
      [0],
    ]);
    expect(decide({ metrics: ['percentage', 'conversion_rate'], filters: [['is', 'event:goal', ['Signup']]] })).toMatchObject({
      why: 'imported data answers one of percentage, conversion_rate per query',
    });
    // The whole keeps the event-name filter, which the custom-events table holds too.
    expect(
      whole({
        metrics: ['conversion_rate'],
        filters: [
          ['is', 'event:goal', ['Signup']],
          ['is', 'event:name', ['Signup']],
        ],
      }),
    ).toEqual(['rollup_custom_events', 'rollup_custom_events', []]);
  });

  it('words the warnings as the reference does', () => {
    const q = resolve({ metrics: ['visitors'], dimensions: ['time:hour'] });
    expect(importsWarning(decideImports(q, IMPORTS, [q.range]))).toBe(
      'Imported stats are not included because the time dimension (i.e. the interval) is too short.',
    );
    expect(importsWarning({ included: false, reason: 'out_of_range' })).toBeNull();
  });

  it('names only columns the imported tables have', () => {
    for (const table of IMPORTED_TABLES) {
      const columns = ROLLUPS.find((def) => def.name === table.name)!.columns.map((column) => column.split(' ')[0]);
      const named = [...Object.values(table.dimensions), ...Object.values(table.totals)].map((sql) => sql.replace(/^toString\((.+)\)$/, '$1'));
      expect(columns).toEqual(expect.arrayContaining(named));
    }
  });
});

describe('the merged statement', () => {
  it('binds every request value of the imported side as a parameter', () => {
    const evil = "x') OR 1=1 --";
    const q = resolve({ metrics: ['visitors', 'bounce_rate'], dimensions: ['visit:source'], filters: [['contains', 'visit:source', [evil]]] });
    const decision = decideImports(q, IMPORTS, [q.range]);
    if (!decision.included) throw new Error('expected imports to be included');
    const compiled = compileQuery(
      { q, params: new SqlParams(), range: q.range, sampleRate: null },
      { rates: loadExchangeRates(null), paginate: true, imported: decision },
    );
    expect(compiled.sql).toContain('FROM rollup_sources');
    expect(compiled.sql).toContain('FULL OUTER JOIN');
    expect(compiled.sql).not.toContain(evil);
    expect(compiled.sql).not.toContain('2024-01-05');
    expect(Object.values(compiled.params)).toEqual(expect.arrayContaining([[evil], [3], '2024-01-05', '2024-01-06']));
  });
});
