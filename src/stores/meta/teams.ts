import { invalid, missing } from '../../errors.js';
import { type MetaDb, records } from './database.js';

export interface Team {
  id: number;
  name: string;
  lockedAt: number | null;
  lockedReason: string | null;
  collectionStoppedAt: number | null;
}

export async function getTeam(db: MetaDb, teamId: number): Promise<Team | undefined> {
  return records(db).selectFrom('teams').select(['id', 'name', 'lockedAt', 'lockedReason', 'collectionStoppedAt']).where('id', '=', teamId).executeTakeFirst();
}

export async function requireTeam(db: MetaDb, teamId: number): Promise<Team> {
  const team = await getTeam(db, teamId);
  if (!team) throw missing(`Team ${teamId} does not exist.`);
  return team;
}

/** Locking stops the API (402) but never collection; the reason is shown to API callers. */
export async function lockTeam(db: MetaDb, teamId: number, reason: string, now: number): Promise<Team> {
  const text = reason.trim();
  if (text.length === 0) throw invalid('missing_reason', 'A lock needs a reason; it is shown to API callers.');
  await requireTeam(db, teamId);
  await db.updateTable('teams').set({ locked_at: now, locked_reason: text }).where('id', '=', teamId).execute();
  return requireTeam(db, teamId);
}

export async function unlockTeam(db: MetaDb, teamId: number): Promise<Team> {
  await requireTeam(db, teamId);
  await db.updateTable('teams').set({ locked_at: null, locked_reason: null }).where('id', '=', teamId).execute();
  return requireTeam(db, teamId);
}

export async function membershipRole(db: MetaDb, teamId: number, userId: number): Promise<string | undefined> {
  const row = await db.selectFrom('memberships').select('role').where('team_id', '=', teamId).where('user_id', '=', userId).executeTakeFirst();
  return row?.role;
}

/** Stops or resumes event collection for every site of the team (`account_dormant` while stopped). */
export async function setTeamCollection(db: MetaDb, teamId: number, collecting: boolean, now: number): Promise<Team> {
  await requireTeam(db, teamId);
  await db
    .updateTable('teams')
    .set({ collection_stopped_at: collecting ? null : now })
    .where('id', '=', teamId)
    .execute();
  return requireTeam(db, teamId);
}
