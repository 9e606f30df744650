import type { FastifyInstance } from 'fastify';
import { siteRoutes } from '../sites.js';
import { annotationRoutes } from './annotations.js';
import type { ManagementDeps } from './context.js';
import { customPropRoutes } from './customProps.js';
import { funnelRoutes } from './funnels.js';
import { goalRoutes } from './goals.js';
import { invitationRoutes } from './invitations.js';
import { segmentRoutes } from './segments.js';
import { sharedLinkRoutes } from './sharedLinks.js';
import { shieldRoutes } from './shields.js';

export type { ManagementDeps } from './context.js';

/** Every bearer-key management route under /api/v1/sites and /api/v1/teams. */
export function managementRoutes(app: FastifyInstance, deps: ManagementDeps): void {
  siteRoutes(app, deps);
  goalRoutes(app, deps);
  funnelRoutes(app, deps);
  customPropRoutes(app, deps);
  sharedLinkRoutes(app, deps);
  shieldRoutes(app, deps);
  invitationRoutes(app, deps);
  segmentRoutes(app, deps);
  annotationRoutes(app, deps);
}

export { acceptanceRoutes } from './acceptance.js';
