import type { ParsedUserAgent } from '../userAgent.js';
import type { ListSource } from './listFiles.js';
import { parseList } from './listFiles.js';

/** A floor that no version reaches: every version of the browser is outdated. */
const EVERY_VERSION = Number.POSITIVE_INFINITY;

/**
 * Browser name → lowest major version not outdated. Lines read `<browser name> <major | *>`;
 * a later line for the same browser (an operator's file) replaces the built-in floor.
 */
export function parseBrowserFloors(sources: ListSource[]): Map<string, number> {
  const floors = new Map<string, number>();
  for (const source of sources) {
    const entries = parseList(source, 'a browser name and a major version or *, such as "Chrome 80"', (entry) => {
      const match = /^(.+?)\s+(\d{1,5}|\*)$/.exec(entry);
      if (match === null) return undefined;
      return { browser: match[1] ?? '', floor: match[2] === '*' ? EVERY_VERSION : Number(match[2]) };
    });
    for (const { browser, floor } of entries) floors.set(browser, floor);
  }
  return floors;
}

/** Whether the browser's major version is below its floor; unknown browsers and versions never are. */
export function isBelowFloor(floors: ReadonlyMap<string, number>, ua: ParsedUserAgent): boolean {
  const floor = floors.get(ua.browser);
  if (floor === undefined) return false;
  if (floor === EVERY_VERSION) return true;
  const major = Number.parseInt(ua.browserVersion, 10);
  return Number.isFinite(major) && major < floor;
}
