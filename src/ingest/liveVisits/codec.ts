import { z } from 'zod';
import type { VisitAttributes } from '../rows.js';
import { type LiveVisit, VISIT_ATTRIBUTES } from './visit.js';

const NUMBERS = 7;
const STRINGS = 6;
const text = z.string();
const whole = z.number().int().nonnegative();

/** The encoded form: session id, seven numbers, six visit strings, entry props (JSON), then the attributes. */
const encodedVisit = z
  .tuple([text, whole, whole, whole, whole, whole, whole, whole], z.string())
  .refine((v) => v.length === 1 + NUMBERS + STRINGS + VISIT_ATTRIBUTES.length, {
    message: 'a live visit has a fixed number of fields',
  });

/**
 * A live visit as a short string (a JSON array, about 150–300 bytes), for a store keyed by site
 * and visitor such as Redis with a 30-minute expiry (`STATE_URL`). Site and visitor are the key,
 * so they are not repeated inside.
 */
export function encodeLiveVisit(visit: LiveVisit): string {
  return JSON.stringify([
    visit.sessionId,
    visit.start,
    visit.timestamp,
    visit.lastSeen,
    visit.pageviews,
    visit.events,
    visit.duration,
    visit.isBounce,
    visit.hostname,
    visit.entryPage,
    visit.exitPage,
    visit.exitPageHostname,
    visit.classification,
    visit.entryProps,
    ...VISIT_ATTRIBUTES.map((name) => visit.attributes[name]),
  ]);
}

export function decodeLiveVisit(siteId: number, userId: string, encoded: string): LiveVisit {
  const v = encodedVisit.parse(JSON.parse(encoded));
  const s = (i: number) => String(v[i] ?? '');
  const attributes = Object.fromEntries(VISIT_ATTRIBUTES.map((name, i) => [name, s(1 + NUMBERS + STRINGS + i)]));
  return {
    siteId,
    userId,
    sessionId: v[0],
    start: v[1],
    timestamp: v[2],
    lastSeen: v[3],
    pageviews: v[4],
    events: v[5],
    duration: v[6],
    isBounce: v[7],
    hostname: s(8),
    entryPage: s(9),
    exitPage: s(10),
    exitPageHostname: s(11),
    classification: s(12),
    entryProps: s(13),
    attributes: attributesFrom(attributes),
  };
}

const attributesSchema = z.object(Object.fromEntries(VISIT_ATTRIBUTES.map((name) => [name, text])) as Record<keyof VisitAttributes, typeof text>);
const attributesFrom = (value: unknown): VisitAttributes => attributesSchema.parse(value);
