import { z } from 'zod';

/** PUT /api/v1/sites/shared-links. */
export const sharedLinkCreation = z.strictObject({ site_id: z.string(), name: z.string().min(1).max(200), password: z.string().max(1000).optional() });

export const sharedLink = z.object({ name: z.string(), url: z.string(), password_protected: z.boolean() });
export type SharedLink = z.infer<typeof sharedLink>;

/** GET /api/v1/sites/shared-links?site_id=… */
export const sharedLinkList = z.object({ shared_links: z.array(sharedLink) });
export type SharedLinkList = z.infer<typeof sharedLinkList>;

/**
 * A shared link's page options when another site embeds it (`/share/<domain>?auth=…&embed=true`,
 * docs/dashboard.md "Embedding"), as Plausible's embed takes them: the colour theme, and the
 * page's background behind the cards (`transparent` or a hex colour) to match the host page.
 */
export const embedOptions = z.object({
  embed: z.literal('true').optional().catch(undefined),
  theme: z.enum(['light', 'dark', 'system']).catch('system'),
  background: z
    .string()
    .regex(/^(transparent|#[0-9a-fA-F]{3,8})$/)
    .optional()
    .catch(undefined),
});
export const EMBED_THEMES = embedOptions.shape.theme.unwrap().options;
