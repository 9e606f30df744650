import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ParsedUserAgent } from '../../src/ingest/userAgent.js';
import { parseUserAgent, USER_AGENT_PARSE_LENGTH, userAgentCacheSize } from '../../src/ingest/userAgent.js';

type Expected = [browser: string, browserVersion: string, os: string, osVersion: string, device: ParsedUserAgent['device']];

const CASES: Array<[name: string, userAgent: string, expected: Expected]> = [
  [
    'Chrome on Windows',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36',
    ['Chrome', '138.0', 'Windows', '10', 'Desktop'],
  ],
  [
    'Chrome on Windows 7',
    'Mozilla/5.0 (Windows NT 6.1; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Safari/537.36',
    ['Chrome', '109.0', 'Windows', '7', 'Desktop'],
  ],
  [
    'Safari on Mac',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Safari/605.1.15',
    ['Safari', '18.5', 'Mac', '10.15', 'Desktop'],
  ],
  [
    'Safari on iPhone',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1',
    ['Safari', '18.5', 'iOS', '18.5', 'Mobile'],
  ],
  [
    'Safari on iPad',
    'Mozilla/5.0 (iPad; CPU OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1',
    ['Safari', '18.5', 'iOS', '18.5', 'Tablet'],
  ],
  [
    'Chrome on iPhone',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/138.0.7204.119 Mobile/15E148 Safari/604.1',
    ['Chrome', '138.0', 'iOS', '18.5', 'Mobile'],
  ],
  [
    'Firefox on iPhone',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/140.0 Mobile/15E148 Safari/605.1.15',
    ['Firefox', '140.0', 'iOS', '18.5', 'Mobile'],
  ],
  [
    'Chrome on an Android phone',
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36',
    ['Chrome', '138.0', 'Android', '10', 'Mobile'],
  ],
  [
    'Chrome on an Android tablet (reduced agent, no "Mobile")',
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36',
    ['Chrome', '138.0', 'Android', '10', 'Tablet'],
  ],
  [
    'Chrome on a Galaxy Tab',
    'Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36',
    ['Chrome', '138.0', 'Android', '14', 'Tablet'],
  ],
  [
    'Samsung Internet',
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/28.0 Chrome/130.0.0.0 Mobile Safari/537.36',
    ['Samsung Internet', '28.0', 'Android', '10', 'Mobile'],
  ],
  ['Firefox on Android', 'Mozilla/5.0 (Android 15; Mobile; rv:140.0) Gecko/140.0 Firefox/140.0', ['Firefox', '140.0', 'Android', '15', 'Mobile']],
  [
    'Chrome on Linux',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36',
    ['Chrome', '138.0', 'GNU/Linux', '', 'Desktop'],
  ],
  ['Firefox on Ubuntu', 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0', ['Firefox', '140.0', 'Ubuntu', '', 'Desktop']],
  [
    'Edge on Windows',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36 Edg/138.0.3351.83',
    ['Microsoft Edge', '138.0', 'Windows', '10', 'Desktop'],
  ],
  [
    'Edge on Android',
    'Mozilla/5.0 (Linux; Android 14; 22101316G) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36 EdgA/138.0.0.0',
    ['Microsoft Edge', '138.0', 'Android', '14', 'Mobile'],
  ],
  [
    'Opera on Windows',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36 OPR/120.0.0.0',
    ['Opera', '120.0', 'Windows', '10', 'Desktop'],
  ],
  ['Opera Mini', 'Opera/9.80 (Android; Opera Mini/36.2.2254/119.132; U; id) Presto/2.12.423 Version/12.16', ['Opera', '36.2', 'Android', '', 'Tablet']],
  [
    'Chrome on a Chromebook',
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36',
    ['Chrome', '138.0', 'Chrome OS', '14541.0', 'Desktop'],
  ],
  [
    'Yandex Browser',
    'Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 YaBrowser/25.6.0.0 Mobile Safari/537.36',
    ['Yandex Browser', '25.6', 'Android', '13', 'Mobile'],
  ],
  [
    'an Android web view',
    'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240805.005; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/138.0.7204.63 Mobile Safari/537.36',
    ['Mobile App', '', 'Android', '14', 'Mobile'],
  ],
  [
    'the Facebook app',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/500.0.0.41.106;FBBV/123;FBDV/iPhone15,2;FBMD/iPhone;FBSN/iOS;FBSV/18.5;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5]',
    ['Mobile App', '', 'iOS', '18.5', 'Mobile'],
  ],
  [
    'an iOS app web view',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
    ['Mobile App', '', 'iOS', '18.5', 'Mobile'],
  ],
  ['Internet Explorer 11', 'Mozilla/5.0 (Windows NT 6.1; Trident/7.0; rv:11.0) like Gecko', ['Internet Explorer', '11.0', 'Windows', '7', 'Desktop']],
  ['a PlayStation', 'Mozilla/5.0 (PlayStation 5 3.11) AppleWebKit/605.1.15 (KHTML, like Gecko)', ['', '', 'PlayStation', '5', 'Desktop']],
  [
    'a smart TV',
    'Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/538.1 (KHTML, like Gecko) Version/6.0 TV Safari/538.1',
    ['Safari', '6.0', 'Tizen', '6.0', 'Desktop'],
  ],
  [
    'a smartwatch',
    'Mozilla/5.0 (Linux; Android 14; SM-R920) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36 Watch',
    ['Chrome', '120.0', 'Android', '14', 'Mobile'],
  ],
  [
    'a Tesla',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Tesla/2024.14',
    ['Tesla', '2024.14', 'GNU/Linux', '', 'Tablet'],
  ],
  ['curl', 'curl/8.5.0', ['', '', '', '', '']],
  ['an empty agent', '', ['', '', '', '', '']],
];

describe('parseUserAgent', () => {
  it.each(CASES)('describes %s', (_name, userAgent, [browser, browserVersion, os, osVersion, device]) => {
    expect(parseUserAgent(userAgent)).toEqual({ browser, browserVersion, os, osVersion, device });
  });

  it('answers repeated agents from its cache', () => {
    const agent = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:141.0) Gecko/20100101 Firefox/141.0 cache-test';
    const before = userAgentCacheSize();
    const first = parseUserAgent(agent);
    expect(userAgentCacheSize()).toBe(before + 1);
    expect(parseUserAgent(agent)).toBe(first);
    expect(userAgentCacheSize()).toBe(before + 1);
    expect(Object.isFrozen(first)).toBe(true);
  });

  it('keys the cache by the part of the agent the parser reads', () => {
    const prefix = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36 ';
    const padded = prefix.padEnd(USER_AGENT_PARSE_LENGTH, 'x');
    const first = parseUserAgent(`${padded}first tail`);
    expect(parseUserAgent(`${padded}a different tail`)).toBe(first);
    expect(first.browser).toBe('Chrome');
  });
});

describe('parseUserAgent on hostile input', () => {
  const hostile: Array<[string, string]> = [
    ['10,000 characters of one letter', 'a'.repeat(10_000)],
    ['10,000 characters of agent-like tokens', 'Mozilla/5.0 (Linux; Android 1'.repeat(345)],
    ['binary garbage', Array.from({ length: 4_096 }, (_, i) => String.fromCharCode((i * 7919) % 65_536)).join('')],
    ['nested parentheses', '('.repeat(5_000) + ')'.repeat(5_000)],
    ['a long version number', `Chrome/${'9.'.repeat(4_000)}`],
  ];

  // Speed is not asserted here (docs/benchmarks.md measures parsing); what keeps a hostile agent
  // as cheap as an ordinary one is that only its first USER_AGENT_PARSE_LENGTH characters are read.
  it.each(hostile)('reads only the first characters of %s', (_name, userAgent) => {
    const parsed = parseUserAgent(userAgent);
    expect(parsed).toBe(parseUserAgent(userAgent.slice(0, USER_AGENT_PARSE_LENGTH)));
    expect(typeof parsed.browser).toBe('string');
  });

  it('never throws and always answers the documented shape', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 2_000 }), (userAgent) => {
        const parsed = parseUserAgent(userAgent);
        expect(['Mobile', 'Tablet', 'Desktop', '']).toContain(parsed.device);
        expect(parsed.browserVersion.split('.').length).toBeLessThanOrEqual(2);
        expect(parsed.osVersion.split('.').length).toBeLessThanOrEqual(2);
      }),
      { numRuns: 300 },
    );
  });
});
