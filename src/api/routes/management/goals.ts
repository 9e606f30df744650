import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Acknowledgement } from '../../../contracts/acknowledgements.js';
import { type Goal, type GoalList, goalPayload } from '../../../contracts/goals.js';
import { pageQuery } from '../../../contracts/paging.js';
import { findOrCreateGoal, goalJson, removeGoal } from '../../../management/goals.js';
import { parseId, parsePayload } from '../../../management/payload.js';
import { requireTeamSite } from '../../../management/siteAccess.js';
import type * as stored from '../../../stores/meta/goals.js';
import { pageSiteGoals } from '../../../stores/meta/goals.js';
import { fetchPage, parsePageRequest } from '../../pagination.js';
import { singleValued } from '../../requestParts.js';
import { bodyWithSiteId, type ManagementDeps, PROVISION, READ, siteIdParameter } from './context.js';

const listQuerySchema = z.strictObject({ site_id: z.string(), ...pageQuery.shape });

export function goalRoutes(app: FastifyInstance, deps: ManagementDeps): void {
  const { db, clock } = deps;

  app.get('/api/v1/sites/goals', READ, async (request): Promise<GoalList> => {
    const query = parsePayload(listQuerySchema, request.query ?? {});
    const site = await requireTeamSite(db, request.caller, query.site_id, clock.now());
    const { rows, meta } = await fetchPage(
      parsePageRequest(query),
      (goal: stored.Goal) => goal.id,
      (range) => pageSiteGoals(db, site.id, range),
    );
    return { goals: rows.map((goal) => goalJson(goal, site.domain)), meta };
  });

  app.put('/api/v1/sites/goals', PROVISION, async (request): Promise<Goal> => {
    const body = parsePayload(goalPayload, bodyWithSiteId(request));
    const now = clock.now();
    const site = await requireTeamSite(db, request.caller, body.site_id, now);
    const { goal, created } = await findOrCreateGoal(db, site.id, body, now);
    // Revenue goals decide at ingestion which currency an amount is reported in.
    if (created) deps.siteChanged(site.id);
    return goalJson(goal, site.domain);
  });

  app.delete('/api/v1/sites/goals/:goal_id', PROVISION, async (request): Promise<Acknowledgement<'deleted'>> => {
    const goalId = parseId(singleValued(request.params).goal_id, 'The goal id');
    const site = await requireTeamSite(db, request.caller, siteIdParameter(request), clock.now());
    await removeGoal(db, site.id, goalId);
    deps.siteChanged(site.id);
    return { deleted: true };
  });
}
