import { z } from 'zod';
import { pageMeta } from './paging.js';

export const MAX_DISPLAY_NAME_LENGTH = 120;

/** PUT /api/v1/sites/goals: Plausible's payload, plus a scroll threshold for page goals. */
export const goalPayload = z.strictObject({
  site_id: z.string(),
  goal_type: z.enum(['event', 'page', 'scroll']),
  event_name: z.string().optional(),
  page_path: z.string().optional(),
  scroll_threshold: z.number().int().min(-1).max(100).optional(),
  display_name: z.string().min(1).max(MAX_DISPLAY_NAME_LENGTH).optional(),
  currency: z.string().optional(),
  // Plausible's clients send it (often empty); only an empty set is supported so far.
  custom_props: z.record(z.string(), z.string()).optional(),
});
export type GoalPayload = z.infer<typeof goalPayload>;

/** Plausible's goal JSON, with the scroll threshold and currency this service also keeps. */
export const goal = z.object({
  id: z.number(),
  goal_type: z.enum(['event', 'page', 'scroll']),
  event_name: z.string().nullable(),
  page_path: z.string().nullable(),
  scroll_threshold: z.number(),
  display_name: z.string(),
  currency: z.string().nullable(),
  custom_props: z.record(z.string(), z.string()),
  domain: z.string(),
});
export type Goal = z.infer<typeof goal>;

/** How a scroll goal's threshold reads in goal names and descriptions alike: "Scroll 75%". */
export const scrollWords = (threshold: number) => `Scroll ${threshold}%`;

/**
 * The name a goal gets when none is given, as Plausible names them: the event's name,
 * "Visit /pricing", "Scroll 75% on /blog".
 */
export function defaultGoalName(goal: { eventName: string } | { pagePath: string; scrollThreshold: number }): string {
  if ('eventName' in goal) return goal.eventName;
  return goal.scrollThreshold >= 0 ? `${scrollWords(goal.scrollThreshold)} on ${goal.pagePath}` : `Visit ${goal.pagePath}`;
}

/** GET /api/v1/sites/goals?site_id=… */
export const goalList = z.object({ goals: z.array(goal), meta: pageMeta });
export type GoalList = z.infer<typeof goalList>;
