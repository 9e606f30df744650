import { isIP } from 'node:net';
import countries from 'i18n-iso-countries';
import { parseCidr } from '../config/config.js';
import { badRequest } from '../errors.js';
import type { ShieldKind } from '../stores/meta/shields.js';

/** Per site and kind; enough for real exclusion lists, small enough to check per event. */
export const MAX_RULES_PER_KIND = 30;

/**
 * Checks a shield rule and returns it in the one form it is stored in, so that equal rules are
 * equal strings (find-or-create) and ingestion never meets a malformed one.
 */
export function normaliseShieldRule(kind: ShieldKind, input: string): string {
  const value = input.trim();
  switch (kind) {
    case 'ip':
      return normaliseAddressRule(value);
    case 'country':
      return normaliseCountryRule(value);
    case 'page':
      return normalisePageRule(value);
    case 'hostname':
      return normaliseHostnameRule(value);
  }
}

function normaliseAddressRule(value: string): string {
  const cidr = parseCidr(value);
  if (!cidr) throw badRequest('invalid_shield_rule', `"${value}" is not an IPv4 or IPv6 address, optionally with a /prefix (such as 203.0.113.0/24).`);
  const address = cidr.address.toLowerCase();
  const whole = cidr.prefix === (isIP(address) === 4 ? 32 : 128);
  return whole ? address : `${address}/${cidr.prefix}`;
}

function normaliseCountryRule(value: string): string {
  const code = value.toUpperCase();
  if (!/^[A-Z]{2}$/.test(code) || !countries.isValid(code)) {
    throw badRequest('invalid_shield_rule', `"${value}" is not an ISO 3166-1 alpha-2 country code such as DE or US.`);
  }
  return code;
}

function normalisePageRule(value: string): string {
  if (!value.startsWith('/') || value.length > 2000 || /\s/.test(value)) {
    throw badRequest('invalid_shield_rule', `"${value}" is not a page pattern; give a path starting with / (wildcards * and ** allowed), without spaces.`);
  }
  return value;
}

function normaliseHostnameRule(value: string): string {
  const pattern = value.toLowerCase();
  if (pattern.length > 253 || !/^[a-z0-9*_.-]+$/.test(pattern) || !/[a-z0-9]/.test(pattern)) {
    throw badRequest('invalid_shield_rule', `"${value}" is not a hostname pattern; give a host name such as example.com or *.example.com.`);
  }
  return pattern;
}
