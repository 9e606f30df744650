import { describe, expect, it } from 'vitest';
import { type Attribution, type AttributionOverride, deriveAttribution } from '../../../src/ingest/derive/attribution.js';
import { parsePageUrl } from '../../../src/ingest/derive/pageUrl.js';

const derive = (u: string, referrer: string | null, override?: AttributionOverride) => deriveAttribution({ page: parsePageUrl(u, false), referrer, override });

describe('deriveAttribution: referrers', () => {
  it.each([
    // [page URL, referrer, referrer, source]
    ['https://example.com/', 'https://www.indiehackers.com/page?query=param#hash', 'indiehackers.com/page', 'Indie Hackers'],
    ['https://example.com/', 'https://facebook.com/page/', 'facebook.com/page', 'Facebook'],
    ['https://example.com/', 'https://l.facebook.com/', 'l.facebook.com', 'Facebook'],
    ['https://example.com/', 'https://www.google.com/', 'google.com', 'Google'],
    ['https://example.com/', 'https://www.google.co.uk/search?q=x', 'google.co.uk/search', 'Google'],
    ['https://example.com/', 'https://www.bing.com/', 'bing.com', 'Bing'],
    ['https://example.com/', 'https://ntp.msn.com/edge/ntp', 'ntp.msn.com/edge/ntp', 'Bing'],
    ['https://example.com/', 'https://duckduckgo.com/', 'duckduckgo.com', 'DuckDuckGo'],
    ['https://example.com/', 'https://t.co/abc', 't.co/abc', 'X (Twitter)'],
    ['https://example.com/', 'https://x.com/someone/status/1', 'x.com/someone/status/1', 'X (Twitter)'],
    ['https://example.com/', 'https://old.reddit.com/r/node/', 'old.reddit.com/r/node', 'Reddit'],
    ['https://example.com/', 'https://news.ycombinator.com/item?id=1', 'news.ycombinator.com/item', 'Hacker News'],
    ['https://example.com/', 'https://github.com/org/repo', 'github.com/org/repo', 'GitHub'],
    ['https://example.com/', 'https://de.wikipedia.org/wiki/X', 'de.wikipedia.org/wiki/X', 'Wikipedia'],
    [
      'https://example.com/',
      'https://euc-word-edit.officeapps.live.com/we/wordeditorframe.aspx',
      'euc-word-edit.officeapps.live.com/we/wordeditorframe.aspx',
      'Microsoft 365',
    ],
    ['https://example.com/', 'https://chatgpt.com/', 'chatgpt.com', 'ChatGPT'],
    ['https://example.com/', 'https://chat.openai.com/c/1', 'chat.openai.com/c/1', 'ChatGPT'],
    ['https://example.com/', 'https://claude.ai/', 'claude.ai', 'Claude'],
    ['https://example.com/', 'https://www.perplexity.ai/', 'perplexity.ai', 'Perplexity'],
    ['https://example.com/', 'https://gemini.google.com/app', 'gemini.google.com/app', 'Google Gemini'],
    ['https://example.com/', 'https://copilot.microsoft.com/', 'copilot.microsoft.com', 'Microsoft Copilot'],
    ['https://example.com/', 'https://bsky.app/profile/x', 'bsky.app/profile/x', 'Bluesky'],
    ['https://example.com/', 'https://fosstodon.org/@x', 'fosstodon.org/@x', 'Mastodon'],
    ['https://example.com/', 'https://www.threads.net/@x', 'threads.net/@x', 'Threads'],
    ['https://example.com/', 'https://t.me/channel', 't.me/channel', 'Telegram'],
    ['https://example.com/', 'https://mail.google.com/mail/u/0/', 'mail.google.com/mail/u/0', 'Gmail'],
    ['https://example.com/', 'android-app://com.google.android.gm/', 'android-app://com.google.android.gm', 'Gmail'],
    ['https://example.com/', 'https://unknown-blog.example.org/post/', 'unknown-blog.example.org/post', 'unknown-blog.example.org'],
  ])('%s from %s → %s (%s)', (u, referrer, shown, source) => {
    const attribution = derive(u, referrer);
    expect(attribution.referrer).toBe(shown);
    expect(attribution.referrerSource).toBe(source);
  });

  it.each([
    ['internal, same host', 'https://example.com/a', 'https://example.com/b'],
    ['internal, www. on one side only', 'https://www.example.com/a', 'https://example.com/b'],
    ['localhost', 'https://example.com/a', 'http://localhost:3000/'],
    ['not a web URL', 'https://example.com/a', 'ftp://files.example.org/'],
    ['javascript', 'https://example.com/a', 'javascript:alert(1)'],
    ['unparsable', 'https://example.com/a', 'not a url'],
    ['empty', 'https://example.com/a', ''],
    ['absent', 'https://example.com/a', null],
  ])('ignores a referrer that is %s', (_case, u, referrer) => {
    const attribution = derive(u, referrer);
    expect(attribution).toMatchObject({ referrer: '', referrerSource: '', channel: 'Direct' });
  });
});

describe('deriveAttribution: tags on the page URL', () => {
  it.each([
    ['?utm_source=fb-ads', 'Facebook', 'fb-ads'],
    ['?ref=ig', 'Instagram', 'ig'],
    ['?utm_source=google', 'Google', 'google'],
    ['?utm_source=betalist', 'betalist', 'betalist'],
    ['?source=Twitter', 'X (Twitter)', 'Twitter'],
    ['?utm_source=chatgpt.com', 'ChatGPT', 'chatgpt.com'],
    ['?utm_source=&source=&ref=hn', 'Hacker News', 'hn'],
    ['?utm_source=newsletter&ref=producthunt', 'newsletter', 'newsletter'],
  ])('%s → source %s, utm_source %s', (query, source, utmSource) => {
    const attribution = derive(`https://example.com/${query}`, 'https://www.google.com/');
    expect(attribution.referrerSource).toBe(source);
    expect(attribution.utmSource).toBe(utmSource);
    // The referrer itself is still recorded.
    expect(attribution.referrer).toBe('google.com');
  });

  it('reads every UTM field raw', () => {
    const attribution = derive(
      'https://example.com/?utm_source=Mailchimp&utm_medium=Email&utm_campaign=Spring%20Sale&utm_content=hero&utm_term=running+shoes',
      null,
    );
    expect(attribution).toEqual<Attribution>({
      referrer: '',
      referrerSource: 'Mailchimp',
      clickIdParam: '',
      utmSource: 'Mailchimp',
      utmMedium: 'Email',
      utmCampaign: 'Spring Sale',
      utmContent: 'hero',
      utmTerm: 'running shoes',
      channel: 'Email',
    });
  });

  it('gclid from Google: medium (gclid), Paid Search', () => {
    const attribution = derive('https://example.com/?gclid=abc', 'https://www.google.com/');
    expect(attribution).toMatchObject({ referrerSource: 'Google', clickIdParam: 'gclid', utmMedium: '(gclid)', channel: 'Paid Search' });
  });

  it('msclkid from Bing: medium (msclkid), Paid Search', () => {
    const attribution = derive('https://example.com/?msclkid=abc', 'https://www.bing.com/');
    expect(attribution).toMatchObject({ referrerSource: 'Bing', clickIdParam: 'msclkid', utmMedium: '(msclkid)', channel: 'Paid Search' });
  });

  it('gclid without a Google source infers no medium', () => {
    const attribution = derive('https://example.com/?gclid=abc', 'https://www.bing.com/');
    expect(attribution).toMatchObject({ clickIdParam: 'gclid', utmMedium: '', channel: 'Organic Search' });
  });

  it('an explicit utm_medium wins over the inferred one', () => {
    expect(derive('https://example.com/?gclid=a&utm_medium=display', 'https://www.google.com/').utmMedium).toBe('display');
  });

  it('takes the first click id in the documented order', () => {
    expect(derive('https://example.com/?fbclid=1&gclid=2', null).clickIdParam).toBe('gclid');
    expect(derive('https://example.com/?twclid=1&fbclid=2', null).clickIdParam).toBe('fbclid');
  });

  it.each([
    ['https://example.com/?utm_source=facebook&utm_medium=paid_social', 'Paid Social'],
    ['https://example.com/?utm_source=youtube', 'Organic Video'],
    ['https://example.com/?utm_source=perplexity', 'AI Assistants'],
    ['https://example.com/?utm_medium=email', 'Email'],
  ])('%s → %s', (u, channel) => {
    expect(derive(u, null).channel).toBe(channel);
  });
});

describe('deriveAttribution: server-side override', () => {
  it('uses the override instead of Direct for an offline conversion', () => {
    const attribution = derive('https://shop.example/thank-you', null, {
      referrer: 'https://www.google.com/',
      utm_source: 'google',
      utm_medium: 'cpc',
      utm_campaign: 'brand',
    });
    expect(attribution).toMatchObject({
      referrer: 'google.com',
      referrerSource: 'Google',
      utmSource: 'google',
      utmMedium: 'cpc',
      utmCampaign: 'brand',
      channel: 'Paid Search',
    });
  });

  it('each present field replaces only its own derived value', () => {
    const attribution = derive('https://example.com/?utm_source=hn&utm_medium=social&utm_campaign=launch', 'https://news.ycombinator.com/', {
      utm_campaign: 'relaunch',
    });
    expect(attribution).toMatchObject({ referrerSource: 'Hacker News', utmMedium: 'social', utmCampaign: 'relaunch' });
  });

  it('an override referrer replaces the browser referrer and names the source', () => {
    const attribution = derive('https://example.com/', 'https://www.bing.com/', { referrer: 'https://chatgpt.com/c/1' });
    expect(attribution).toMatchObject({ referrer: 'chatgpt.com/c/1', referrerSource: 'ChatGPT', channel: 'AI Assistants' });
  });

  it('accepts a bare host as the override referrer', () => {
    expect(derive('https://example.com/', null, { referrer: 'www.reddit.com/r/x' })).toMatchObject({
      referrer: 'reddit.com/r/x',
      referrerSource: 'Reddit',
    });
  });

  it('an override utm_source wins over the page tags and the referrer', () => {
    const attribution = derive('https://example.com/?ref=hn', 'https://www.google.com/', { utm_source: 'newsletter' });
    expect(attribution).toMatchObject({ referrerSource: 'newsletter', utmSource: 'newsletter', channel: 'Email' });
  });

  it('empty override fields count as absent', () => {
    const attribution = derive('https://example.com/', 'https://www.google.com/', { referrer: ' ', utm_source: '' });
    expect(attribution).toMatchObject({ referrer: 'google.com', referrerSource: 'Google' });
  });

  it('ignores non-string override fields', () => {
    const override = { referrer: 42, utm_source: { x: 1 }, utm_medium: null } as unknown as AttributionOverride;
    expect(derive('https://example.com/', 'https://www.google.com/', override)).toMatchObject({ referrerSource: 'Google', utmMedium: '' });
  });

  it('works without a page', () => {
    expect(deriveAttribution({ page: null, referrer: null, override: { utm_source: 'fb', utm_medium: 'cpc' } })).toMatchObject({
      referrerSource: 'Facebook',
      channel: 'Paid Social',
    });
    expect(deriveAttribution({ page: null, referrer: null }).channel).toBe('Direct');
  });
});
