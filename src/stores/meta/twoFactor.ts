import { type MetaDb, records } from './database.js';

/** A user's two-factor state as stored: the sealed secret, whether it is on, the last step used. */
export interface TwoFactorRecord {
  totpSecret: string | null;
  totpEnabledAt: number | null;
  totpLastStep: number | null;
}

export async function twoFactorOf(db: MetaDb, userId: number): Promise<TwoFactorRecord | undefined> {
  return records(db).selectFrom('users').select(['totpSecret', 'totpEnabledAt', 'totpLastStep']).where('id', '=', userId).executeTakeFirst();
}

/** Starts setting up: a new sealed secret, not yet on (a secret being set up replaces an earlier unconfirmed one). */
export async function setPendingTotpSecret(db: MetaDb, userId: number, sealed: string): Promise<void> {
  await db.updateTable('users').set({ totp_secret: sealed, totp_enabled_at: null, totp_last_step: null }).where('id', '=', userId).execute();
}

/** Turns two-factor sign-in on with the confirmed secret, and replaces the recovery codes, in one transaction. */
export async function enableTwoFactor(db: MetaDb, userId: number, input: { step: number; recoveryCodeHashes: string[] }, now: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ totp_enabled_at: now, totp_last_step: input.step }).where('id', '=', userId).execute();
    await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    await trx
      .insertInto('recovery_codes')
      .values(input.recoveryCodeHashes.map((codeHash) => ({ user_id: userId, code_hash: codeHash, used_at: null })))
      .execute();
  });
}

export async function disableTwoFactor(db: MetaDb, userId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ totp_secret: null, totp_enabled_at: null, totp_last_step: null }).where('id', '=', userId).execute();
    await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  });
}

/**
 * Records the step of a code just used; false when that step (or a later one) was used meanwhile,
 * so two requests with one code cannot both sign in.
 */
export async function claimTotpStep(db: MetaDb, userId: number, step: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Uses a recovery code by its hash: true once, for an unused code of this user. */
export async function spendRecoveryCode(db: MetaDb, userId: number, codeHash: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function unusedRecoveryCodes(db: MetaDb, userId: number): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Which of these users have two-factor sign-in on (a team owner sees it beside each member). */
export async function usersWithTwoFactor(db: MetaDb, userIds: number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = await db.selectFrom('users').select('id').where('id', 'in', userIds).where('totp_enabled_at', 'is not', null).execute();
  return new Set(rows.map((row) => row.id));
}
