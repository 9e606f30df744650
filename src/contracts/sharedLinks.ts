import { z } from 'zod';

/** PUT /api/v1/sites/shared-links. */
export const sharedLinkCreation = z.strictObject({ site_id: z.string(), name: z.string().min(1).max(200), password: z.string().max(1000).optional() });

export const sharedLink = z.object({ name: z.string(), url: z.string(), password_protected: z.boolean() });
export type SharedLink = z.infer<typeof sharedLink>;

/** GET /api/v1/sites/shared-links?site_id=… */
export const sharedLinkList = z.object({ shared_links: z.array(sharedLink) });
export type SharedLinkList = z.infer<typeof sharedLinkList>;
