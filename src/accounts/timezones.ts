import names from '../contracts/timeZoneNames.json' with { type: 'json' };

/**
 * The time zones the service accepts, for sites and queries alike: those both the analytics
 * engine and this runtime know, spelled exactly as there (scripts/time-zones.mjs writes the list
 * from the engine's system.time_zones). The runtime alone is not enough: it also takes
 * "etc/utc" or "SystemV/AST4", which the engine cannot load.
 */
const TIME_ZONES: ReadonlySet<string> = new Set(names);
const BY_LOWER_CASE = new Map(names.map((name) => [name.toLowerCase(), name]));

export function isValidTimeZone(name: string): boolean {
  return TIME_ZONES.has(name);
}

/** The sentence for a name that is not accepted, with the right spelling when only the case is wrong. */
export function timeZoneProblem(name: string): string {
  const spelled = BY_LOWER_CASE.get(name.trim().toLowerCase());
  return spelled
    ? `"${name}" is not spelled as the IANA time zone database spells it: use "${spelled}".`
    : `"${name}" is not an IANA time zone such as Europe/Berlin or Etc/UTC.`;
}
