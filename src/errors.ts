/**
 * A failure the caller can act on: an HTTP status, a stable snake_case code and one sentence.
 * The API layer renders it as `{"error": message, "code": code}`; the CLI prints the message.
 */
export class AppError extends Error {
  override name = 'AppError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (code: string, message: string) => new AppError(400, code, message);
export const notFound = (message: string) => new AppError(404, 'not_found', message);
export const conflict = (code: string, message: string) => new AppError(409, code, message);

/** What kind of rule refused a request, in the domain's words; each edge maps it to its own answer. */
export type RefusalKind = 'invalid' | 'not_found' | 'conflict';

/**
 * A domain rule refused the input. Stores and domain modules throw it and know nothing of HTTP:
 * the API maps the kind to a status (src/api/errorHandling.ts), the CLI to an exit code
 * (src/cli/program.ts).
 */
export class Refusal extends Error {
  override name = 'Refusal';

  constructor(
    readonly kind: RefusalKind,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const invalid = (code: string, message: string) => new Refusal('invalid', code, message);
export const missing = (message: string) => new Refusal('not_found', 'not_found', message);
export const taken = (code: string, message: string) => new Refusal('conflict', code, message);
