import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, looksLikeApiKey, parseScopes, SCOPES } from '../../src/accounts/apiKeyTokens.js';
import { normaliseDomain, siteAddressProblem } from '../../src/accounts/domains.js';
import { hashPassword, verifyPassword } from '../../src/accounts/passwords.js';
import { isValidTimeZone } from '../../src/accounts/timezones.js';

describe('API key tokens', () => {
  it('are svc_ plus 43 URL-safe characters, all different', () => {
    const keys = new Set(Array.from({ length: 200 }, generateApiKey));
    expect(keys.size).toBe(200);
    for (const key of keys) {
      expect(key).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
      expect(looksLikeApiKey(key)).toBe(true);
    }
  });

  it('are stored as a SHA-256 hex digest only', () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).toBe(hashApiKey(key));
    expect(hashApiKey(key)).not.toContain(key.slice(4, 14));
  });

  it('carry all four scopes when none are given, and refuse unknown ones', () => {
    expect(parseScopes([])).toEqual([...SCOPES]);
    expect(parseScopes(['stats:read', 'stats:read'])).toEqual(['stats:read']);
    expect(parseScopes(['stats:write'])).toEqual({ invalid: 'stats:write' });
  });
});

describe('site domains', () => {
  it.each([
    ['Example.COM', 'example.com'],
    ['https://www.example.com/blog?x=1', 'example.com'],
    ['http://shop.example.co.uk:8080', 'shop.example.co.uk'],
    ['www.example.org.', 'example.org'],
    ['  sub.www.example.com ', 'sub.www.example.com'],
  ])('normalises %s to %s', (input, expected) => {
    expect(normaliseDomain(input)).toBe(expected);
  });

  it.each(['', 'exa mple.com', '-bad.com', 'a..b', 'https://', `${'x'.repeat(64)}.com`])('rejects %j', (input) => {
    expect(normaliseDomain(input)).toBeNull();
  });

  it('refuses a site address with a path or query, and takes a scheme, www. or a trailing slash as spelling', () => {
    expect(siteAddressProblem('https://www.example.com/shop')).toBe(
      '"https://www.example.com/shop" has a path or query (/shop): a site is a whole domain, so give example.com alone. Pages of one part of a site can be told apart with a page filter on the dashboard.',
    );
    expect(siteAddressProblem('example.com?x=1')).toContain('(?x=1)');
    for (const fine of ['example.com', 'https://www.Example.com/', 'http://shop.example.co.uk:8080']) expect(siteAddressProblem(fine)).toBeNull();
  });
});

describe('time zones', () => {
  it.each(['UTC', 'Etc/UTC', 'Europe/Berlin', 'America/Argentina/Buenos_Aires', 'Asia/Kolkata', 'Etc/GMT+5', 'Pacific/Chatham'])('accepts %s', (zone) => {
    expect(isValidTimeZone(zone)).toBe(true);
  });
  // The runtime also takes other casings and zones the engine cannot load: refused here.
  it.each(['', 'Mars/Olympus', 'Europe/Berlin ', 'GMT+25', '../etc/passwd', 'etc/utc', 'europe/berlin', 'SystemV/AST4', 'Factory'])('rejects %j', (zone) => {
    expect(isValidTimeZone(zone)).toBe(false);
  });
  it('accepts every zone the runtime lists that the engine knows too', () => {
    const accepted = Intl.supportedValuesOf('timeZone').filter(isValidTimeZone);
    // The runtime's list may run ahead of the engine's by a zone or two, never more.
    expect(Intl.supportedValuesOf('timeZone').length - accepted.length).toBeLessThanOrEqual(3);
  });
});

describe('passwords', () => {
  it('verify only the right password', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored.startsWith('scrypt$')).toBe(true);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterz', stored)).toBe(false);
    expect(await verifyPassword('x', 'garbage')).toBe(false);
  });
});
