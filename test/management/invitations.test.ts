import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITATION_LIFETIME_MS } from '../../src/management/invitations.js';
import { membershipRole } from '../../src/stores/meta/teams.js';
import { createUserWithTeam } from '../../src/stores/meta/users.js';
import { ManualClock } from '../support/manualClock.js';
import { type Account, createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { type Answer, apiClient, q, testEnv } from './client.js';

const clock = new ManualClock(Date.parse('2026-03-01T12:00:00Z'));
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ clock, env: testEnv({ BASE_URL: 'https://stats.example.org' }) });
});
afterAll(() => t.close());

let counter = 0;
const freshEmail = () => `person-${process.pid}-${++counter}@example.net`;

async function setup(): Promise<{ account: Account; api: ReturnType<typeof apiClient> }> {
  const account = await createAccount(t.app);
  return { account, api: apiClient(t.url, account.key) };
}

/** An account that can prove itself on a token link. */
async function personWithPassword(password = 'long enough secret'): Promise<{ email: string; userId: number; password: string }> {
  const email = freshEmail();
  const { userId } = await createUserWithTeam(t.app.meta.db, { email, name: 'Invitee', password }, clock.now());
  return { email, userId, password };
}

const tokenOf = (answer: Answer) => new URL(answer.body.invitation?.accept_url ?? answer.body.accept_url).searchParams.get('token')!;
const publicApi = () => apiClient(t.url, undefined);

describe('site guests', () => {
  it('invites without granting, accepts by token link, lists and removes', async () => {
    const { account, api } = await setup();
    const site_id = account.domain;
    const person = await personWithPassword();
    const invited = await api.put('/api/v1/sites/guests', { site_id, email: person.email, role: 'viewer' });
    expect(invited.status).toBe(200);
    expect(invited.body).toMatchObject({ email: person.email, role: 'viewer', status: 'invited' });
    expect(invited.body.invitation.accept_url).toMatch(/^https:\/\/stats\.example\.org\/invitations\/accept\?token=[A-Za-z0-9_-]{43}$/);
    expect(invited.body.invitation.expires_at).toBe(new Date(clock.now() + INVITATION_LIFETIME_MS).toISOString());
    // Nothing is granted yet.
    expect(await t.app.meta.db.selectFrom('site_guests').selectAll().where('site_id', '=', account.siteId).execute()).toEqual([]);
    const stored = await t.app.meta.db.selectFrom('invitations').select('token_hash').where('id', '=', invited.body.invitation.id).executeTakeFirstOrThrow();
    expect(stored.token_hash).not.toContain(tokenOf(invited));

    expect((await api.get(`/api/v1/sites/guests${q({ site_id })}`)).body.guests).toEqual([{ email: person.email, role: 'viewer', status: 'invited' }]);

    const wrong = await publicApi().post('/api/invitations/accept', { token: tokenOf(invited), password: 'not the password' });
    expect(wrong.status).toBe(403);
    const accepted = await publicApi().post('/api/invitations/accept', { token: tokenOf(invited), password: person.password });
    expect(accepted.body).toEqual({ accepted: true, email: person.email, role: 'viewer', account_created: false });
    expect((await publicApi().post('/api/invitations/accept', { token: tokenOf(invited), password: person.password })).status).toBe(404);

    expect((await api.get(`/api/v1/sites/guests${q({ site_id })}`)).body.guests).toEqual([{ email: person.email, role: 'viewer', status: 'accepted' }]);
    // Inviting an existing guest with the same role is idempotent.
    expect((await api.put('/api/v1/sites/guests', { site_id, email: person.email, role: 'viewer' })).body).toEqual({
      email: person.email,
      role: 'viewer',
      status: 'accepted',
      invitation: null,
    });

    expect((await api.delete(`/api/v1/sites/guests/${encodeURIComponent(person.email)}${q({ site_id })}`)).body).toEqual({ deleted: true });
    expect((await api.get(`/api/v1/sites/guests${q({ site_id })}`)).body.guests).toEqual([]);
    expect((await api.delete(`/api/v1/sites/guests/${encodeURIComponent(person.email)}${q({ site_id })}`)).body).toEqual({ deleted: true });
  });

  it('answers the same shape for an address with and without an account', async () => {
    const { account, api } = await setup();
    const known = await personWithPassword();
    const a = await api.put('/api/v1/sites/guests', { site_id: account.domain, email: known.email, role: 'editor' });
    const b = await api.put('/api/v1/sites/guests', { site_id: account.domain, email: freshEmail(), role: 'editor' });
    const shape = (x: Answer) => ({
      status: x.status,
      keys: Object.keys(x.body).sort(),
      invitationKeys: Object.keys(x.body.invitation).sort(),
      state: x.body.status,
    });
    expect(shape(a)).toEqual(shape(b));
    expect(a.status).toBe(200);
  });

  it('creates the account on acceptance when the address has none', async () => {
    const { account, api } = await setup();
    const email = freshEmail();
    const invited = await api.put('/api/v1/sites/guests', { site_id: account.domain, email, role: 'viewer' });
    const bare = await publicApi().post('/api/invitations/accept', { token: tokenOf(invited) });
    expect(bare.status).toBe(400);
    expect(bare.body.error).toContain('"name"');
    const made = await publicApi().post('/api/invitations/accept', { token: tokenOf(invited), name: 'New Person', password: 'a good password' });
    expect(made.body).toMatchObject({ accepted: true, account_created: true });
    const user = await t.app.meta.db.selectFrom('users').selectAll().where('email_normalized', '=', email).executeTakeFirstOrThrow();
    const guest = await t.app.meta.db
      .selectFrom('site_guests')
      .selectAll()
      .where('site_id', '=', account.siteId)
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    expect(guest?.role).toBe('viewer');
  });

  it('refuses owner and unknown roles, naming the allowed ones', async () => {
    const { account, api } = await setup();
    const owner = await api.put('/api/v1/sites/guests', { site_id: account.domain, email: freshEmail(), role: 'owner' });
    expect(owner.status).toBe(400);
    expect(owner.body.error).toContain('"owner" is not an invitational role');
    expect(owner.body.error).toContain('viewer, editor');
    const admin = await api.put('/api/v1/sites/guests', { site_id: account.domain, email: freshEmail(), role: 'admin' });
    expect(admin.body.error).toContain('viewer, editor');
    expect((await api.put('/api/v1/sites/guests', { site_id: account.domain, email: 'nope', role: 'viewer' })).body.code).toBe('invalid_email');
    expect((await api.put('/api/v1/sites/guests', { site_id: account.domain, email: freshEmail(), role: 'viewer', note: 'x' })).body.error).toContain('"note"');
  });
});

describe('invitation expiry and revocation', () => {
  it('cannot accept after 48 hours on the injected clock', async () => {
    const { api } = await setup();
    const person = await personWithPassword();
    const invited = await api.put('/api/v1/teams/memberships', { email: person.email, role: 'editor' });
    clock.advance(INVITATION_LIFETIME_MS - 1);
    const listed = await api.get('/api/v1/teams/invitations');
    expect(listed.body.invitations).toEqual([expect.objectContaining({ email: person.email, role: 'editor', status: 'pending', site_id: null })]);
    clock.advance(1);
    expect((await api.get('/api/v1/teams/invitations')).body.invitations[0].status).toBe('expired');
    const late = await publicApi().post('/api/invitations/accept', { token: tokenOf(invited), password: person.password });
    expect(late.status).toBe(410);
    expect(late.body.code).toBe('invitation_expired');
  });

  it('cannot accept once revoked', async () => {
    const { account, api } = await setup();
    const person = await personWithPassword();
    const invited = await api.put('/api/v1/teams/memberships', { email: person.email, role: 'viewer' });
    expect((await api.delete(`/api/v1/teams/invitations/${invited.body.invitation.id}`)).body).toEqual({ revoked: true });
    expect((await api.delete(`/api/v1/teams/invitations/${invited.body.invitation.id}`)).status).toBe(404);
    expect((await publicApi().post('/api/invitations/accept', { token: tokenOf(invited), password: person.password })).status).toBe(404);
    expect(await membershipRole(t.app.meta.db, account.teamId, person.userId)).toBeUndefined();
  });

  it('a guest invitation dies with its site', async () => {
    const { account, api } = await setup();
    const person = await personWithPassword();
    const invited = await api.put('/api/v1/sites/guests', { site_id: account.domain, email: person.email, role: 'viewer' });
    await api.delete(`/api/v1/sites/${account.domain}`);
    expect((await publicApi().post('/api/invitations/accept', { token: tokenOf(invited), password: person.password })).status).toBe(404);
  });

  it('re-inviting replaces the earlier link', async () => {
    const { api } = await setup();
    const person = await personWithPassword();
    const first = await api.put('/api/v1/teams/memberships', { email: person.email, role: 'viewer' });
    const second = await api.put('/api/v1/teams/memberships', { email: person.email, role: 'admin' });
    expect((await publicApi().post('/api/invitations/accept', { token: tokenOf(first), password: person.password })).status).toBe(404);
    expect((await publicApi().post('/api/invitations/accept', { token: tokenOf(second), password: person.password })).body.role).toBe('admin');
  });

  it('does not let another team revoke or see an invitation', async () => {
    const { api } = await setup();
    const { api: other } = await setup();
    const invited = await api.put('/api/v1/teams/memberships', { email: freshEmail(), role: 'viewer' });
    expect((await other.delete(`/api/v1/teams/invitations/${invited.body.invitation.id}`)).status).toBe(404);
    expect((await other.get('/api/v1/teams/invitations')).body.invitations).toEqual([]);
  });
});

describe('team memberships', () => {
  it('invites a member who joins on acceptance; lists and removes', async () => {
    const { account, api } = await setup();
    const person = await personWithPassword();
    const invited = await api.put('/api/v1/teams/memberships', { email: person.email, role: 'editor' });
    expect(invited.body).toMatchObject({ email: person.email, role: 'editor', status: 'invited' });
    expect(await membershipRole(t.app.meta.db, account.teamId, person.userId)).toBeUndefined();
    await publicApi().post('/api/invitations/accept', { token: tokenOf(invited), password: person.password });
    expect(await membershipRole(t.app.meta.db, account.teamId, person.userId)).toBe('editor');
    const members = (await api.get('/api/v1/teams/memberships')).body.memberships;
    expect(members).toEqual([expect.objectContaining({ role: 'owner', status: 'accepted' }), { email: person.email, role: 'editor', status: 'accepted' }]);
    expect((await api.delete(`/api/v1/teams/memberships/${encodeURIComponent(person.email)}`)).body).toEqual({ deleted: true });
    expect(await membershipRole(t.app.meta.db, account.teamId, person.userId)).toBeUndefined();
    expect((await api.delete(`/api/v1/teams/memberships/${encodeURIComponent(members[0].email)}`)).status).toBe(400);
  });

  it('refuses the owner role and answers alike for known and unknown addresses', async () => {
    const { api } = await setup();
    const owner = await api.put('/api/v1/teams/memberships', { email: freshEmail(), role: 'owner' });
    expect(owner.status).toBe(400);
    expect(owner.body.error).toContain('admin, editor, viewer, billing');
    const known = await api.put('/api/v1/teams/memberships', { email: (await personWithPassword()).email, role: 'viewer' });
    const unknown = await api.put('/api/v1/teams/memberships', { email: freshEmail(), role: 'viewer' });
    expect(Object.keys(known.body).sort()).toEqual(Object.keys(unknown.body).sort());
    expect([known.status, known.body.status]).toEqual([unknown.status, unknown.body.status]);
  });

  it('needs an owner or admin to invite, and the right scopes', async () => {
    const { account } = await setup();
    await t.app.meta.db.updateTable('memberships').set({ role: 'viewer' }).where('team_id', '=', account.teamId).execute();
    const res = await apiClient(t.url, account.key).put('/api/v1/teams/memberships', { email: freshEmail(), role: 'viewer' });
    expect(res.status).toBe(403);
    const reader = apiClient(t.url, (await createAccount(t.app, { scopes: ['sites:read'] })).key);
    expect((await reader.put('/api/v1/teams/memberships', { email: freshEmail(), role: 'viewer' })).body.error).toContain('sites:provision');
    expect((await reader.put('/api/v1/sites/guests', { site_id: 'x.example.com', email: freshEmail(), role: 'viewer' })).status).toBe(403);
    const statsOnly = apiClient(t.url, (await createAccount(t.app, { scopes: ['stats:read'] })).key);
    for (const path of [
      '/api/v1/teams/memberships',
      '/api/v1/teams/invitations',
      '/api/v1/teams/ownership-transfer',
      '/api/v1/sites/guests?site_id=x.example.com',
    ]) {
      expect((await statsOnly.get(path)).body.error).toContain('sites:read');
    }
  });

  it("answers 404 alike for another team's site and a missing one", async () => {
    const { api } = await setup();
    const { account: other } = await setup();
    for (const domain of [other.domain, 'missing.example.com']) {
      expect(await api.get(`/api/v1/sites/guests${q({ site_id: domain })}`)).toEqual({
        status: 404,
        body: { error: 'Site could not be found.', code: 'not_found' },
      });
      expect((await api.put('/api/v1/sites/guests', { site_id: domain, email: freshEmail(), role: 'viewer' })).status).toBe(404);
    }
  });
});

describe('ownership transfer', () => {
  it('moves ownership only when the new owner accepts; the old owner stays as admin', async () => {
    const { account, api } = await setup();
    const successor = await personWithPassword();
    const requested = await api.post('/api/v1/teams/ownership-transfer', { email: successor.email });
    expect(requested.status).toBe(200);
    expect(requested.body).toMatchObject({ email: successor.email, status: 'pending' });
    expect(requested.body.accept_url).toMatch(/^https:\/\/stats\.example\.org\/ownership-transfers\/accept\?token=/);
    expect((await api.get('/api/v1/teams/ownership-transfer')).body.transfer).toMatchObject({ email: successor.email, status: 'pending' });
    expect(await membershipRole(t.app.meta.db, account.teamId, account.userId)).toBe('owner');

    const accepted = await publicApi().post('/api/ownership-transfers/accept', { token: tokenOf(requested), password: successor.password });
    expect(accepted.body).toMatchObject({ accepted: true, role: 'owner' });
    expect(await membershipRole(t.app.meta.db, account.teamId, successor.userId)).toBe('owner');
    expect(await membershipRole(t.app.meta.db, account.teamId, account.userId)).toBe('admin');
    expect((await api.get('/api/v1/teams/ownership-transfer')).body.transfer).toBeNull();
    // The former owner's key can no longer start a transfer.
    expect((await api.post('/api/v1/teams/ownership-transfer', { email: freshEmail() })).status).toBe(403);
  });

  it('expires after 48 hours and can be cancelled', async () => {
    const { api } = await setup();
    const successor = await personWithPassword();
    const first = await api.post('/api/v1/teams/ownership-transfer', { email: successor.email });
    clock.advance(INVITATION_LIFETIME_MS);
    expect((await publicApi().post('/api/ownership-transfers/accept', { token: tokenOf(first), password: successor.password })).status).toBe(410);
    const second = await api.post('/api/v1/teams/ownership-transfer', { email: successor.email });
    expect((await api.delete('/api/v1/teams/ownership-transfer')).body).toEqual({ cancelled: true });
    expect((await publicApi().post('/api/ownership-transfers/accept', { token: tokenOf(second), password: successor.password })).status).toBe(404);
    expect((await api.delete('/api/v1/teams/ownership-transfer')).status).toBe(404);
  });

  it('refuses the current owner and an acceptance without the account password', async () => {
    const { api } = await setup();
    const successor = await personWithPassword();
    const requested = await api.post('/api/v1/teams/ownership-transfer', { email: successor.email });
    expect((await publicApi().post('/api/ownership-transfers/accept', { token: tokenOf(requested) })).status).toBe(403);
    expect((await publicApi().post('/api/ownership-transfers/accept', { token: tokenOf(requested), name: 'X', password: 'whatever123' })).status).toBe(400);
    expect((await api.post('/api/v1/teams/ownership-transfer', { email: 'bad' })).body.code).toBe('invalid_email');
  });
});
