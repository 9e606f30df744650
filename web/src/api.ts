/**
 * The app's one way to the server: JSON to and from `/app/api/...`, the CSRF token echoed on every
 * change, and every failure turned into an ApiError carrying the server's own sentence.
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

async function request<T>(method: string, path: string, body?: unknown, signal?: AbortSignal, extra: Record<string, string> = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...extra };
  const raw = body instanceof Blob;
  if (body !== undefined && !raw) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    const payload = body === undefined ? undefined : raw ? body : JSON.stringify(body);
    response = await fetch(path, { method, headers, body: payload, credentials: 'same-origin', signal });
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
    const failure = (data ?? {}) as { error?: unknown; code?: unknown };
    const error = new ApiError(
      response.status,
      typeof failure.code === 'string' ? failure.code : 'http_error',
      typeof failure.error === 'string' ? failure.error : `The server answered ${response.status}.`,
    );
    if (response.status === 401 && error.code === 'signed_out') onSignedOut();
    throw error;
  }
  return data as T;
}

export const api = {
  get: <T>(path: string, signal?: AbortSignal) => request<T>('GET', path, undefined, signal),
  post: <T>(path: string, body: unknown = {}, signal?: AbortSignal) => request<T>('POST', path, body, signal),
  put: <T>(path: string, body: unknown = {}) => request<T>('PUT', path, body),
  patch: <T>(path: string, body: unknown = {}) => request<T>('PATCH', path, body),
  delete: <T>(path: string, body?: unknown) => request<T>('DELETE', path, body),
};

/**
 * The /api/v1 management routes, called with the session instead of a key: the server acts for the
 * team named in `x-svc-team` with the user's role there (src/web/apiSession.ts).
 */
export function teamApi(teamId: number) {
  const team = { 'x-svc-team': String(teamId) };
  return {
    get: <T>(path: string, signal?: AbortSignal) => request<T>('GET', path, undefined, signal, team),
    post: <T>(path: string, body: unknown = {}) => request<T>('POST', path, body, undefined, team),
    put: <T>(path: string, body: unknown = {}) => request<T>('PUT', path, body, undefined, team),
    delete: <T>(path: string, body?: unknown) => request<T>('DELETE', path, body, undefined, team),
    /** Sends a file as the request body (an import upload). */
    upload: <T>(path: string, file: File) => request<T>('POST', path, file, undefined, { ...team, 'content-type': file.type || 'application/octet-stream' }),
  };
}

export type TeamApi = ReturnType<typeof teamApi>;
