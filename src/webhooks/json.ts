import type * as contract from '../contracts/webhooks.js';
import type { AttemptLogEntry } from './deliveries.js';
import type { Webhook } from './webhooks.js';

/** The API's shapes of a webhook and of a delivery attempt, shared by /api/v1/webhooks and the assistant tools. */

export const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const webhookJson = (webhook: Webhook): contract.Webhook => ({
  id: webhook.id,
  url: webhook.url,
  event_types: webhook.eventTypes,
  state: webhook.state,
  consecutive_failures: webhook.consecutiveFailures,
  stopped_at: iso(webhook.stoppedAt),
  previous_secret_valid_until: iso(webhook.previousSecretExpiresAt),
  created_at: iso(webhook.createdAt),
  updated_at: iso(webhook.updatedAt),
});

export const attemptJson = (entry: AttemptLogEntry): contract.DeliveryAttempt => ({
  id: entry.id,
  delivery_id: entry.deliveryId,
  delivery_state: entry.deliveryState,
  redelivery_of: entry.redeliveryOf,
  event_id: entry.eventId,
  event_type: entry.eventType,
  attempted_at: iso(entry.attemptedAt),
  status_code: entry.statusCode,
  error: entry.error,
  error_detail: entry.errorDetail,
  duration_ms: entry.durationMs,
  response_body: entry.responseBody,
  response_truncated: entry.responseTruncated,
});
