/**
 * The webhook event types (spec: Webhook event types), all subscribable; only `site.created` is
 * published at present. Each with the one line the settings screen shows beside it. Imported by
 * the server and by the web app's settings screen alike, so this file imports nothing.
 */
export const WEBHOOK_EVENTS = {
  'site.created': { description: 'A site was added to the team.', published: true },
  'goal.converted': { description: 'A visitor completed one of a site’s goals.', published: false },
  'traffic.spike': { description: 'A site’s visitors rose well above their usual level.', published: false },
  'traffic.drop': { description: 'A site’s visitors fell well below their usual level.', published: false },
  'usage.over_limit': { description: 'The team went over its plan’s monthly events.', published: false },
  'import.completed': { description: 'An import of a site’s history finished.', published: false },
  'import.failed': { description: 'An import of a site’s history failed.', published: false },
} as const satisfies Record<string, { description: string; published: boolean }>;

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;
export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as WebhookEventType[];
