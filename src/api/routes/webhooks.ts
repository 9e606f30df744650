import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SecretBox } from '../../accounts/secretBox.js';
import type { Clock } from '../../clock.js';
import type { CreatedWebhook, DeliveryLog, Redelivery, RotatedWebhookSecret, Webhook, WebhookList } from '../../contracts/webhooks.js';
import { badRequest, notFound } from '../../errors.js';
import type { MetaDb } from '../../stores/meta/database.js';
import { listAttempts, redeliver } from '../../webhooks/deliveries.js';
import { attemptJson, iso, webhookJson } from '../../webhooks/json.js';
import {
  createWebhook,
  deleteWebhook,
  listWebhooks,
  reenableWebhook,
  requireWebhook,
  rotateWebhookSecret,
  updateWebhook,
  type WebhookSettings,
} from '../../webhooks/webhooks.js';
import { parsePageRequest } from '../pagination.js';
import { bodyFields, singleValued } from '../requestParts.js';

const MAX_LOG_PAGE = 100;
function idParam(request: FastifyRequest, name: string, what: string): number {
  const raw = singleValued(request.params)[name] ?? '';
  if (!/^\d{1,15}$/.test(raw)) throw notFound(`This team has no ${what} ${raw}.`);
  return Number(raw);
}

/** The body of a create or update: an object with only `url` and `event_types`. */
function settingsBody(body: unknown): WebhookSettings {
  const fields = bodyFields(body);
  if (!fields) {
    throw badRequest('invalid_body', 'Send a JSON object such as {"url": "https://example.com/hooks", "event_types": ["site.created"]}.');
  }
  const unknown = Object.keys(fields).filter((key) => key !== 'url' && key !== 'event_types');
  if (unknown.length > 0) throw badRequest('unknown_field', `Unknown field "${unknown[0]}"; a webhook takes "url" and "event_types".`);
  return { url: fields.url, eventTypes: fields.event_types };
}

type WebhookRouteDeps = { db: MetaDb; clock: Clock; allowPrivate: boolean; secrets: SecretBox };

/** Webhook registration and its delivery log, for keys with the webhooks:write scope. */
export function webhookRoutes(app: FastifyInstance, deps: WebhookRouteDeps): void {
  const { db, clock } = deps;
  const config = { scope: 'webhooks:write' as const };
  const urlRules = { allowPrivate: deps.allowPrivate };

  app.post('/api/v1/webhooks', { config }, async (request, reply): Promise<CreatedWebhook> => {
    const settings = settingsBody(request.body);
    const { webhook, secret } = await createWebhook(db, { teamId: request.caller.teamId, ...settings }, { ...urlRules, secrets: deps.secrets }, clock.now());
    reply.code(201);
    return { ...webhookJson(webhook), secret };
  });

  app.get(
    '/api/v1/webhooks',
    { config },
    async (request): Promise<WebhookList> => ({
      webhooks: (await listWebhooks(db, request.caller.teamId, clock.now())).map(webhookJson),
    }),
  );

  app.get(
    '/api/v1/webhooks/:id',
    { config },
    async (request): Promise<Webhook> => webhookJson(await requireWebhook(db, request.caller.teamId, idParam(request, 'id', 'webhook'), clock.now())),
  );

  app.patch(
    '/api/v1/webhooks/:id',
    { config },
    async (request): Promise<Webhook> =>
      webhookJson(await updateWebhook(db, request.caller.teamId, idParam(request, 'id', 'webhook'), settingsBody(request.body), urlRules, clock.now())),
  );

  app.delete('/api/v1/webhooks/:id', { config }, async (request, reply) => {
    await deleteWebhook(db, request.caller.teamId, idParam(request, 'id', 'webhook'), clock.now());
    return reply.code(204).send();
  });

  app.post(
    '/api/v1/webhooks/:id/enable',
    { config },
    async (request): Promise<Webhook> => webhookJson(await reenableWebhook(db, request.caller.teamId, idParam(request, 'id', 'webhook'), clock.now())),
  );

  app.post('/api/v1/webhooks/:id/rotate-secret', { config }, async (request): Promise<RotatedWebhookSecret> => {
    const rotated = await rotateWebhookSecret(db, request.caller.teamId, idParam(request, 'id', 'webhook'), deps.secrets, clock.now());
    return { ...webhookJson(rotated.webhook), secret: rotated.secret, previous_secret_valid_until: iso(rotated.previousSecretValidUntil) };
  });

  app.get('/api/v1/webhooks/:id/deliveries', { config }, async (request): Promise<DeliveryLog> => {
    const page = parsePageRequest(singleValued(request.query), { defaultLimit: 50, maxLimit: MAX_LOG_PAGE });
    if (page.before !== undefined) throw badRequest('invalid_cursor', 'The delivery log pages from newest to oldest only: continue with "after".');
    const entries = await listAttempts(
      db,
      request.caller.teamId,
      idParam(request, 'id', 'webhook'),
      { limit: page.limit + 1, beforeId: page.after },
      clock.now(),
    );
    const shown = entries.slice(0, page.limit);
    return {
      deliveries: shown.map(attemptJson),
      meta: { after: entries.length > page.limit ? String(shown.at(-1)!.id) : null, limit: page.limit },
    };
  });

  app.post('/api/v1/webhooks/deliveries/:delivery_id/redeliver', { config }, async (request, reply): Promise<Redelivery> => {
    const delivery = await redeliver(db, request.caller.teamId, idParam(request, 'delivery_id', 'webhook delivery'), clock.now());
    reply.code(202);
    return { delivery: { id: delivery.id, webhook_id: delivery.webhookId, event_id: delivery.eventId, state: 'queued' } };
  });
}
