import { signatureHeader } from './signing.js';

export const WEBHOOK_USER_AGENT = 'svc-webhooks/1';

export interface DeliveredEvent {
  eventId: string;
  type: string;
  siteId: number | null;
  /** JSON text of the event's `data`, as stored in the outbox. */
  payload: string;
  /** Epoch milliseconds. */
  createdAt: number;
}

/** The exact bytes sent: the body is built once and signed as is, so receivers verify the raw body. */
export function deliveryBody(event: DeliveredEvent): string {
  return JSON.stringify({
    id: event.eventId,
    type: event.type,
    created_at: Math.floor(event.createdAt / 1000),
    site_id: event.siteId,
    data: JSON.parse(event.payload) as unknown,
  });
}

/** Headers of one attempt, signed at `now` with every live secret. */
export function deliveryHeaders(input: {
  event: DeliveredEvent;
  deliveryId: number;
  secrets: readonly string[];
  body: string;
  now: number;
}): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'svc-signature': signatureHeader(input.secrets, Math.floor(input.now / 1000), input.body),
    'svc-event': input.event.type,
    'svc-event-id': input.event.eventId,
    'svc-delivery': String(input.deliveryId),
  };
}
