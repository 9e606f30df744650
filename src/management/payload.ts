import type { z } from 'zod';
import { badRequest } from '../errors.js';

/**
 * Management payloads (and query strings, whose values are strings) are zod strict objects: an unknown field is refused by name, so a typo in
 * a provisioning script fails loudly instead of being ignored.
 */
export function parsePayload<Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>, input: unknown): z.infer<z.ZodObject<Shape>> {
  if (input === undefined || input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw badRequest('invalid_payload', 'The request body must be a JSON object.');
  }
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw badRequest('invalid_payload', describeIssue(issue, Object.keys(schema.shape)));
}

function describeIssue(issue: z.core.$ZodIssue, allowed: string[]): string {
  const field = issue.path.map(String).join('.');
  const name = `"${field}"`;
  switch (issue.code) {
    case 'unrecognized_keys': {
      const keys = issue.keys.map((k) => `"${k}"`).join(', ');
      const where = field ? ` in ${name}` : '';
      return `Unknown field ${keys}${where}; the accepted fields are ${allowed.join(', ')}.`;
    }
    case 'invalid_type':
      if (!('input' in issue) || issue.input === undefined) return `Field ${name} is required.`;
      return `Field ${name} must be ${article(issue.expected)}.`;
    case 'invalid_value':
      return `Field ${name} must be one of ${issue.values.map(String).join(', ')}.`;
    case 'too_small':
    case 'too_big': {
      const bound = issue.code === 'too_small' ? `at least ${issue.minimum}` : `at most ${issue.maximum}`;
      if (issue.origin === 'string') return `Field ${name} must be ${bound} characters long.`;
      return issue.origin === 'array' ? `Field ${name} must hold ${bound} items.` : `Field ${name} must be ${bound}.`;
    }
    default:
      return `Field ${name}: ${issue.message}.`;
  }
}

function article(expected: string): string {
  if (expected === 'int') return 'a whole number';
  if (expected === 'object') return 'a JSON object';
  if (expected === 'array') return 'an array';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/** Numeric ids travel as strings in paths and query strings. */
export function parseId(raw: unknown, what: string): number {
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw > 0) return raw;
  if (typeof raw === 'string' && /^\d{1,15}$/.test(raw) && Number(raw) > 0) return Number(raw);
  throw badRequest('invalid_id', `${what} must be a positive whole number.`);
}
