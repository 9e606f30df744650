import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';

/** Bounds on what one upload may unpack to, against ZIP bombs (and the machine's disk and time). */
export const UPLOAD_LIMITS = {
  entries: 64,
  /** Declared size of all entries together once unpacked. */
  unpackedBytes: 8 * 1024 ** 3,
  /** A CSV compresses 5–20×; far more than this is a bomb, not a table. */
  compressionRatio: 200,
};

export class UploadError extends Error {
  constructor(
    message: string,
    readonly file: string | null = null,
  ) {
    super(message);
  }
}

export interface UploadEntry {
  name: string;
  open(): Promise<Readable>;
}

/** A path inside a ZIP taken as a plain file name; anything that climbs out or is absolute is refused. */
function entryFileName(path: string): string {
  if (path.includes('\\') || path.startsWith('/') || path.split('/').some((part) => part === '..')) {
    throw new UploadError(`The ZIP holds a file with an unsafe path ("${path}"); it was refused whole.`, path);
  }
  return path.split('/').pop() ?? path;
}

function openZip(path: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true }, (error, zip) =>
      error ? reject(new UploadError(`The upload is not a readable ZIP file (${error.message}).`)) : resolve(zip),
    ),
  );
}

/**
 * The files of an upload: the entries of a ZIP (checked before anything is read: count, paths,
 * sizes, compression ratios), or the upload itself when it is one CSV file. `close` releases the ZIP.
 */
export async function uploadEntries(path: string, uploadName: string): Promise<{ entries: UploadEntry[]; close(): void }> {
  if (!uploadName.toLowerCase().endsWith('.zip')) {
    return { entries: [{ name: uploadName, open: async () => createReadStream(path) }], close: () => {} };
  }
  const zip = await openZip(path);
  const found: yauzl.Entry[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        found.push(entry);
        if (found.length > UPLOAD_LIMITS.entries) return reject(new UploadError(`The ZIP holds more than ${UPLOAD_LIMITS.entries} files.`));
        zip.readEntry();
      });
      zip.on('end', () => resolve());
      zip.on('error', (error: Error) =>
        reject(
          /relative path|absolute path|invalid characters/.test(error.message)
            ? new UploadError(`The ZIP holds a file with an unsafe path (${error.message}); it was refused whole.`)
            : new UploadError(`The ZIP file is damaged (${error.message}).`),
        ),
      );
      zip.readEntry();
    });
  } catch (error) {
    zip.close();
    throw error;
  }
  let total = 0;
  const entries: UploadEntry[] = [];
  for (const entry of found) {
    const name = entryFileName(entry.fileName);
    total += entry.uncompressedSize;
    const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
    if (total > UPLOAD_LIMITS.unpackedBytes || ratio > UPLOAD_LIMITS.compressionRatio) {
      zip.close();
      throw new UploadError(`The ZIP would unpack to more than this service accepts (at ${name}); it was refused whole.`, name);
    }
    entries.push({
      name,
      open: () =>
        new Promise((resolve, reject) =>
          zip.openReadStream(entry, (error, stream) =>
            error ? reject(new UploadError(`Cannot read ${name} from the ZIP (${error.message}).`, name)) : resolve(stream),
          ),
        ),
    });
  }
  return { entries, close: () => zip.close() };
}
