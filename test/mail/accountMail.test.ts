import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithTeam } from '../../src/stores/meta/users.js';
import { ManualClock } from '../support/manualClock.js';
import { bearer, createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { signedInHeaders } from '../support/webSession.js';
import { type MailServer, type ReceivedMail, startMailServer } from './mailServer.js';

// The emails of an account (docs/settings.md, Mail), each read as it arrived at a real SMTP server: a password
// reset (single use, an hour, every session ends), an invitation, an email change.
const clock = new ManualClock(Date.parse('2026-05-04T09:00:00Z'));
let t: TestApp;
let mail: MailServer;

beforeAll(async () => {
  mail = await startMailServer();
  t = await startTestApp({ clock, env: { SMTP_URL: `smtp://127.0.0.1:${mail.port}?from=accounts@svc.example`, TRUSTED_PROXIES: '127.0.0.1' } });
});
afterAll(async () => {
  await t?.close();
  await mail?.close();
});

/** The next mail to arrive (sending may finish after the answer, as a reset's does). */
async function nextMail(already: number): Promise<ReceivedMail> {
  for (let i = 0; i < 200 && mail.mails.length <= already; i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
  const arrived = mail.mails[already];
  if (!arrived) throw new Error('No mail arrived within five seconds.');
  return arrived;
}

/** A link's token (the links are built on BASE_URL, here http://localhost:0 as the test's port is chosen at start). */
const linkIn = (text: string, path: string) => {
  const found = new RegExp(`^http://localhost:0${path}\\?token=([\\w-]+)$`, 'm').exec(text);
  if (!found) throw new Error(`No ${path} link in:\n${text}`);
  return { token: found[1] as string };
};

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${t.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

const signedIn = async (cookie: string) => (await (await fetch(`${t.url}/app/api/session`, { headers: { cookie } })).json()).user !== null;

describe('password reset by email', () => {
  it('answers the same for any address, mails a link that works once and ends every session', async () => {
    const { userId } = await createUserWithTeam(t.app.meta.db, { email: 'Reset.Me@example.com', name: 'Rita', password: 'old password 1' }, clock.now());
    const phone = await signedInHeaders(t.app, userId);
    const laptop = await signedInHeaders(t.app, userId);

    const before = mail.mails.length;
    const unknown = await post('/app/api/password-reset', { email: 'nobody@example.com' });
    const known = await post('/app/api/password-reset', { email: 'reset.me@EXAMPLE.com' });
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    expect(await known.json()).toEqual(await unknown.json());

    const sent = await nextMail(before);
    expect(sent.to).toEqual(['Reset.Me@example.com']);
    expect(sent.from).toBe('accounts@svc.example');
    expect(sent.headers.subject).toBe('Choose a new password for svc analytics');
    expect(sent.text).toContain('until 2026-05-04 10:00 UTC');
    const { token } = linkIn(sent.text, '/password-reset');
    // Only the one mail: nothing went to the unknown address.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(mail.mails.length).toBe(before + 1);

    const short = await post('/app/api/password-reset/complete', { token, password: 'short' });
    expect(short.status).toBe(400);
    expect((await short.json()).code).toBe('weak_password');
    expect(await signedIn(phone.cookie)).toBe(true);

    clock.advance(59 * 60_000);
    expect((await post('/app/api/password-reset/complete', { token, password: 'new password 2' })).status).toBe(200);
    expect(await signedIn(phone.cookie)).toBe(false);
    expect(await signedIn(laptop.cookie)).toBe(false);

    const again = await post('/app/api/password-reset/complete', { token, password: 'another password 3' });
    expect(again.status).toBe(404);
    expect((await again.json()).error).toMatch(/already used/);
    expect((await post('/app/api/sign-in', { email: 'reset.me@example.com', password: 'new password 2' })).status).toBe(200);
    expect((await post('/app/api/sign-in', { email: 'reset.me@example.com', password: 'old password 1' })).status).toBe(401);
  });

  it('refuses a link after its hour', async () => {
    const before = mail.mails.length;
    expect((await post('/app/api/password-reset', { email: 'reset.me@example.com' })).status).toBe(200);
    const { token } = linkIn((await nextMail(before)).text, '/password-reset');
    clock.advance(60 * 60_000 + 1);
    const late = await post('/app/api/password-reset/complete', { token, password: 'new password 4' });
    expect(late.status).toBe(410);
    expect((await late.json()).error).toMatch(/^This link to choose a new password expired at .*; ask for a new one\.$/);
  });

  it('limits requests per address asked for, whether or not it has an account', async () => {
    const ask = (email: string) => post('/app/api/password-reset', { email });
    for (let i = 0; i < 3; i += 1) expect((await ask('flood@example.com')).status).toBe(200);
    const limited = await ask('flood@example.com');
    expect(limited.status).toBe(429);
    expect((await limited.json()).error).toMatch(/^Too many requests for a reset link; try again in \d+ minute\(s\)\.$/);
    expect((await ask('other@example.com')).status).toBe(200);
    clock.advance(16 * 60_000);
    expect((await ask('flood@example.com')).status).toBe(200);
  });
});

describe('invitations by email', () => {
  it('mails the accept link, naming the inviter and the team, and still answers the link', async () => {
    const owner = await createAccount(t.app);
    await t.app.meta.db.updateTable('users').set({ name: 'Olga Owner' }).where('id', '=', owner.userId).execute();
    await t.app.meta.db.updateTable('teams').set({ name: 'Acme Analytics' }).where('id', '=', owner.teamId).execute();
    const before = mail.mails.length;
    const res = await fetch(`${t.url}/api/v1/teams/memberships`, {
      method: 'PUT',
      headers: { ...bearer(owner.key), 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'new.member@example.com', role: 'editor' }),
    });
    expect(res.status).toBe(200);
    const answer = await res.json();
    expect(answer.mail).toBe('sent');
    const sent = await nextMail(before);
    expect(sent.to).toEqual(['new.member@example.com']);
    expect(sent.headers.subject).toBe(`Olga Owner (${await userEmail(owner.userId)}) invited you to Acme Analytics on svc analytics`);
    expect(sent.text).toContain('to the team Acme Analytics on svc analytics, with the role editor.');
    expect(sent.text).toContain(answer.invitation.accept_url);

    const guest = await fetch(`${t.url}/api/v1/sites/guests`, {
      method: 'PUT',
      headers: { ...bearer(owner.key), 'content-type': 'application/json' },
      body: JSON.stringify({ site_id: owner.domain, email: 'guest@example.com', role: 'viewer' }),
    });
    const guestAnswer = await guest.json();
    const guestMail = await nextMail(before + 1);
    expect(guestMail.text).toContain(`to the site ${owner.domain} (team Acme Analytics)`);
    expect(guestMail.text).toContain(guestAnswer.invitation.accept_url);
  });
});

async function userEmail(userId: number): Promise<string> {
  const row = await t.app.meta.db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow();
  return row.email;
}

describe('email change', () => {
  it('mails a confirmation link to the new address and tells the old one; the link moves the account once', async () => {
    const { userId } = await createUserWithTeam(t.app.meta.db, { email: 'old@example.com', name: 'Otto', password: 'otto password' }, clock.now());
    const session = await signedInHeaders(t.app, userId);
    const wrong = await post('/app/api/account/email', { email: 'new@example.com', password: 'not it' }, session);
    expect(wrong.status).toBe(403);
    const before = mail.mails.length;
    const res = await post('/app/api/account/email', { email: 'new@example.com', password: 'otto password' }, session);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ pending_email: 'new@example.com' });
    const confirmation = await nextMail(before);
    const notice = await nextMail(before + 1);
    expect(confirmation.to).toEqual(['new@example.com']);
    expect(confirmation.headers.subject).toBe('Confirm your new email address for svc analytics');
    expect(notice.to).toEqual(['old@example.com']);
    expect(notice.text).toContain('from old@example.com to new@example.com');
    const account = await (await fetch(`${t.url}/app/api/account`, { headers: session })).json();
    expect(account).toMatchObject({ email: 'old@example.com', pending_email: 'new@example.com' });

    const { token } = linkIn(confirmation.text, '/confirm-email');
    const confirmed = await post('/app/api/account/email/confirm', { token });
    expect(await confirmed.json()).toEqual({ email: 'new@example.com' });
    expect((await post('/app/api/account/email/confirm', { token })).status).toBe(404);
    expect(await userEmail(userId)).toBe('new@example.com');
    expect((await post('/app/api/sign-in', { email: 'new@example.com', password: 'otto password' })).status).toBe(200);
  });

  it('refuses an address another account uses', async () => {
    const { userId } = await createUserWithTeam(t.app.meta.db, { email: 'taken1@example.com', name: 'T', password: 'password one' }, clock.now());
    const session = await signedInHeaders(t.app, userId);
    const res = await post('/app/api/account/email', { email: 'NEW@example.com', password: 'password one' }, session);
    expect(res.status).toBe(409);
    expect((await res.json()).error).toBe('Another account uses NEW@example.com.');
  });
});
