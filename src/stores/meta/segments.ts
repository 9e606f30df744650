import { type MetaDb, records } from './database.js';

/** 'personal': its owner's own; 'site': shared with everyone who sees the site. */
export type SegmentType = 'personal' | 'site';

export interface Segment {
  id: number;
  siteId: number;
  ownerId: number | null;
  /** The owner's name, for "shared by …" (null once their account is gone). */
  ownerName: string | null;
  name: string;
  type: SegmentType;
  /** The v2 filter list, as saved (checked by src/management/segments.ts before it is). */
  filters: unknown[];
  /** How the dashboard shows the filters' values (a country code's name), value → label. */
  labels: Record<string, string>;
  createdAt: number;
  updatedAt: number;
}

export interface SegmentFields {
  name: string;
  type: SegmentType;
  filters: unknown[];
  labels: Record<string, string>;
}

const segmentRows = (db: MetaDb) =>
  records(db)
    .selectFrom('segments')
    .leftJoin('users', 'users.id', 'segments.ownerId')
    .select([
      'segments.id',
      'segments.siteId',
      'segments.ownerId',
      'users.name as ownerName',
      'segments.name',
      'segments.type',
      'segments.filters',
      'segments.labels',
      'segments.createdAt',
      'segments.updatedAt',
    ]);

type Row = Awaited<ReturnType<ReturnType<typeof segmentRows>['executeTakeFirstOrThrow']>>;

const segmentOfRow = (row: Row): Segment => ({
  ...row,
  type: row.type === 'site' ? 'site' : 'personal',
  filters: JSON.parse(row.filters) as unknown[],
  labels: JSON.parse(row.labels) as Record<string, string>,
});

/**
 * The segments of a site a user sees: the shared ones and their own personal ones, by name. Without
 * a user (a shared link), only the shared ones.
 */
export async function listVisibleSegments(db: MetaDb, siteId: number, userId: number | null): Promise<Segment[]> {
  const rows = await segmentRows(db)
    .where('segments.siteId', '=', siteId)
    .where((eb) => (userId === null ? eb('segments.type', '=', 'site') : eb.or([eb('segments.type', '=', 'site'), eb('segments.ownerId', '=', userId)])))
    .orderBy('segments.name')
    .orderBy('segments.id')
    .execute();
  return rows.map(segmentOfRow);
}

/** A segment of the site by its id, whoever owns it (visibility is the caller's rule). */
export async function findSegment(db: MetaDb, siteId: number, segmentId: number): Promise<Segment | undefined> {
  const row = await segmentRows(db).where('segments.siteId', '=', siteId).where('segments.id', '=', segmentId).executeTakeFirst();
  return row && segmentOfRow(row);
}

export async function insertSegment(db: MetaDb, input: SegmentFields & { siteId: number; ownerId: number }, now: number): Promise<Segment> {
  const { id } = await records(db)
    .insertInto('segments')
    .values({
      siteId: input.siteId,
      ownerId: input.ownerId,
      name: input.name,
      type: input.type,
      filters: JSON.stringify(input.filters),
      labels: JSON.stringify(input.labels),
      createdAt: now,
      updatedAt: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return (await findSegment(db, input.siteId, id))!;
}

export async function updateSegment(db: MetaDb, siteId: number, segmentId: number, fields: SegmentFields, now: number): Promise<Segment | undefined> {
  await records(db)
    .updateTable('segments')
    .set({ name: fields.name, type: fields.type, filters: JSON.stringify(fields.filters), labels: JSON.stringify(fields.labels), updatedAt: now })
    .where('siteId', '=', siteId)
    .where('id', '=', segmentId)
    .execute();
  return findSegment(db, siteId, segmentId);
}

export async function deleteSegment(db: MetaDb, siteId: number, segmentId: number): Promise<void> {
  await records(db).deleteFrom('segments').where('siteId', '=', siteId).where('id', '=', segmentId).execute();
}
