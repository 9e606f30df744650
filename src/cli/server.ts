import { loadConfig } from '../config/config.js';
import { failure } from '../contracts/failures.js';
import { AppError } from '../errors.js';

/**
 * The running server, as the commands that go through it (events import, export) reach it: only
 * the server process may open the embedded event store.
 */
export function serverAddress(url: string | undefined): string {
  return (url ?? loadConfig().baseUrl).replace(/\/+$/, '');
}

/** fetch() against the server, a refused connection said as the command's failure. */
export async function callServer(base: string, path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(`${base}${path}`, init);
  } catch {
    throw new AppError(503, 'server_unreachable', `No server answers at ${base}; start it with npm start or pass --url.`);
  }
}

/**
 * The server's refusal (src/contracts/failures.ts) as the command's failure; an answer not in that
 * shape (a proxy's, say) is named by its status under the command's own code.
 */
export async function refusal(response: Response, code: string): Promise<AppError> {
  const parsed = failure.safeParse(await response.json().catch(() => null));
  if (parsed.success) return new AppError(response.status, parsed.data.code, parsed.data.error);
  return new AppError(response.status, code, `The server answered ${response.status}.`);
}
