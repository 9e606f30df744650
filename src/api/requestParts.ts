import { z } from 'zod';
import { badRequest } from '../errors.js';

const queryValues = z.record(z.string(), z.union([z.string(), z.array(z.string())]));

/**
 * A query string (or a route's path parameters) as one value per name. The framework's parser
 * turns a repeated parameter into an array; where one value is expected that is a 400 naming the
 * parameter, never a value of the wrong type reaching a route.
 */
export function singleValued(part: unknown): Record<string, string | undefined> {
  const parsed = queryValues.safeParse(part ?? {});
  if (!parsed.success) throw badRequest('invalid_query_string', 'The query string could not be read: give each parameter as name=value.');
  const values: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(parsed.data)) {
    if (Array.isArray(value)) throw badRequest('repeated_parameter', `Parameter "${name}" is given ${value.length} times; give it once.`);
    values[name] = value;
  }
  return values;
}

const jsonObject = z.record(z.string(), z.unknown());

/** A JSON body as an object of fields, or undefined when it is not a JSON object. */
export function bodyFields(body: unknown): Record<string, unknown> | undefined {
  const parsed = jsonObject.safeParse(body);
  return parsed.success ? parsed.data : undefined;
}
