import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The text of one list and the name its error messages use (a path, or "built-in <file>"). */
export interface ListSource {
  name: string;
  text: string;
}

/**
 * Parses a list: one entry per line, blank lines skipped, `#` starts a comment when it opens the
 * line or follows whitespace (so a `#` inside an entry stays part of it). `parseEntry` returns
 * undefined for a malformed entry, and the error names the file, the line and what was expected.
 */
export function parseList<T>(source: ListSource, expected: string, parseEntry: (entry: string) => T | undefined): T[] {
  const entries: T[] = [];
  const lines = source.text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const entry = withoutComment(lines[index] ?? '').trim();
    if (entry === '') continue;
    const parsed = parseEntry(entry);
    if (parsed === undefined) {
      throw new Error(`${source.name} line ${index + 1}: expected ${expected}, found "${entry}".`);
    }
    entries.push(parsed);
  }
  return entries;
}

function withoutComment(line: string): string {
  const match = /(^|\s)#/.exec(line);
  return match === null ? line : line.slice(0, match.index);
}

/** The operator's file `fileName` in `listsDir`, or null when there is no directory or no such file. */
export async function readOperatorList(listsDir: string | undefined, fileName: string): Promise<ListSource | null> {
  if (listsDir === undefined) return null;
  const path = join(listsDir, fileName);
  try {
    return { name: path, text: await readFile(path, 'utf8') };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** The built-in list followed by the operator's file of the same name, when one exists. */
export async function listSources(builtIn: string, listsDir: string | undefined, fileName: string): Promise<ListSource[]> {
  const operator = await readOperatorList(listsDir, fileName);
  const sources = [{ name: `built-in ${fileName}`, text: builtIn }];
  return operator === null ? sources : [...sources, operator];
}
