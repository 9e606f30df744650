import { z } from 'zod';

/**
 * What a change answers when there is nothing more to say than that it was done: one field set to
 * true, named for what happened (`{"deleted": true}`, `{"signed_in": true}`, …).
 */
export const acknowledgement = <const K extends string>(key: K) => z.record(z.enum([key]), z.literal(true));
export type Acknowledgement<K extends string> = z.infer<ReturnType<typeof acknowledgement<K>>>;
