import { hashRecoveryCode, newRecoveryCodes } from '../accounts/recoveryCodes.js';
import type { SecretBox } from '../accounts/secretBox.js';
import { looksLikeTotpCode, matchTotp, newTotpSecret, totpUri } from '../accounts/totp.js';
import { AppError, conflict, invalid } from '../errors.js';
import type { MetaDb } from '../stores/meta/database.js';
import {
  claimTotpStep,
  disableTwoFactor,
  enableTwoFactor,
  setPendingTotpSecret,
  spendRecoveryCode,
  twoFactorOf,
  unusedRecoveryCodes,
} from '../stores/meta/twoFactor.js';
import { confirmPassword } from './reauthentication.js';

/**
 * Two-factor sign-in (RFC 6238 codes, src/accounts/totp.ts): set up from the Account page with a
 * secret the page draws as a QR code, turned on by a first code, then asked at every sign-in after
 * the password; a recovery code stands in for a lost authenticator, once each.
 */
export interface TwoFactorDeps {
  db: MetaDb;
  /** Seals the secrets at rest (src/accounts/secretBox.ts, kind twoFactor). */
  secrets: SecretBox;
}

export const wrongCode = () =>
  new AppError(401, 'invalid_code', 'That code is not right: type the six digits your authenticator shows now, or one of your recovery codes.');

/** Step one: a new secret, kept sealed until a code confirms it; what the page shows to scan or type. */
export async function startTwoFactorSetup(
  deps: TwoFactorDeps,
  user: { id: number; email: string },
  password: string,
): Promise<{ secret: string; uri: string }> {
  await confirmPassword(deps.db, user.id, password);
  const state = await twoFactorOf(deps.db, user.id);
  if (state?.totpEnabledAt != null) throw conflict('two_factor_on', 'Two-factor sign-in is on already; turn it off first to set up another authenticator.');
  const secret = newTotpSecret();
  await setPendingTotpSecret(deps.db, user.id, deps.secrets.seal(secret));
  return { secret, uri: totpUri(secret, user.email) };
}

/** Step two: a code from the authenticator turns it on; the ten recovery codes are returned to be shown once. */
export async function confirmTwoFactor(deps: TwoFactorDeps, userId: number, code: string, now: number): Promise<string[]> {
  const state = await twoFactorOf(deps.db, userId);
  if (state?.totpEnabledAt != null) throw conflict('two_factor_on', 'Two-factor sign-in is on already.');
  if (!state?.totpSecret) throw invalid('no_setup', 'Start setting up two-factor sign-in first: the page shows a QR code to scan.');
  const step = matchTotp(deps.secrets.open(state.totpSecret), code, now, null);
  if (step === null) {
    throw invalid('invalid_code', 'That code is not right: type the six digits your authenticator shows now (check that the phone’s clock is right).');
  }
  const codes = newRecoveryCodes();
  await enableTwoFactor(deps.db, userId, { step, recoveryCodeHashes: codes.map(hashRecoveryCode) }, now);
  return codes;
}

export async function twoFactorEnabled(db: MetaDb, userId: number): Promise<boolean> {
  return (await twoFactorOf(db, userId))?.totpEnabledAt != null;
}

/**
 * Checks a second factor: an authenticator code (each good once) or a recovery code (used up).
 * What it was, or null when it matches neither.
 */
export async function checkSecondFactor(deps: TwoFactorDeps, userId: number, code: string, now: number): Promise<'code' | 'recovery_code' | null> {
  const state = await twoFactorOf(deps.db, userId);
  if (state?.totpEnabledAt == null || !state.totpSecret) return null;
  if (looksLikeTotpCode(code)) {
    const step = matchTotp(deps.secrets.open(state.totpSecret), code, now, state.totpLastStep);
    return step !== null && (await claimTotpStep(deps.db, userId, step)) ? 'code' : null;
  }
  return (await spendRecoveryCode(deps.db, userId, hashRecoveryCode(code), now)) ? 'recovery_code' : null;
}

/** Turning it off asks for the password and a code (or a recovery code), so a session left open is not enough. */
export async function turnOffTwoFactor(deps: TwoFactorDeps, userId: number, input: { password: string; code: string }, now: number): Promise<void> {
  await confirmPassword(deps.db, userId, input.password);
  if (!(await twoFactorEnabled(deps.db, userId))) throw conflict('two_factor_off', 'Two-factor sign-in is off already.');
  if ((await checkSecondFactor(deps, userId, input.code, now)) === null) throw wrongCode();
  await disableTwoFactor(deps.db, userId);
}

export const recoveryCodesLeft = unusedRecoveryCodes;
