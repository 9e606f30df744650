import { createWriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError, badRequest } from '../errors.js';

interface UploadLimit {
  limitBytes: number;
  limitText: string;
}

const tooLarge = (limit: UploadLimit) => new AppError(413, 'body_too_large', `An upload may be at most ${limit.limitText}.`);

/** Refuses at once a body whose declared length is over the limit, before anything is recorded. */
export function refuseDeclaredOversize(body: IncomingMessage, limit: UploadLimit): void {
  if (Number(body.headers['content-length'] ?? 0) > limit.limitBytes) throw tooLarge(limit);
}

/**
 * Streams a request body from the socket to a file, never holding it in memory, and refuses it
 * (413) once it passes `limitBytes` or `check` throws on a chunk. Answers the bytes received.
 */
export async function receiveUpload(body: IncomingMessage, path: string, options: UploadLimit & { check?: (chunk: Buffer) => void }): Promise<number> {
  refuseDeclaredOversize(body, options);
  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      if (received > options.limitBytes) return done(tooLarge(options));
      try {
        options.check?.(chunk);
      } catch (error) {
        return done(error as Error);
      }
      done(null, chunk);
    },
  });
  try {
    await pipeline(body, counter, createWriteStream(path));
  } catch (error) {
    throw error instanceof AppError ? error : badRequest('upload_incomplete', 'The upload did not arrive whole; send it again.');
  }
  return received;
}
