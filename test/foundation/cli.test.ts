import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { svc } from '../support/processes.js';

const env = { DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-cli-')), LOG_LEVEL: 'silent' };
const json = async (args: string[]) => {
  const result = await svc([...args, '--json'], env);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
};

describe('svc, the command-line tool', () => {
  it('creates a user with their team, a site and keys; lists and revokes keys; locks teams', async () => {
    const user = await json(['user', 'create', '--email', 'Ops@Example.com', '--name', 'Ops', '--password', 'a long password']);
    expect(user).toEqual({ user_id: expect.any(Number), team_id: expect.any(Number) });
    const team = String(user.team_id);

    const site = await json(['site', 'create', '--team', team, '--domain', 'https://www.Example.org', '--timezone', 'Europe/Paris']);
    expect(site).toMatchObject({ domain: 'example.org', timezone: 'Europe/Paris', team_id: user.team_id });

    const all = await json(['api-key', 'create', '--team', team, '--user', String(user.user_id), '--name', 'everything']);
    expect(all.key).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
    expect(all.scopes).toEqual(['stats:read', 'sites:read', 'sites:provision', 'webhooks:write']);
    expect(all.hourly_limit).toBe(10000);

    const narrow = await json([
      'api-key',
      'create',
      '--team',
      team,
      '--user',
      String(user.user_id),
      '--name',
      'stats',
      '--scopes',
      'stats:read',
      '--hourly-limit',
      '60',
    ]);
    expect(narrow).toMatchObject({ scopes: ['stats:read'], hourly_limit: 60 });

    const listed = await json(['api-key', 'list', '--team', team]);
    expect(listed.map((k: { id: number }) => k.id)).toEqual([all.id, narrow.id]);
    expect(JSON.stringify(listed)).not.toContain(all.key);

    const revoked = await json(['api-key', 'revoke', '--team', team, '--id', String(all.id)]);
    expect(revoked.revoked_at).toEqual(expect.any(String));

    expect(await json(['team', 'lock', '--team', team, '--reason', 'card declined'])).toMatchObject({ locked: true, locked_reason: 'card declined' });
    expect(await json(['team', 'unlock', '--team', team])).toMatchObject({ locked: false });
    expect(await json(['team', 'stop-collection', '--team', team])).toMatchObject({ collecting: false, collection_stopped_at: expect.any(String) });
    expect(await json(['team', 'resume-collection', '--team', team])).toMatchObject({ collecting: true, collection_stopped_at: null });

    const human = await svc(['api-key', 'list', '--team', team], env);
    expect(human.stdout).toContain('revoked');
  });

  it.each([
    [['user', 'create', '--name', 'No Email'], /--email/],
    [['user', 'create', '--email', 'nobody', '--name', 'X'], /not an email address/],
    [['site', 'create', '--team', 'abc', '--domain', 'x.com'], /--team must be a positive whole number/],
    [['site', 'create', '--team', '1', '--domain', 'x.com', '--timezone', 'Moon/Base'], /IANA time zone/],
    [['site', 'create', '--team', '99999', '--domain', 'x.com'], /Team 99999 does not exist/],
    [['api-key', 'create', '--team', '1', '--user', '1', '--name', 'k', '--scopes', 'root'], /not a scope/],
    [['api-key', 'revoke', '--team', '1', '--id', '99999'], /no API key 99999/],
    [['api-key', 'list'], /--team/],
    [['team', 'lock', '--team', '1', '--reason', '  '], /needs a reason/],
    [['frobnicate'], /Unknown command/],
  ])('exits 2 with a sentence for %j', async (args, message) => {
    const result = await svc([...args, '--json'], env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const error = JSON.parse(result.stderr);
    expect(error.error).toMatch(message);
    expect(error.error).toMatch(/\.$/);
    const plain = await svc(args, env);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(/^svc: /);
  });

  it('refuses a bad environment with a sentence naming the variable', async () => {
    const result = await svc(['api-key', 'list', '--team', '1'], { ...env, LOG_LEVEL: 'shouty' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('LOG_LEVEL must be one of');
  });
});
