import CANONICAL from '@contracts/canonicalTimeZones.json';

/** One zone of the pickers: its name and how it reads, "(UTC+01:00) Berlin". */
export interface TimeZoneChoice {
  zone: string;
  label: string;
}

/**
 * The zone's offset from UTC at `at`, as "+01:00" (Intl's long offset reads "GMT+01:00", or
 * "GMT" for none). It follows summer time: Berlin reads +02:00 in July.
 */
export function utcOffset(zone: string, at: number): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value;
  const offset = part?.replace('GMT', '') ?? '';
  return offset === '' ? '+00:00' : offset;
}

/** Minutes east of UTC in an offset such as "-03:30". */
const minutesOf = (offset: string) => {
  const [hours = 0, minutes = 0] = offset.slice(1).split(':').map(Number);
  return (offset.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
};

/** A zone's place in words: "Europe/Berlin" reads "Berlin", "America/Argentina/Buenos_Aires" "Buenos Aires (Argentina)". */
export function placeOf(zone: string): string {
  if (zone === 'Etc/UTC') return 'UTC';
  const parts = zone
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('_', ' '));
  const city = parts.pop() ?? zone;
  return parts.length > 0 ? `${city} (${parts.join(', ')})` : city;
}

const labelOf = (offset: string, name: string) => `(UTC${offset}) ${name}`;

/** How a zone reads in the pickers at `at`, under its place's name or another (an old name is shown as spelled). */
export const choiceOf = (zone: string, at: number, name = placeOf(zone)): TimeZoneChoice => ({ zone, label: labelOf(utcOffset(zone, at), name) });

/**
 * The zones the pickers offer, by region ("Europe" › "(UTC+01:00) Berlin"), each region from
 * west to east and then by name: only the IANA database's own zones, none of its old names that
 * link to them (src/contracts/canonicalTimeZones.json). UTC comes first, alone.
 */
export function timeZoneGroups(at: number): { region: string; choices: TimeZoneChoice[] }[] {
  const regions = new Map<string, { choice: TimeZoneChoice; minutes: number }[]>();
  for (const zone of CANONICAL.zones) {
    const region = zone === 'Etc/UTC' ? 'UTC' : (zone.split('/')[0] ?? zone);
    const offset = utcOffset(zone, at);
    const list = regions.get(region) ?? [];
    list.push({ choice: { zone, label: labelOf(offset, placeOf(zone)) }, minutes: minutesOf(offset) });
    regions.set(region, list);
  }
  const ordered = [...regions.entries()].sort(([a], [b]) => (a === 'UTC' ? -1 : b === 'UTC' ? 1 : a.localeCompare(b)));
  return ordered.map(([region, list]) => ({
    region,
    choices: list.sort((a, b) => a.minutes - b.minutes || a.choice.label.localeCompare(b.choice.label)).map((entry) => entry.choice),
  }));
}

/** Whether the pickers offer the zone (an old name such as Asia/Calcutta is accepted but not offered). */
export const isOffered = (zone: string): boolean => CANONICAL.zones.includes(zone);

/** The zone to preselect for a browser's zone: itself, the zone an old name links to, or UTC. */
export function offeredZoneFor(browserZone: string): string {
  if (isOffered(browserZone)) return browserZone;
  const links: Record<string, string> = CANONICAL.links;
  return links[browserZone] ?? 'Etc/UTC';
}
