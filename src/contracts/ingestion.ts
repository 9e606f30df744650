import { z } from 'zod';

/** GET /api/v1/sites/:site_id/ingestion?hours=N: outcome counts per hour for the last N hours. */
export const ingestionHealth = z.object({
  site_id: z.string(),
  from: z.string(),
  to: z.string(),
  totals: z.record(z.string(), z.number()),
  hours: z.array(z.object({ hour: z.string(), counts: z.record(z.string(), z.number()) })),
});
export type IngestionHealth = z.infer<typeof ingestionHealth>;

/** What an ingestion outcome (a drop reason or a classification) means and what the owner can do (src/ingest/outcomeGuide.ts). */
export const outcomeGuide = z.object({
  /** A short name for charts and tables. */
  label: z.string(),
  /** What happened to the event, in one line. */
  meaning: z.string(),
  /** What the site owner can do about it. */
  action: z.string(),
  /** Counted in reports (accepted, or a classification the site put back) or not. */
  kind: z.enum(['accepted', 'classified', 'dropped']),
});
export type OutcomeGuide = z.infer<typeof outcomeGuide>;

/** GET /app/api/ingestion-outcomes: the one guide, keyed by outcome. */
export const outcomeGuideList = z.object({ outcomes: z.record(z.string(), outcomeGuide) });
export type OutcomeGuideList = z.infer<typeof outcomeGuideList>;
