import { z } from 'zod';

/** What a change answers when there is nothing more to say than that it was done. */
export const deleted = z.object({ deleted: z.literal(true) });
export type Deleted = z.infer<typeof deleted>;
export const created = z.object({ created: z.literal(true) });
export type Created = z.infer<typeof created>;
export const revoked = z.object({ revoked: z.literal(true) });
export type Revoked = z.infer<typeof revoked>;
export const cancelled = z.object({ cancelled: z.literal(true) });
export type Cancelled = z.infer<typeof cancelled>;
export const accepted = z.object({ accepted: z.literal(true) });
export type Accepted = z.infer<typeof accepted>;
export const declined = z.object({ declined: z.literal(true) });
export type Declined = z.infer<typeof declined>;
export const dismissed = z.object({ dismissed: z.literal(true) });
export type Dismissed = z.infer<typeof dismissed>;
