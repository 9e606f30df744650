import TIME_ZONES from '@contracts/timeZoneNames.json';
import { describe, expect, it } from 'vitest';
import { choiceOf, isOffered, offeredZoneFor, placeOf, timeZoneGroups, utcOffset } from './timeZoneChoices';

const winter = Date.parse('2024-01-15T12:00:00Z');
const summer = Date.parse('2024-07-15T12:00:00Z');

describe('the time-zone pickers', () => {
  it('groups zones by region with their offsets, west to east', () => {
    const groups = timeZoneGroups(winter);
    expect(groups[0]).toEqual({ region: 'UTC', choices: [{ zone: 'Etc/UTC', label: '(UTC+00:00) UTC' }] });
    expect(groups.map((g) => g.region).slice(1)).toEqual(['Africa', 'America', 'Antarctica', 'Asia', 'Atlantic', 'Australia', 'Europe', 'Indian', 'Pacific']);
    const europe = groups.find((g) => g.region === 'Europe')?.choices ?? [];
    expect(europe).toContainEqual({ zone: 'Europe/Berlin', label: '(UTC+01:00) Berlin' });
    const offsets = europe.map((c) => c.label.slice(4, 10));
    expect(offsets[0]).toBe('+00:00');
    expect(offsets.at(-1)).toBe('+04:00');
    const america = groups.find((g) => g.region === 'America')?.choices ?? [];
    expect(america).toContainEqual({ zone: 'America/Argentina/Buenos_Aires', label: '(UTC-03:00) Buenos Aires (Argentina)' });
    expect(america).toContainEqual({ zone: 'America/St_Johns', label: '(UTC-03:30) St Johns' });
  });

  it('follows summer time and half hours', () => {
    expect(utcOffset('Europe/Berlin', summer)).toBe('+02:00');
    expect(utcOffset('Asia/Kolkata', winter)).toBe('+05:30');
    expect(utcOffset('America/New_York', winter)).toBe('-05:00');
    expect(choiceOf('Asia/Calcutta', winter, 'Asia/Calcutta').label).toBe('(UTC+05:30) Asia/Calcutta');
    expect(placeOf('America/Indiana/Indianapolis')).toBe('Indianapolis (Indiana)');
  });

  it('offers only the IANA zones, none of the old names linking to them, all accepted by the service', () => {
    const offered = timeZoneGroups(winter).flatMap((g) => g.choices.map((c) => c.zone));
    for (const old of ['Asia/Asmera', 'Asia/Calcutta', 'GB-Eire', 'W-SU', 'UTC', 'US/Eastern', 'Europe/Kiev', 'CET']) {
      expect(offered).not.toContain(old);
      expect(isOffered(old)).toBe(false);
    }
    expect(offered).toContain('Europe/Kyiv');
    expect(offered.every((zone) => TIME_ZONES.includes(zone))).toBe(true);
  });

  it('preselects the browser’s zone, under its IANA name when the browser reports an old one', () => {
    expect(offeredZoneFor('Europe/Berlin')).toBe('Europe/Berlin');
    expect(offeredZoneFor('Asia/Calcutta')).toBe('Asia/Kolkata');
    expect(offeredZoneFor('UTC')).toBe('Etc/UTC');
    expect(offeredZoneFor('Mars/Olympus')).toBe('Etc/UTC');
  });
});
