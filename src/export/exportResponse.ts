import type { FastifyReply } from 'fastify';
import { rawEventsFromDay } from '../management/sites.js';
import type { EventStore } from '../stores/clickhouse/eventStore.js';
import { DATA_SPAN_SQL, dataSpanFromRows } from '../stores/clickhouse/siteSpan.js';
import type { MetaDb } from '../stores/meta/database.js';
import { includedClassifications } from '../stores/meta/siteSettings.js';
import type { Site } from '../stores/meta/sites.js';
import { type ExportRange, type ExportSite, exportFileName, streamSiteExport } from './siteExport.js';

/** Where the site's data begins (ms): its first event or first rolled-up day, read on the background-jobs connection; null for none. */
export async function siteFirstDataAt(events: EventStore, site: Site): Promise<number | null> {
  const result = await events.jobs.query({ query: DATA_SPAN_SQL, query_params: { site: site.id, tz: site.timezone }, format: 'JSONEachRow' });
  return dataSpanFromRows(await result.json<Record<string, unknown>>(), site.timezone)?.first ?? null;
}

/** What an export reads of a site besides its events. */
export async function exportSite(db: MetaDb, site: Site): Promise<ExportSite> {
  const included = await includedClassifications(db, site.id);
  return { id: site.id, domain: site.domain, timezone: site.timezone, included, rawEventsFrom: rawEventsFromDay(site) };
}

/**
 * Sends a site's export as a ZIP download, streamed from the background-jobs connection so a long
 * export never holds up the API's queries or ingestion's writes. Shared by the API route, the
 * web app's settings screen and (through the web route) the command-line tool.
 */
export async function sendSiteExport(reply: FastifyReply, deps: { db: MetaDb; events: EventStore }, site: Site, range: ExportRange): Promise<FastifyReply> {
  const stream = streamSiteExport(deps.events.jobs, await exportSite(deps.db, site), range);
  return reply
    .header('content-type', 'application/zip')
    .header('content-disposition', `attachment; filename="${exportFileName(site.domain, range.to)}"`)
    .header('cache-control', 'no-store')
    .send(stream);
}
