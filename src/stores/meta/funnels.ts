import { type MetaDb, records } from './database.js';

export interface Funnel {
  id: number;
  siteId: number;
  name: string;
  /** Goal ids in step order. */
  goalIds: number[];
  createdAt: number;
}

export async function listFunnels(db: MetaDb, siteId: number): Promise<Funnel[]> {
  const funnels = await records(db).selectFrom('funnels').selectAll().where('siteId', '=', siteId).orderBy('id').execute();
  if (funnels.length === 0) return [];
  const steps = await records(db)
    .selectFrom('funnel_steps')
    .selectAll()
    .where(
      'funnelId',
      'in',
      funnels.map((f) => f.id),
    )
    .orderBy('funnelId')
    .orderBy('stepOrder')
    .execute();
  return funnels.map(({ createdAt, ...funnel }) => ({ ...funnel, goalIds: steps.filter((s) => s.funnelId === funnel.id).map((s) => s.goalId), createdAt }));
}

export async function findFunnelByName(db: MetaDb, siteId: number, name: string): Promise<Funnel | undefined> {
  return (await listFunnels(db, siteId)).find((f) => f.name === name);
}

/** The funnel and its steps in one transaction: a funnel is never seen without them. */
export async function insertFunnel(db: MetaDb, input: { siteId: number; name: string; goalIds: number[] }, now: number): Promise<Funnel> {
  return records(db)
    .transaction()
    .execute(async (trx) => {
      const { createdAt, ...funnel } = await trx
        .insertInto('funnels')
        .values({ siteId: input.siteId, name: input.name, createdAt: now })
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('funnel_steps')
        .values(input.goalIds.map((goalId, index) => ({ funnelId: funnel.id, stepOrder: index + 1, goalId })))
        .execute();
      return { ...funnel, goalIds: [...input.goalIds], createdAt };
    });
}

export async function deleteFunnel(db: MetaDb, siteId: number, funnelId: number): Promise<boolean> {
  const result = await records(db).deleteFrom('funnels').where('siteId', '=', siteId).where('id', '=', funnelId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
