import { z } from 'zod';

/** PUT /api/v1/sites/shields/:kind. */
export const shieldRuleAddition = z.strictObject({ site_id: z.string(), value: z.string().min(1), description: z.string().max(500).optional() });

export const shieldRule = z.object({ id: z.number(), value: z.string(), description: z.string().nullable(), created_at: z.string() });
export type ShieldRule = z.infer<typeof shieldRule>;

/** GET /api/v1/sites/shields/:kind?site_id=… */
export const shieldRuleList = z.object({ rules: z.array(shieldRule) });
export type ShieldRuleList = z.infer<typeof shieldRuleList>;

/** GET /api/v1/sites/shields?site_id=…: every kind's rules. */
export const shieldRules = z.record(z.string(), z.array(shieldRule));
export type ShieldRules = z.infer<typeof shieldRules>;

/** PUT /api/v1/sites/classifications: which classified traffic reports include. */
export const classificationChoice = z.strictObject({ site_id: z.string(), included: z.array(z.string()) });

/** GET and PUT /api/v1/sites/classifications. */
export const classifications = z.object({ included: z.array(z.string()), reasons: z.array(z.string()).readonly() });
export type Classifications = z.infer<typeof classifications>;
