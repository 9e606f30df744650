import { type MetaDb, records } from './database.js';

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

export type NewGoal = Omit<Goal, 'id' | 'createdAt'>;

/** Every goal of the site, newest first. */
export async function listSiteGoals(db: MetaDb, siteId: number): Promise<Goal[]> {
  return records(db).selectFrom('goals').selectAll().where('siteId', '=', siteId).orderBy('id', 'desc').execute();
}

/**
 * One page of goals, newest first: `forward` reads ids below `from` (older), otherwise ids above
 * it, nearest first.
 */
export async function pageSiteGoals(db: MetaDb, siteId: number, range: { from?: number | undefined; forward: boolean; limit: number }): Promise<Goal[]> {
  let query = records(db).selectFrom('goals').selectAll().where('siteId', '=', siteId);
  if (range.from !== undefined) query = query.where('id', range.forward ? '<' : '>', range.from);
  return query
    .orderBy('id', range.forward ? 'desc' : 'asc')
    .limit(range.limit)
    .execute();
}

/** The goal that an event name (event goals) or a path and threshold (page and scroll goals) identify. */
export async function findGoalByDefinition(
  db: MetaDb,
  siteId: number,
  definition: { eventName: string } | { pagePath: string; scrollThreshold: number },
): Promise<Goal | undefined> {
  let query = records(db).selectFrom('goals').selectAll().where('siteId', '=', siteId);
  query =
    'eventName' in definition
      ? query.where('eventName', '=', definition.eventName)
      : query.where('pagePath', '=', definition.pagePath).where('scrollThreshold', '=', definition.scrollThreshold);
  return query.executeTakeFirst();
}

export async function findGoalByDisplayName(db: MetaDb, siteId: number, displayName: string): Promise<Goal | undefined> {
  return records(db).selectFrom('goals').selectAll().where('siteId', '=', siteId).where('displayName', '=', displayName).executeTakeFirst();
}

export async function insertGoal(db: MetaDb, goal: NewGoal, now: number): Promise<Goal> {
  return records(db)
    .insertInto('goals')
    .values({
      siteId: goal.siteId,
      eventName: goal.eventName,
      pagePath: goal.pagePath,
      scrollThreshold: goal.scrollThreshold,
      displayName: goal.displayName,
      currency: goal.currency,
      createdAt: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Deletes a goal and every funnel that has it as a step (a funnel with a hole in it would
 * report nonsense). True when the goal existed.
 */
export async function deleteGoal(db: MetaDb, siteId: number, goalId: number): Promise<boolean> {
  return records(db)
    .transaction()
    .execute(async (trx) => {
      const funnels = trx.selectFrom('funnel_steps').select('funnelId').where('goalId', '=', goalId);
      await trx.deleteFrom('funnels').where('siteId', '=', siteId).where('id', 'in', funnels).execute();
      const result = await trx.deleteFrom('goals').where('siteId', '=', siteId).where('id', '=', goalId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
}
