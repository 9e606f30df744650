import type { MetaDb } from './database.js';

export interface Funnel {
  id: number;
  siteId: number;
  name: string;
  /** Goal ids in step order. */
  goalIds: number[];
  createdAt: number;
}

export async function listFunnels(db: MetaDb, siteId: number): Promise<Funnel[]> {
  const funnels = await db.selectFrom('funnels').selectAll().where('site_id', '=', siteId).orderBy('id').execute();
  if (funnels.length === 0) return [];
  const steps = await db
    .selectFrom('funnel_steps')
    .selectAll()
    .where(
      'funnel_id',
      'in',
      funnels.map((f) => f.id),
    )
    .orderBy('funnel_id')
    .orderBy('step_order')
    .execute();
  return funnels.map((f) => ({
    id: f.id,
    siteId: f.site_id,
    name: f.name,
    goalIds: steps.filter((s) => s.funnel_id === f.id).map((s) => s.goal_id),
    createdAt: f.created_at,
  }));
}

export async function findFunnelByName(db: MetaDb, siteId: number, name: string): Promise<Funnel | undefined> {
  return (await listFunnels(db, siteId)).find((f) => f.name === name);
}

/** The funnel and its steps in one transaction: a funnel is never seen without them. */
export async function insertFunnel(db: MetaDb, input: { siteId: number; name: string; goalIds: number[] }, now: number): Promise<Funnel> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.insertInto('funnels').values({ site_id: input.siteId, name: input.name, created_at: now }).returningAll().executeTakeFirstOrThrow();
    await trx
      .insertInto('funnel_steps')
      .values(input.goalIds.map((goalId, index) => ({ funnel_id: row.id, step_order: index + 1, goal_id: goalId })))
      .execute();
    return { id: row.id, siteId: row.site_id, name: row.name, goalIds: [...input.goalIds], createdAt: row.created_at };
  });
}

export async function deleteFunnel(db: MetaDb, siteId: number, funnelId: number): Promise<boolean> {
  const result = await db.deleteFrom('funnels').where('site_id', '=', siteId).where('id', '=', funnelId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
