import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Failure } from '../contracts/failures.js';
import { AppError, Refusal, type RefusalKind } from '../errors.js';

const REFUSAL_STATUS: Record<RefusalKind, number> = { invalid: 400, not_found: 404, conflict: 409 };

/** The HTTP answer for a failure the caller can act on, or undefined for any other error. */
export function asAppError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (error instanceof Refusal) return new AppError(REFUSAL_STATUS[error.kind], error.code, error.message);
  return undefined;
}

/** Sentences for the framework's own failures, which otherwise read like internals. */
function frameworkMessage(error: FastifyError, request: FastifyRequest): string | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return `The request body is larger than this route accepts (${request.routeOptions.bodyLimit ?? 'the limit'} bytes).`;
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return `Content type "${request.headers['content-type'] ?? ''}" is not accepted here; send application/json.`;
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is empty; send a JSON object.';
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'The Content-Length header does not match the body.';
    default:
      if (error.statusCode === 400 && /JSON/i.test(error.message)) return 'The request body is not valid JSON.';
      return undefined;
  }
}

/**
 * The framework's answer for a request it cannot route at all (Fastify's `frameworkErrors`): a
 * path with a broken percent escape, such as /api/v1/sites/%ZZ, in the same shape as every error.
 */
export function answerUnroutable(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const badUrl = error.code === 'FST_ERR_BAD_URL';
  reply.code(400).send({
    error: badUrl ? 'The request path is not a valid URL: a % must begin an escape such as %20 (write a % itself as %25).' : 'The request could not be routed.',
    code: badUrl ? 'invalid_url' : 'bad_request',
  } satisfies Failure);
}

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request_timeout', 'The request took too long to arrive; send it again.'],
  HPE_HEADER_OVERFLOW: [
    431,
    'headers_too_large',
    "The request's headers, its address included, are larger than the server reads (16 KB); send long filters in the body of POST /api/v2/query.",
  ],
};

/**
 * The answer to a request Node's HTTP parser refused before any route saw it (Fastify's
 * `clientErrorHandler`): too long a URL, headers too large, or no HTTP at all. Written to the
 * socket as the framework's default does, in the shape of every other error. Its route is not
 * known yet, so it is readable from any origin, as the event route is: a tracker on another site
 * whose request was too large then sees why (the sentence holds nothing of the server's).
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'bad_request', 'The request is not valid HTTP.'];
  const body = JSON.stringify({ error: message, code } satisfies Failure);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nAccess-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** Every error leaves as `{"error": "<sentence>", "code": "<snake_case>"}`; never a stack trace. */
export function installErrorHandling(app: FastifyInstance, pages?: { servePage(request: FastifyRequest, reply: FastifyReply): boolean }): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const answer = asAppError(error);
    if (answer) {
      reply
        .headers(answer.headers)
        .code(answer.status)
        .send({ error: answer.message, code: answer.code } satisfies Failure);
      return;
    }
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) {
      request.log.error({ err: error }, 'request failed');
      reply.code(500).send({ error: 'Something went wrong on our side; the failure has been logged.', code: 'internal_error' } satisfies Failure);
      return;
    }
    const message = frameworkMessage(error, request) ?? error.message;
    const code = status === 413 ? 'body_too_large' : status === 415 ? 'unsupported_media_type' : 'bad_request';
    reply.code(status).send({ error: message, code } satisfies Failure);
  });

  app.setNotFoundHandler((request, reply) => {
    // Any other GET is a page of the web app (its router draws it); API misses stay JSON.
    if (pages?.servePage(request, reply)) return;
    reply.code(404).send({ error: `There is no route ${request.method} ${request.url.split('?')[0]}.`, code: 'not_found' } satisfies Failure);
  });
}
