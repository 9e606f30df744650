import type { Funnel as FunnelJson, FunnelPayload } from '../contracts/funnels.js';
import { badRequest, conflict } from '../errors.js';
import type { MetaDb } from '../stores/meta/database.js';
import { type Funnel, findFunnelByName, insertFunnel } from '../stores/meta/funnels.js';
import { type Goal, listSiteGoals } from '../stores/meta/goals.js';

function resolveSteps(goals: Goal[], steps: FunnelPayload['steps']): Goal[] {
  const resolved = steps.map((step, index) => {
    const goal = typeof step === 'number' ? goals.find((g) => g.id === step) : goals.find((g) => g.displayName === step);
    if (!goal) throw badRequest('invalid_funnel', `Step ${index + 1} (${JSON.stringify(step)}) is not a goal of this site; create the goal first.`);
    return goal;
  });
  const ids = resolved.map((g) => g.id);
  const repeated = resolved.find((g, i) => ids.indexOf(g.id) !== i);
  if (repeated) throw badRequest('invalid_funnel', `Goal "${repeated.displayName}" appears twice; each step of a funnel must be a different goal.`);
  return resolved;
}

/**
 * Find-or-create by name. Asking again with the same steps answers the funnel; the same name
 * with other steps is a conflict, since silently keeping or replacing either would surprise.
 */
export async function findOrCreateFunnel(db: MetaDb, siteId: number, payload: FunnelPayload, now: number): Promise<{ funnel: Funnel; created: boolean }> {
  const name = payload.name.trim();
  if (name.length === 0) throw badRequest('invalid_funnel', 'Field "name" must not be blank.');
  const goals = resolveSteps(await listSiteGoals(db, siteId), payload.steps);
  const goalIds = goals.map((g) => g.id);
  const existing = await findFunnelByName(db, siteId, name);
  if (existing) {
    if (existing.goalIds.join(',') !== goalIds.join(',')) {
      throw conflict('funnel_exists', `A funnel named "${name}" already exists with other steps; delete it first or choose another name.`);
    }
    return { funnel: existing, created: false };
  }
  return { funnel: await insertFunnel(db, { siteId, name, goalIds }, now), created: true };
}

export function funnelJson(funnel: Funnel, goals: Goal[]): FunnelJson {
  return {
    id: funnel.id,
    name: funnel.name,
    steps: funnel.goalIds.map((goalId) => ({ goal_id: goalId, display_name: goals.find((g) => g.id === goalId)?.displayName ?? null })),
  };
}
