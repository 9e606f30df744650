import { badRequest } from '../errors.js';

export const DEFAULT_PAGE_LIMIT = 100;
export const MAX_PAGE_LIMIT = 1000;

/** Plausible's cursor pagination: `after` or `before` (opaque cursors from `meta`) and `limit`. */
export interface PageRequest {
  limit: number;
  after?: number | undefined;
  before?: number | undefined;
}

export interface PageMeta {
  after: string | null;
  before: string | null;
  limit: number;
}

export function parsePageRequest(
  query: { limit?: string | undefined; after?: string | undefined; before?: string | undefined },
  bounds: { defaultLimit: number; maxLimit: number } = { defaultLimit: DEFAULT_PAGE_LIMIT, maxLimit: MAX_PAGE_LIMIT },
): PageRequest {
  const limit = query.limit === undefined ? bounds.defaultLimit : Number(query.limit);
  if (!/^\d+$/.test(query.limit ?? '1') || limit < 1 || limit > bounds.maxLimit) {
    throw badRequest('invalid_limit', `limit must be a whole number from 1 to ${bounds.maxLimit}.`);
  }
  const after = parseCursor(query.after, 'after');
  const before = parseCursor(query.before, 'before');
  if (after !== undefined && before !== undefined) throw badRequest('invalid_cursor', 'Give "after" or "before", not both.');
  return { limit, after, before };
}

function parseCursor(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,15}$/.test(raw)) throw badRequest('invalid_cursor', `"${name}" must be a cursor returned in meta.${name}.`);
  return Number(raw);
}

/**
 * Fetches one page by position in a fixed order. `fetch` reads up to `limit` rows whose position
 * lies strictly after (`forward`) or before the cursor, nearest first; one extra row tells
 * whether more lie beyond. Positions are row ids, so cursors survive inserts and deletes.
 */
export async function fetchPage<T>(
  page: PageRequest,
  position: (row: T) => number,
  fetch: (range: { from?: number | undefined; forward: boolean; limit: number }) => Promise<T[]>,
): Promise<{ rows: T[]; meta: PageMeta }> {
  const forward = page.before === undefined;
  const found = await fetch({ from: forward ? page.after : page.before, forward, limit: page.limit + 1 });
  const more = found.length > page.limit;
  const rows = found.slice(0, page.limit);
  if (!forward) rows.reverse();
  const first = rows[0];
  const last = rows.at(-1);
  const cursor = (row: T | undefined) => (row === undefined ? null : String(position(row)));
  const hasAfter = forward ? more : page.before !== undefined;
  const hasBefore = forward ? page.after !== undefined : more;
  return { rows, meta: { after: hasAfter ? cursor(last) : null, before: hasBefore ? cursor(first) : null, limit: page.limit } };
}

/** The same paging over a list already in memory (short lists: guests, teams). */
export function pageOfList<T>(items: T[], page: PageRequest, position: (row: T) => number): Promise<{ rows: T[]; meta: PageMeta }> {
  return fetchPage(page, position, async ({ from, forward, limit }) => {
    const ordered = forward ? items : [...items].reverse();
    const start = from === undefined ? 0 : ordered.findIndex((row) => (forward ? position(row) > from : position(row) < from));
    return start < 0 ? [] : ordered.slice(start, start + limit);
  });
}
