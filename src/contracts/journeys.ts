import { z } from 'zod';
import { QUERY_LIMITS, queryMeta, queryRequest } from './query.js';

/**
 * User journeys (POST /api/v2/journeys, the dashboards' journeys routes and the assistant tool):
 * which steps visitors take right after (or before) a journey of pages and events within one
 * visit, and how many kept to the journey step by step (docs/explore.md).
 */

export const JOURNEY_LIMITS = { steps: 9, candidates: 20, defaultCandidates: 10, searchChars: 3 } as const;

export const DIRECTIONS = ['forward', 'backward'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** What a folder step's page ends with: the folder's page and every page below it. */
export const FOLDER_SUFFIX = '/**';

/** As long as a filter value may be (src/contracts/query.ts QUERY_LIMITS): a longer one can match nothing. */
const tooLong = `may be at most ${QUERY_LIMITS.filterValueLength.toLocaleString('en')} characters long`;

const pageField = z
  .string('must be a path such as "/pricing" or a folder such as "/blog/**"')
  .min(1, 'must not be empty')
  .max(QUERY_LIMITS.filterValueLength, tooLong)
  .refine((page) => page.startsWith('/'), 'must be a path starting with "/"')
  .refine(
    (page) => !page.slice(0, page.endsWith(FOLDER_SUFFIX) ? -FOLDER_SUFFIX.length : undefined).includes('*'),
    'may hold "*" only as a folder\'s ending "/**"',
  );

const eventField = z
  .string("must be a custom event's name")
  .min(1, 'must not be empty')
  .max(QUERY_LIMITS.filterValueLength, tooLong)
  .refine((name) => name !== 'pageview' && name !== 'engagement', 'must be a custom event; a page step is {"page": "/path"}');

/** A step: a page (or a folder of pages), or a custom event, optionally on a page. */
export const journeyStep = z
  .strictObject({ page: pageField.optional(), event: eventField.optional() })
  .refine((step) => step.page !== undefined || step.event !== undefined, 'must name a "page", an "event", or both');
export type JourneyStep = z.infer<typeof journeyStep>;

export const journeysRequest = z.strictObject({
  site_id: queryRequest.shape.site_id,
  date_range: queryRequest.shape.date_range,
  filters: queryRequest.shape.filters,
  timezone: queryRequest.shape.timezone,
  exact: queryRequest.shape.exact,
  steps: z
    .array(journeyStep, 'must be an array of steps such as {"page": "/pricing"}')
    .max(JOURNEY_LIMITS.steps, `may hold at most ${JOURNEY_LIMITS.steps} steps`)
    .optional(),
  direction: z.enum(DIRECTIONS, `must be "${DIRECTIONS.join('" or "')}"`).optional(),
  candidates: z
    .number('must be a number')
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(JOURNEY_LIMITS.candidates, `may be at most ${JOURNEY_LIMITS.candidates}`)
    .optional(),
  search: z
    .string('must be text')
    .min(JOURNEY_LIMITS.searchChars, `must be at least ${JOURNEY_LIMITS.searchChars} characters long`)
    .max(200, 'may be at most 200 characters long')
    .optional(),
});
export type JourneysRequest = z.infer<typeof journeysRequest>;

/** A step as the answer names it: its page or event, its label, and for a folder how many of its pages are listed beneath it. */
export const labelledStep = z.object({ page: z.string().optional(), event: z.string().optional(), label: z.string(), pages: z.number().optional() });
export type LabelledStep = z.infer<typeof labelledStep>;

export const journeyFunnelStep = z.object({
  step: labelledStep,
  visitors: z.number(),
  dropoff: z.number(),
  dropoff_percentage: z.number(),
  conversion_rate: z.number(),
  conversion_rate_step: z.number(),
});
export type JourneyFunnelStep = z.infer<typeof journeyFunnelStep>;

export const journeysResponse = z.object({
  funnel: z.array(journeyFunnelStep),
  next: z.array(z.object({ step: labelledStep, visitors: z.number() })),
  meta: queryMeta.pick({ sample_rate: true, sampling: true }),
  query: z.object({
    site_id: z.string(),
    date_range: z.tuple([z.string(), z.string()]),
    filters: z.array(z.unknown()),
    steps: z.array(journeyStep),
    direction: z.enum(DIRECTIONS),
    timezone: z.string(),
  }),
});
export type JourneysResponse = z.infer<typeof journeysResponse>;
