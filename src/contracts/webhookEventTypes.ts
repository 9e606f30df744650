/**
 * The webhook event types (spec: Webhook event types), all subscribable, each with whether this
 * install sends it and the one line the settings screen shows beside it. The one list of what is
 * sent: `publishEvent` (src/webhooks/outbox.ts) takes only the sent types, the Webhooks screen
 * offers only those, and docs/webhooks.md lists the same. Imported by the server and by the web
 * app alike, so this file imports nothing.
 */
export const WEBHOOK_EVENTS = {
  'site.created': { description: 'A site was added to the team.', sent: true },
  'goal.converted': { description: 'A visitor completed one of a site’s goals. Not sent: accepted for subscriptions only.', sent: false },
  'traffic.spike': { description: 'A site’s current visitors reached its spike threshold (Site settings › Traffic notices).', sent: true },
  'traffic.drop': { description: 'A site’s visitors over 12 hours fell below its drop threshold (Site settings › Traffic notices).', sent: true },
  'usage.over_limit': {
    description: 'Not sent: a self-hosted install has no plan and no monthly event allowance to go over.',
    sent: false,
  },
  'import.completed': { description: 'An import of a site’s history finished (Site settings › Imports).', sent: true },
  'import.failed': { description: 'An import of a site’s history failed; the event says why.', sent: true },
} as const satisfies Record<string, { description: string; sent: boolean }>;

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;
export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as WebhookEventType[];

/** The types something here publishes. */
export type SentWebhookEventType = { [T in WebhookEventType]: (typeof WEBHOOK_EVENTS)[T]['sent'] extends true ? T : never }[WebhookEventType];
export const SENT_WEBHOOK_EVENT_TYPES = WEBHOOK_EVENT_TYPES.filter((type): type is SentWebhookEventType => WEBHOOK_EVENTS[type].sent);
