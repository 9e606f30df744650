import type { Transaction } from 'kysely';
import { FAILING_THRESHOLD, STOP_THRESHOLD } from '../contracts/webhookPolicy.js';
import type { MetaDb } from '../stores/meta/database.js';
import type { MetaSchema } from '../stores/meta/schema.js';

export type NoticeKind = 'webhook_failing' | 'webhook_stopped';

/** A message for a team's owners, shown in the web app until dismissed. */
export interface Notice {
  id: number;
  teamId: number;
  kind: NoticeKind;
  webhookId: number | null;
  message: string;
  createdAt: number;
}

export function webhookNoticeMessage(kind: NoticeKind, url: string): string {
  return kind === 'webhook_failing'
    ? `The webhook endpoint ${url} looks broken: its last ${FAILING_THRESHOLD} deliveries failed. It will be stopped after ${STOP_THRESHOLD} consecutive failures.`
    : `The webhook endpoint ${url} was stopped after ${STOP_THRESHOLD} consecutive failed deliveries. Nothing more is sent to it until it is re-enabled.`;
}

export async function recordNotice(
  trx: Transaction<MetaSchema> | MetaDb,
  input: { teamId: number; kind: NoticeKind; webhookId: number | null; message: string },
  now: number,
): Promise<Notice> {
  const row = await trx
    .insertInto('notices')
    .values({ team_id: input.teamId, kind: input.kind, webhook_id: input.webhookId, message: input.message, created_at: now, dismissed_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, ...input, createdAt: now };
}

/** Notices not yet dismissed, newest first: what the web app shows a team's owners. */
export async function listOpenNotices(db: MetaDb, teamId: number): Promise<Notice[]> {
  const rows = await db.selectFrom('notices').selectAll().where('team_id', '=', teamId).where('dismissed_at', 'is', null).orderBy('id', 'desc').execute();
  return rows.map((row) => ({
    id: row.id,
    teamId: row.team_id,
    kind: row.kind as NoticeKind,
    webhookId: row.webhook_id,
    message: row.message,
    createdAt: row.created_at,
  }));
}

export async function dismissNotice(db: MetaDb, teamId: number, noticeId: number, now: number): Promise<void> {
  await db
    .updateTable('notices')
    .set({ dismissed_at: now })
    .where('id', '=', noticeId)
    .where('team_id', '=', teamId)
    .where('dismissed_at', 'is', null)
    .execute();
}

export async function teamOwnerEmails(db: MetaDb, teamId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select('users.email')
    .where('memberships.team_id', '=', teamId)
    .where('memberships.role', '=', 'owner')
    .orderBy('users.id')
    .execute();
  return rows.map((row) => row.email);
}
