import { AppError } from '../../errors.js';

/** The 429 of every limited account route, with the wait in its sentence and in Retry-After. */
export const tooManyAttempts = (what: string, waitSeconds: number) =>
  new AppError(429, 'too_many_attempts', `Too many ${what}; try again in ${Math.ceil(waitSeconds / 60)} minute(s).`, {
    'retry-after': String(waitSeconds),
  });
