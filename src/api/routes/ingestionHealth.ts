import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../clock.js';
import { badRequest, notFound } from '../../errors.js';
import type { Ingestion } from '../../ingest/ingestion.js';
import type { EventStore } from '../../stores/clickhouse/eventStore.js';
import type { MetaDb } from '../../stores/meta/database.js';
import { findTeamSite } from '../../stores/meta/sites.js';

const HOUR = 3_600_000;
const MAX_HOURS = 24 * 90;

/** `GET /api/v1/sites/{site_id}/ingestion?hours=N`: outcome counts per hour for the last N hours. */
export function ingestionHealthRoutes(app: FastifyInstance, deps: { db: MetaDb; clock: Clock; events: EventStore; ingestion: Ingestion }): void {
  app.get<{ Params: { site_id: string }; Querystring: { hours?: string } }>(
    '/api/v1/sites/:site_id/ingestion',
    { config: { scope: 'sites:read' } },
    async (request) => {
      const hoursText = request.query.hours ?? '24';
      if (!/^\d+$/.test(hoursText) || Number(hoursText) < 1 || Number(hoursText) > MAX_HOURS) {
        throw badRequest('invalid_hours', `hours must be a whole number from 1 to ${MAX_HOURS}.`);
      }
      const site = await findTeamSite(deps.db, request.caller.teamId, request.params.site_id);
      if (!site) throw notFound(`There is no site ${request.params.site_id} for this API key.`);
      // Counts still in memory belong in the answer.
      await deps.ingestion.buffer.flush();
      const to = Math.floor(deps.clock.now() / HOUR) * HOUR + HOUR;
      const from = to - Number(hoursText) * HOUR;
      const result = await deps.events.query.query({
        query: `SELECT toUnixTimestamp(hour) AS hour, reason, sum(value) AS value FROM ingest_counters
                WHERE site_id = {site:UInt64} AND hour >= toDateTime({from:UInt32}, 'UTC') AND hour < toDateTime({to:UInt32}, 'UTC')
                GROUP BY hour, reason ORDER BY hour, reason
                SETTINGS max_execution_time = 10`,
        query_params: { site: site.id, from: from / 1000, to: to / 1000 },
        format: 'JSONEachRow',
      });
      const rows = await result.json<{ hour: number; reason: string; value: string }>();
      const hours = new Map<number, Record<string, number>>();
      const totals: Record<string, number> = {};
      for (const row of rows) {
        const counts = hours.get(row.hour) ?? {};
        counts[row.reason] = Number(row.value);
        hours.set(row.hour, counts);
        totals[row.reason] = (totals[row.reason] ?? 0) + Number(row.value);
      }
      return {
        site_id: site.domain,
        from: new Date(from).toISOString(),
        to: new Date(to).toISOString(),
        totals,
        hours: [...hours].map(([hour, counts]) => ({ hour: new Date(hour * 1000).toISOString(), counts })),
      };
    },
  );
}
