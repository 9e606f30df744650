import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/accounts/apiKeyTokens.js';
import { asAppError } from '../../src/api/errorHandling.js';
import { type AppError, Refusal } from '../../src/errors.js';
import { registerSite } from '../../src/management/sites.js';
import { countApiRequest, createApiKey, findCallerByHash, listApiKeys, revokeApiKey } from '../../src/stores/meta/apiKeys.js';
import { type MetaStore, openMetaStore } from '../../src/stores/meta/database.js';
import { migrateMeta } from '../../src/stores/meta/migrations/index.js';
import { findTeamSite } from '../../src/stores/meta/sites.js';
import { lockTeam, membershipRole, unlockTeam } from '../../src/stores/meta/teams.js';
import { createUserWithTeam } from '../../src/stores/meta/users.js';
import { freshPostgresDatabase } from '../support/postgres.js';

const NOW = Date.parse('2026-05-01T12:00:00Z');

/** Stores refuse with a domain error; the status is what the API answers for it. */
async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Refusal);
  return asAppError(error)!;
}

const postgres = await freshPostgresDatabase();
const backends: Array<[string, () => Promise<MetaStore>]> = [
  ['SQLite', () => openMetaStore({ kind: 'sqlite', path: join(mkdtempSync(join(tmpdir(), 'svc-meta-')), 'meta.sqlite') })],
];
if (postgres) backends.push(['PostgreSQL', () => openMetaStore({ kind: 'postgres', url: postgres.url })]);
afterAll(() => postgres?.drop());

describe.each(backends)('metadata store on %s', (_name, open) => {
  let store: MetaStore;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store.close());

  it('is migrated on open, and migrating again changes nothing', async () => {
    expect(await migrateMeta(store.db as never, store.dialect)).toEqual([]);
    await store.ping();
  });

  it('creates a user with a team they own; emails are unique whatever their case', async () => {
    const { userId, teamId } = await createUserWithTeam(store.db, { email: 'Ada@Example.com', name: 'Ada', password: 'long enough' }, NOW);
    expect(await membershipRole(store.db, teamId, userId)).toBe('owner');
    const taken = await rejection(createUserWithTeam(store.db, { email: 'ada@EXAMPLE.com', name: 'Other' }, NOW));
    expect(taken).toMatchObject({ status: 409, code: 'email_taken' });
    expect(await rejection(createUserWithTeam(store.db, { email: 'not-an-email', name: 'X' }, NOW))).toMatchObject({ code: 'invalid_email' });
    expect(await rejection(createUserWithTeam(store.db, { email: 'p@example.com', name: 'X', password: 'short' }, NOW))).toMatchObject({
      code: 'weak_password',
    });
  });

  it('normalises site domains, validates time zones, keeps domains unique among live sites and announces each site', async () => {
    const { teamId } = await createUserWithTeam(store.db, { email: 'sites@example.com', name: 'S' }, NOW);
    const site = await registerSite(store.db, { teamId, domain: 'https://www.Shop.Example.com/', timezone: 'Etc/UTC' }, NOW);
    expect(site).toMatchObject({ domain: 'shop.example.com', timezone: 'Etc/UTC', teamId, deletedAt: null });
    expect(await findTeamSite(store.db, teamId, 'WWW.shop.example.com')).toMatchObject({ id: site.id });
    expect(await findTeamSite(store.db, teamId + 1000, 'shop.example.com')).toBeUndefined();
    expect(await rejection(registerSite(store.db, { teamId, domain: 'shop.example.com', timezone: 'UTC' }, NOW))).toMatchObject({
      status: 400,
      code: 'domain_taken',
    });
    expect(await rejection(registerSite(store.db, { teamId, domain: 'a b', timezone: 'UTC' }, NOW))).toMatchObject({ code: 'invalid_domain' });
    expect(await rejection(registerSite(store.db, { teamId, domain: 'ok.example.com', timezone: 'Mars/Base' }, NOW))).toMatchObject({
      code: 'invalid_timezone',
    });
    expect(await rejection(registerSite(store.db, { teamId: 999_999, domain: 'ok.example.com', timezone: 'UTC' }, NOW))).toMatchObject({ status: 404 });
    const announced = await store.db.selectFrom('webhook_events').selectAll().where('site_id', '=', site.id).execute();
    expect(announced).toHaveLength(1);
    expect(announced[0]).toMatchObject({ type: 'site.created', team_id: teamId, dispatched_at: null });
    expect(JSON.parse(announced[0]!.payload)).toEqual({ domain: 'shop.example.com', timezone: 'Etc/UTC' });
  });

  it('stores only the hash of a key, and a revoked key is no longer found', async () => {
    const { userId, teamId } = await createUserWithTeam(store.db, { email: 'keys@example.com', name: 'K' }, NOW);
    const { record, key } = await createApiKey(store.db, { teamId, userId, name: 'ci' }, NOW);
    expect(record.scopes).toEqual(['stats:read', 'sites:read', 'sites:provision', 'webhooks:write']);
    expect(record.hourlyLimit).toBe(10_000);
    const stored = await store.db.selectFrom('api_keys').selectAll().where('id', '=', record.id).executeTakeFirstOrThrow();
    expect(stored.key_hash).toBe(hashApiKey(key));
    expect(JSON.stringify(stored)).not.toContain(key);
    expect(await findCallerByHash(store.db, hashApiKey(key))).toMatchObject({ id: record.id, teamId, teamLockedAt: null });
    await revokeApiKey(store.db, teamId, record.id, NOW + 1);
    expect(await findCallerByHash(store.db, hashApiKey(key))).toBeUndefined();
    expect((await listApiKeys(store.db, teamId))[0]).toMatchObject({ id: record.id, revokedAt: NOW + 1 });
    expect(await rejection(createApiKey(store.db, { teamId, userId, name: 'x', scopes: ['admin'] }, NOW))).toMatchObject({ code: 'invalid_scope' });
    expect(await rejection(createApiKey(store.db, { teamId, userId: userId + 999, name: 'x' }, NOW))).toMatchObject({ status: 404 });
    expect(await rejection(revokeApiKey(store.db, teamId + 999, record.id, NOW))).toMatchObject({ status: 404 });
  });

  it('locks and unlocks a team, and the caller lookup sees it', async () => {
    const { userId, teamId } = await createUserWithTeam(store.db, { email: 'lock@example.com', name: 'L' }, NOW);
    const { key } = await createApiKey(store.db, { teamId, userId, name: 'x' }, NOW);
    await lockTeam(store.db, teamId, 'unpaid', NOW);
    expect(await findCallerByHash(store.db, hashApiKey(key))).toMatchObject({ teamLockedAt: NOW, teamLockedReason: 'unpaid' });
    await unlockTeam(store.db, teamId);
    expect(await findCallerByHash(store.db, hashApiKey(key))).toMatchObject({ teamLockedAt: null });
  });

  it('counts requests in a window exactly, even when they race', async () => {
    const { userId, teamId } = await createUserWithTeam(store.db, { email: 'rate@example.com', name: 'R' }, NOW);
    const { record } = await createApiKey(store.db, { teamId, userId, name: 'x' }, NOW);
    const counts = await Promise.all(Array.from({ length: 50 }, () => countApiRequest(store.db, record.id, NOW)));
    expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(await countApiRequest(store.db, record.id, NOW + 3_600_000)).toBe(1);
  });
});
