import { acquisitionChannel } from './channel.js';
import { type PageLocation, stripWww } from './pageUrl.js';
import { sourceForHost, sourceForTag } from './sources.js';

/** Where a visit came from. Empty strings mean "not known" (shown as Direct / None). */
export interface Attribution {
  /** Referring page as host + path, without scheme, query or fragment (`indiehackers.com/page`). */
  referrer: string;
  /** Canonical source name (`Google`, `X (Twitter)`), a tag as sent, or the referrer host. */
  referrerSource: string;
  /** Name of the first ad click id on the page URL (`gclid`), not its value. */
  clickIdParam: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  utmContent: string;
  utmTerm: string;
  /** One of the channel names of channel.ts; `Direct` when no rule applies. */
  channel: string;
}

/**
 * Attribution sent by a server alongside an event (e.g. an offline conversion). Each field that
 * is present replaces what would have been derived from the page URL and the browser referrer.
 */
export interface AttributionOverride {
  referrer?: string;
  utm_source?: string;
  utm_medium?: string;
  utm_campaign?: string;
}

const CLICK_ID_PARAMS = ['gclid', 'gbraid', 'wbraid', 'msclkid', 'fbclid', 'twclid'] as const;
const REFERRAL_SCHEMES = new Set(['http:', 'https:', 'android-app:']);

/**
 * Derives source, referrer, UTM tags, click id and channel. A tag on the page URL
 * (`utm_source`, else `source`, else `ref`) names the source even when a referrer is present;
 * otherwise the referrer's host does, unless it is internal (same host as the page, ignoring
 * `www.`), `localhost`, or not a web/Android-app URL. Never throws.
 */
export function deriveAttribution(input: { page: PageLocation | null; referrer: string | null; override?: AttributionOverride }): Attribution {
  const query = input.page?.query ?? new URLSearchParams();
  const override = input.override ?? {};
  const param = (name: string) => present(query.get(name));

  const utmSource = present(override.utm_source) ?? param('utm_source') ?? param('source') ?? param('ref') ?? '';
  const overrideReferrer = present(override.referrer);
  const referral =
    overrideReferrer !== undefined ? parseReferral(withScheme(overrideReferrer), input.page?.hostname) : parseReferral(input.referrer, input.page?.hostname);
  const referrerSource = utmSource !== '' ? sourceForTag(utmSource) : (referral?.source ?? '');
  const clickIdParam = CLICK_ID_PARAMS.find((name) => query.has(name)) ?? '';
  const utmMedium = present(override.utm_medium) ?? param('utm_medium') ?? inferredMedium(referrerSource, clickIdParam);
  const utmCampaign = present(override.utm_campaign) ?? param('utm_campaign') ?? '';

  return {
    referrer: referral?.referrer ?? '',
    referrerSource,
    clickIdParam,
    utmSource,
    utmMedium,
    utmCampaign,
    utmContent: param('utm_content') ?? '',
    utmTerm: param('utm_term') ?? '',
    channel: acquisitionChannel({ referrerSource, utmMedium, utmCampaign, utmSource, clickIdParam }),
  };
}

/** An ad click id without a `utm_medium` still tells us the click was paid. */
function inferredMedium(source: string, clickIdParam: string): string {
  if (source === 'Google' && clickIdParam === 'gclid') return '(gclid)';
  if (source === 'Bing' && clickIdParam === 'msclkid') return '(msclkid)';
  return '';
}

/**
 * Whitespace-only values count as absent, as an empty `?utm_source=` does. Override fields come
 * from a JSON body, so a non-string that slipped past validation is treated as absent too.
 */
function present(value: unknown): string | undefined {
  const trimmed = typeof value === 'string' ? value.trim() : '';
  return trimmed === '' ? undefined : trimmed;
}

/** Servers often send a bare host (`news.example.com`) as the referrer. */
function withScheme(referrer: string): string {
  return /^[a-z][a-z0-9+.-]*:/i.test(referrer) ? referrer : `https://${referrer}`;
}

function parseReferral(referrer: string | null, pageHostname: string | undefined): { referrer: string; source: string } | undefined {
  if (typeof referrer !== 'string' || referrer === '') return undefined;
  let url: URL;
  try {
    url = new URL(referrer.trim());
  } catch {
    return undefined;
  }
  if (!REFERRAL_SCHEMES.has(url.protocol)) return undefined;
  const host = stripWww(url.hostname.toLowerCase());
  if (host === '' || host === 'localhost' || host === pageHostname) return undefined;

  const shownHost = url.protocol === 'android-app:' ? `android-app://${host}` : host;
  return {
    referrer: shownHost + url.pathname.replace(/\/+$/, ''),
    source: sourceForHost(host, url.pathname) ?? shownHost,
  };
}
