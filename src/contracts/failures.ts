import { z } from 'zod';

/**
 * Every refusal and failure of the HTTP API (src/api/errorHandling.ts): a sentence for people and
 * a snake_case code for programs, never a stack trace.
 */
export const failure = z.object({ error: z.string(), code: z.string() });
export type Failure = z.infer<typeof failure>;
