import { describe, expect, it } from 'vitest';
import { parsePageUrl, percentDecode } from '../../../src/ingest/derive/pageUrl.js';

describe('parsePageUrl', () => {
  it.each([
    // [u, hashMode, hostname, pathname]
    ['http://www.example.com/path ', false, 'example.com', '/path'],
    ['http://www.example.com', false, 'example.com', '/'],
    ['https://example.com/blog/', false, 'example.com', '/blog/'],
    ['https://Example.COM/Blog', false, 'example.com', '/Blog'],
    ['https://www.example.com/a?utm_source=x#frag', false, 'example.com', '/a'],
    ['https://example.com/#page-a', true, 'example.com', '/#page-a'],
    ['https://example.com/#page-a', false, 'example.com', '/'],
    ['https://example.com/app#/users/%C3%BC', true, 'example.com', '/app#/users/ü'],
    ['https://example.com/x#', true, 'example.com', '/x'],
    ['https://example.com/caf%C3%A9', false, 'example.com', '/café'],
    ['https://example.com/ünïcode path', false, 'example.com', '/ünïcode path'],
    ['https://example.com/bad%E0%A4%A/ok%20here', false, 'example.com', '/bad%E0%A4%A/ok here'],
    ['https://example.com/100%', false, 'example.com', '/100%'],
    ['https://example.com/trail%20%20', false, 'example.com', '/trail'],
    ['/blog', false, '(none)', '/blog'],
    ['//cdn.example.com/x', false, 'cdn.example.com', '/x'],
    ['https://www.sub.example.com:8443/p', false, 'sub.example.com', '/p'],
    ['http://127.0.0.1:3000/dev', false, '127.0.0.1', '/dev'],
    ['app://local/index.html', false, 'local', '/index.html'],
    ['file:///C:/site/index.html', false, '(none)', '/C:/site/index.html'],
  ])('%s (hash mode %s) → %s %s', (u, hashMode, hostname, pathname) => {
    const page = parsePageUrl(u, hashMode);
    expect(page).not.toBeNull();
    expect(page?.hostname).toBe(hostname);
    expect(page?.pathname).toBe(pathname);
  });

  it('keeps the query string for attribution only', () => {
    const page = parsePageUrl('https://example.com/p?utm_source=news%20letter&ref=hn', false);
    expect(page?.pathname).toBe('/p');
    expect(page?.query.get('utm_source')).toBe('news letter');
    expect(page?.query.get('ref')).toBe('hn');
  });

  it.each(['', '   ', 'not a url', 'example.com/path', 'data:text/html,<h1>hi</h1>', 'http://', 'https://exa mple.com/', 'http://[::1'])('rejects %j', (u) => {
    expect(parsePageUrl(u, false)).toBeNull();
  });
});

describe('percentDecode', () => {
  it.each([
    ['/plain', '/plain'],
    ['/a%2Fb', '/a/b'],
    ['%FF%FE', '%FF%FE'],
    ['%', '%'],
    ['%zz%41', '%zzA'],
    ['%E2%82%AC and %E2%82', '€ and %E2%82'],
  ])('%j → %j', (input, output) => {
    expect(percentDecode(input)).toBe(output);
  });
});
