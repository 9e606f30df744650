import { DEFAULT_HOURLY_LIMIT, displayPrefix, generateApiKey, hashApiKey, parseScopes, type Scope } from '../../accounts/apiKeyTokens.js';
import { invalid, missing } from '../../errors.js';
import { type MetaDb, records } from './database.js';
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

/** A key's record: every column but its hash, the display prefix under its own name. */
const KEY_COLUMNS = ['id', 'teamId', 'userId', 'name', 'keyPrefix as prefix', 'scopes', 'hourlyLimit', 'createdAt', 'lastUsedAt', 'revokedAt'] as const;

/** Scopes are stored space-separated, each one of apiKeyTokens.ts's as it was written. */
const withScopes = <Row extends { scopes: string }>(row: Row) => ({ ...row, scopes: row.scopes.split(' ').filter(Boolean) as Scope[] });

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
  const row = await records(db)
    .insertInto('api_keys')
    .values({
      teamId: input.teamId,
      userId: input.userId,
      name,
      keyPrefix: displayPrefix(key),
      keyHash: hashApiKey(key),
      scopes: scopes.join(' '),
      hourlyLimit,
      createdAt: now,
      lastUsedAt: null,
      revokedAt: null,
    })
    .returning(KEY_COLUMNS)
    .executeTakeFirstOrThrow();
  return { record: withScopes(row), key };
}

export async function listApiKeys(db: MetaDb, teamId: number): Promise<ApiKeyRecord[]> {
  await requireTeam(db, teamId);
  const rows = await records(db).selectFrom('api_keys').select(KEY_COLUMNS).where('teamId', '=', teamId).orderBy('id').execute();
  return rows.map(withScopes);
}

/** Revoking keeps the record; from then on the key is indistinguishable from one that never existed. */
export async function revokeApiKey(db: MetaDb, teamId: number, keyId: number, now: number): Promise<ApiKeyRecord> {
  const row = await records(db).selectFrom('api_keys').select(KEY_COLUMNS).where('id', '=', keyId).where('teamId', '=', teamId).executeTakeFirst();
  if (!row) throw missing(`Team ${teamId} has no API key ${keyId}.`);
  if (row.revokedAt === null) {
    await records(db).updateTable('api_keys').set({ revokedAt: now }).where('id', '=', keyId).execute();
    row.revokedAt = now;
  }
  return withScopes(row);
}

/** The live key with this hash, with its team's lock state; revoked keys are not found. */
export async function findCallerByHash(db: MetaDb, keyHash: string): Promise<ApiCaller | undefined> {
  const row = await records(db)
    .selectFrom('api_keys')
    .innerJoin('teams', 'teams.id', 'api_keys.teamId')
    .select(KEY_COLUMNS.map((column) => `api_keys.${column}` as const))
    .select(['teams.lockedAt as teamLockedAt', 'teams.lockedReason as teamLockedReason'])
    .where('api_keys.keyHash', '=', keyHash)
    .where('api_keys.revokedAt', 'is', null)
    .executeTakeFirst();
  return row && withScopes(row);
}

/**
 * Counts one request in the key's fixed hourly window and returns the count including it.
 * A single upsert keeps the count exact under concurrent requests and across processes.
 */
export async function countApiRequest(db: MetaDb, keyId: number, windowStart: number): Promise<number> {
  const row = await records(db)
    .insertInto('api_key_usage')
    .values({ apiKeyId: keyId, windowStart, count: 1 })
    .onConflict((oc) => oc.columns(['apiKeyId', 'windowStart']).doUpdateSet((eb) => ({ count: eb('api_key_usage.count', '+', 1) })))
    .returning('count')
    .executeTakeFirstOrThrow();
  return row.count;
}

/** "Last used" is kept to the minute, so a busy key writes it at most once a minute. */
const LAST_USED_PRECISION_MS = 60_000;

/** Records that a key was used now, unless it was already recorded within the last minute. */
export async function markApiKeyUsed(db: MetaDb, key: { id: number; lastUsedAt: number | null }, now: number): Promise<void> {
  if (key.lastUsedAt !== null && now - key.lastUsedAt < LAST_USED_PRECISION_MS) return;
  await records(db).updateTable('api_keys').set({ lastUsedAt: now }).where('id', '=', key.id).execute();
}

/** Old windows are of no use once their hour has passed. */
export async function pruneApiUsage(db: MetaDb, before: number): Promise<void> {
  await records(db).deleteFrom('api_key_usage').where('windowStart', '<', before).execute();
}
