import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../clock.js';
import type { IngestionHealth } from '../../contracts/ingestion.js';
import { badRequest, notFound } from '../../errors.js';
import type { EventStore } from '../../stores/clickhouse/eventStore.js';
import { hourlyOutcomes } from '../../stores/clickhouse/ingestCounters.js';
import type { MetaDb } from '../../stores/meta/database.js';
import { findTeamSite } from '../../stores/meta/sites.js';
import { singleValued } from '../requestParts.js';

const HOUR = 3_600_000;
const MAX_HOURS = 24 * 90;

/** `GET /api/v1/sites/{site_id}/ingestion?hours=N`: outcome counts per hour for the last N hours. */
export function ingestionHealthRoutes(app: FastifyInstance, deps: { db: MetaDb; clock: Clock; events: EventStore; flushWrites(): Promise<void> }): void {
  app.get('/api/v1/sites/:site_id/ingestion', { config: { scope: 'sites:read' } }, async (request): Promise<IngestionHealth> => {
    const hoursText = singleValued(request.query).hours ?? '24';
    if (!/^\d+$/.test(hoursText) || Number(hoursText) < 1 || Number(hoursText) > MAX_HOURS) {
      throw badRequest('invalid_hours', `hours must be a whole number from 1 to ${MAX_HOURS}.`);
    }
    const siteName = singleValued(request.params).site_id ?? '';
    const site = await findTeamSite(deps.db, request.caller.teamId, siteName);
    if (!site) throw notFound(`There is no site ${siteName} for this API key.`);
    // Counts still in memory belong in the answer.
    await deps.flushWrites();
    const to = Math.floor(deps.clock.now() / HOUR) * HOUR + HOUR;
    const from = to - Number(hoursText) * HOUR;
    const hours = new Map<number, Record<string, number>>();
    const totals: Record<string, number> = {};
    for (const row of await hourlyOutcomes(deps.events, site.id, { from, to })) {
      const counts = hours.get(row.hour) ?? {};
      counts[row.reason] = row.value;
      hours.set(row.hour, counts);
      totals[row.reason] = (totals[row.reason] ?? 0) + row.value;
    }
    return {
      site_id: site.domain,
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      totals,
      hours: [...hours].map(([hour, counts]) => ({ hour: new Date(hour).toISOString(), counts })),
    };
  });
}
