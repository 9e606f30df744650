import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Clock } from '../../clock.js';
import type { IngestionPipeline, IngestResult } from '../../ingest/pipeline.js';

const BODY_LIMIT = 64 * 1024;
// The smallest transparent GIF: what a no-script page embeds, whatever happened to the event.
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'x-svc-dropped',
};

/** A repeated parameter counts once: its first value, as browsers and pixel proxies may repeat them. */
const firstValue = z.union([z.string(), z.array(z.string()).transform((values) => values[0])]).optional();
const pixelQuery = z.object({ n: firstValue, d: firstValue, u: firstValue, r: firstValue, p: firstValue });

function readBody(raw: unknown): { ok: true; body: unknown } | { ok: false } {
  if (typeof raw !== 'string' || raw.trim() === '') return { ok: false };
  try {
    return { ok: true, body: JSON.parse(raw) };
  } catch {
    return { ok: false };
  }
}

/**
 * Collection: `POST /api/event` (any content type, its body read for JSON, 64 KiB) and the no-script
 * `GET /api/event/pixel.gif`. No authentication; CORS open so the tracker reads `x-svc-dropped`.
 */
export function collectRoutes(app: FastifyInstance, deps: { pipeline: IngestionPipeline; clock: Clock }): void {
  app.register(async (scope) => {
    // Browsers send text/plain (no preflight), servers JSON, forms urlencoded, some nothing at all.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_request, body, done) => done(null, body));
    // The type is irrelevant to us, and an empty or malformed one would otherwise be refused with 415.
    scope.addHook('onRequest', async (request) => {
      request.headers['content-type'] = 'text/plain';
    });
    // On every answer, the framework's own (413, 500) included: without these a browser hides the
    // status from the tracker, whose callback then reports a network error instead of `{status}`.
    scope.addHook('onSend', async (_request, reply) => {
      reply.headers(CORS);
    });

    const send = (reply: FastifyReply, result: IngestResult) => {
      if (result.outcome === 'invalid') return reply.code(400).send({ error: result.message, code: 'invalid_event' });
      if (result.outcome === 'previewed') return reply.code(200).send(result.debug);
      if (result.dropped) reply.header('x-svc-dropped', result.dropped);
      return reply.code(202).type('text/plain').send('ok');
    };

    /**
     * The pipeline's answer, or, when it fails before reaching a site (the metadata store down,
     * say), the spec's 202 with `internal_error`, as for every other drop: never a 500 a tracker
     * would have to handle. Failures within a site are the pipeline's to count.
     */
    const ingest = async (request: FastifyRequest, body: unknown, debug: boolean): Promise<IngestResult> => {
      try {
        return await deps.pipeline.ingest({ body, headers: request.headers, socketAddress: request.socket.remoteAddress ?? '', at: deps.clock.now(), debug });
      } catch (error) {
        request.log.error({ err: error }, 'ingestion failed');
        return { outcome: 'accepted', dropped: 'internal_error', outcomes: [] };
      }
    };

    scope.post('/api/event', { bodyLimit: BODY_LIMIT }, async (request: FastifyRequest, reply) => {
      const read = readBody(request.body);
      if (!read.ok) {
        return reply.code(400).send({ error: 'The request body is not readable: send one JSON object describing the event.', code: 'unreadable_body' });
      }
      return send(reply, await ingest(request, read.body, request.headers['x-debug-request'] === 'true'));
    });

    scope.options('/api/event', async (_request, reply) =>
      reply
        .headers({
          'access-control-allow-methods': 'POST, OPTIONS',
          'access-control-allow-headers': 'Content-Type, X-Debug-Request',
          'access-control-max-age': '86400',
        })
        .code(204)
        .send(),
    );

    scope.get('/api/event/pixel.gif', async (request, reply) => {
      // Always the image: a malformed query is an event without those fields, decided by the pipeline.
      const parsed = pixelQuery.safeParse(request.query ?? {});
      const query = parsed.success ? parsed.data : {};
      const body = { n: query.n || 'pageview', d: query.d, u: query.u || request.headers.referer, r: query.r, p: query.p };
      const debug = request.headers['x-debug-request'] === 'true';
      const result = await ingest(request, body, debug);
      // A debug request answers with the derived event and writes nothing, as on POST /api/event.
      if (result.outcome === 'previewed') return send(reply, result);
      const dropped = result.outcome === 'invalid' ? 'invalid_payload' : result.dropped;
      reply.headers({ 'cache-control': 'no-store, max-age=0', 'content-type': 'image/gif' });
      if (dropped) reply.header('x-svc-dropped', dropped);
      return reply.code(200).send(PIXEL);
    });
  });
}
