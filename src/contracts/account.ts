import { z } from 'zod';

/**
 * The account's own routes (src/web/routes/passwordReset.ts, twoFactor.ts, accountSessions.ts,
 * profile.ts; docs/settings.md, Account): password reset, two-factor sign-in, sessions, name,
 * email and deletion.
 */

/** The one rule for a new password, wherever one is chosen (set-up, change, reset, an invitation, the CLI). */
export const MIN_PASSWORD_LENGTH = 8;

const email = z.string().max(320);
const password = z.string().max(1000);
const token = z.string().min(1).max(200);
/** Six digits, or a recovery code (two groups of five). */
const code = z.string().trim().min(1).max(40);

/** POST /app/api/sign-in: signed in, or a second factor is asked (answered with POST /app/api/sign-in/two-factor). */
export const signInOutcome = z.union([z.object({ signed_in: z.literal(true) }), z.object({ two_factor_required: z.literal(true), challenge: z.string() })]);
export type SignInOutcome = z.infer<typeof signInOutcome>;

export const secondFactorSignIn = z.strictObject({ challenge: token, code });
/** How many recovery codes are left when one was used (the page warns when few are), else null. */
export const secondFactorOutcome = z.object({ signed_in: z.literal(true), recovery_codes_left: z.number().nullable() });
export type SecondFactorOutcome = z.infer<typeof secondFactorOutcome>;

/** POST /app/api/password-reset: the same answer whether or not an account uses the address. */
export const passwordResetRequest = z.strictObject({ email });
export const passwordResetRequested = z.object({ requested: z.literal(true), message: z.string() });
export type PasswordResetRequested = z.infer<typeof passwordResetRequested>;
/** POST /app/api/password-reset/complete. */
export const passwordResetCompletion = z.strictObject({ token, password });

/** POST /app/api/two-factor/setup: the password again; the answer is the secret to scan or type. */
export const twoFactorSetupRequest = z.strictObject({ password });
export const twoFactorSetup = z.object({ secret: z.string(), uri: z.string() });
export type TwoFactorSetup = z.infer<typeof twoFactorSetup>;
/** POST /app/api/two-factor/enable: a code from the authenticator; the answer's recovery codes are shown once. */
export const twoFactorConfirmation = z.strictObject({ code });
export const recoveryCodes = z.object({ recovery_codes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodes>;
/** POST /app/api/two-factor/disable. */
export const twoFactorDisabling = z.strictObject({ password, code });

/** GET /app/api/account. */
export const accountState = z.object({
  name: z.string(),
  email: z.string(),
  /** The address an email change waits to confirm. */
  pending_email: z.string().nullable(),
  two_factor: z.object({ enabled: z.boolean(), recovery_codes_left: z.number() }),
});
export type AccountState = z.infer<typeof accountState>;

/** GET /app/api/account/sessions: where the user is signed in (browser and OS names only). */
export const accountSession = z.object({
  id: z.string(),
  browser: z.string(),
  os: z.string(),
  signed_in_at: z.string(),
  last_used_at: z.string(),
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSession>;
export const accountSessionList = z.object({ sessions: z.array(accountSession) });
export type AccountSessionList = z.infer<typeof accountSessionList>;
export const sessionParams = z.strictObject({ id: z.string().min(1).max(64) });

/** POST /app/api/account/name. */
export const nameChange = z.strictObject({ name: z.string().max(1000) });
/** POST /app/api/account/email: the new address and the password; a link goes to the new address. */
export const emailChangeRequest = z.strictObject({ email, password });
export const emailChangeRequested = z.object({ pending_email: z.string() });
export type EmailChangeRequested = z.infer<typeof emailChangeRequested>;
/** POST /app/api/account/email/confirm: the link's token (no session needed). */
export const emailChangeConfirmation = z.strictObject({ token });
export const emailChanged = z.object({ email: z.string() });
export type EmailChanged = z.infer<typeof emailChanged>;
/** POST /app/api/account/delete. */
export const accountDeletion = z.strictObject({ password });

/** GET /app/api/teams/:team/members/two-factor: which members have two-factor sign-in on (team owners). */
export const memberTwoFactorList = z.object({ members: z.array(z.object({ email: z.string(), two_factor: z.boolean() })) });
export type MemberTwoFactorList = z.infer<typeof memberTwoFactorList>;
