import type { Command } from 'commander';
import { MIN_PASSWORD_LENGTH } from '../../contracts/account.js';
import { missing } from '../../errors.js';
import { deleteAccount } from '../../management/accountDeletion.js';
import { createResetLink } from '../../management/passwordReset.js';
import { registerSite } from '../../management/sites.js';
import { type ApiKeyRecord, createApiKey, listApiKeys, revokeApiKey } from '../../stores/meta/apiKeys.js';
import type { MetaStore } from '../../stores/meta/database.js';
import { lockTeam, setTeamCollection, type Team, unlockTeam } from '../../stores/meta/teams.js';
import { disableTwoFactor } from '../../stores/meta/twoFactor.js';
import { createUserWithTeam, findUserByEmail } from '../../stores/meta/users.js';
import { commaList, idArgument, positiveInteger } from '../arguments.js';
import type { CommandContext } from '../commandContext.js';
import { iso } from '../output.js';

const keyJson = (record: ApiKeyRecord) => ({
  id: record.id,
  name: record.name,
  prefix: record.prefix,
  team_id: record.teamId,
  user_id: record.userId,
  scopes: record.scopes,
  hourly_limit: record.hourlyLimit,
  created_at: iso(record.createdAt),
  last_used_at: iso(record.lastUsedAt),
  revoked_at: iso(record.revokedAt),
});

const teamJson = (team: Team) => ({
  id: team.id,
  name: team.name,
  locked: team.lockedAt !== null,
  locked_reason: team.lockedReason,
  locked_at: iso(team.lockedAt),
  collecting: team.collectionStoppedAt === null,
  collection_stopped_at: iso(team.collectionStoppedAt),
});

type Run = (action: (ctx: CommandContext) => Promise<void>) => Promise<void>;

/** Users, teams, sites and API keys: commands that touch the metadata store only. */
export function accountCommands(program: Command, run: Run): void {
  userAndSiteCommands(program, run);
  apiKeyCommands(program, run);
  teamCommands(program, run);
}

function userAndSiteCommands(program: Command, run: Run): void {
  const user = program.command('user').description('Manage users');
  user
    .command('create')
    .description('Create a user and the team they own')
    .requiredOption('--email <email>', 'email address (unique, case-insensitive)')
    .requiredOption('--name <name>', 'display name')
    .option('--password <password>', `password for the web app (at least ${MIN_PASSWORD_LENGTH} characters)`)
    .action((opts: { email: string; name: string; password?: string }) =>
      run(async ({ meta, clock, out }) => {
        const { userId, teamId } = await createUserWithTeam(meta.db, opts, clock.now());
        out.result({ user_id: userId, team_id: teamId }, `Created user ${userId} with team ${teamId}.`);
      }),
    );

  userAccessCommands(user, run);

  const site = program.command('site').description('Manage sites');
  site
    .command('create')
    .description('Register a site')
    .requiredOption('--team <id>', 'team that owns the site', idArgument('--team'))
    .requiredOption('--domain <domain>', 'domain, e.g. example.com')
    .option('--timezone <zone>', 'IANA time zone of the site', 'Etc/UTC')
    .action((opts: { team: number; domain: string; timezone: string }) =>
      run(async ({ meta, clock, out }) => {
        const created = await registerSite(meta.db, { teamId: opts.team, domain: opts.domain, timezone: opts.timezone }, clock.now());
        out.result(
          { id: created.id, team_id: created.teamId, domain: created.domain, timezone: created.timezone, created_at: iso(created.createdAt) },
          `Created site ${created.domain} (${created.timezone}) with id ${created.id}.`,
        );
      }),
    );
}

/** What the server's operator does for someone who cannot help themselves in the web app (docs/settings.md, Account). */
function userAccessCommands(user: Command, run: Run): void {
  const byEmail = async (db: MetaStore['db'], email: string) => {
    const found = await findUserByEmail(db, email);
    if (!found) throw missing(`There is no user with email ${email}.`);
    return found;
  };
  user
    .command('reset-password')
    .description('Print a link to choose a new password (works once, for an hour), for a server that sends no email')
    .requiredOption('--email <email>', "the user's email address")
    .action((opts: { email: string }) =>
      run(async ({ meta, clock, config, out }) => {
        const found = await byEmail(meta.db, opts.email);
        const { link, expiresAt } = await createResetLink(meta.db, found.id, config.baseUrl, clock.now());
        out.result(
          { user_id: found.id, link, expires_at: iso(expiresAt) },
          `${link}\nGive this link to ${found.email}: it works once, until ${iso(expiresAt)}.`,
        );
      }),
    );
  user
    .command('disable-2fa')
    .description('Turn off two-factor sign-in for a user who lost their authenticator and recovery codes')
    .requiredOption('--email <email>', "the user's email address")
    .action((opts: { email: string }) =>
      run(async ({ meta, out }) => {
        const found = await byEmail(meta.db, opts.email);
        await disableTwoFactor(meta.db, found.id);
        out.result({ user_id: found.id, two_factor: false }, `Two-factor sign-in is off for ${found.email}; they sign in with their password alone.`);
      }),
    );
  user
    .command('delete')
    .description('Delete a user (refused while they own a team with other members or sites)')
    .requiredOption('--email <email>', "the user's email address")
    .action((opts: { email: string }) =>
      run(async ({ meta, out }) => {
        const found = await byEmail(meta.db, opts.email);
        await deleteAccount(meta.db, found.id);
        out.result({ user_id: found.id, deleted: true }, `Deleted user ${found.id} (${found.email}).`);
      }),
    );
}

function apiKeyCommands(program: Command, run: Run): void {
  const key = program.command('api-key').description('Manage API keys');
  key
    .command('create')
    .description('Create an API key; the key is printed once and cannot be shown again')
    .requiredOption('--team <id>', 'team the key belongs to', idArgument('--team'))
    .requiredOption('--user <id>', 'user the key belongs to (a member of the team)', idArgument('--user'))
    .requiredOption('--name <name>', 'a name to recognise the key by')
    .option('--scopes <list>', 'comma-separated: stats:read, sites:read, sites:provision, webhooks:write (default: all)', commaList)
    .option('--hourly-limit <n>', 'requests per hour (default 10000)', positiveInteger)
    .action((opts: { team: number; user: number; name: string; scopes?: string[]; hourlyLimit?: number }) =>
      run(async ({ meta, clock, out }) => {
        const { record, key: secret } = await createApiKey(
          meta.db,
          { teamId: opts.team, userId: opts.user, name: opts.name, scopes: opts.scopes, hourlyLimit: opts.hourlyLimit },
          clock.now(),
        );
        out.result({ ...keyJson(record), key: secret }, `${secret}\nStore this key now: it is shown only once (id ${record.id}).`);
      }),
    );
  key
    .command('list')
    .description("List a team's API keys (never the keys themselves)")
    .requiredOption('--team <id>', 'team', idArgument('--team'))
    .action((opts: { team: number }) =>
      run(async ({ meta, out }) => {
        const keys = await listApiKeys(meta.db, opts.team);
        const human =
          keys.length === 0
            ? 'No API keys.'
            : keys.map((k) => `${k.id}\t${k.prefix}…\t${k.name}\t${k.scopes.join(',')}\t${k.revokedAt ? 'revoked' : 'active'}`).join('\n');
        out.result(keys.map(keyJson), human);
      }),
    );
  key
    .command('revoke')
    .description('Revoke an API key; the record is kept')
    .requiredOption('--team <id>', 'team', idArgument('--team'))
    .requiredOption('--id <id>', 'key id', idArgument('--id'))
    .action((opts: { team: number; id: number }) =>
      run(async ({ meta, clock, out }) => {
        const record = await revokeApiKey(meta.db, opts.team, opts.id, clock.now());
        out.result(keyJson(record), `Revoked API key ${record.id}.`);
      }),
    );
}

function teamCommands(program: Command, run: Run): void {
  const team = program.command('team').description('Manage teams');
  team
    .command('lock')
    .description('Lock a team: its API answers 402; collection continues')
    .requiredOption('--team <id>', 'team', idArgument('--team'))
    .requiredOption('--reason <text>', 'shown to API callers')
    .action((opts: { team: number; reason: string }) =>
      run(async ({ meta, clock, out }) => {
        const locked = await lockTeam(meta.db, opts.team, opts.reason, clock.now());
        out.result(teamJson(locked), `Locked team ${locked.id}.`);
      }),
    );
  team
    .command('unlock')
    .description('Unlock a team')
    .requiredOption('--team <id>', 'team', idArgument('--team'))
    .action((opts: { team: number }) =>
      run(async ({ meta, out }) => {
        const unlocked = await unlockTeam(meta.db, opts.team);
        out.result(teamJson(unlocked), `Unlocked team ${unlocked.id}.`);
      }),
    );
  team
    .command('stop-collection')
    .description("Stop collecting events for all of the team's sites (answered account_dormant)")
    .requiredOption('--team <id>', 'team', idArgument('--team'))
    .action((opts: { team: number }) =>
      run(async ({ meta, clock, out }) => {
        const stopped = await setTeamCollection(meta.db, opts.team, false, clock.now());
        out.result(teamJson(stopped), `Stopped collection for team ${stopped.id}; a running server notices within 30 seconds.`);
      }),
    );
  team
    .command('resume-collection')
    .description("Collect events for the team's sites again")
    .requiredOption('--team <id>', 'team', idArgument('--team'))
    .action((opts: { team: number }) =>
      run(async ({ meta, clock, out }) => {
        const resumed = await setTeamCollection(meta.db, opts.team, true, clock.now());
        out.result(teamJson(resumed), `Resumed collection for team ${resumed.id}.`);
      }),
    );
}
