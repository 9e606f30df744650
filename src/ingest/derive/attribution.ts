import type { PageLocation } from './pageUrl.js';
export interface Attribution { referrer: string; referrerSource: string; clickIdParam: string; utmSource: string; utmMedium: string; utmCampaign: string; utmContent: string; utmTerm: string; channel: string }
export interface AttributionOverride { referrer?: string; utm_source?: string; utm_medium?: string; utm_campaign?: string }
export function deriveAttribution(input: { page: PageLocation | null; referrer: string | null; override?: AttributionOverride }): Attribution {
  const q = input.page?.query;
  let host = '';
  try { host = input.referrer ? new URL(input.override?.referrer ?? input.referrer).hostname.replace(/^www\./, '') : ''; } catch { /* none */ }
  if (host === input.page?.hostname) host = '';
  const utmSource = input.override?.utm_source ?? q?.get('utm_source') ?? '';
  const source = utmSource || host;
  return { referrer: host, referrerSource: source, clickIdParam: '', utmSource, utmMedium: input.override?.utm_medium ?? q?.get('utm_medium') ?? '', utmCampaign: input.override?.utm_campaign ?? q?.get('utm_campaign') ?? '', utmContent: q?.get('utm_content') ?? '', utmTerm: q?.get('utm_term') ?? '', channel: source ? 'Referral' : 'Direct' };
}
