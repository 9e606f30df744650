import type { FastifyReply } from 'fastify';
import type { EventStore } from '../stores/clickhouse/eventStore.js';
import { FIRST_EVENT_SQL, firstEventFromRow } from '../stores/clickhouse/siteSpan.js';
import type { MetaDb } from '../stores/meta/database.js';
import { includedClassifications } from '../stores/meta/siteSettings.js';
import type { Site } from '../stores/meta/sites.js';
import { type ExportRange, exportFileName, streamSiteExport } from './siteExport.js';

/** The site's first stored event (ms), read on the background-jobs connection; null for none. */
export async function siteFirstEventAt(events: EventStore, siteId: number): Promise<number | null> {
  const result = await events.jobs.query({ query: FIRST_EVENT_SQL, query_params: { site: siteId }, format: 'JSONEachRow' });
  return firstEventFromRow((await result.json<Record<string, unknown>>())[0]);
}

/**
 * Sends a site's export as a ZIP download, streamed from the background-jobs connection so a long
 * export never holds up the API's queries or ingestion's writes. Shared by the API route, the
 * web app's settings screen and (through the web route) the command-line tool.
 */
export async function sendSiteExport(reply: FastifyReply, deps: { db: MetaDb; events: EventStore }, site: Site, range: ExportRange): Promise<FastifyReply> {
  const included = await includedClassifications(deps.db, site.id);
  const stream = streamSiteExport(deps.events.jobs, { id: site.id, domain: site.domain, timezone: site.timezone, included }, range);
  return reply
    .header('content-type', 'application/zip')
    .header('content-disposition', `attachment; filename="${exportFileName(site.domain, range.to)}"`)
    .header('cache-control', 'no-store')
    .send(stream);
}
