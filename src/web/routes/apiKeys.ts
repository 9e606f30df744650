import type { FastifyInstance } from 'fastify';
import { type ApiKey, type ApiKeyList, apiKeyCreation, type CreatedApiKey, type RevokedApiKey } from '../../contracts/apiKeys.js';
import { teamItemParams, teamParams } from '../../contracts/params.js';
import { TEAM_MANAGERS } from '../../contracts/roles.js';
import { badRequest } from '../../errors.js';
import { parsePayload } from '../../management/payload.js';
import { type ApiKeyRecord, createApiKey, listApiKeys, revokeApiKey } from '../../stores/meta/apiKeys.js';
import { requireViewer, type WebDeps } from '../signIn.js';
import { requireTeamRole } from '../siteAccess.js';

const keyJson = (key: ApiKeyRecord): ApiKey => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  scopes: key.scopes,
  hourly_limit: key.hourlyLimit,
  created_at: new Date(key.createdAt).toISOString(),
  last_used_at: key.lastUsedAt === null ? null : new Date(key.lastUsedAt).toISOString(),
  revoked_at: key.revokedAt === null ? null : new Date(key.revokedAt).toISOString(),
});

/**
 * API keys from the team settings screen (the spec's other way besides `svc api-key`): the same
 * store functions as the CLI, for a team owner or admin. A key is shown in clear once, here.
 */
export function apiKeyRoutes(scope: FastifyInstance, deps: WebDeps): void {
  scope.get('/app/api/teams/:team/api-keys', async (request): Promise<ApiKeyList> => {
    const { team } = parsePayload(teamParams, request.params);
    await requireTeamRole(deps.db, requireViewer(request), team, TEAM_MANAGERS, 'see API keys');
    return { api_keys: (await listApiKeys(deps.db, team)).map(keyJson) };
  });

  scope.post('/app/api/teams/:team/api-keys', async (request): Promise<CreatedApiKey> => {
    const { team } = parsePayload(teamParams, request.params);
    const body = parsePayload(apiKeyCreation, request.body);
    const viewer = requireViewer(request);
    await requireTeamRole(deps.db, viewer, team, TEAM_MANAGERS, 'create API keys');
    // The store reads no scopes as every scope (the CLI's default); on the screen, no box ticked means none was chosen.
    if (body.scopes?.length === 0) throw badRequest('invalid_scope', 'Tick at least one scope: a key without one could do nothing.');
    const { record, key } = await createApiKey(
      deps.db,
      { teamId: team, userId: viewer.userId, name: body.name, scopes: body.scopes, hourlyLimit: body.hourly_limit ?? undefined },
      deps.clock.now(),
    );
    return { key, api_key: keyJson(record) };
  });

  scope.post('/app/api/teams/:team/api-keys/:id/revoke', async (request): Promise<RevokedApiKey> => {
    const { team, id } = parsePayload(teamItemParams, request.params);
    await requireTeamRole(deps.db, requireViewer(request), team, TEAM_MANAGERS, 'revoke API keys');
    return { api_key: keyJson(await revokeApiKey(deps.db, team, id, deps.clock.now())) };
  });
}
