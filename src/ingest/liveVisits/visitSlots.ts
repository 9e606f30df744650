import type { VisitAttributes } from '../rows.js';
import { hash1 } from './evictedVisitors.js';
import { InternedStrings } from './internedStrings.js';
import { VISIT_ATTRIBUTES as ATTRIBUTES, type LiveVisit } from './visit.js';

/**
 * Attributes that come together (from one user agent and screen, one address, one referrer and
 * landing URL) are interned as one group: a visit names three groups instead of twenty strings.
 */
const GROUPS: ReadonlyArray<ReadonlyArray<keyof VisitAttributes>> = [
  ['screen_size', 'device', 'operating_system', 'operating_system_version', 'browser', 'browser_version'],
  ['country_code', 'subdivision1_code', 'subdivision2_code', 'city'],
  ['referrer', 'referrer_source', 'click_id_param', 'utm_medium', 'utm_source', 'utm_campaign', 'utm_content', 'utm_term', 'channel'],
  ['language'],
];
if (GROUPS.flat().length !== ATTRIBUTES.length) throw new Error('every visit attribute belongs to one group');

// One visit is STRIDE 32-bit words in a page of typed memory: no JavaScript object per visit.
const SITE = 0;
const USER_HIGH = 1;
const USER_LOW = 2;
const SESSION_HIGH = 3;
const SESSION_LOW = 4;
const START = 5;
const TIMESTAMP = 6;
const LAST_SEEN = 7;
const PAGEVIEWS = 8;
const EVENTS = 9;
const DURATION = 10;
/** Bit 0: bounce; above it the classification's number (a handful of values). */
const FLAGS = 11;
/** Neighbours in the order of last activity (most recent first), for eviction. */
const NEWER = 12;
const OLDER = 13;
const HOSTNAME = 14;
const ENTRY_PAGE = 15;
const EXIT_PAGE = 16;
const EXIT_PAGE_HOSTNAME = 17;
const ENTRY_PROPS = 18;
const FIRST_GROUP = 19;
const STRIDE = FIRST_GROUP + GROUPS.length;
const STRING_WORDS = [HOSTNAME, ENTRY_PAGE, EXIT_PAGE, EXIT_PAGE_HOSTNAME, ENTRY_PROPS, ...GROUPS.map((_, i) => FIRST_GROUP + i)];

const PAGE_BITS = 12;
const PAGE_SLOTS = 1 << PAGE_BITS;
const NONE = -1;

export const toWords = (id: string): [number, number] => {
  const value = BigInt(id);
  return [Number(value >> 32n), Number(value & 0xffffffffn)];
};
const fromWords = (high: number, low: number) => ((BigInt(high) << 32n) | BigInt(low)).toString();

/**
 * Live visits packed into pages of 32-bit words (a struct of arrays), found through an
 * open-addressing hash of (site, visitor id), strings interned with reference counts, and kept
 * in order of last activity so the least recently seen can leave first. A visit costs a few words
 * (test/ingest/liveVisits.test.ts holds it under LIVE_VISIT_BYTES), where a row object per visit
 * cost several times that and a flood of new visitors outgrew the process (docs/benchmarks.md).
 */
export class VisitSlots {
  private readonly pages: Uint32Array[] = [];
  private readonly strings = new InternedStrings();
  private readonly classifications = new InternedStrings();
  private index = new Int32Array(1024);
  private count = 0;
  private freeSlot = NONE;
  private allocated = 0;
  private newest = NONE;
  private oldest = NONE;

  get size(): number {
    return this.count;
  }

  /** The slot of a visitor's visit, or -1. */
  find(siteId: number, userHigh: number, userLow: number): number {
    const mask = this.index.length - 1;
    for (let i = hash1(siteId, userHigh, userLow) & mask; ; i = (i + 1) & mask) {
      const entry = this.index[i] ?? 0;
      if (entry === 0) return NONE;
      const slot = entry - 1;
      const page = this.page(slot);
      const at = (slot & (PAGE_SLOTS - 1)) * STRIDE;
      if (page[at + USER_LOW] === userLow && page[at + USER_HIGH] === userHigh && page[at + SITE] === siteId) return slot;
    }
  }

  lastSeen(slot: number): number {
    return this.word(slot, LAST_SEEN);
  }

  /** The least recently seen visit's slot, or -1. */
  get leastRecent(): number {
    return this.oldest;
  }

  key(slot: number): { siteId: number; userHigh: number; userLow: number } {
    return { siteId: this.word(slot, SITE), userHigh: this.word(slot, USER_HIGH), userLow: this.word(slot, USER_LOW) };
  }

  /** Adds a visit not held yet; returns its slot. */
  add(visit: LiveVisit): number {
    const [userHigh, userLow] = toWords(visit.userId);
    // Linear probing stays short up to three quarters full.
    if ((this.count + 1) * 4 > this.index.length * 3) this.grow();
    const slot = this.takeSlot();
    const page = this.page(slot);
    const at = (slot & (PAGE_SLOTS - 1)) * STRIDE;
    page[at + SITE] = visit.siteId;
    page[at + USER_HIGH] = userHigh;
    page[at + USER_LOW] = userLow;
    for (const word of STRING_WORDS) page[at + word] = 0;
    page[at + FLAGS] = 0;
    this.write(slot, visit);
    this.insertIndex(slot, visit.siteId, userHigh, userLow);
    this.linkNewest(slot);
    this.count += 1;
    return slot;
  }

  /** Replaces the state of the visit in `slot` and marks it most recently seen. */
  update(slot: number, visit: LiveVisit): void {
    this.write(slot, visit);
    this.seen(slot, visit.lastSeen);
  }

  /** Activity without change (an engagement). */
  seen(slot: number, lastSeen: number): void {
    const page = this.page(slot);
    const at = (slot & (PAGE_SLOTS - 1)) * STRIDE;
    page[at + LAST_SEEN] = Math.max(page[at + LAST_SEEN] ?? 0, lastSeen);
    this.unlink(slot);
    this.linkNewest(slot);
  }

  remove(slot: number): void {
    const page = this.page(slot);
    const at = (slot & (PAGE_SLOTS - 1)) * STRIDE;
    for (const word of STRING_WORDS) this.strings.release(page[at + word] ?? 0);
    this.classifications.release((page[at + FLAGS] ?? 0) >>> 1);
    this.removeIndex(slot, page[at + SITE] ?? 0, page[at + USER_HIGH] ?? 0, page[at + USER_LOW] ?? 0);
    this.unlink(slot);
    page[at + OLDER] = this.freeSlot;
    this.freeSlot = slot;
    this.count -= 1;
  }

  visit(slot: number): LiveVisit {
    const page = this.page(slot);
    const at = (slot & (PAGE_SLOTS - 1)) * STRIDE;
    const s = (word: number) => this.strings.get(page[at + word] ?? 0);
    const attributes: Record<string, string> = {};
    for (let g = 0; g < GROUPS.length; g++) {
      const group = GROUPS[g] as ReadonlyArray<keyof VisitAttributes>;
      const text = s(FIRST_GROUP + g);
      if (group.length === 1) attributes[group[0] as string] = text;
      else {
        const values: unknown = text === '' ? [] : JSON.parse(text);
        for (let i = 0; i < group.length; i++) attributes[group[i] as string] = Array.isArray(values) ? String(values[i] ?? '') : '';
      }
    }
    return {
      siteId: page[at + SITE] ?? 0,
      userId: fromWords(page[at + USER_HIGH] ?? 0, page[at + USER_LOW] ?? 0),
      sessionId: fromWords(page[at + SESSION_HIGH] ?? 0, page[at + SESSION_LOW] ?? 0),
      start: page[at + START] ?? 0,
      timestamp: page[at + TIMESTAMP] ?? 0,
      lastSeen: page[at + LAST_SEEN] ?? 0,
      pageviews: page[at + PAGEVIEWS] ?? 0,
      events: page[at + EVENTS] ?? 0,
      duration: page[at + DURATION] ?? 0,
      isBounce: (page[at + FLAGS] ?? 0) & 1,
      hostname: s(HOSTNAME),
      entryPage: s(ENTRY_PAGE),
      exitPage: s(EXIT_PAGE),
      exitPageHostname: s(EXIT_PAGE_HOSTNAME),
      classification: this.classifications.get((page[at + FLAGS] ?? 0) >>> 1),
      entryProps: s(ENTRY_PROPS) || '{}',
      attributes: attributes as unknown as VisitAttributes,
    };
  }

  private write(slot: number, visit: LiveVisit): void {
    const page = this.page(slot);
    const at = (slot & (PAGE_SLOTS - 1)) * STRIDE;
    const [sessionHigh, sessionLow] = toWords(visit.sessionId);
    page[at + SESSION_HIGH] = sessionHigh;
    page[at + SESSION_LOW] = sessionLow;
    page[at + START] = visit.start;
    page[at + TIMESTAMP] = visit.timestamp;
    page[at + LAST_SEEN] = visit.lastSeen;
    page[at + PAGEVIEWS] = visit.pageviews;
    page[at + EVENTS] = visit.events;
    page[at + DURATION] = visit.duration;
    const classification = this.classifications.take(visit.classification);
    this.classifications.release((page[at + FLAGS] ?? 0) >>> 1);
    page[at + FLAGS] = (classification << 1) | (visit.isBounce & 1);
    // Take the new strings before letting the old go, so a string both use is never dropped.
    const set = (word: number, text: string) => {
      const old = page[at + word] ?? 0;
      page[at + word] = this.strings.take(text);
      this.strings.release(old);
    };
    set(HOSTNAME, visit.hostname);
    set(ENTRY_PAGE, visit.entryPage);
    set(EXIT_PAGE, visit.exitPage);
    set(EXIT_PAGE_HOSTNAME, visit.exitPageHostname);
    set(ENTRY_PROPS, visit.entryProps === '{}' ? '' : visit.entryProps);
    for (let g = 0; g < GROUPS.length; g++) set(FIRST_GROUP + g, groupText(GROUPS[g] as ReadonlyArray<keyof VisitAttributes>, visit.attributes));
  }

  private word(slot: number, word: number): number {
    return this.page(slot)[(slot & (PAGE_SLOTS - 1)) * STRIDE + word] ?? 0;
  }

  private page(slot: number): Uint32Array {
    return this.pages[slot >>> PAGE_BITS] as Uint32Array;
  }

  private takeSlot(): number {
    if (this.freeSlot !== NONE) {
      const slot = this.freeSlot;
      this.freeSlot = this.signed(this.word(slot, OLDER));
      return slot;
    }
    // Pages of 4,096 visits: memory grows in steps of 160 KiB-ish, never by doubling.
    if (this.allocated === this.pages.length * PAGE_SLOTS) this.pages.push(new Uint32Array(PAGE_SLOTS * STRIDE));
    return this.allocated++;
  }

  private signed(word: number): number {
    return word | 0;
  }

  private setWord(slot: number, word: number, value: number): void {
    this.page(slot)[(slot & (PAGE_SLOTS - 1)) * STRIDE + word] = value;
  }

  private linkNewest(slot: number): void {
    this.setWord(slot, NEWER, NONE);
    this.setWord(slot, OLDER, this.newest);
    if (this.newest !== NONE) this.setWord(this.newest, NEWER, slot);
    this.newest = slot;
    if (this.oldest === NONE) this.oldest = slot;
  }

  private unlink(slot: number): void {
    const newer = this.signed(this.word(slot, NEWER));
    const older = this.signed(this.word(slot, OLDER));
    if (newer === NONE) this.newest = older;
    else this.setWord(newer, OLDER, older);
    if (older === NONE) this.oldest = newer;
    else this.setWord(older, NEWER, newer);
  }

  private insertIndex(slot: number, siteId: number, userHigh: number, userLow: number): void {
    const mask = this.index.length - 1;
    let i = hash1(siteId, userHigh, userLow) & mask;
    while ((this.index[i] ?? 0) !== 0) i = (i + 1) & mask;
    this.index[i] = slot + 1;
  }

  /** Linear probing with backward-shift deletion: no tombstones to clean up. */
  private removeIndex(slot: number, siteId: number, userHigh: number, userLow: number): void {
    const index = this.index;
    const mask = index.length - 1;
    let i = hash1(siteId, userHigh, userLow) & mask;
    while ((index[i] ?? 0) !== slot + 1) i = (i + 1) & mask;
    let hole = i;
    for (let j = (hole + 1) & mask; (index[j] ?? 0) !== 0; j = (j + 1) & mask) {
      const other = (index[j] ?? 0) - 1;
      const home = hash1(this.word(other, SITE), this.word(other, USER_HIGH), this.word(other, USER_LOW)) & mask;
      // Move `other` into the hole unless its home lies cyclically in (hole, j].
      const between = hole <= j ? home > hole && home <= j : home > hole || home <= j;
      if (!between) {
        index[hole] = index[j] ?? 0;
        hole = j;
      }
    }
    index[hole] = 0;
  }

  private grow(): void {
    const old = this.index;
    this.index = new Int32Array(old.length * 2);
    for (const entry of old) {
      if (entry === 0) continue;
      const slot = entry - 1;
      this.insertIndex(slot, this.word(slot, SITE), this.word(slot, USER_HIGH), this.word(slot, USER_LOW));
    }
  }
}

/** A group's values as one string: JSON, so any character in a value round-trips; all empty is ''. */
function groupText(group: ReadonlyArray<keyof VisitAttributes>, attributes: VisitAttributes): string {
  if (group.length === 1) return attributes[group[0] as keyof VisitAttributes];
  let empty = true;
  for (const name of group) if (attributes[name] !== '') empty = false;
  return empty ? '' : JSON.stringify(group.map((name) => attributes[name]));
}
