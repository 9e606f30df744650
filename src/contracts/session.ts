import { z } from 'zod';

/** The web app's session (src/web/routes/session.ts, src/web/routes/account.ts). */

export const sessionUser = z.object({ id: z.number(), email: z.string(), name: z.string() });
export type SessionUser = z.infer<typeof sessionUser>;

export const sessionTeam = z.object({ id: z.number(), name: z.string(), role: z.string(), locked: z.boolean(), locked_reason: z.string().nullable() });
export type SessionTeam = z.infer<typeof sessionTeam>;

/** GET /app/api/session: who is signed in, their teams, the CSRF token to echo, and whether set-up is still to be done. */
export const sessionState = z.object({
  user: sessionUser.nullable(),
  csrf_token: z.string().nullable(),
  teams: z.array(sessionTeam),
  needs_setup: z.boolean(),
  /** Whether the server sends email (SMTP_URL); without it, the pages that would send one say what to do instead. */
  mail: z.boolean(),
});
export type SessionState = z.infer<typeof sessionState>;
