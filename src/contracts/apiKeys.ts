import { z } from 'zod';

/** POST /app/api/teams/:team/api-keys. */
export const apiKeyCreation = z.strictObject({
  name: z.string(),
  scopes: z.array(z.string()).max(10).optional(),
  hourly_limit: z.number().int().nullable().optional(),
});

export const apiKey = z.object({
  id: z.number(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.string()),
  hourly_limit: z.number(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKey>;

/** GET /app/api/teams/:team/api-keys. */
export const apiKeyList = z.object({ api_keys: z.array(apiKey) });
export type ApiKeyList = z.infer<typeof apiKeyList>;
/** The new key, shown in clear this once. */
export const createdApiKey = z.object({ key: z.string(), api_key: apiKey });
export type CreatedApiKey = z.infer<typeof createdApiKey>;
export const revokedApiKey = z.object({ api_key: apiKey });
export type RevokedApiKey = z.infer<typeof revokedApiKey>;
