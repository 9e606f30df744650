import cookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import { refuseNulCharacters } from '../api/textInput.js';
import type { ExportJobs } from '../export/exportJobs.js';
import type { QueryEngineDeps } from '../query/run/engine.js';
import type { EmailDeps } from '../reports/emailDeps.js';
import type { EventStore } from '../stores/clickhouse/eventStore.js';
import { appFileRoutes } from './appFiles.js';
import { accountRoutes } from './routes/account.js';
import { accountSessionRoutes } from './routes/accountSessions.js';
import { dashboardAnnotationRoutes } from './routes/annotations.js';
import { apiKeyRoutes } from './routes/apiKeys.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { emailSettingsRoutes } from './routes/emailSettings.js';
import { webExportRoutes } from './routes/export.js';
import { ingestionGuideRoutes } from './routes/ingestionGuide.js';
import { myInvitationRoutes } from './routes/myInvitations.js';
import { noticeRoutes } from './routes/notices.js';
import { passwordResetRoutes } from './routes/passwordReset.js';
import { profileRoutes } from './routes/profile.js';
import { sessionRoutes } from './routes/session.js';
import { sharedDashboardRoutes } from './routes/sharedDashboard.js';
import { siteDomainRoutes } from './routes/siteDomain.js';
import { teamMemberRoutes } from './routes/teamMembers.js';
import { twoFactorRoutes } from './routes/twoFactor.js';
import { unsubscribeRoutes } from './routes/unsubscribe.js';
import { readWebSession, type WebDeps } from './signIn.js';

/**
 * The server side of the web app: its built files, and the JSON routes under `/app/api` that the
 * app calls with its session cookie (the API under /api/v1 and /api/v2 takes keys, not cookies).
 */
export function webAppRoutes(
  app: FastifyInstance,
  deps: WebDeps & { engine: QueryEngineDeps; events: EventStore; secret: string; exports: ExportJobs; emails: EmailDeps },
) {
  app.register(cookie);
  app.register(async (scope) => {
    readWebSession(scope, deps);
    scope.addHook('preValidation', refuseNulCharacters);
    sessionRoutes(scope, deps);
    accountRoutes(scope, deps);
    twoFactorRoutes(scope, deps);
    passwordResetRoutes(scope, deps);
    accountSessionRoutes(scope, deps);
    profileRoutes(scope, deps);
    dashboardRoutes(scope, deps);
    dashboardAnnotationRoutes(scope, deps);
    apiKeyRoutes(scope, deps);
    ingestionGuideRoutes(scope);
    webExportRoutes(scope, deps);
    siteDomainRoutes(scope, deps);
    myInvitationRoutes(scope, deps);
    teamMemberRoutes(scope, deps);
    noticeRoutes(scope, deps);
    sharedDashboardRoutes(scope, deps);
    emailSettingsRoutes(scope, deps);
  });
  // Opened from a mail, without a session: outside the JSON-only /app/api layer.
  app.register(async (scope) => unsubscribeRoutes(scope, { db: deps.db, tokens: deps.emails.tokens }));
  return appFileRoutes(app);
}
