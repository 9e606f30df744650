import type { Selectable } from 'kysely';
import type { MetaDb } from './database.js';
import type { GoalsTable } from './schema.js';

export interface Goal {
  id: number;
  siteId: number;
  /** Exactly one of eventName / pagePath is set. */
  eventName: string | null;
  /** Starts with /; may hold * wildcards. */
  pagePath: string | null;
  /** -1: not a scroll goal; 0..100: reached when a visitor scrolls this far down pagePath. */
  scrollThreshold: number;
  displayName: string;
  /** ISO 4217 code of a revenue goal; null for goals without revenue. */
  currency: string | null;
  createdAt: number;
}

type GoalRow = Selectable<GoalsTable>;

const toGoal = (row: GoalRow): Goal => ({
  id: row.id,
  siteId: row.site_id,
  eventName: row.event_name,
  pagePath: row.page_path,
  scrollThreshold: row.scroll_threshold,
  displayName: row.display_name,
  currency: row.currency,
  createdAt: row.created_at,
});

export type NewGoal = Omit<Goal, 'id' | 'createdAt'>;

/** Every goal of the site, newest first. */
export async function listSiteGoals(db: MetaDb, siteId: number): Promise<Goal[]> {
  const rows = await db.selectFrom('goals').selectAll().where('site_id', '=', siteId).orderBy('id', 'desc').execute();
  return rows.map(toGoal);
}

/**
 * One page of goals, newest first: `forward` reads ids below `from` (older), otherwise ids above
 * it, nearest first.
 */
export async function pageSiteGoals(db: MetaDb, siteId: number, range: { from?: number | undefined; forward: boolean; limit: number }): Promise<Goal[]> {
  let query = db.selectFrom('goals').selectAll().where('site_id', '=', siteId);
  if (range.from !== undefined) query = query.where('id', range.forward ? '<' : '>', range.from);
  const rows = await query
    .orderBy('id', range.forward ? 'desc' : 'asc')
    .limit(range.limit)
    .execute();
  return rows.map(toGoal);
}

export async function findGoal(db: MetaDb, siteId: number, goalId: number): Promise<Goal | undefined> {
  const row = await db.selectFrom('goals').selectAll().where('site_id', '=', siteId).where('id', '=', goalId).executeTakeFirst();
  return row && toGoal(row);
}

/** The goal that an event name (event goals) or a path and threshold (page and scroll goals) identify. */
export async function findGoalByDefinition(
  db: MetaDb,
  siteId: number,
  definition: { eventName: string } | { pagePath: string; scrollThreshold: number },
): Promise<Goal | undefined> {
  let query = db.selectFrom('goals').selectAll().where('site_id', '=', siteId);
  query =
    'eventName' in definition
      ? query.where('event_name', '=', definition.eventName)
      : query.where('page_path', '=', definition.pagePath).where('scroll_threshold', '=', definition.scrollThreshold);
  const row = await query.executeTakeFirst();
  return row && toGoal(row);
}

export async function findGoalByDisplayName(db: MetaDb, siteId: number, displayName: string): Promise<Goal | undefined> {
  const row = await db.selectFrom('goals').selectAll().where('site_id', '=', siteId).where('display_name', '=', displayName).executeTakeFirst();
  return row && toGoal(row);
}

export async function insertGoal(db: MetaDb, goal: NewGoal, now: number): Promise<Goal> {
  const row = await db
    .insertInto('goals')
    .values({
      site_id: goal.siteId,
      event_name: goal.eventName,
      page_path: goal.pagePath,
      scroll_threshold: goal.scrollThreshold,
      display_name: goal.displayName,
      currency: goal.currency,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toGoal(row);
}

/**
 * Deletes a goal and every funnel that has it as a step (a funnel with a hole in it would
 * report nonsense). True when the goal existed.
 */
export async function deleteGoal(db: MetaDb, siteId: number, goalId: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const funnels = trx.selectFrom('funnel_steps').select('funnel_id').where('goal_id', '=', goalId);
    await trx.deleteFrom('funnels').where('site_id', '=', siteId).where('id', 'in', funnels).execute();
    const result = await trx.deleteFrom('goals').where('site_id', '=', siteId).where('id', '=', goalId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}
