/**
 * The webhook event types (spec: Webhook event types), all subscribable; only `site.created` is
 * published at present. Imported by the server and by the web app's settings screen alike, so
 * this file imports nothing.
 */
export const WEBHOOK_EVENT_TYPES = [
  'site.created',
  'goal.converted',
  'traffic.spike',
  'traffic.drop',
  'usage.over_limit',
  'import.completed',
  'import.failed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
