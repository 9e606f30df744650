import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hashRecoveryCode } from '../../src/accounts/recoveryCodes.js';
import { deleteAccount } from '../../src/management/accountDeletion.js';
import { registerSite } from '../../src/management/sites.js';
import { createAccountToken, pendingEmailChange, spendAccountToken } from '../../src/stores/meta/accountTokens.js';
import { type MetaStore, openMetaStore } from '../../src/stores/meta/database.js';
import { claimTotpStep, enableTwoFactor, spendRecoveryCode, unusedRecoveryCodes, usersWithTwoFactor } from '../../src/stores/meta/twoFactor.js';
import { createUserWithTeam, findUserByEmail } from '../../src/stores/meta/users.js';
import { createWebSession, deleteUserWebSession, findWebSession, listUserWebSessions } from '../../src/stores/meta/webSessions.js';
import { freshPostgresDatabase } from '../support/postgres.js';

// The account stores of migration 0015 on both metadata dialects: one-time tokens, two-factor
// state, the sessions list, and deleting an account with the teams it owns alone.
const postgres = await freshPostgresDatabase();
afterAll(() => postgres?.drop());

const dialects: Array<[string, () => Promise<MetaStore>]> = [
  ['SQLite', () => openMetaStore({ kind: 'sqlite', path: join(mkdtempSync(join(tmpdir(), 'svc-accounts-')), 'meta.sqlite') })],
];
if (postgres) dialects.push(['PostgreSQL', () => openMetaStore({ kind: 'postgres', url: postgres.url })]);

describe.each(dialects)('account stores on %s', (_name, open) => {
  it('spends tokens, codes and steps once each, lists sessions by device, and deletes an account with its empty team', async () => {
    const store = await open();
    const { db } = store;
    try {
      const now = 1_700_000_000_000;
      const { userId, teamId } = await createUserWithTeam(db, { email: 'a@example.com', name: 'A', password: 'password a' }, now);
      const other = await createUserWithTeam(db, { email: 'b@example.com', name: 'B' }, now);

      const token = await createAccountToken(db, { userId, purpose: 'email_change', newEmail: 'new@example.com', lifetimeMs: 1000 }, now);
      expect(await pendingEmailChange(db, userId, now)).toBe('new@example.com');
      expect(await spendAccountToken(db, token, 'password_reset', now)).toBe(false);
      expect(await spendAccountToken(db, token, 'email_change', now)).toBe(true);
      expect(await spendAccountToken(db, token, 'email_change', now)).toBe(false);
      expect(await pendingEmailChange(db, userId, now)).toBeNull();

      await enableTwoFactor(db, userId, { step: 10, recoveryCodeHashes: [hashRecoveryCode('AAAAA-BBBBB'), hashRecoveryCode('CCCCC-DDDDD')] }, now);
      expect(await claimTotpStep(db, userId, 10)).toBe(false);
      expect(await claimTotpStep(db, userId, 11)).toBe(true);
      expect(await spendRecoveryCode(db, userId, hashRecoveryCode('aaaaabbbbb'), now)).toBe(true);
      expect(await spendRecoveryCode(db, userId, hashRecoveryCode('AAAAA-BBBBB'), now)).toBe(false);
      expect(await unusedRecoveryCodes(db, userId)).toBe(1);
      expect([...(await usersWithTwoFactor(db, [userId, other.userId]))]).toEqual([userId]);

      const laptop = await createWebSession(db, userId, now, { device: { browser: 'Firefox', os: 'Windows' } });
      await createWebSession(db, userId, now + 1000, { device: { browser: 'Safari', os: 'iOS' } });
      await findWebSession(db, laptop.token, now + 10 * 60_000);
      const listed = await listUserWebSessions(db, userId, now + 10 * 60_000);
      expect(listed.map((s) => [s.browser, s.os, s.lastUsedAt])).toEqual([
        ['Firefox', 'Windows', now + 10 * 60_000],
        ['Safari', 'iOS', now + 1000],
      ]);
      expect(await deleteUserWebSession(db, other.userId, laptop.session.handle)).toBe(false);
      expect(await deleteUserWebSession(db, userId, laptop.session.handle)).toBe(true);

      // A site in the team refuses; once it is gone (its record kept for the purge) the account goes, the team stays without members.
      const site = await registerSite(db, { teamId, domain: 'a.example.com', timezone: 'Etc/UTC' }, now);
      await expect(deleteAccount(db, userId)).rejects.toThrow(/You are the owner of “A's team”/);
      await db.updateTable('sites').set({ deleted_at: now }).where('id', '=', site.id).execute();
      await deleteAccount(db, userId);
      expect(await findUserByEmail(db, 'a@example.com')).toBeUndefined();
      expect(await db.selectFrom('teams').select('id').where('id', '=', teamId).executeTakeFirst()).toEqual({ id: teamId });
      // B's team holds nothing: it goes with B.
      await deleteAccount(db, other.userId);
      expect(await db.selectFrom('teams').select('id').where('id', '=', other.teamId).executeTakeFirst()).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});
