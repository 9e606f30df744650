import type { AnnotationContent, Annotation as AnnotationJson } from '../contracts/annotations.js';
import { badRequest, notFound } from '../errors.js';
import {
  type Annotation,
  countAnnotations,
  deleteAnnotation,
  insertAnnotation,
  type AnnotationContent as StoredContent,
  updateAnnotation,
} from '../stores/meta/annotations.js';
import type { MetaDb } from '../stores/meta/database.js';

/** Enough for years of releases and campaigns; a script adding one a minute stops here. */
export const MAX_ANNOTATIONS_PER_SITE = 5000;

const annotationNotFound = () => notFound('Annotation could not be found.');

/** A payload as stored: a span ending on its first day is that one day; a span cannot end before it starts. */
function storedContent(payload: AnnotationContent): StoredContent {
  const endDate = payload.end_date ?? null;
  if (endDate !== null && endDate < payload.date) {
    throw badRequest('invalid_annotation', `Field "end_date" (${endDate}) is before "date" (${payload.date}); a note ends on or after the day it starts.`);
  }
  return { date: payload.date, endDate: endDate === payload.date ? null : endDate, note: payload.note };
}

export async function addAnnotation(db: MetaDb, siteId: number, payload: AnnotationContent, now: number): Promise<Annotation> {
  const content = storedContent(payload);
  if ((await countAnnotations(db, siteId)) >= MAX_ANNOTATIONS_PER_SITE) {
    throw badRequest('too_many_annotations', `A site can have at most ${MAX_ANNOTATIONS_PER_SITE} annotations; delete old ones first.`);
  }
  return insertAnnotation(db, siteId, content, now);
}

export async function changeAnnotation(db: MetaDb, siteId: number, id: number, payload: AnnotationContent, now: number): Promise<Annotation> {
  const changed = await updateAnnotation(db, siteId, id, storedContent(payload), now);
  if (!changed) throw annotationNotFound();
  return changed;
}

/** Deletes one of a site's notes; an id the site does not have is refused, not ignored. */
export async function removeAnnotation(db: MetaDb, siteId: number, id: number): Promise<void> {
  if (!(await deleteAnnotation(db, siteId, id))) throw annotationNotFound();
}

export function annotationJson(annotation: Annotation): AnnotationJson {
  return {
    id: annotation.id,
    date: annotation.date,
    end_date: annotation.endDate,
    note: annotation.note,
    created_at: new Date(annotation.createdAt).toISOString(),
    updated_at: new Date(annotation.updatedAt).toISOString(),
  };
}
