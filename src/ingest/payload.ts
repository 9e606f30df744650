import type { AttributionOverride } from './derive/attribution.js';

/** Documented limits; longer values are cut to these and counted in the truncation tally. */
export const LIMITS = {
  nameChars: 120,
  urlChars: 2000,
  referrerChars: 2000,
  titleChars: 2000,
  props: 30,
  propKeyChars: 300,
  propValueChars: 2000,
  attributionChars: 2000,
  trackerVersionChars: 32,
  domainsPerRequest: 10,
  /** Engaged-time deltas at or beyond 30 days are a tracker bug (epoch milliseconds), not time. */
  engagementMs: 30 * 24 * 3600 * 1000,
} as const;

/** Event names whose `i: false` is ignored: the tracker sends them and they are always interactive. */
const SYSTEM_EVENTS = new Set([
  'pageview',
  'engagement',
  'Outbound Link: Click',
  'Cloaked Link: Click',
  'File Download',
  '404',
  'WP Form Completions',
  'Form: Submission',
]);

/** Events whose reports break down by page: the page goes in a `path` prop unless one was sent. */
const PATH_PROP_EVENTS = new Set(['404', 'WP Form Completions', 'Form: Submission']);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface EventPayload {
  name: string;
  domains: string[];
  url: string | null;
  referrer: string | null;
  title: string;
  rawProps: unknown;
  rawRevenue: unknown;
  scrollDepth: number;
  engagementTime: number;
  idempotencyKey: string | null;
  interactive: boolean;
  width: number | undefined;
  trackerVersion: string;
  hashMode: boolean;
  override: AttributionOverride;
  /** Field → number of values cut to their limit. */
  truncated: Record<string, number>;
}

export type ParsedPayload = { ok: true; payload: EventPayload } | { ok: false; message: string };

function text(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

function integer(value: unknown): number | null {
  const number = typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? Math.trunc(number) : null;
}

function cut(value: string, limit: number, field: string, truncated: Record<string, number>): string {
  if (value.length <= limit) return value;
  truncated[field] = (truncated[field] ?? 0) + 1;
  return value.slice(0, limit);
}

/** The first `limit` items; how many were left out is tallied under `field`. */
function keepFirst<T>(items: T[], limit: number, field: string, truncated: Record<string, number>): T[] {
  if (items.length <= limit) return items;
  truncated[field] = items.length - limit;
  return items.slice(0, limit);
}

/**
 * Reads an ingestion body into a payload. Only what the spec reserves for 400 fails here
 * (not an object, missing `n` or `d`, a malformed `k`); everything else is decided later.
 */
export function parsePayload(body: unknown): ParsedPayload {
  if (!isJsonObject(body)) return { ok: false, message: 'The request body must be a JSON object describing one event.' };
  const raw = body;
  const truncated: Record<string, number> = {};
  const name = text(raw.n ?? raw.name)?.trim();
  if (!name) return { ok: false, message: 'The event has no name: field "n" is required (for example "pageview").' };
  const domainText = text(raw.d ?? raw.domain);
  const domains = (domainText ?? '')
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean);
  if (domains.length === 0) return { ok: false, message: 'The event names no site: field "d" is required (the domain registered for the site).' };
  const key = raw.k;
  if (key !== undefined && key !== null && (typeof key !== 'string' || !UUID.test(key))) {
    return { ok: false, message: 'Field "k" (the idempotency key) must be a UUID such as 3f1c9a52-7b0e-4c55-9f63-2d8e41a0b7c4.' };
  }

  const isEngagement = name === 'engagement';
  const sd = isEngagement ? integer(raw.sd) : null;
  const e = isEngagement ? integer(raw.e) : null;
  const url = text(raw.u ?? raw.url);
  const referrer = text(raw.r);
  const width = integer(raw.w);
  const override: AttributionOverride = {};
  for (const field of ['referrer', 'utm_source', 'utm_medium', 'utm_campaign'] as const) {
    const value = text(raw[field]);
    if (value !== null && value.trim() !== '') override[field] = cut(value.trim(), LIMITS.attributionChars, field, truncated);
  }
  const interactive = SYSTEM_EVENTS.has(name) || (raw.i ?? raw.interactive) !== false;

  return {
    ok: true,
    payload: {
      name: cut(name, LIMITS.nameChars, 'n', truncated),
      domains: keepFirst(domains, LIMITS.domainsPerRequest, 'd', truncated),
      url: url === null ? null : cut(url, LIMITS.urlChars, 'u', truncated),
      referrer: referrer === null || referrer === '' ? null : cut(referrer, LIMITS.referrerChars, 'r', truncated),
      title: cut(text(raw.t) ?? '', LIMITS.titleChars, 't', truncated),
      rawProps: raw.p ?? raw.props ?? raw.m ?? raw.meta,
      rawRevenue: raw.$ ?? raw.revenue,
      scrollDepth: sd === null || sd < 0 ? 255 : Math.min(sd, 100),
      engagementTime: e === null || e < 0 || e >= LIMITS.engagementMs ? 0 : e,
      idempotencyKey: typeof key === 'string' ? key.toLowerCase() : null,
      interactive,
      width: width !== null && width > 0 && width < 100_000 ? width : undefined,
      trackerVersion: cut(text(raw.v) ?? '', LIMITS.trackerVersionChars, 'v', truncated),
      hashMode: raw.h === 1 || raw.h === true || raw.h === '1' || raw.hashMode === 1 || raw.hashMode === true,
      override,
      truncated,
    },
  };
}

export interface Revenue {
  amount: string;
  currency: string;
}

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

function decode(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return Symbol.for('unreadable');
  }
}

/** A parsed JSON value whose fields can be read by name: an object, not an array or null. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEmptyObject(value: unknown): boolean {
  return isJsonObject(value) && Object.keys(value).length === 0;
}

export type CheckedExtras = { ok: true; props: Record<string, string>; revenue: Revenue | null } | { ok: false; reason: string };

/** Props with the page path added for the events whose reports need it (as the reference does). */
export function withPathProp(name: string, props: Record<string, string>, pathname: string): Record<string, string> {
  if (!PATH_PROP_EVENTS.has(name) || 'path' in props || pathname === '') return props;
  return { path: pathname, ...props };
}

/**
 * Props must be a flat object of string, number or boolean values (a `null` value is skipped),
 * revenue `{amount, currency}` with a positive decimal amount and an ISO 4217 code (`{}` means
 * none); anything else makes the event `invalid_payload`. Engagement needs at least one measurement.
 */
export function checkExtras(payload: EventPayload): CheckedExtras {
  // No prototype: a prop named "__proto__" is a prop like any other, not a prototype to set.
  const props: Record<string, string> = Object.create(null);
  const rawProps = decode(payload.rawProps);
  if (rawProps !== undefined && rawProps !== null) {
    if (!isJsonObject(rawProps)) return { ok: false, reason: 'props must be a flat JSON object' };
    let kept = 0;
    for (const [rawKey, value] of Object.entries(rawProps)) {
      // The tracker passes props through from page code, where an unset value is often `null`:
      // like a blank value it carries nothing to report on, so only that pair goes (as in the reference).
      if (value === null) continue;
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
        return { ok: false, reason: `prop "${rawKey.slice(0, 50)}" must be a string, number or boolean` };
      }
      const key = rawKey.trim();
      const valueText = String(value).trim();
      // Blank keys or values carry nothing to report on; the reference drops them too.
      if (key === '' || valueText === '') continue;
      if (kept === LIMITS.props) {
        payload.truncated.p = (payload.truncated.p ?? 0) + 1;
        continue;
      }
      kept += 1;
      props[cut(key, LIMITS.propKeyChars, 'p.key', payload.truncated)] = cut(valueText, LIMITS.propValueChars, 'p.value', payload.truncated);
    }
  }

  let revenue: Revenue | null = null;
  const rawRevenue = decode(payload.rawRevenue);
  // `{}` is no revenue: the tracker builds with revenue send it with every tagged event whose
  // element has no revenue classes, and those events must still count.
  if (rawRevenue !== undefined && rawRevenue !== null && !isEmptyObject(rawRevenue)) {
    if (!isJsonObject(rawRevenue)) return { ok: false, reason: 'revenue must be an object {amount, currency}' };
    const candidate = rawRevenue;
    const amount = typeof candidate.amount === 'number' ? String(candidate.amount) : candidate.amount;
    if (typeof amount !== 'string' || !/^\d{1,15}(\.\d+)?$/.test(amount.trim()) || Number(amount) <= 0) {
      return { ok: false, reason: 'revenue amount must be a positive decimal number' };
    }
    const currency = typeof candidate.currency === 'string' ? candidate.currency.trim().toUpperCase() : '';
    if (!CURRENCIES.has(currency)) return { ok: false, reason: 'revenue currency must be an ISO 4217 code such as EUR' };
    // Decimal(18, 3) keeps three places; rounding here keeps the stored value exact.
    revenue = { amount: (Math.round(Number(amount) * 1000) / 1000).toFixed(3), currency };
  }

  if (payload.name === 'engagement' && payload.scrollDepth === 255 && payload.engagementTime === 0) {
    return { ok: false, reason: "an engagement event needs 'sd' or 'e'" };
  }
  return { ok: true, props, revenue };
}
