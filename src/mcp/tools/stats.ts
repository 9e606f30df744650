import { z } from 'zod';
import { JOURNEY_LIMITS, journeysRequest } from '../../contracts/journeys.js';
import { queryRequest } from '../../contracts/query.js';
import { runJourneys } from '../../query/journeys/runJourneys.js';
import { type QueryEngineDeps, runQuery } from '../../query/run/engine.js';
import { runFunnel } from '../../query/run/funnel.js';
import { rawTool, type Tool, type ToolContext, tool } from '../registry.js';
import { comparedMetric, fillTimeline, reportJson } from '../reports.js';
import { siteField } from './sites.js';

const DEFAULT_RANGE = '28d';

const dateRangeField = z
  .union([z.string(), z.tuple([z.string(), z.string()])])
  .optional()
  .describe(
    `A preset (day, 24h, 7d, 28d, 91d, month, last_month, year, 12mo, all) or a pair of ISO dates ["2024-01-01", "2024-01-31"], both days included, in the site's time zone. Default ${DEFAULT_RANGE}.`,
  );
const filtersField = z
  .array(z.unknown())
  .optional()
  .describe('Filters as in the query tool, e.g. [["is", "visit:country", ["DE"]], ["contains", "event:page", ["/blog"]]].');
const limitField = z.number().int().min(1).max(1000).optional().describe('Rows per page, 1 to 1,000; default 10.');
const offsetField = z.number().int().min(0).optional().describe('Rows to skip, for the next page; default 0.');

/** What a report is of: a site, over a range, filtered. */
const reportFields = { site_id: siteField, date_range: dateRangeField, filters: filtersField };

const breakdownInput = z.strictObject({ ...reportFields, limit: limitField, offset: offsetField });
type BreakdownArgs = z.infer<typeof breakdownInput>;

// The query API's own schema with a word on each field for the assistant; the engine validates.
const { shape } = queryRequest;
const queryInput = queryRequest.extend({
  site_id: siteField,
  metrics: shape.metrics.describe(
    'Metrics to compute, e.g. ["visitors", "visits", "pageviews", "bounce_rate", "visit_duration", "conversion_rate"]; describe_site lists them all.',
  ),
  date_range: shape.date_range.describe(
    "A preset (day, 24h, 7d, 28d, 91d, month, last_month, year, 12mo, all, realtime, 5m) or a pair of ISO dates or date-times with offset; days are in the site's time zone, both ends included.",
  ),
  dimensions: shape.dimensions.describe(
    'Break down by up to 5 dimensions, e.g. ["visit:source"], ["event:page"], ["time:day"], ["event:goal"], ["event:props:plan"].',
  ),
  filters: shape.filters.describe(
    'Filters, all of which must hold: [operator, dimension, values] with operator is, is_not, contains, contains_not, matches, matches_not; also ["and"|"or", [filters]], ["not", filter], ["has_done"|"has_not_done", filter].',
  ),
  order_by: shape.order_by.describe('E.g. [["visitors", "desc"]]; default: the first metric, largest first (time ascending).'),
  pagination: shape.pagination.describe('{"limit": 100, "offset": 0} by default; an answer with more rows says so.'),
  include: shape.include.describe(
    '{"comparisons": {"mode": "previous_period" | "year_over_year"}} adds the earlier figures and changes to every row; {"imports": true} adds the site\'s imported history (the shortcut tools always do).',
  ),
  timezone: shape.timezone.describe("An IANA time zone to read the date range in, instead of the site's."),
  exact: shape.exact.describe('true: never answer from a sample on very large sites (slower).'),
});

// POST /api/v2/journeys's own schema, described for the assistant; the engine validates.
const journeysInput = journeysRequest.extend({
  site_id: siteField,
  date_range: dateRangeField,
  filters: filtersField,
  steps: journeysRequest.shape.steps.describe(
    `The journey so far, up to ${JOURNEY_LIMITS.steps} steps taken one right after another within a visit: {"page": "/pricing"}, a folder {"page": "/blog/**"} (that page or any below it), {"event": "Signup"} or {"event": "Signup", "page": "/pricing"}. Leave out to rank every step.`,
  ),
  direction: journeysRequest.shape.direction.describe(
    '"forward" (default): what visitors did right after the last step. "backward": the steps read back in time, the first being the latest, and the answer lists what came right before the last.',
  ),
  candidates: journeysRequest.shape.candidates.describe(
    `How many next steps to list, 1 to ${JOURNEY_LIMITS.candidates}; default ${JOURNEY_LIMITS.defaultCandidates}.`,
  ),
  search: journeysRequest.shape.search.describe('Keep only next steps whose label holds this text (at least 3 characters, any case).'),
  timezone: queryRequest.shape.timezone.describe("An IANA time zone to read the date range in, instead of the site's."),
  exact: queryRequest.shape.exact.describe('true: never answer from a sample on very large sites (slower).'),
});

const run = (ctx: ToolContext, body: Record<string, unknown>) => runQuery(ctx.deps.engine, ctx.caller.teamId, body, { viewerId: ctx.caller.userId });

/**
 * What the shortcut tools include: a site's imported history too (docs/imports.md), as the
 * dashboard shows it, wherever an imported table can answer; the report says when it could not.
 */
const withImports = (include: Record<string, unknown> = {}) => ({ include: { imports: true, ...include } });

const common = (args: { site_id: string; date_range?: string | [string, string] | undefined; filters?: unknown[] | undefined }) => ({
  site_id: args.site_id,
  date_range: args.date_range ?? DEFAULT_RANGE,
  ...(args.filters ? { filters: args.filters } : {}),
});

async function breakdown(ctx: ToolContext, args: BreakdownArgs, dimension: string, metrics: string[]) {
  const pagination = { limit: args.limit ?? 10, offset: args.offset ?? 0 };
  return reportJson(await run(ctx, { ...common(args), metrics, dimensions: [dimension], pagination, ...withImports() }));
}

function breakdownTool(name: string, title: string, description: string, dimension: string, metrics: string[]): Tool {
  return tool({
    name,
    title,
    description: `${description} Metrics: ${metrics.join(', ')}. Busiest first; paginated.`,
    scope: 'stats:read',
    effect: 'read',
    input: breakdownInput,
    run: (args, ctx) => breakdown(ctx, args, dimension, metrics),
  });
}

const DEVICE_DIMENSIONS = { device: 'visit:device', browser: 'visit:browser', os: 'visit:os', screen: 'visit:screen' } as const;
const COMPARED_METRICS = ['visitors', 'visits', 'pageviews', 'views_per_visit', 'bounce_rate', 'visit_duration'];

/** The resolved range of a request (a funnel report does not echo one), from a one-row query. */
async function resolvedRange(engine: QueryEngineDeps, teamId: number, body: Record<string, unknown>) {
  const { query: echo } = await runQuery(engine, teamId, { ...body, metrics: ['visitors'] });
  return { from: echo.date_range[0], to: echo.date_range[1], timezone: echo.timezone };
}

export const statsTools: Tool[] = [
  rawTool({
    name: 'query',
    title: 'Query statistics',
    description:
      'The full query API (POST /api/v2/query): metrics over a date range, optionally broken down by up to 5 dimensions, filtered, ordered, paginated and compared with another period. Example: {"site_id": "example.com", "metrics": ["visitors", "bounce_rate"], "date_range": "7d", "dimensions": ["visit:source"], "filters": [["is", "visit:country", ["DE"]]]}. Call describe_site for the metrics, dimensions, goals and custom properties a site offers. Use a shortcut tool when one fits.',
    scope: 'stats:read',
    effect: 'read',
    input: queryInput,
    run: async (args, ctx) => reportJson(await run(ctx, args)),
  }),
  breakdownTool('top_pages', 'Top pages', 'The most visited pages (paths) of a site.', 'event:page', ['visitors', 'pageviews']),
  breakdownTool(
    'top_sources',
    'Top sources',
    'Where visits came from (referrer sources such as Google, with "Direct / None" for no referrer).',
    'visit:source',
    ['visitors', 'visits', 'bounce_rate', 'visit_duration'],
  ),
  breakdownTool('top_countries', 'Top countries', 'Visitors by country (ISO 3166-1 alpha-2 codes).', 'visit:country', ['visitors', 'percentage']),
  tool({
    name: 'devices',
    title: 'Devices',
    description: 'Visitors by device type (default), browser, operating system or screen size, with each share of all visitors. Busiest first; paginated.',
    scope: 'stats:read',
    effect: 'read',
    input: breakdownInput.extend({
      by: z.enum(['device', 'browser', 'os', 'screen']).optional().describe('What to break down by; default device (Desktop, Mobile, Tablet).'),
    }),
    run: ({ by, ...args }, ctx) => breakdown(ctx, args, DEVICE_DIMENSIONS[by ?? 'device'], ['visitors', 'percentage']),
  }),
  tool({
    name: 'timeseries',
    title: 'Time series',
    description:
      'Metrics per time bucket over a date range, every bucket listed (empty ones as 0). The interval defaults to what suits the range (hours for a day, days up to about a month, then weeks or months).',
    scope: 'stats:read',
    effect: 'read',
    input: z.strictObject({
      ...reportFields,
      interval: z.enum(['minute', 'hour', 'day', 'week', 'month']).optional().describe('Bucket size; default chosen from the range.'),
      metrics: z.array(z.string()).min(1).max(8).optional().describe('Metrics per bucket; default ["visitors", "pageviews"].'),
    }),
    run: async (args, ctx) => {
      const response = await run(ctx, {
        ...common(args),
        metrics: args.metrics ?? ['visitors', 'pageviews'],
        dimensions: [args.interval ? `time:${args.interval}` : 'time'],
        ...withImports({ time_labels: true }),
        pagination: { limit: 10_000 },
      });
      return reportJson(response, fillTimeline(response));
    },
  }),
  tool({
    name: 'realtime_visitors',
    title: 'Realtime visitors',
    description: 'How many visitors are on the site now: unique visitors of the last 5 minutes.',
    scope: 'stats:read',
    effect: 'read',
    input: z.strictObject({ site_id: siteField }),
    run: async ({ site_id }, ctx) => {
      const response = await run(ctx, { site_id, metrics: ['visitors'], date_range: '5m' });
      const echo = response.query;
      return { site: echo.site_id, visitors: response.results[0]?.metrics[0] ?? 0, unit: 'count', window: 'the last 5 minutes', as_of: echo.date_range[1] };
    },
  }),
  tool({
    name: 'funnel_report',
    title: 'Funnel report',
    description:
      "How many visitors went through a funnel's steps in order within one visit, with conversion and drop-off per step. Funnels are listed by describe_site. Percentages are strings in percent.",
    scope: 'stats:read',
    effect: 'read',
    input: z.strictObject({
      site_id: siteField,
      funnel: z.string().min(1).describe("The funnel's name as describe_site lists it."),
      date_range: dateRangeField,
      filters: filtersField,
    }),
    run: async ({ funnel, ...args }, ctx) => {
      const { engine } = ctx.deps;
      const report = await runFunnel(engine, ctx.caller.teamId, { ...common(args), funnel });
      return {
        site: args.site_id,
        date_range: await resolvedRange(engine, ctx.caller.teamId, common(args)),
        units: { visitors: 'count', dropoff: 'count', conversion_rate: 'percent', conversion_rate_step: 'percent', dropoff_percentage: 'percent' },
        ...report,
      };
    },
  }),
  rawTool({
    name: 'journeys',
    title: 'User journeys',
    description:
      'Where visitors go next within a visit, and how they got there: e.g. "what do visitors do after /pricing?" is {"site_id": "example.com", "steps": [{"page": "/pricing"}]}; "what led to the Signup?" is {"steps": [{"event": "Signup"}], "direction": "backward"}. Answers the funnel of the steps (visitors who kept to them, drop-off, conversion rates in percent) and the next steps ranked by visitors, with folders of pages as groups ("/blog/** (12 pages)"). Add a listed next step to the steps to go one step further. Same as POST /api/v2/journeys.',
    scope: 'stats:read',
    effect: 'read',
    input: journeysInput,
    run: (args, ctx) => runJourneys(ctx.deps.engine, ctx.caller.teamId, { date_range: DEFAULT_RANGE, ...args }, ctx.caller.userId),
  }),
  tool({
    name: 'compare_periods',
    title: 'Compare periods',
    description:
      'Headline metrics of a date range against the period just before it (same length) or the same period a year earlier, with the change of each: percent for counts and durations, percentage points for rates.',
    scope: 'stats:read',
    effect: 'read',
    input: z.strictObject({
      ...reportFields,
      against: z.enum(['previous_period', 'year_over_year']).optional().describe('What to compare with; default previous_period.'),
      metrics: z
        .array(z.string())
        .min(1)
        .max(10)
        .optional()
        .describe(`Metrics to compare; default ${COMPARED_METRICS.join(', ')}.`),
    }),
    run: async (args, ctx) => {
      const metrics = args.metrics ?? COMPARED_METRICS;
      const response = await run(ctx, { ...common(args), metrics, ...withImports({ comparisons: { mode: args.against ?? 'previous_period' } }) });
      const report = reportJson(response);
      const { meta } = response;
      const row = response.results[0];
      return {
        site: report.site,
        date_range: report.date_range,
        compared_with: report.compared_with,
        metrics: Object.fromEntries(
          metrics.map((metric, i) => [metric, comparedMetric(metric, row?.metrics[i] ?? null, row?.comparison?.metrics[i] ?? null, meta.currency?.[metric])]),
        ),
        ...(report.imported_data ? { imported_data: report.imported_data } : {}),
        ...(report.warnings ? { warnings: report.warnings } : {}),
      };
    },
  }),
];
