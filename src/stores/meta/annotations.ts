import { type MetaDb, records } from './database.js';

/** A dated note on a site's graph: one day, or the days from `date` to `endDate`. */
export interface Annotation {
  id: number;
  siteId: number;
  /** The site's local day, `YYYY-MM-DD`. */
  date: string;
  /** The last day of a span, or null for one day. */
  endDate: string | null;
  note: string;
  createdAt: number;
  updatedAt: number;
}

/** What a note says and when: the parts an editor sets. */
export type AnnotationContent = Pick<Annotation, 'date' | 'endDate' | 'note'>;

/**
 * The site's notes that touch the days from `from` to `to` (both included; either may be left
 * open), in date order: a span that starts before `from` and ends in it is among them.
 */
export async function listAnnotations(db: MetaDb, siteId: number, days: { from?: string | undefined; to?: string | undefined } = {}): Promise<Annotation[]> {
  let query = records(db).selectFrom('annotations').selectAll().where('siteId', '=', siteId);
  if (days.to !== undefined) query = query.where('date', '<=', days.to);
  const from = days.from;
  if (from !== undefined) query = query.where((eb) => eb.or([eb('date', '>=', from), eb('endDate', '>=', from)]));
  return query.orderBy('date').orderBy('id').execute();
}

export async function countAnnotations(db: MetaDb, siteId: number): Promise<number> {
  const row = await records(db)
    .selectFrom('annotations')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('siteId', '=', siteId)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

export async function insertAnnotation(db: MetaDb, siteId: number, content: AnnotationContent, now: number): Promise<Annotation> {
  return records(db)
    .insertInto('annotations')
    .values({ siteId, ...content, createdAt: now, updatedAt: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Replaces a note's content; undefined when the site has no such note. */
export async function updateAnnotation(db: MetaDb, siteId: number, id: number, content: AnnotationContent, now: number): Promise<Annotation | undefined> {
  return records(db)
    .updateTable('annotations')
    .set({ ...content, updatedAt: now })
    .where('siteId', '=', siteId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** True when the note existed. */
export async function deleteAnnotation(db: MetaDb, siteId: number, id: number): Promise<boolean> {
  const result = await records(db).deleteFrom('annotations').where('siteId', '=', siteId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
