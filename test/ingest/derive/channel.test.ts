import { describe, expect, it } from 'vitest';
import { acquisitionChannel, CHANNELS, sourceCategory } from '../../../src/ingest/derive/channel.js';

type Input = Parameters<typeof acquisitionChannel>[0];
const visit = (fields: Partial<Input>): Input => ({
  referrerSource: '',
  utmMedium: '',
  utmCampaign: '',
  utmSource: '',
  clickIdParam: '',
  ...fields,
});

// One or more cases per rule of the table, in rule order; each names the rule it exercises.
const cases: Array<[rule: string, fields: Partial<Input>, channel: string]> = [
  ['1 campaign contains cross-network', { utmCampaign: 'Summer-Cross-Network-2024', referrerSource: 'Google', utmMedium: 'cpc' }, 'Cross-network'],
  ['2 display medium', { utmMedium: 'display', referrerSource: 'Facebook' }, 'Display'],
  ['2 cpm is display, not paid other', { utmMedium: 'CPM' }, 'Display'],
  ['2 banner', { utmMedium: 'banner' }, 'Display'],
  ['3 paid medium + shopping source', { referrerSource: 'Amazon', utmMedium: 'cpc' }, 'Paid Shopping'],
  ['3 paid medium + shopping campaign', { referrerSource: 'Google', utmMedium: 'ppc', utmCampaign: 'black-friday-shop' }, 'Paid Shopping'],
  ['4 search source + paid medium', { referrerSource: 'Google', utmMedium: 'cpc' }, 'Paid Search'],
  ['4 search source + paid utm_source', { referrerSource: 'Google', utmSource: 'google_ads' }, 'Paid Search'],
  ['4 google + gclid', { referrerSource: 'Google', clickIdParam: 'gclid' }, 'Paid Search'],
  ['4 bing + msclkid', { referrerSource: 'Bing', clickIdParam: 'msclkid' }, 'Paid Search'],
  ['5 social source + paid medium', { referrerSource: 'Facebook', utmMedium: 'paid_social' }, 'Paid Social'],
  ['5 social source + paid utm_source', { referrerSource: 'Facebook', utmSource: 'fb-ads' }, 'Paid Social'],
  ['6 video source + paid medium', { referrerSource: 'Youtube', utmMedium: 'cpv' }, 'Paid Video'],
  ['6 video source + paid utm_source', { referrerSource: 'Youtube', utmSource: 'yt-ads' }, 'Paid Video'],
  ['7 paid medium, unknown source', { referrerSource: 'partner.example', utmMedium: 'retargeting' }, 'Paid Other'],
  ['7 paid medium alone', { utmMedium: 'paid' }, 'Paid Other'],
  ['8 shopping source', { referrerSource: 'eBay' }, 'Organic Shopping'],
  ['8 shopping campaign', { utmCampaign: 'shopping-week' }, 'Organic Shopping'],
  ['8 "e-shop" campaign counts (letters before "shop" other than a-d/f-z)', { utmCampaign: 'e-shop' }, 'Organic Shopping'],
  ['8 "bookshop" campaign does not', { utmCampaign: 'bookshop', referrerSource: 'x.example' }, 'Referral'],
  ['9 social source', { referrerSource: 'Reddit' }, 'Organic Social'],
  ['9 social medium', { utmMedium: 'social-media' }, 'Organic Social'],
  ['9 sm medium', { utmMedium: 'sm', referrerSource: 'newsletter-tool' }, 'Organic Social'],
  ['10 video source', { referrerSource: 'Vimeo' }, 'Organic Video'],
  ['10 medium contains video', { utmMedium: 'video-ad-free' }, 'Organic Video'],
  ['11 AI assistant', { referrerSource: 'ChatGPT' }, 'AI Assistants'],
  ['11 AI assistant (Perplexity)', { referrerSource: 'Perplexity' }, 'AI Assistants'],
  ['12 search source', { referrerSource: 'DuckDuckGo' }, 'Organic Search'],
  ['12 google without click id', { referrerSource: 'Google' }, 'Organic Search'],
  ['13 email source', { referrerSource: 'Gmail' }, 'Email'],
  ['13 utm_source has email tag', { referrerSource: 'e-mail', utmSource: 'e-mail' }, 'Email'],
  ['13 medium newsletter', { utmMedium: 'Newsletter' }, 'Email'],
  ['14 affiliate', { utmMedium: 'affiliate' }, 'Affiliates'],
  ['15 audio', { utmMedium: 'audio' }, 'Audio'],
  ['16 utm_source sms', { utmSource: 'sms', referrerSource: 'sms' }, 'SMS'],
  ['16 medium sms', { utmMedium: 'SMS' }, 'SMS'],
  ['17 medium ends with push', { utmMedium: 'web-push' }, 'Mobile Push Notifications'],
  ['17 medium contains mobile', { utmMedium: 'mobile-app' }, 'Mobile Push Notifications'],
  ['17 medium contains notification', { utmMedium: 'notifications' }, 'Mobile Push Notifications'],
  ['17 source firebase', { referrerSource: 'firebase' }, 'Mobile Push Notifications'],
  ['18 referral medium', { utmMedium: 'link' }, 'Referral'],
  ['18 any source', { referrerSource: 'indiehackers.com' }, 'Referral'],
  ['19 nothing', {}, 'Direct'],
  ['19 unknown medium, no source', { utmMedium: 'offline' }, 'Direct'],
];

describe('acquisitionChannel', () => {
  it.each(cases)('rule %s', (_rule, fields, channel) => {
    expect(acquisitionChannel(visit(fields))).toBe(channel);
  });

  it('exercises every channel of the table', () => {
    expect(new Set(cases.map(([, , channel]) => channel))).toEqual(new Set(CHANNELS));
  });

  it('compares case-insensitively', () => {
    expect(acquisitionChannel(visit({ referrerSource: 'GOOGLE', clickIdParam: 'GCLID' }))).toBe('Paid Search');
  });
});

describe('sourceCategory', () => {
  it.each([
    ['google', 'search'],
    ['bing', 'search'],
    ['yandex', 'search'],
    ['facebook', 'social'],
    ['x (twitter)', 'social'],
    ['hacker news', 'social'],
    ['github', 'social'],
    ['youtube', 'video'],
    ['tiktok', 'video'],
    ['amazon', 'shopping'],
    ['temu.com', 'shopping'],
    ['gmail', 'email'],
    ['claude', 'ai_assistants'],
    ['microsoft copilot', 'ai_assistants'],
    ['criteo', undefined],
    ['example.com', undefined],
  ])('%s → %s', (source, category) => {
    expect(sourceCategory(source)).toBe(category);
  });
});
