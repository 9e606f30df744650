import { englishRegionName } from '@contracts/regionNames';
import { iso31661Alpha2ToAlpha3 } from 'iso-3166/1-a2-to-1-a3.js';
import { useSyncExternalStore } from 'react';

/**
 * Countries and regions as people read them. The engine keeps ISO codes (visit:country "DE",
 * visit:region "DE-NI"; cities are already English names, src/ingest/derive/geo.ts): the
 * dashboard shows their names, and a name typed into a filter is turned back into its code.
 */

const localNames = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(undefined, { type: 'region' }) : null;
const englishNames = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames('en', { type: 'region' }) : null;
const COUNTRY_CODES = Object.keys(iso31661Alpha2ToAlpha3);

const nameIn = (names: Intl.DisplayNames | null, code: string) => {
  try {
    return names?.of(code) ?? code;
  } catch {
    return code;
  }
};

/** A visit:country value (ISO 3166-1 alpha-2) as people read it: its name in their language (Flag.tsx draws its flag). */
export function countryName(code: string): string {
  if (!/^[A-Z]{2}$/.test(code)) return code || '(unknown)';
  return nameIn(localNames, code);
}

/** Folds case, accents and punctuation, so "côte d'ivoire" finds "Côte d’Ivoire". */
export const foldName = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .toLowerCase();

let countryIndex: Map<string, string> | undefined;

/** The country code a typed text stands for: a code (DE, DEU), or a name in the viewer's language or English. */
export function countryCodeOf(typed: string): string | null {
  const folded = foldName(typed);
  if (!folded) return null;
  if (!countryIndex) {
    countryIndex = new Map();
    for (const code of COUNTRY_CODES) {
      for (const key of [code, iso31661Alpha2ToAlpha3[code] ?? '', nameIn(englishNames, code), nameIn(localNames, code)]) countryIndex.set(foldName(key), code);
    }
  }
  return countryIndex.get(folded) ?? null;
}

/** Whether a country's code or name (local or English) contains the typed text. */
export function countryMatches(code: string, typed: string): boolean {
  const folded = foldName(typed);
  return [code, nameIn(localNames, code), nameIn(englishNames, code)].some((name) => foldName(name).includes(folded));
}

// Counts each arrival of names (regions, flags, segments), so components showing them read them again.
const listeners = new Set<() => void>();
let namesVersion = 0;
const namesChanged = () => {
  namesVersion += 1;
  for (const listener of listeners) listener();
};

/** A part loaded in its own chunk the first time it is asked for; its arrival re-renders what shows places. */
function loadedOnce<T>(load: () => Promise<T>): { value(): T | null; start(): Promise<void> } {
  let value: T | null = null;
  let loading: Promise<void> | null = null;
  return {
    value: () => value,
    start: () =>
      (loading ??= load().then((loaded) => {
        value = loaded;
        namesChanged();
      })),
  };
}

// The ISO 3166-2 list is 350 KB: it loads in its own chunk once the dashboard shows places.
// Each region by its English name and by the ISO list's own, so either, typed, finds it ("Tokyo", "Tôkyô").
const regions = loadedOnce(() =>
  import('iso-3166/2.js').then(({ iso31662 }) => new Map(iso31662.map(({ code, name }) => [code, { english: englishRegionName(code, name), iso: name }]))),
);
// The flags' file names load with the first flag shown (flagFiles.ts).
const flags = loadedOnce(() => import('./flagFiles').then(({ FLAG_FILES }) => FLAG_FILES));

/** Starts loading the region names (once); resolves when they are in. */
export const loadRegionNames = (): Promise<void> => regions.start();

/** Where a country's flag is served, once the flags' names have loaded (components call useFlagFiles). */
export const flagFile = (code: string): string | undefined => flags.value()?.get(code);

/**
 * A visit:region value (ISO 3166-2, "JP-13") as people read it, by its English name: "Tokyo,
 * Japan"; its code until the names have loaded (components that show regions call useRegionNames).
 */
export function regionName(code: string): string {
  if (!code) return '(unknown)';
  const name = regions.value()?.get(code)?.english;
  return name ? `${name}, ${nameIn(localNames, code.slice(0, 2))}` : code;
}

/** The region code a typed text stands for (its code, or its English or ISO name), once the names have loaded. */
export function regionCodeOf(typed: string): string | null {
  const folded = foldName(typed);
  const names = regions.value();
  if (!folded || !names) return null;
  for (const [code, { english, iso }] of names) if ([code, english, iso].some((name) => foldName(name) === folded)) return code;
  return null;
}

/** Whether a region's code or name (English, with its country, or the ISO list's) contains the typed text. */
export const regionMatches = (code: string, typed: string) =>
  foldName(`${code} ${regionName(code)} ${regions.value()?.get(code)?.iso ?? ''}`).includes(foldName(typed));

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/**
 * Re-renders the component once region names have loaded (starting their load when `needed`)
 * and whenever the segments' names are read again.
 */
export function useRegionNames(needed: boolean): number {
  if (needed) void loadRegionNames();
  return useSyncExternalStore(subscribe, () => namesVersion);
}

/** Re-renders the component once the flags' file names have loaded, starting their load. */
export function useFlagFiles(): number {
  void flags.start();
  return useSyncExternalStore(subscribe, () => namesVersion);
}

/** The names of the site's saved segments by id, as the segments menu last read them (segments/useSegments.ts). */
const segmentNames = new Map<string, string>();

export function setSegmentNames(segments: readonly { id: number; name: string }[]): void {
  segmentNames.clear();
  for (const segment of segments) segmentNames.set(String(segment.id), segment.name);
  namesChanged();
}

/** How a filter's or a row's value reads: places and segments by name, anything else as it is. */
export function valueLabel(dimension: string, value: string): string {
  if (dimension === 'segment') return segmentNames.get(value) ?? `#${value}`;
  if (dimension === 'visit:country') return countryName(value);
  if (dimension === 'visit:region') return regionName(value);
  return value;
}
