import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { MAX_RETRY_DELAY_MS, nextRetryAt, retryDelayMs } from '../../src/contracts/webhookPolicy.js';
import { refusedAddress } from '../../src/webhooks/addresses.js';
import { signatureHeader } from '../../src/webhooks/signing.js';
import { parseWebhookUrl } from '../../src/webhooks/webhookUrl.js';

const strict = { loopbackAllowed: false, privateAllowed: false };

describe('retry schedule', () => {
  it('starts at 30 s, triples, and is capped at 6 hours', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 12].map((n) => retryDelayMs(n) / 1000)).toEqual([30, 90, 270, 810, 2430, 7290, 21600, 21600, 21600]);
    expect(retryDelayMs(40)).toBe(MAX_RETRY_DELAY_MS);
  });

  it('allows 12 retries after the first attempt', () => {
    expect(nextRetryAt(1, 0)).toBe(30_000);
    expect(nextRetryAt(12, 0)).toBe(21_600_000);
    expect(nextRetryAt(13, 0)).toBeNull();
  });
});

describe('address rules', () => {
  it('refuses private, loopback, link-local and metadata addresses by default', () => {
    for (const address of [
      '10.1.2.3',
      '172.16.0.1',
      '192.168.0.10',
      '127.0.0.1',
      '169.254.169.254',
      '169.254.10.10',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd12::1',
      'fd00:ec2::254',
      '::ffff:10.0.0.1',
      '::ffff:7f00:1',
      '64:ff9b::a9fe:a9fe',
      '2002:c0a8:0101::1',
      '224.0.0.1',
    ]) {
      expect(refusedAddress(address, strict), address).not.toBeNull();
    }
    for (const address of ['93.184.216.34', '2606:4700:4700::1111', '8.8.8.8']) expect(refusedAddress(address, strict), address).toBeNull();
  });

  it('lets development URLs reach loopback, and operators reach private networks, never metadata', () => {
    expect(refusedAddress('127.0.0.1', { loopbackAllowed: true, privateAllowed: false })).toBeNull();
    expect(refusedAddress('::1', { loopbackAllowed: true, privateAllowed: false })).toBeNull();
    expect(refusedAddress('10.0.0.1', { loopbackAllowed: true, privateAllowed: false })).not.toBeNull();
    const internal = { loopbackAllowed: false, privateAllowed: true };
    expect(refusedAddress('10.0.0.1', internal)).toBeNull();
    expect(refusedAddress('127.0.0.1', internal)).toBeNull();
    expect(refusedAddress('169.254.169.254', internal)).toMatch(/metadata/);
    expect(refusedAddress('fd00:ec2::254', internal)).toMatch(/metadata/);
  });
});

describe('receiver URLs', () => {
  it('keeps the URL as given, without a fragment', () => {
    expect(parseWebhookUrl('https://hooks.example.com/a?b=1#frag', { allowPrivate: false })).toBe('https://hooks.example.com/a?b=1');
  });

  it('refuses credentials in the URL and private literals unless allowed', () => {
    expect(() => parseWebhookUrl('https://user:pw@hooks.example.com/', { allowPrivate: false })).toThrow(/user name or password/);
    expect(() => parseWebhookUrl('https://10.0.0.8/', { allowPrivate: false })).toThrow(/WEBHOOK_ALLOW_PRIVATE/);
    expect(parseWebhookUrl('https://10.0.0.8/', { allowPrivate: true })).toBe('https://10.0.0.8/');
    expect(() => parseWebhookUrl('http://10.0.0.8/', { allowPrivate: true })).toThrow(/https/);
  });
});

describe('signature header', () => {
  it('carries one v1 per live secret, newest first', () => {
    const header = signatureHeader(['whsec_new', 'whsec_old'], 1_700_000_000, '{"a":1}');
    expect(header).toMatch(/^t=1700000000,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(header.split(',')[1]).toBe(signatureHeader(['whsec_new'], 1_700_000_000, '{"a":1}').split(',')[1]);
  });
});

describe('settings', () => {
  const base = { DATA_DIR: '/tmp/svc-config-test', SECRET_KEY_BASE: 'x'.repeat(40) };

  it('reads WEBHOOK_ALLOW_PRIVATE and SMTP_URL, naming the variable on bad input', () => {
    expect(loadConfig(base)).toMatchObject({ webhookAllowPrivate: false, smtpUrl: null });
    expect(loadConfig({ ...base, WEBHOOK_ALLOW_PRIVATE: 'true', SMTP_URL: 'smtps://mail.example.com' })).toMatchObject({
      webhookAllowPrivate: true,
      smtpUrl: 'smtps://mail.example.com',
    });
    expect(() => loadConfig({ ...base, WEBHOOK_ALLOW_PRIVATE: 'yes' })).toThrow(/WEBHOOK_ALLOW_PRIVATE/);
    expect(() => loadConfig({ ...base, SMTP_URL: 'mail.example.com' })).toThrow(/SMTP_URL/);
  });
});
