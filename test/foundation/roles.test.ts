import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createNode, type ServiceNode } from '../../src/app.js';
import { CONFIG_VARIABLES, loadConfig } from '../../src/config/config.js';
import { multiNodeRefusal, NODE_ROLES, type NodeRole, parseRoles } from '../../src/config/roles.js';
import { svc } from '../support/processes.js';

const SECRET = 'a-secret-key-base-of-at-least-32-characters';
const SHARED = {
  secretKeyBaseSource: 'environment',
  metadata: { kind: 'postgres', url: 'postgres://svc@db/svc' },
  clickhouse: { kind: 'server', url: 'http://ch:8123/svc', database: 'svc', cluster: null },
  stateUrl: null,
} as const;
const EMBEDDED = {
  secretKeyBaseSource: 'generated',
  metadata: { kind: 'sqlite', path: '/data/meta.sqlite' },
  clickhouse: { kind: 'embedded', path: '/data/clickhouse', memoryLimitBytes: 2 ** 30 },
  stateUrl: null,
} as const;
const NEEDS_SECRET = 'SECRET_KEY_BASE set in the environment (a generated secret differs per node)';
const NEEDS_POSTGRES = 'a PostgreSQL DATABASE_URL (SQLite belongs to one host)';
const NEEDS_CLICKHOUSE = 'CLICKHOUSE_URL (embedded chDB belongs to one host)';
const ALL: NodeRole[] = [...NODE_ROLES];

describe('the role parser', () => {
  it('reads a comma list in any order into roles in their own order, and all as every role', () => {
    expect(parseRoles('all')).toEqual(ALL);
    expect(parseRoles(' ALL ')).toEqual(ALL);
    expect(parseRoles('ingest')).toEqual(['ingest']);
    expect(parseRoles('worker, ingest,ingest')).toEqual(['ingest', 'worker']);
    expect(parseRoles('web,query')).toEqual(['query', 'web']);
    expect(parseRoles('ingest,query,web,worker')).toEqual(ALL);
  });

  it.each([
    ['ingset', 'Role "ingset" is not known; the roles are ingest, query, web, worker or all.'],
    ['ingest,reader,writer', 'Roles "reader", "writer" are not known; the roles are ingest, query, web, worker or all.'],
    ['', '--role needs at least one role: ingest, query, web, worker or all.'],
    [' , ', '--role needs at least one role: ingest, query, web, worker or all.'],
    ['all,ingest', '--role all already means every role; give it alone.'],
  ])('refuses %j with one sentence', (text, sentence) => {
    expect(() => parseRoles(text)).toThrow(sentence);
    try {
      parseRoles(text);
    } catch (error) {
      expect((error as { code: string }).code).toBe('invalid_role');
    }
  });
});

describe('the refusal to start beside other nodes', () => {
  it('lets every role run on one host, with embedded stores and a generated secret', () => {
    expect(multiNodeRefusal(EMBEDDED, ALL)).toBeNull();
    expect(multiNodeRefusal(SHARED, ALL)).toBeNull();
  });

  it('lets any roles run when the secret, PostgreSQL and a ClickHouse server are set', () => {
    for (const role of NODE_ROLES) expect(multiNodeRefusal(SHARED, [role])).toBeNull();
    expect(multiNodeRefusal({ ...SHARED, stateUrl: 'redis://state:6379' }, ['ingest', 'worker'])).toBeNull();
  });

  const cases: [string, Partial<Record<keyof typeof SHARED, unknown>>, string[]][] = [
    ['everything', EMBEDDED, [NEEDS_SECRET, NEEDS_POSTGRES, NEEDS_CLICKHOUSE]],
    ['the secret', { secretKeyBaseSource: 'generated' }, [NEEDS_SECRET]],
    ['PostgreSQL', { metadata: EMBEDDED.metadata }, [NEEDS_POSTGRES]],
    ['ClickHouse', { clickhouse: EMBEDDED.clickhouse }, [NEEDS_CLICKHOUSE]],
    ['the secret and PostgreSQL', { secretKeyBaseSource: 'generated', metadata: EMBEDDED.metadata }, [NEEDS_SECRET, NEEDS_POSTGRES]],
    ['the secret and ClickHouse', { secretKeyBaseSource: 'generated', clickhouse: EMBEDDED.clickhouse }, [NEEDS_SECRET, NEEDS_CLICKHOUSE]],
    ['PostgreSQL and ClickHouse', { metadata: EMBEDDED.metadata, clickhouse: EMBEDDED.clickhouse }, [NEEDS_POSTGRES, NEEDS_CLICKHOUSE]],
  ];
  const listed = (items: string[]) => (items.length === 1 ? items[0] : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

  it.each(cases)('names what is missing (%s) in one sentence, for some roles and for STATE_URL', (_name, change, missing) => {
    const config = { ...SHARED, ...change } as Parameters<typeof multiNodeRefusal>[0];
    expect(multiNodeRefusal(config, ['ingest'])).toBe(`A node with --role ingest runs beside other nodes, so it needs ${listed(missing)}.`);
    expect(multiNodeRefusal(config, ['query', 'web'])).toBe(`A node with --role query,web runs beside other nodes, so it needs ${listed(missing)}.`);
    expect(multiNodeRefusal({ ...config, stateUrl: 'redis://state:6379' }, ALL)).toBe(
      `With STATE_URL set this node runs beside other nodes, so it needs ${listed(missing)}.`,
    );
  });

  it('knows whether SECRET_KEY_BASE was set or generated into DATA_DIR', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-roles-'));
    try {
      expect(loadConfig({ DATA_DIR: dataDir }).secretKeyBaseSource).toBe('generated');
      // Read back from DATA_DIR on the next start: still this node's own.
      expect(loadConfig({ DATA_DIR: dataDir }).secretKeyBaseSource).toBe('generated');
      expect(loadConfig({ DATA_DIR: dataDir, SECRET_KEY_BASE: SECRET }).secretKeyBaseSource).toBe('environment');
      const shared = loadConfig({
        DATA_DIR: dataDir,
        SECRET_KEY_BASE: SECRET,
        DATABASE_URL: 'postgres://svc@db/svc',
        CLICKHOUSE_URL: 'http://ch:8123/svc',
      });
      expect(multiNodeRefusal(shared, ['ingest'])).toBeNull();
      expect(multiNodeRefusal(loadConfig({ DATA_DIR: dataDir }), ['ingest'])).toBe(
        `A node with --role ingest runs beside other nodes, so it needs ${listed([NEEDS_SECRET, NEEDS_POSTGRES, NEEDS_CLICKHOUSE])}.`,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('svc serve', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-roles-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const everythingMissing = `A node with --role ingest runs beside other nodes, so it needs ${NEEDS_SECRET}, ${NEEDS_POSTGRES} and ${NEEDS_CLICKHOUSE}.`;

  it('refuses --role ingest with everything missing: exit 2 and the sentence', async () => {
    const result = await svc(['serve', '--role', 'ingest'], { DATA_DIR: dataDir });
    expect(result).toEqual({ code: 2, stdout: '', stderr: `svc: ${everythingMissing}\n` });
  });

  it('says it as {error, code} with --json', async () => {
    const result = await svc(['serve', '--role', 'ingest', '--json'], { DATA_DIR: dataDir });
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stderr)).toEqual({ error: everythingMissing, code: 'missing_configuration' });
  });

  it('names only what is missing', async () => {
    const result = await svc(['serve', '--role', 'worker,query', '--json'], {
      DATA_DIR: dataDir,
      SECRET_KEY_BASE: SECRET,
      DATABASE_URL: 'postgres://svc@127.0.0.1:1/svc',
    });
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stderr)).toEqual({
      error: `A node with --role query,worker runs beside other nodes, so it needs ${NEEDS_CLICKHOUSE}.`,
      code: 'missing_configuration',
    });
  });

  it('refuses every role with STATE_URL on one host', async () => {
    const result = await svc(['serve'], { DATA_DIR: dataDir, STATE_URL: 'redis://127.0.0.1:1' });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `svc: With STATE_URL set this node runs beside other nodes, so it needs ${NEEDS_SECRET}, ${NEEDS_POSTGRES} and ${NEEDS_CLICKHOUSE}.\n`,
    );
  });

  it('refuses an unknown role, naming it', async () => {
    const result = await svc(['serve', '--role', 'ingest,reader', '--json'], { DATA_DIR: dataDir });
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stderr)).toEqual({
      error: 'Role "reader" is not known; the roles are ingest, query, web, worker or all.',
      code: 'invalid_role',
    });
  });

  it('serves every role on one host, naming them on /api/health, and exits 0 on SIGTERM', async () => {
    const service = await startServe(['serve', '--role', 'ingest,query,web,worker'], { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' });
    try {
      const health = await fetch(`${service.url}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({
        status: 'ok',
        roles: ['ingest', 'query', 'web', 'worker'],
        stores: { 'metadata store': 'ok', 'event store': 'ok', 'state store': 'not configured' },
      });
    } finally {
      service.child.kill('SIGTERM');
    }
    expect(await service.exited).toBe(0);
  });
});

/** `./bin/svc …` as a long-running process; resolves once it prints its address. */
async function startServe(args: string[], env: Record<string, string>): Promise<{ child: ChildProcess; url: string; exited: Promise<number | null> }> {
  const child = spawn('./bin/svc', args, { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^\s]+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    exited.then((code) => reject(new Error(`svc serve exited with ${code}: ${output}`)));
  });
  return { child, url, exited };
}

describe('a node registers the routes of its roles only', () => {
  // chDB binds one data directory per process: the two nodes open it one after the other.
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-roles-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', CLICKHOUSE_MEMORY_LIMIT_MB: '1024' };

  const withNode = async (roles: NodeRole[], check: (node: ServiceNode) => Promise<void>) => {
    const node = await createNode(loadConfig(env), { roles, allowSingleHostStoresForTests: true });
    try {
      await node.listen();
      await check(node);
    } finally {
      await node.close();
    }
  };
  const status = async (url: string, init?: RequestInit) => (await fetch(url, init)).status;
  const notFound = async (url: string, method = 'GET') => {
    const res = await fetch(url, { method, headers: { 'content-type': 'application/json' }, body: method === 'GET' ? undefined : '{}' });
    expect(res.status).toBe(404);
    const path = new URL(url).pathname;
    expect(await res.json()).toEqual({ error: `There is no route ${method} ${path}.`, code: 'not_found' });
  };

  it('refuses some roles on embedded stores unless a test allows it', async () => {
    await expect(createNode(loadConfig(env), { roles: ['ingest'] })).rejects.toThrow(
      `A node with --role ingest runs beside other nodes, so it needs ${NEEDS_SECRET}, ${NEEDS_POSTGRES} and ${NEEDS_CLICKHOUSE}.`,
    );
  });

  it('an ingest node: collection and the NDJSON import; no stats, management, MCP or web app; no background work', async () => {
    await withNode(['ingest'], async (node) => {
      const health = await fetch(`${node.url}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({
        status: 'ok',
        roles: ['ingest'],
        stores: { 'metadata store': 'ok', 'event store': 'ok', 'state store': 'not configured' },
      });
      // The routes exist: an empty event is refused, a pixel answers, the import asks for a key.
      expect(await status(`${node.url}/api/event`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).not.toBe(404);
      expect(await status(`${node.url}/api/event/pixel.gif`)).not.toBe(404);
      expect(await status(`${node.url}/api/v1/sites/example.com/events/import`, { method: 'POST', body: '' })).toBe(401);
      await notFound(`${node.url}/api/v2/query`, 'POST');
      await notFound(`${node.url}/api/v1/sites`);
      await notFound(`${node.url}/api/v1/stats/aggregate`);
      await notFound(`${node.url}/api/v1/webhooks`);
      await notFound(`${node.url}/mcp`, 'POST');
      await notFound(`${node.url}/app/api/session`);
      await notFound(`${node.url}/js/script.js`);
      // Not the web app's page either: any other GET is a 404 in JSON.
      await notFound(`${node.url}/sites`);
      expect(node.ingestion).not.toBeNull();
      expect(node.jobs).toBeNull();
      expect(node.webhooks).toBeNull();
    });
  });

  it('a query and web node: the APIs, MCP and the web app; no collection; no background work', async () => {
    await withNode(['query', 'web'], async (node) => {
      const health = await fetch(`${node.url}/api/health`);
      expect(await health.json()).toMatchObject({ status: 'ok', roles: ['query', 'web'] });
      await notFound(`${node.url}/api/event`, 'POST');
      await notFound(`${node.url}/api/event/pixel.gif`);
      await notFound(`${node.url}/api/v1/sites/example.com/events/import`, 'POST');
      expect(await status(`${node.url}/api/v2/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).toBe(401);
      expect(await status(`${node.url}/api/v1/sites`)).toBe(401);
      expect(await status(`${node.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).toBe(401);
      expect(await status(`${node.url}/app/api/session`)).not.toBe(404);
      expect(await status(`${node.url}/js/script.js`)).toBe(200);
      // Any other GET is a page of the web app.
      expect((await fetch(`${node.url}/sites`)).headers.get('content-type')).toMatch(/text\/html/);
      expect(node.ingestion).toBeNull();
      expect(node.jobs).toBeNull();
      expect(node.webhooks).toBeNull();
    });
  });

  it('a worker node: /api/health and its background work, nothing else', async () => {
    await withNode(['worker'], async (node) => {
      expect(await (await fetch(`${node.url}/api/health`)).json()).toMatchObject({ status: 'ok', roles: ['worker'] });
      await notFound(`${node.url}/api/event`, 'POST');
      await notFound(`${node.url}/api/v1/sites`);
      await notFound(`${node.url}/sites`);
      expect(node.jobs).not.toBeNull();
      expect(node.webhooks).not.toBeNull();
    });
  });
});

describe('the deploy files', () => {
  const known = new Set<string>(CONFIG_VARIABLES.map(([name]) => name));
  const compose = readFileSync('deploy/compose.yaml', 'utf8');
  // The service blocks under `services:` that run the service's image (they merge x-svc-node).
  const nodes = compose
    .slice(compose.indexOf('\nservices:\n'))
    .split(/\n(?= {2}[a-z0-9-]+:\n)/)
    .filter((block) => block.includes('<<: *svc-node'));

  it("name only the service's own variables for its nodes (compose.yaml, the Dockerfile's ENV)", () => {
    const shared = /^x-svc-environment: &svc-environment\n((?: {2}.*\n)+)/m.exec(compose)?.[1] ?? '';
    const names = [...shared.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((match) => match[1]);
    expect(names).toEqual(expect.arrayContaining(['SECRET_KEY_BASE', 'DATABASE_URL', 'CLICKHOUSE_URL', 'STATE_URL']));
    for (const node of nodes) names.push(...[...node.matchAll(/^ {6}([A-Z][A-Z0-9_]*):/gm)].map((match) => match[1]));
    const dockerfile = readFileSync('deploy/Dockerfile', 'utf8');
    names.push(...[...dockerfile.matchAll(/^ENV ([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]));
    for (const name of names) expect(known, `${name} is not in CONFIG_VARIABLES`).toContain(name);
  });

  it('run two ingest nodes, one query+web node and one worker, each with roles svc serve takes', () => {
    const roles = nodes.map((node) => /"--role", "([^"]+)"/.exec(node)?.[1] ?? 'none');
    expect(roles.map((text) => parseRoles(text).join(','))).toEqual(['ingest', 'ingest', 'query,web', 'worker']);
  });
});
