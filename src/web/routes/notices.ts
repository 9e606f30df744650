import type { FastifyInstance } from 'fastify';
import type { Acknowledgement } from '../../contracts/acknowledgements.js';
import { teamItemParams, teamParams } from '../../contracts/params.js';
import { TEAM_MANAGERS } from '../../contracts/roles.js';
import type { NoticeList } from '../../contracts/webhooks.js';
import { parsePayload } from '../../management/payload.js';
import { dismissNotice, listOpenNotices } from '../../webhooks/notices.js';
import { requireViewer, type WebDeps } from '../signIn.js';
import { requireTeamRole } from '../siteAccess.js';

/**
 * The team's notices (a webhook endpoint that looks broken or was stopped, src/webhooks/worker.ts),
 * shown as banners on the settings pages of the people who manage the team until one of them
 * dismisses it; dismissed, it is gone for all of them.
 */
export function noticeRoutes(scope: FastifyInstance, deps: WebDeps): void {
  scope.get('/app/api/teams/:team/notices', async (request): Promise<NoticeList> => {
    const { team } = parsePayload(teamParams, request.params);
    await requireTeamRole(deps.db, requireViewer(request), team, TEAM_MANAGERS, 'see the team’s notices');
    const notices = await listOpenNotices(deps.db, team);
    return {
      notices: notices.map((notice) => ({
        id: notice.id,
        kind: notice.kind,
        webhook_id: notice.webhookId,
        message: notice.message,
        created_at: new Date(notice.createdAt).toISOString(),
      })),
    };
  });

  scope.post('/app/api/teams/:team/notices/:id/dismiss', async (request): Promise<Acknowledgement<'dismissed'>> => {
    const { team, id } = parsePayload(teamItemParams, request.params);
    await requireTeamRole(deps.db, requireViewer(request), team, TEAM_MANAGERS, 'dismiss the team’s notices');
    await dismissNotice(deps.db, team, id, deps.clock.now());
    return { dismissed: true };
  });
}
