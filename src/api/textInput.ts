import type { FastifyRequest } from 'fastify';
import { badRequest } from '../errors.js';

/** The first place in a parsed request value where a string holds U+0000, as a JSON-pointer-like path. */
function nulAt(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path || '/' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = nulAt(value[i], `${path}/${i}`);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      const found = nulAt(key, `${path}/${key}`) ?? nulAt(inner, `${path}/${key}`);
      if (found) return found;
    }
  }
  return null;
}

/**
 * PostgreSQL text cannot hold U+0000 and refuses the whole statement, so a NUL anywhere in a
 * request to the metadata-backed API would surface as a 500. No name, domain, e-mail or pattern
 * needs one: refuse it up front, saying where it is.
 */
export async function refuseNulCharacters(request: FastifyRequest): Promise<void> {
  const where = nulAt(request.params, 'path') ?? nulAt(request.query, 'query') ?? nulAt(request.body, 'body');
  if (where) throw badRequest('invalid_text', `The request holds a NUL character (U+0000) at ${where}; text values cannot contain it.`);
}
