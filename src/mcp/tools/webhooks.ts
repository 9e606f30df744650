import { z } from 'zod';
import { listAttempts } from '../../webhooks/deliveries.js';
import { attemptJson, webhookJson } from '../../webhooks/json.js';
import { listWebhooks } from '../../webhooks/webhooks.js';
import { type Tool, tool } from '../registry.js';

const MAX_DELIVERIES = 100;

export const webhookTools: Tool[] = [
  tool({
    name: 'list_webhooks',
    title: 'List webhooks',
    description: "The team's webhooks: id, URL, event types, state (sending, or stopped after repeated failures) and consecutive failures.",
    scope: 'webhooks:write',
    effect: 'read',
    input: z.strictObject({}),
    run: async (_args, ctx) => ({ webhooks: (await listWebhooks(ctx.deps.db, ctx.caller.teamId, ctx.deps.clock.now())).map(webhookJson) }),
  }),
  tool({
    name: 'recent_deliveries',
    title: 'Recent webhook deliveries',
    description:
      "A webhook's latest delivery attempts, newest first: event, time, HTTP status, error and duration (duration_ms in milliseconds). Use it to find why a webhook fails.",
    scope: 'webhooks:write',
    effect: 'read',
    input: z.strictObject({
      webhook_id: z.number().int().positive().describe('The webhook id, from list_webhooks.'),
      limit: z.number().int().min(1).max(MAX_DELIVERIES).optional().describe(`Attempts to show, 1 to ${MAX_DELIVERIES}; default 20.`),
    }),
    run: async ({ webhook_id, limit = 20 }, ctx) => {
      const entries = await listAttempts(ctx.deps.db, ctx.caller.teamId, webhook_id, { limit: limit + 1 }, ctx.deps.clock.now());
      const shown = entries.slice(0, limit);
      return {
        deliveries: shown.map(attemptJson),
        ...(entries.length > limit
          ? { more: `Only the latest ${limit} attempts are shown; older ones exist (GET /api/v1/webhooks/${webhook_id}/deliveries pages on).` }
          : {}),
      };
    },
  }),
];
