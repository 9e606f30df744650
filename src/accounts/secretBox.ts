import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets the service must read back cannot be hashed like API keys: webhook signing secrets (the
 * worker signs with them) and two-factor secrets (each sign-in computes the expected code). They
 * are stored sealed with AES-256-GCM under a key derived from SECRET_KEY_BASE, one key per kind,
 * and opened only at the moment they are used. A copy of the metadata store alone reveals none.
 */
export interface SecretBox {
  seal(secret: string): string;
  open(sealed: string): string;
}

/** What a box seals; each kind has its own derived key, so one kind's sealed text never opens as another's. */
const KINDS = {
  webhook: { info: 'webhook-secrets', name: 'A webhook secret' },
  twoFactor: { info: 'two-factor-secrets', name: 'A two-factor secret' },
} as const;

export type SecretKind = keyof typeof KINDS;

const VERSION = 'v1';

export function secretBoxFrom(secretKeyBase: string, kind: SecretKind = 'webhook'): SecretBox {
  const { info, name } = KINDS[kind];
  const key = Buffer.from(hkdfSync('sha256', secretKeyBase, 'svc', info, 32));
  return {
    seal(secret) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64url'), sealed.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
    },
    open(sealed) {
      const [version, iv, body, tag] = sealed.split('.');
      if (version !== VERSION || !iv || !body || !tag) throw new Error(`${name} in the store is not sealed in a known format.`);
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        throw new Error(`${name} cannot be opened: SECRET_KEY_BASE differs from the one it was sealed with.`);
      }
    },
  };
}
