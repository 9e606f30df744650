import type { Selectable } from 'kysely';
import { DEFAULT_HOURLY_LIMIT, displayPrefix, generateApiKey, hashApiKey, parseScopes, type Scope } from '../../accounts/apiKeyTokens.js';
import { invalid, missing } from '../../errors.js';
import type { MetaDb } from './database.js';
import type { ApiKeysTable } from './schema.js';
import { membershipRole, requireTeam } from './teams.js';

export interface ApiKeyRecord {
  id: number;
  teamId: number;
  userId: number;
  name: string;
  prefix: string;
  scopes: Scope[];
  hourlyLimit: number;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** What the authenticated layer needs to know about the caller, read in one query. */
export interface ApiCaller extends ApiKeyRecord {
  teamLockedAt: number | null;
  teamLockedReason: string | null;
}

type KeyRow = Selectable<ApiKeysTable>;

const toRecord = (row: KeyRow): ApiKeyRecord => ({
  id: row.id,
  teamId: row.team_id,
  userId: row.user_id,
  name: row.name,
  prefix: row.key_prefix,
  scopes: row.scopes.split(' ').filter(Boolean) as Scope[],
  hourlyLimit: row.hourly_limit,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  revokedAt: row.revoked_at,
});

export interface NewApiKey {
  teamId: number;
  userId: number;
  name: string;
  scopes?: readonly string[] | undefined;
  hourlyLimit?: number | undefined;
}

/** Creates a key and returns it in clear text exactly once; only its SHA-256 hash is stored. */
export async function createApiKey(db: MetaDb, input: NewApiKey, now: number): Promise<{ record: ApiKeyRecord; key: string }> {
  const name = input.name.trim();
  if (name.length === 0 || name.length > 200) throw invalid('invalid_name', 'An API key needs a name (at most 200 characters).');
  const scopes = parseScopes(input.scopes ?? []);
  if (!Array.isArray(scopes)) {
    throw invalid('invalid_scope', `"${scopes.invalid}" is not a scope; choose from stats:read, sites:read, sites:provision, webhooks:write.`);
  }
  const hourlyLimit = input.hourlyLimit ?? DEFAULT_HOURLY_LIMIT;
  if (!Number.isInteger(hourlyLimit) || hourlyLimit < 1 || hourlyLimit > 10_000_000) {
    throw invalid('invalid_hourly_limit', 'The hourly limit must be a whole number from 1 to 10,000,000.');
  }
  await requireTeam(db, input.teamId);
  if (!(await membershipRole(db, input.teamId, input.userId))) {
    throw missing(`User ${input.userId} is not a member of team ${input.teamId}.`);
  }
  const key = generateApiKey();
  const row = await db
    .insertInto('api_keys')
    .values({
      team_id: input.teamId,
      user_id: input.userId,
      name,
      key_prefix: displayPrefix(key),
      key_hash: hashApiKey(key),
      scopes: scopes.join(' '),
      hourly_limit: hourlyLimit,
      created_at: now,
      last_used_at: null,
      revoked_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { record: toRecord(row), key };
}

export async function listApiKeys(db: MetaDb, teamId: number): Promise<ApiKeyRecord[]> {
  await requireTeam(db, teamId);
  const rows = await db.selectFrom('api_keys').selectAll().where('team_id', '=', teamId).orderBy('id').execute();
  return rows.map(toRecord);
}

/** Revoking keeps the record; from then on the key is indistinguishable from one that never existed. */
export async function revokeApiKey(db: MetaDb, teamId: number, keyId: number, now: number): Promise<ApiKeyRecord> {
  const row = await db.selectFrom('api_keys').selectAll().where('id', '=', keyId).where('team_id', '=', teamId).executeTakeFirst();
  if (!row) throw missing(`Team ${teamId} has no API key ${keyId}.`);
  if (row.revoked_at === null) {
    await db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', keyId).execute();
    row.revoked_at = now;
  }
  return toRecord(row);
}

/** The live key with this hash, with its team's lock state; revoked keys are not found. */
export async function findCallerByHash(db: MetaDb, keyHash: string): Promise<ApiCaller | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('teams', 'teams.id', 'api_keys.team_id')
    .selectAll('api_keys')
    .select(['teams.locked_at as team_locked_at', 'teams.locked_reason as team_locked_reason'])
    .where('api_keys.key_hash', '=', keyHash)
    .where('api_keys.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  return { ...toRecord(row), teamLockedAt: row.team_locked_at, teamLockedReason: row.team_locked_reason };
}

/**
 * Counts one request in the key's fixed hourly window and returns the count including it.
 * A single upsert keeps the count exact under concurrent requests and across processes.
 */
export async function countApiRequest(db: MetaDb, keyId: number, windowStart: number): Promise<number> {
  const row = await db
    .insertInto('api_key_usage')
    .values({ api_key_id: keyId, window_start: windowStart, count: 1 })
    .onConflict((oc) => oc.columns(['api_key_id', 'window_start']).doUpdateSet((eb) => ({ count: eb('api_key_usage.count', '+', 1) })))
    .returning('count')
    .executeTakeFirstOrThrow();
  return row.count;
}

/** "Last used" is kept to the minute, so a busy key writes it at most once a minute. */
const LAST_USED_PRECISION_MS = 60_000;

/** Records that a key was used now, unless it was already recorded within the last minute. */
export async function markApiKeyUsed(db: MetaDb, key: { id: number; lastUsedAt: number | null }, now: number): Promise<void> {
  if (key.lastUsedAt !== null && now - key.lastUsedAt < LAST_USED_PRECISION_MS) return;
  await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', key.id).execute();
}

/** Old windows are of no use once their hour has passed. */
export async function pruneApiUsage(db: MetaDb, before: number): Promise<void> {
  await db.deleteFrom('api_key_usage').where('window_start', '<', before).execute();
}
