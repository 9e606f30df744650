import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from '../../src/config/config.js';

const dataDir = () => mkdtempSync(join(tmpdir(), 'svc-config-'));

describe('configuration', () => {
  it('runs on embedded defaults with nothing set', () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.port).toBe(8000);
    expect(config.baseUrl).toBe('http://localhost:8000');
    expect(config.clickhouse).toMatchObject({ kind: 'embedded', path: join(dir, 'clickhouse') });
    expect(config.metadata).toEqual({ kind: 'sqlite', path: join(dir, 'meta.sqlite') });
    expect(config.trustedProxies).toEqual([]);
    expect(config.logLevel).toBe('info');
  });

  it('generates SECRET_KEY_BASE once and keeps it in DATA_DIR', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir }).secretKeyBase;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dir, 'secret_key_base'), 'utf8').trim()).toBe(first);
    expect(loadConfig({ DATA_DIR: dir }).secretKeyBase).toBe(first);
  });

  it('reads servers and proxies', () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      PORT: '9000',
      BASE_URL: 'https://stats.example.com/',
      CLICKHOUSE_URL: 'http://u:p@ch.internal:8123/analytics',
      CLICKHOUSE_CLUSTER: 'main',
      DATABASE_URL: 'postgres://u@db/svc',
      TRUSTED_PROXIES: '10.0.0.0/8, 2001:db8::/32,127.0.0.1',
      LOG_LEVEL: 'WARN',
      SECRET_KEY_BASE: 'x'.repeat(40),
    });
    expect(config.baseUrl).toBe('https://stats.example.com');
    expect(config.clickhouse).toEqual({ kind: 'server', url: 'http://u:p@ch.internal:8123/analytics', database: 'analytics', cluster: 'main' });
    expect(config.metadata).toEqual({ kind: 'postgres', url: 'postgres://u@db/svc' });
    expect(config.trustedProxies.map((c) => `${c.address}/${c.prefix}`)).toEqual(['10.0.0.0/8', '2001:db8::/32', '127.0.0.1/32']);
    expect(config.logLevel).toBe('warn');
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ BASE_URL: 'stats.example.com' }, 'BASE_URL'],
    [{ BASE_URL: 'ftp://x' }, 'BASE_URL'],
    [{ CLICKHOUSE_URL: 'nope' }, 'CLICKHOUSE_URL'],
    [{ CLICKHOUSE_URL: 'tcp://h:9000' }, 'CLICKHOUSE_URL'],
    [{ CLICKHOUSE_CLUSTER: 'c1' }, 'CLICKHOUSE_CLUSTER'],
    [{ CLICKHOUSE_URL: 'http://h:8123', CLICKHOUSE_CLUSTER: 'a-b' }, 'CLICKHOUSE_CLUSTER'],
    [{ CLICKHOUSE_MEMORY_LIMIT_MB: '12' }, 'CLICKHOUSE_MEMORY_LIMIT_MB'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ TRUSTED_PROXIES: '10.0.0.0/8,banana' }, 'TRUSTED_PROXIES'],
    [{ TRUSTED_PROXIES: '10.0.0.0/33' }, 'TRUSTED_PROXIES'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ SECRET_KEY_BASE: 'short' }, 'SECRET_KEY_BASE'],
  ])('refuses %j with a sentence naming %s', (env, variable) => {
    const attempt = () => loadConfig({ DATA_DIR: dataDir(), ...env });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(new RegExp(`^${variable} .*\\.$`));
  });

  it('documents every variable it reads', () => {
    const source = readFileSync(new URL('../../src/config/config.ts', import.meta.url), 'utf8');
    const read = new Set([...source.matchAll(/env\.([A-Z_]+)/g)].map((m) => m[1]));
    const documented = new Set(CONFIG_VARIABLES.map(([name]) => name));
    expect([...read].filter((name) => !documented.has(name as never))).toEqual([]);
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const name of documented) expect(readme).toContain(`\`${name}\``);
    expect(existsSync(new URL('../../README.md', import.meta.url))).toBe(true);
  });
});
