import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { SCRIPT_EXTENSIONS } from '../../management/trackerSnippet.js';
import { singleValued } from '../requestParts.js';

/** The built tracker (`npm run build:tracker`); the same relative path from src/ and dist/. */
const TRACKER_DIR = new URL('../../../dist/tracker/', import.meta.url);

/** Hash routing is in the core build; every other feature (Plausible's `event-*` pageview props too) is in the full one. */
const CORE_EXTENSIONS = new Set(['hash']);
const KNOWN = new Set(SCRIPT_EXTENSIONS.map(([, extension]) => extension));

interface Script {
  body: Buffer;
  etag: string;
}

function load(name: string): Script | null {
  const path = fileURLToPath(new URL(name, TRACKER_DIR));
  if (!existsSync(path)) return null;
  const body = readFileSync(path);
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
}

/**
 * Whether If-None-Match names this tag. The comparison is weak (RFC 9110 §13.1.2): a proxy that
 * compresses the script marks the tag weak (W/"…"), and a cache may list several tags.
 */
function revalidated(header: string | undefined, etag: string): boolean {
  return (header ?? '').split(',').some((tag) => ['*', etag].includes(tag.trim().replace(/^W\//, '')));
}

/**
 * `GET /js/script[.<feature>…].js`: the tracker under every name the snippet hands out
 * (src/management/trackerSnippet.ts), in any order of the known features. The script reads its
 * own file name to switch features on. Cached for a day and revalidated by ETag, so a release
 * reaches pages within a day while repeat visits cost a 304 at most.
 */
export function trackerScriptRoutes(app: FastifyInstance): void {
  const core = load('script.js');
  const full = load('script.full.js');
  app.get('/js/:file', async (request, reply) => {
    const file = singleValued(request.params).file ?? '';
    const parts = file.split('.');
    const extensions = parts.slice(1, -1);
    const valid = parts[0] === 'script' && parts.at(-1) === 'js' && extensions.every((extension) => KNOWN.has(extension));
    if (!valid)
      return reply
        .code(404)
        .send({ error: `There is no tracker script ${file}; the snippet in Site settings › Tracker names the right one.`, code: 'not_found' });
    const script = extensions.every((extension) => CORE_EXTENSIONS.has(extension)) ? core : full;
    if (!script) return reply.code(503).send({ error: 'The tracker has not been built: run npm run build (npm install does it).', code: 'not_built' });
    reply.headers({
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=86400, must-revalidate',
      etag: script.etag,
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
    });
    if (revalidated(request.headers['if-none-match'], script.etag)) return reply.code(304).send();
    return reply.send(script.body);
  });
}
