import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { EMAIL_TOPICS, type EmailTopic } from '../contracts/emailReports.js';

/**
 * The unsubscribe link every report and notice carries: works without signing in, and needs no
 * stored secret. The token is the site, list and address, signed with an HMAC-SHA256 key derived
 * from SECRET_KEY_BASE; anyone holding the mail can take that address off that list, nobody can
 * forge a token for another. Rotating SECRET_KEY_BASE voids the links of mails already sent.
 */

const claims = z.strictObject({ site: z.number().int().positive(), topic: z.enum(EMAIL_TOPICS), email: z.string().min(3).max(320) });
export type UnsubscribeClaims = z.infer<typeof claims>;

export interface UnsubscribeTokens {
  sign(claims: UnsubscribeClaims): string;
  /** The claims of a genuine token, or null for one that is malformed or not ours. */
  verify(token: string): UnsubscribeClaims | null;
}

export function unsubscribeTokens(secretKeyBase: string): UnsubscribeTokens {
  const key = createHmac('sha256', secretKeyBase).update('email unsubscribe links').digest();
  const mac = (payload: string) => createHmac('sha256', key).update(payload).digest();
  return {
    sign(value) {
      const payload = Buffer.from(JSON.stringify(value)).toString('base64url');
      return `${payload}.${mac(payload).toString('base64url')}`;
    },
    verify(token) {
      const [payload, signature, extra] = token.split('.');
      if (!payload || !signature || extra !== undefined) return null;
      const given = Buffer.from(signature, 'base64url');
      const expected = mac(payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      try {
        const parsed = claims.safeParse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
  };
}

/** The page a recipient opens (src/web/routes/unsubscribe.ts). */
export const unsubscribeUrl = (baseUrl: string, token: string) => `${baseUrl}/unsubscribe?token=${encodeURIComponent(token)}`;

/** The words a list is named by in mails and on the unsubscribe page. */
export const TOPIC_NAMES: Record<EmailTopic, string> = {
  weekly: 'the weekly report',
  monthly: 'the monthly report',
  spike: 'traffic spike notices',
  drop: 'traffic drop notices',
};
