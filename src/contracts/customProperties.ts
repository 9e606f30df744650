import { z } from 'zod';

/** Plausible's limit on a property name. */
export const MAX_CUSTOM_PROP_LENGTH = 300;

/** PUT /api/v1/sites/custom-props: allow a custom property in reports. */
export const customPropertyAddition = z.strictObject({ site_id: z.string(), property: z.string().min(1).max(MAX_CUSTOM_PROP_LENGTH) });

/** GET /api/v1/sites/custom-props?site_id=… */
export const customPropertyList = z.object({ custom_properties: z.array(z.object({ property: z.string() })) });
export type CustomPropertyList = z.infer<typeof customPropertyList>;
