import { describe, expect, it } from 'vitest';
import { hashRecoveryCode, newRecoveryCodes } from '../../src/accounts/recoveryCodes.js';
import { base32Decode, base32Encode, matchTotp, totpCode, totpStep, totpUri } from '../../src/accounts/totp.js';

// RFC 6238 Appendix B's SHA-1 secret, "12345678901234567890", in base32.
const RFC_SECRET = base32Encode(Buffer.from('12345678901234567890'));

describe('TOTP (RFC 6238)', () => {
  it('computes the RFC 6238 test vectors (their last six digits)', () => {
    const vectors: Array<[number, string]> = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
    ];
    for (const [seconds, code] of vectors) expect(totpCode(RFC_SECRET, totpStep(seconds * 1000))).toBe(code.slice(2));
  });

  it('round-trips base32 as authenticator apps write it', () => {
    expect(RFC_SECRET).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode('gezd gnbv-gy3t qojq gezd gnbv gy3t qojq').toString()).toBe('12345678901234567890');
  });

  it('accepts one step of drift either way, and a step only once', () => {
    const now = 1_700_000_000_000;
    const step = totpStep(now);
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, step), now, null)).toBe(step);
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, step - 1), now, null)).toBe(step - 1);
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, step + 1), now, null)).toBe(step + 1);
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, step - 2), now, null)).toBeNull();
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, step), now, step)).toBeNull();
    const spaced = totpCode(RFC_SECRET, step).replace(/^(\d{3})/, '$1 ');
    expect(matchTotp(RFC_SECRET, spaced, now, null)).toBe(step);
  });

  it('names the issuer and the account in the otpauth URI', () => {
    expect(totpUri(RFC_SECRET, 'ada@example.com')).toBe(
      'otpauth://totp/svc%20analytics%3Aada%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=svc+analytics&algorithm=SHA1&digits=6&period=30',
    );
  });
});

describe('recovery codes', () => {
  it('are ten distinct codes whose hash ignores case, spaces and the dash', () => {
    const codes = newRecoveryCodes();
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[A-HJKMNP-Z2-9]{5}-[A-HJKMNP-Z2-9]{5}$/);
    const [first] = codes as [string];
    expect(hashRecoveryCode(first.toLowerCase().replace('-', ' '))).toBe(hashRecoveryCode(first));
  });
});
