import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Webhook signing secrets must be readable to sign with, so they cannot be hashed like API keys;
 * they are stored sealed with AES-256-GCM under a key derived from SECRET_KEY_BASE, and opened only
 * by the worker at the moment it signs. A copy of the metadata store alone reveals none of them.
 */
export interface SecretBox {
  seal(secret: string): string;
  open(sealed: string): string;
}

const VERSION = 'v1';

export function secretBoxFrom(secretKeyBase: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', secretKeyBase, 'svc', 'webhook-secrets', 32));
  return {
    seal(secret) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64url'), sealed.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
    },
    open(sealed) {
      const [version, iv, body, tag] = sealed.split('.');
      if (version !== VERSION || !iv || !body || !tag) throw new Error('A webhook secret in the store is not sealed in a known format.');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        throw new Error('A webhook secret cannot be opened: SECRET_KEY_BASE differs from the one it was sealed with.');
      }
    },
  };
}
