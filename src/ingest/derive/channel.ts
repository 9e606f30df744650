import { SOURCE_TAG_ALIASES } from './data/sourceAdditions.js';
import { SOURCE_CATEGORIES, type SourceCategory } from './data/sourceCategories.js';
import { shippedReferrers } from './shippedReferrers.js';
import { canonicalSourceName } from './sources.js';

/**
 * Acquisition channel of a visit (Plausible's rule table, which follows GA4's default channel
 * grouping). The first rule that applies wins; the order matters (a paid social click is "Paid
 * Social", never "Organic Social"). All inputs are compared lower-cased.
 */
export function acquisitionChannel(input: { referrerSource: string; utmMedium: string; utmCampaign: string; utmSource: string; clickIdParam: string }): string {
  const source = input.referrerSource.toLowerCase();
  const medium = input.utmMedium.toLowerCase();
  const campaign = input.utmCampaign.toLowerCase();
  const utmSource = input.utmSource.toLowerCase();
  const clickId = input.clickIdParam.toLowerCase();

  const category = sourceCategory(source);
  const paidMedium = PAID_MEDIUM.test(medium);
  const paid = paidMedium || paidSources().has(utmSource);
  const shoppingCampaign = SHOPPING_CAMPAIGN.test(campaign);

  if (campaign.includes('cross-network')) return 'Cross-network';
  if (DISPLAY_MEDIUMS.has(medium)) return 'Display';
  if (paidMedium && (category === 'shopping' || shoppingCampaign)) return 'Paid Shopping';
  if ((category === 'search' && paid) || (source === 'google' && clickId === 'gclid') || (source === 'bing' && clickId === 'msclkid')) {
    return 'Paid Search';
  }
  if (category === 'social' && paid) return 'Paid Social';
  if (category === 'video' && paid) return 'Paid Video';
  if (paidMedium) return 'Paid Other';
  if (category === 'shopping' || shoppingCampaign) return 'Organic Shopping';
  if (category === 'social' || SOCIAL_MEDIUMS.has(medium)) return 'Organic Social';
  if (category === 'video' || medium.includes('video')) return 'Organic Video';
  if (category === 'ai_assistants') return 'AI Assistants';
  if (category === 'search') return 'Organic Search';
  if (category === 'email' || EMAIL_TAG.test(utmSource) || EMAIL_TAG.test(medium)) return 'Email';
  if (medium === 'affiliate') return 'Affiliates';
  if (medium === 'audio') return 'Audio';
  if (utmSource === 'sms' || medium === 'sms') return 'SMS';
  if (medium.endsWith('push') || medium.includes('mobile') || medium.includes('notification') || source === 'firebase') {
    return 'Mobile Push Notifications';
  }
  if (REFERRAL_MEDIUMS.has(medium) || source !== '') return 'Referral';
  return 'Direct';
}

/** The 19 channel names, in rule order. */
export const CHANNELS = [
  'Cross-network',
  'Display',
  'Paid Shopping',
  'Paid Search',
  'Paid Social',
  'Paid Video',
  'Paid Other',
  'Organic Shopping',
  'Organic Social',
  'Organic Video',
  'AI Assistants',
  'Organic Search',
  'Email',
  'Affiliates',
  'Audio',
  'SMS',
  'Mobile Push Notifications',
  'Referral',
  'Direct',
] as const;

const PAID_MEDIUM = /^(?:.*cp.*|ppc|retargeting|paid.*)$/;
const SHOPPING_CAMPAIGN = /(?:(?:[^a-df-z]|^)shop|shopping)/;
const EMAIL_TAG = /e[-_ ]?mail|newsletter/;
const DISPLAY_MEDIUMS = new Set(['display', 'banner', 'expandable', 'interstitial', 'cpm']);
const SOCIAL_MEDIUMS = new Set(['social', 'social-network', 'social-media', 'sm', 'social network', 'social media']);
const REFERRAL_MEDIUMS = new Set(['referral', 'app', 'link']);

let categories: Map<string, SourceCategory> | undefined;
let paidSourceTags: Set<string> | undefined;

/** Category of a lower-case source name: our table first, else what the shipped list says. */
export function sourceCategory(source: string): SourceCategory | undefined {
  categories ??= buildCategories();
  return categories.get(source);
}

const SHIPPED_MEDIUM_CATEGORY: Record<string, SourceCategory> = {
  search: 'search',
  social: 'social',
  email: 'email',
};
// A few shipped sources appear under several mediums (Yandex is search and email); the
// strongest signal of intent wins.
const CATEGORY_RANK: Record<SourceCategory, number> = {
  search: 3,
  social: 2,
  email: 1,
  video: 0,
  shopping: 0,
  ai_assistants: 0,
};

function buildCategories(): Map<string, SourceCategory> {
  const map = new Map<string, SourceCategory>();
  for (const entry of shippedReferrers()) {
    const category = SHIPPED_MEDIUM_CATEGORY[entry.medium];
    if (category === undefined) continue;
    const key = canonicalSourceName(entry.source).toLowerCase();
    const current = map.get(key);
    if (current === undefined || CATEGORY_RANK[category] > CATEGORY_RANK[current]) map.set(key, category);
  }
  for (const [key, category] of Object.entries(SOURCE_CATEGORIES)) map.set(key, category);
  return map;
}

/** `utm_source` tags that by themselves mark a paid click: ad-campaign aliases (`fb-ads`, `google_ad`) and `adwords`. */
function paidSources(): Set<string> {
  paidSourceTags ??= new Set([...Object.keys(SOURCE_TAG_ALIASES).filter((tag) => tag.endsWith('ads') || tag.endsWith('ad')), 'adwords']);
  return paidSourceTags;
}
