/**
 * What kind of site a source is, for the acquisition channel. The shipped referrer list already
 * says search / social / email for most sources; this table adds the kinds it lacks (video,
 * shopping, AI assistants) and corrects sources it files elsewhere (it calls Youtube "social" and
 * Amazon "search"). Keys are lower-case source names as resolved by sources.ts, or bare hosts for
 * sites we do not name. Hand-written for this project.
 */
export type SourceCategory = 'search' | 'social' | 'video' | 'shopping' | 'email' | 'ai_assistants';

export const SOURCE_CATEGORIES: Readonly<Record<string, SourceCategory>> = {
  // AI assistants
  chatgpt: 'ai_assistants',
  claude: 'ai_assistants',
  perplexity: 'ai_assistants',
  'google gemini': 'ai_assistants',
  'microsoft copilot': 'ai_assistants',
  deepseek: 'ai_assistants',
  grok: 'ai_assistants',
  phind: 'ai_assistants',

  // Search engines the shipped list lacks or files elsewhere
  'yahoo!': 'search',
  ecosia: 'search',
  kagi: 'search',
  brave: 'search',
  sogou: 'search',
  startpage: 'search',
  presearch: 'search',
  baidu: 'search',
  naver: 'search',
  yandex: 'search',

  // Social networks and communities
  'x (twitter)': 'social',
  'hacker news': 'social',
  telegram: 'social',
  slack: 'social',
  'product hunt': 'social',
  producthunt: 'social',
  github: 'social',
  'steamcommunity.com': 'social',
  'microsoft teams': 'social',
  'statics.teams.cdn.office.net': 'social',
  vkontakte: 'social',
  threads: 'social',
  discord: 'social',
  bluesky: 'social',
  mastodon: 'social',
  lobsters: 'social',
  'indie hackers': 'social',
  'dev community': 'social',
  medium: 'social',
  snapchat: 'social',

  // Video
  youtube: 'video',
  vimeo: 'video',
  tiktok: 'video',
  twitch: 'video',
  dailymotion: 'video',
  rumble: 'video',
  netflix: 'video',
  wistia: 'video',
  bilibili: 'video',
  'bilibili.com': 'video',
  'ted.com': 'video',
  'youku.com': 'video',
  'iqiyi.com': 'video',

  // Shopping
  amazon: 'shopping',
  ebay: 'shopping',
  etsy: 'shopping',
  shopify: 'shopping',
  aliexpress: 'shopping',
  walmart: 'shopping',
  temu: 'shopping',
  'temu.com': 'shopping',
  shop: 'shopping',
  'target.com': 'shopping',
  'bestbuy.com': 'shopping',
  'mercadolibre.com': 'shopping',
  'rakuten.co.jp': 'shopping',
  'zalando.de': 'shopping',
  'otto.de': 'shopping',
  'idealo.de': 'shopping',
  'shein.com': 'shopping',
  'alibaba.com': 'shopping',

  // Email
  gmail: 'email',
  'outlook.com': 'email',
};
