import type { FastifyRequest } from 'fastify';
import { badRequest } from '../errors.js';

/**
 * The first place in a parsed request value where a string holds U+0000, as a JSON-pointer-like
 * path. Walked with a stack of its own, not by recursion: a body nested thousands deep (a few
 * kilobytes of brackets) would otherwise overflow the call stack.
 */
function nulAt(root: unknown, rootPath: string): string | null {
  const pending: [unknown, string][] = [[root, rootPath]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, path] = next;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path || '/';
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i -= 1) pending.push([value[i], `${path}/${i}`]);
    } else if (value !== null && typeof value === 'object') {
      // Pushed last to first, so the first field is looked at first.
      for (const [key, inner] of Object.entries(value).reverse()) pending.push([inner, `${path}/${key}`], [key, `${path}/${key}`]);
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
