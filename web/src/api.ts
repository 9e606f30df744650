import { failure } from '@contracts/failures';
import type { z } from 'zod';

/**
 * The app's one way to the server: JSON in and out, the CSRF token echoed on every change, and every
 * failure turned into an ApiError carrying the server's own sentence. Both surfaces are signed in by
 * the session cookie:
 * - `api`: the web app's own routes, `/app/api/...` (src/web/routes/): signing in and the account,
 *   a dashboard's reads and graph notes (for any viewer of the site, guests and shared links
 *   included), what the public API has no route for (API keys, member roles, notices, email
 *   reports), and the export, which a locked team keeps although its API is closed;
 * - `teamApi(team)`: the public `/api/v1` management routes and `/api/v2/query`, answered as for an
 *   API key of that team with the user's role there (src/web/apiSession.ts), so that each rule has
 *   one implementation for the settings screens and API clients alike.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

let csrfToken: string | null = null;

/** Set from GET /app/api/session; sent as `x-csrf-token` on every state-changing request. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called when any request finds the session gone, so the app can show the sign-in page. */
let onSignedOut: () => void = () => {};
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

/** Where the app reads and asks about one site (src/web/routes/dashboard.ts). */
export const sitePath = (domain: string) => `/app/api/sites/${encodeURIComponent(domain)}`;

/** The request itself, with the headers every request carries. */
function send(method: string, path: string, body: unknown, signal?: AbortSignal, extra: Record<string, string> = {}): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...extra };
  const raw = body instanceof Blob;
  if (body !== undefined && !raw) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  const payload = body === undefined ? undefined : raw ? body : JSON.stringify(body);
  return fetch(path, { method, headers, body: payload, credentials: 'same-origin', signal });
}

/**
 * Reads sent before the code that needs them has run (the session as the app's script loads, and a
 * dashboard's site beside it when the app opens on a dashboard URL): the first GET of the path
 * takes the response.
 */
const early = new Map<string, Promise<Response>>();

export function readEarly(path: string): void {
  const response = send('GET', path, undefined);
  // A failure is the taker's to report; one nobody takes is nobody's.
  response.catch(() => {});
  early.set(path, response);
}

/** Drops the reads sent early, as the page they were sent for is not the one shown (a redirect). */
export function forgetEarlyReads(): void {
  early.clear();
}

function takeEarly(method: string, path: string): Promise<Response> | undefined {
  if (method !== 'GET') return undefined;
  const response = early.get(path);
  early.delete(path);
  return response;
}

/** One exchange with the server: the answer's status and JSON body, or the failure as an ApiError. */
async function exchange(
  method: string,
  path: string,
  body: unknown,
  signal?: AbortSignal,
  extra: Record<string, string> = {},
): Promise<{ status: number; data: unknown }> {
  let response: Response;
  try {
    response = await (takeEarly(method, path) ?? send(method, path, body, signal, extra));
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, 'network_error', 'The server could not be reached; check your connection and try again.');
  }
  const text = await response.text();
  let data: unknown = null;
  try {
    data = text === '' ? null : JSON.parse(text);
  } catch {
    data = null;
  }
  if (!response.ok) {
    // A failure the service sent is in its contract; another (a proxy's, say) is named by its status.
    const sent = failure.safeParse(data);
    const error = sent.success
      ? new ApiError(response.status, sent.data.code, sent.data.error)
      : new ApiError(response.status, 'http_error', `The server answered ${response.status}.`);
    if (response.status === 401 && error.code === 'signed_out') onSignedOut();
    throw error;
  }
  return { status: response.status, data };
}

/**
 * An answer read with its contract (src/contracts/): a shape the contract does not allow is a
 * failure like any other, never data of the wrong type.
 */
function shaped<S extends z.ZodType>(schema: S, answer: { status: number; data: unknown }, what: string): z.output<S> {
  const parsed = schema.safeParse(answer.data);
  if (!parsed.success) throw new ApiError(answer.status, 'unexpected_answer', `The server's answer to ${what} is not in the expected shape; reload the page.`);
  return parsed.data;
}

/** A read: its answer in the contract's shape. */
function reader(extra: Record<string, string> = {}) {
  return async <S extends z.ZodType>(path: string, schema: S, signal?: AbortSignal): Promise<z.output<S>> =>
    shaped(schema, await exchange('GET', path, undefined, signal, extra), `GET ${path}`);
}

/** A change: with a contract, its answer in that shape; without one, an answer the caller does not read. */
interface Change {
  <S extends z.ZodType>(path: string, body: unknown, schema: S, signal?: AbortSignal): Promise<z.output<S>>;
  (path: string, body?: unknown): Promise<unknown>;
}

function change(method: string, defaultBody: unknown, extra: Record<string, string> = {}): Change {
  function send<S extends z.ZodType>(path: string, body: unknown, schema: S, signal?: AbortSignal): Promise<z.output<S>>;
  function send(path: string, body?: unknown): Promise<unknown>;
  async function send(path: string, body: unknown = defaultBody, schema?: z.ZodType, signal?: AbortSignal): Promise<unknown> {
    const answer = await exchange(method, path, body, signal, extra);
    return schema ? shaped(schema, answer, `${method} ${path}`) : answer.data;
  }
  return send;
}

export const api = {
  get: reader(),
  post: change('POST', {}),
  put: change('PUT', {}),
  patch: change('PATCH', {}),
  delete: change('DELETE', undefined),
};

/**
 * The /api/v1 management routes, called with the session instead of a key: the server acts for the
 * team named in `x-svc-team` with the user's role there (src/web/apiSession.ts).
 */
export function teamApi(teamId: number) {
  const team = { 'x-svc-team': String(teamId) };
  return {
    get: reader(team),
    post: change('POST', {}, team),
    put: change('PUT', {}, team),
    patch: change('PATCH', {}, team),
    delete: change('DELETE', undefined, team),
    /** Sends a file as the request body (an import upload). */
    upload: (path: string, file: File) => exchange('POST', path, file, undefined, { ...team, 'content-type': file.type || 'application/octet-stream' }),
  };
}

export type TeamApi = ReturnType<typeof teamApi>;
