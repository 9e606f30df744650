import type { Kysely } from 'kysely';
import { belongsTo, columnTypes, type MetaDialect, required } from './columns.js';

/**
 * Email reports and traffic notices (docs/settings.md, Email reports and Traffic notices):
 *
 * - `email_recipients`: who gets a site's weekly or monthly report, or its spike or drop notice;
 *   one row per site, topic and address. Recipients confirm nothing; each mail carries a signed
 *   unsubscribe link (src/reports/unsubscribe.ts), so no lookup secret is stored.
 * - `traffic_thresholds`: the editor's spike and drop thresholds, and when the last notice of each
 *   went out (the 12-hour quiet time is a conditional update of that column).
 * - `report_sendings`: one row per site, kind, period and recipient, written before the mail is
 *   handed to the SMTP server, so a report is never sent twice (src/reports/reportSender.ts).
 */
export async function up(db: Kysely<unknown>, dialect: MetaDialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('email_recipients')
    .addColumn('site_id', 'integer', belongsTo('sites'))
    .addColumn('topic', 'text', required)
    .addColumn('email', 'text', required)
    .addColumn('created_at', t.bigint, required)
    .addPrimaryKeyConstraint('email_recipients_pk', ['site_id', 'topic', 'email'])
    .execute();
  await db.schema
    .createTable('traffic_thresholds')
    .addColumn('site_id', 'integer', belongsTo('sites'))
    .addColumn('kind', 'text', required)
    .addColumn('threshold', 'integer', required)
    .addColumn('last_noticed_at', t.bigint)
    .addPrimaryKeyConstraint('traffic_thresholds_pk', ['site_id', 'kind'])
    .execute();
  await db.schema
    .createTable('report_sendings')
    .addColumn('site_id', 'integer', belongsTo('sites'))
    .addColumn('kind', 'text', required)
    .addColumn('period_start', 'text', required)
    .addColumn('email', 'text', required)
    .addColumn('state', 'text', required)
    .addColumn('attempts', 'integer', required)
    .addColumn('claimed_at', t.bigint, required)
    .addColumn('sent_at', t.bigint)
    .addColumn('error', 'text')
    .addPrimaryKeyConstraint('report_sendings_pk', ['site_id', 'kind', 'period_start', 'email'])
    .execute();
}
