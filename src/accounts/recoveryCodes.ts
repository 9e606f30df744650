import { createHash, randomInt } from 'node:crypto';

/**
 * Recovery codes: ten, each good once, for when the authenticator is lost. Shown once when
 * two-factor sign-in is turned on and stored as SHA-256 hashes only (each has 50 random bits, so a
 * fast hash is enough, as for API keys). Written as two groups of five letters and digits without
 * look-alikes (no 0/O, 1/I/L).
 */
export const RECOVERY_CODE_COUNT = 10;

const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const GROUP = 5;

export function newRecoveryCodes(): string[] {
  const code = () => Array.from({ length: GROUP * 2 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const raw = code();
    return `${raw.slice(0, GROUP)}-${raw.slice(GROUP)}`;
  });
}

/** The same hash whatever the case, spaces or dash the person typed. */
export function hashRecoveryCode(input: string): string {
  return createHash('sha256').update(input.replace(/[\s-]/g, '').toUpperCase()).digest('hex');
}
