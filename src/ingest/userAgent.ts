import { LRUCache } from 'lru-cache';
import UAParser from 'ua-parser-js';

/** Browser, operating system and device type of one user agent, in the names reports show. */
export interface ParsedUserAgent {
  /** Normalised browser name ('Chrome', 'Safari', 'Microsoft Edge', 'Mobile App', …); '' if unknown. */
  browser: string;
  /** 'major.minor' of the browser version; '' if unknown and for mobile apps. */
  browserVersion: string;
  /** 'Windows', 'Mac', 'iOS', 'Android', 'GNU/Linux', 'Chrome OS', a distribution name, …; '' if unknown. */
  os: string;
  /** 'major.minor' of the OS version ('10', '7', 'XP' as written for Windows); '' if unknown. */
  osVersion: string;
  device: 'Mobile' | 'Tablet' | 'Desktop' | '';
}

/**
 * ua-parser-js 1.x reads only the first 500 characters of an agent, so that prefix is both a
 * complete cache key and the cap that keeps hostile 10 kB agents as cheap as ordinary ones.
 */
export const USER_AGENT_PARSE_LENGTH = 500;
const CACHE_ENTRIES = 10_000;

const cache = new LRUCache<string, ParsedUserAgent>({ max: CACHE_ENTRIES });

/** Parses an agent (results cached by its first 500 characters). Never throws. */
export function parseUserAgent(userAgent: string): ParsedUserAgent {
  const key = userAgent.length > USER_AGENT_PARSE_LENGTH ? userAgent.slice(0, USER_AGENT_PARSE_LENGTH) : userAgent;
  let parsed = cache.get(key);
  if (parsed === undefined) {
    parsed = Object.freeze(describe(key, new UAParser(key).getResult()));
    cache.set(key, parsed);
  }
  return parsed;
}

/** How many distinct agents the cache holds (for tests and diagnostics). */
export function userAgentCacheSize(): number {
  return cache.size;
}

function describe(userAgent: string, result: UAParser.IResult): ParsedUserAgent {
  const os = osName(result.os.name ?? '');
  const browser = browserName(result.browser.name ?? '', os);
  return {
    browser,
    // A version without a browser name (a bare engine) would be a meaningless report row.
    browserVersion: browser === '' || browser === MOBILE_APP ? '' : majorMinor(result.browser.version),
    os,
    osVersion: majorMinor(result.os.version),
    device: deviceType(result.device.type, os, userAgent),
  };
}

const MOBILE_APP = 'Mobile App';

/**
 * ua-parser-js names → the names Plausible users know (UAInspector's, reference §2.5).
 * Keys are lower case because ua-parser-js passes some names through as the agent spells them.
 */
const BROWSER_NAMES: ReadonlyMap<string, string> = new Map([
  ['mobile safari', 'Safari'],
  ['mobile chrome', 'Chrome'],
  ['mobile firefox', 'Firefox'],
  ['edge', 'Microsoft Edge'],
  ['ie', 'Internet Explorer'],
  ['iemobile', 'IE Mobile'],
  ['opera mini', 'Opera'],
  ['opera mobi', 'Opera'],
  ['opera touch', 'Opera'],
  ['opera coast', 'Opera'],
  ['yandex', 'Yandex Browser'],
  ['ucbrowser', 'UC Browser'],
  ['huaweibrowser', 'Huawei Browser'],
  ['chrome headless', 'Headless Chrome'],
]);

/** In-app browsers and web views: reported as one 'Mobile App' entry, without a version. */
const IN_APP_BROWSERS: ReadonlySet<string> = new Set([
  'chrome webview',
  'facebook',
  'instagram',
  'snapchat',
  'tiktok',
  'wechat',
  'line',
  'twitter',
  'linkedin',
  'kakaotalk',
  'kakaostory',
  'naver',
  'daum',
  'alipay',
  'klarna',
  'gsa',
]);

function browserName(name: string, os: string): string {
  const lower = name.toLowerCase();
  if (IN_APP_BROWSERS.has(lower)) return MOBILE_APP;
  // A bare WebKit engine without a Safari token is an app's embedded web view on iOS.
  if (lower === 'webkit') return os === 'iOS' ? MOBILE_APP : '';
  return BROWSER_NAMES.get(lower) ?? name;
}

const OS_NAMES: ReadonlyMap<string, string> = new Map([
  ['Mac OS', 'Mac'],
  ['Linux', 'GNU/Linux'],
  ['Chromium OS', 'Chrome OS'],
]);

function osName(name: string): string {
  return OS_NAMES.get(name) ?? name;
}

/** Operating systems that only run on phones and tablets: a missing device type is guessed from them. */
const HANDHELD_OS: ReadonlySet<string> = new Set(['iOS', 'Android', 'HarmonyOS', 'KaiOS', 'Windows Phone']);

/** ua-parser-js device types mapped like UAInspector's (reference §2.6); no type means a desktop OS. */
function deviceType(type: string | undefined, os: string, userAgent: string): ParsedUserAgent['device'] {
  switch (type) {
    case 'mobile':
    case 'wearable':
      return 'Mobile';
    case 'tablet':
    case 'embedded': // car browsers (Tesla) and similar, which UAInspector counts as tablets
      return 'Tablet';
    case 'console':
    case 'smarttv':
      return 'Desktop';
    default:
      if (os === '') return '';
      if (HANDHELD_OS.has(os)) return /mobile/i.test(userAgent) ? 'Mobile' : 'Tablet';
      return 'Desktop';
  }
}

/** The first two dot-separated components, as Plausible stores versions ('138.0.7204.119' → '138.0'). */
function majorMinor(version: string | undefined): string {
  if (version === undefined || version === '') return '';
  const firstDot = version.indexOf('.');
  if (firstDot < 0) return version;
  const secondDot = version.indexOf('.', firstDot + 1);
  return secondDot < 0 ? version : version.slice(0, secondDot);
}
