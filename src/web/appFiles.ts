import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The web app's built files (`npm run build:web` writes them to dist/webapp). The same relative
 * path works from src/web (tests) and dist/web (the built server).
 */
export const WEB_APP_DIR = fileURLToPath(new URL('../../dist/webapp/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

interface AppFile {
  body: Buffer;
  type: string;
  etag: string;
  /** Hashed names under /assets never change: cache them for a year. */
  immutable: boolean;
}

/**
 * Every page of the app is the same index.html; the scripts draw the page from the URL. Tracked
 * data reaches these pages only through JSON, rendered as text, and the policy below forbids inline
 * and foreign scripts besides.
 */
const pageHeaders = (frameAncestors: string) => ({
  'content-security-policy': `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors ${frameAncestors}; base-uri 'none'; form-action 'self'`,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
});
/** Signed-in pages refuse every frame (clickjacking), in both headers for older browsers. */
const PAGE_HEADERS = { ...pageHeaders("'none'"), 'x-frame-options': 'DENY' };
/**
 * A shared link's page may be embedded in any site's page (docs/dashboard.md "Embedding"): it is
 * read-only and reaches only that link's numbers, so a frame gains nothing a visitor of the link
 * would not have.
 */
const SHARED_PAGE_HEADERS = pageHeaders('*');
/** A shared link's dashboard and its Explore view. */
const SHARED_PAGE_PATH = /^\/share\/[^/]+(\/explore)?$/;

/** Reads the whole build once at start: a few hundred kilobytes, and no path from a URL ever reaches the file system. */
function loadAppFiles(dir: string): Map<string, AppFile> {
  const files = new Map<string, AppFile>();
  if (!existsSync(dir)) return files;
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else {
        const body = readFileSync(path);
        const urlPath = `/${relative(dir, path).split(sep).join('/')}`;
        files.set(urlPath, {
          body,
          type: TYPES[extname(name)] ?? 'application/octet-stream',
          etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
          immutable: urlPath.startsWith('/assets/'),
        });
      }
    }
  };
  walk(dir);
  return files;
}

const NOT_BUILT = Buffer.from(
  '<!doctype html><meta charset="utf-8"><title>svc</title><p>The web app has not been built. Run <code>npm run build</code> (npm install does it) and restart.</p>',
);

/** Paths that belong to the API, the tracker or the collector, whose misses stay JSON 404s. */
const NOT_APP_PATHS = /^\/(api|app\/api|js|mcp)(\/|$)/;

export function appFileRoutes(app: FastifyInstance, dir = WEB_APP_DIR): { servePage(request: FastifyRequest, reply: FastifyReply): boolean } {
  const files = loadAppFiles(dir);
  const send = (request: FastifyRequest, reply: FastifyReply, file: AppFile) => {
    reply.header('etag', file.etag).header('cache-control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (request.headers['if-none-match'] === file.etag) return reply.code(304).send();
    return reply.type(file.type).send(file.body);
  };
  for (const [path, file] of files) {
    if (path === '/index.html') continue;
    app.get(path, (request, reply) => send(request, reply, file));
  }
  return {
    /** Answers a GET for an app route with the app's page; false when the request is not one. */
    servePage(request, reply) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return false;
      const path = request.url.split('?')[0] ?? '/';
      if (NOT_APP_PATHS.test(path)) return false;
      const index = files.get('/index.html');
      reply.headers(SHARED_PAGE_PATH.test(path) ? SHARED_PAGE_HEADERS : PAGE_HEADERS);
      if (!index)
        reply
          .code(503)
          .type(TYPES['.html'] as string)
          .send(NOT_BUILT);
      else void send(request, reply, index);
      return true;
    },
  };
}
