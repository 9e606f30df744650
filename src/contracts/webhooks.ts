import { z } from 'zod';

/** Webhooks and their delivery log (/api/v1/webhooks; the assistant tools list the same shapes). */

export const webhook = z.object({
  id: z.number(),
  url: z.string(),
  event_types: z.array(z.string()),
  state: z.enum(['sending', 'stopped']),
  consecutive_failures: z.number(),
  stopped_at: z.string().nullable(),
  previous_secret_valid_until: z.string().nullable(),
  created_at: z.string().nullable(),
  updated_at: z.string().nullable(),
});
export type Webhook = z.infer<typeof webhook>;

export const webhookList = z.object({ webhooks: z.array(webhook) });
export type WebhookList = z.infer<typeof webhookList>;
/** POST /api/v1/webhooks: the signing secret, shown this once. */
export const createdWebhook = webhook.extend({ secret: z.string() });
export type CreatedWebhook = z.infer<typeof createdWebhook>;
/** POST /api/v1/webhooks/:id/rotate-secret: the new secret, and until when the old one still signs. */
export const rotatedWebhookSecret = webhook.extend({ secret: z.string(), previous_secret_valid_until: z.string().nullable() });
export type RotatedWebhookSecret = z.infer<typeof rotatedWebhookSecret>;

export const deliveryAttempt = z.object({
  id: z.number(),
  delivery_id: z.number(),
  delivery_state: z.enum(['queued', 'succeeded', 'failed', 'withheld', 'cancelled']),
  redelivery_of: z.number().nullable(),
  event_id: z.string(),
  event_type: z.string(),
  attempted_at: z.string().nullable(),
  status_code: z.number().nullable(),
  error: z.string().nullable(),
  error_detail: z.string().nullable(),
  duration_ms: z.number(),
  response_body: z.string(),
  response_truncated: z.boolean(),
});
export type DeliveryAttempt = z.infer<typeof deliveryAttempt>;

/** GET /api/v1/webhooks/:id/deliveries: newest first, paged on with `after`. */
export const deliveryLog = z.object({ deliveries: z.array(deliveryAttempt), meta: z.object({ after: z.string().nullable(), limit: z.number() }) });
export type DeliveryLog = z.infer<typeof deliveryLog>;

/** POST /api/v1/webhooks/deliveries/:delivery_id/redeliver. */
export const redelivery = z.object({
  delivery: z.object({ id: z.number(), webhook_id: z.number(), event_id: z.string(), state: z.literal('queued') }),
});
export type Redelivery = z.infer<typeof redelivery>;

/** A team notice (a webhook that looks broken or was stopped): GET /app/api/teams/:team/notices. */
export const notice = z.object({
  id: z.number(),
  kind: z.enum(['webhook_failing', 'webhook_stopped']),
  webhook_id: z.number().nullable(),
  message: z.string(),
  created_at: z.string(),
});
export type Notice = z.infer<typeof notice>;
export const noticeList = z.object({ notices: z.array(notice) });
export type NoticeList = z.infer<typeof noticeList>;
