import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ClickHouseClient, createClient } from '@clickhouse/client';
import { registerSite } from '../../src/management/sites.js';
import { createApiKey } from '../../src/stores/meta/apiKeys.js';
import { type MetaStore, openMetaStore } from '../../src/stores/meta/database.js';
import { createUserWithTeam } from '../../src/stores/meta/users.js';
import { answersPing, freePort } from '../state/redisServer.js';
import { freshPostgresDatabase } from './postgres.js';
import type { Account } from './testApp.js';

/**
 * Several nodes of the service as real processes on this machine (docs/scaling.md): one Redis, a fresh
 * PostgreSQL database, one ClickHouse stand-in (test/support/clickhouseStandIn.ts) and any number
 * of `./bin/svc serve --role …` nodes, each with its own DATA_DIR (its ingestion journal) and all
 * sharing SECRET_KEY_BASE, DATABASE_URL, CLICKHOUSE_URL, STATE_URL and FILES_DIR, as
 * docs/scaling.md says nodes must. Runs the built service (dist/): `npm test` builds it first.
 *
 * Needs TEST_DATABASE_URL (PostgreSQL, as CI sets it) and `redis-server`; `multiNodeSkip` says why
 * a machine cannot run these tests.
 */

/** Why the multi-node tests cannot run here, or null when they can. */
export const multiNodeSkip: string | null = process.env.TEST_DATABASE_URL ? null : 'TEST_DATABASE_URL is not set (the nodes share a PostgreSQL database)';

/** The client address every node believes forwarding headers from: the test itself. */
const TRUSTED_PROXIES = '127.0.0.1';
/** Kept of each child's output for failure messages: the tail, as the head is start-up noise. */
const OUTPUT_KEPT = 64 * 1024;

/** A child process whose output tail is kept, and whose exit is awaited on stop. */
class Child {
  output = '';
  readonly exited: Promise<number | null>;
  constructor(readonly process: ChildProcess) {
    this.exited = new Promise((resolve) => process.once('exit', (code) => resolve(code)));
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-OUTPUT_KEPT);
    };
    process.stdout?.on('data', keep);
    process.stderr?.on('data', keep);
  }
  get running(): boolean {
    return this.process.exitCode === null && this.process.signalCode === null;
  }
  /** Resolves with the first match of `pattern` in the output; rejects if the process exits first or `timeoutMs` passes. */
  waitFor(pattern: RegExp, what: string, timeoutMs = 60_000): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(this.output);
        if (!match) return false;
        done();
        resolve(match);
        return true;
      };
      const onData = () => check();
      const timer = setTimeout(() => {
        done();
        reject(new Error(`${what} did not start within ${timeoutMs / 1000} s:\n${this.output}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.process.stdout?.off('data', onData);
        this.process.stderr?.off('data', onData);
      };
      if (check()) return;
      this.process.stdout?.on('data', onData);
      this.process.stderr?.on('data', onData);
      this.exited.then((code) => {
        if (check()) return;
        done();
        reject(new Error(`${what} exited with ${code} before it was ready:\n${this.output}`));
      });
    });
  }
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    // A paused process would hold the signal until it is continued.
    if (this.running) this.process.kill('SIGCONT');
    if (this.running) this.process.kill(signal);
    return this.exited;
  }
  /** SIGSTOP: the process runs no code (answers nothing, renews no lease) until `resume`. */
  pause(): void {
    if (this.running) this.process.kill('SIGSTOP');
  }
  resume(): void {
    if (this.running) this.process.kill('SIGCONT');
  }
}

/** Every child of this test process, killed if the process exits without tearing down (a crashed test file). */
const everyChild = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of everyChild) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function spawnChild(command: string, args: string[], env?: Record<string, string>): Child {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  everyChild.add(child);
  child.once('exit', () => everyChild.delete(child));
  return new Child(child);
}

export interface MultiNodeRedis {
  url: string;
  /** Stops it (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty: it saves nothing. */
  start(): Promise<void>;
  readonly running: boolean;
}

async function startRedis(dir: string): Promise<MultiNodeRedis> {
  const port = await freePort();
  let child: Child | null = null;
  const start = async () => {
    child = spawnChild('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no']);
    for (let i = 0; i < 400; i++) {
      if (await answersPing(port)) return;
      if (!child.running) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`redis-server on port ${port} did not start:\n${child.output}`);
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    start,
    async stop() {
      const running = child;
      child = null;
      await running?.stop();
    },
    get running() {
      return child?.running ?? false;
    },
  };
}

async function startStandIn(dataDir: string): Promise<{ child: Child; url: string }> {
  const child = spawnChild(process.execPath, ['scripts/clickhouse-stand-in.mjs', '--port', '0', '--data', dataDir, '--memory-mb', '1024']);
  const match = await child.waitFor(/listening on (http:\/\/\S+)/, 'the ClickHouse stand-in');
  return { child, url: match[1] ?? '' };
}

/** One `./bin/svc serve --role …` process, restartable on its DATA_DIR. */
export class ServiceNode {
  child: Child | null = null;
  url = '';
  constructor(
    readonly name: string,
    readonly roles: string,
    readonly dataDir: string,
    private readonly env: Record<string, string>,
  ) {}

  /** Starts the process and resolves once it logs the address it listens on. */
  async start(): Promise<this> {
    if (this.child?.running) throw new Error(`node ${this.name} is already running`);
    this.child = spawnChild(process.execPath, ['bin/svc', 'serve', '--role', this.roles], this.env);
    const match = await this.child.waitFor(/listening on (http:\/\/[^\s"]+)/, `node ${this.name} (--role ${this.roles})`);
    this.url = (match[1] ?? '').replace('0.0.0.0', '127.0.0.1');
    return this;
  }

  get running(): boolean {
    return this.child?.running ?? false;
  }

  /** Everything the node printed lately (the tail), for failure messages. */
  get output(): string {
    return this.child?.output ?? '';
  }

  /** The process id, which its lease holder names start with (`hostname:pid:…`, src/stores/meta/leases.ts NODE_ID). */
  get pid(): number | undefined {
    return this.child?.process.pid;
  }

  /** SIGSTOP until `resume`: a node frozen mid-work, as a machine that stalls. */
  pause(): void {
    this.child?.pause();
  }

  resume(): void {
    this.child?.resume();
  }

  /** SIGKILL: nothing is drained, flushed or closed; resolves once the process is gone. */
  async kill(): Promise<void> {
    await this.child?.stop('SIGKILL');
  }

  /** SIGTERM, as an operator stops a node; resolves with its exit code. */
  async stop(): Promise<number | null> {
    return (await this.child?.stop('SIGTERM')) ?? null;
  }

  /** Starts it again on the same DATA_DIR (its journal is replayed), after a kill or a stop. */
  restart(): Promise<this> {
    return this.start();
  }
}

export interface MultiNode {
  redis: MultiNodeRedis;
  databaseUrl: string;
  clickhouseUrl: string;
  /** The event store as the nodes see it, for reading what was stored. */
  clickhouse: ClickHouseClient;
  /** SIGSTOP and SIGCONT of the ClickHouse stand-in: every node's event-store statement waits meanwhile. */
  pauseClickhouse(): void;
  resumeClickhouse(): void;
  filesDir: string;
  nodes: ServiceNode[];
  /**
   * Starts a node with the given roles (`ingest`, `query,web`, …) and its own DATA_DIR; `env`
   * adds to or overrides the shared environment. The first node to start migrates the stores.
   */
  startNode(name: string, roles: string, env?: Record<string, string>): Promise<ServiceNode>;
  /** The shared metadata store (PostgreSQL), opened on first use: start a node first, it migrates it. */
  meta(): Promise<MetaStore>;
  /** A user, their team, a site and an API key with every scope, written to the shared metadata store. */
  createAccount(options?: { domain?: string }): Promise<Account>;
  /** Runs a query on the shared event store. */
  rows<T>(query: string, params?: Record<string, unknown>): Promise<T[]>;
  /** Stops every node, the stand-in and Redis, drops the database and removes the directories; safe to call twice. */
  close(): Promise<void>;
}

/** Brings up Redis, a fresh PostgreSQL database and the ClickHouse stand-in; nodes come with `startNode`. */
export async function startMultiNode(): Promise<MultiNode> {
  const root = mkdtempSync(join(tmpdir(), 'svc-multi-'));
  const made: { close(): Promise<void> }[] = [];
  const closeAll = async () => {
    // Nodes first (they drain into the stores), then the stores, then the files.
    for (const part of made.reverse()) await part.close().catch(() => {});
    made.length = 0;
    rmSync(root, { recursive: true, force: true });
  };
  try {
    const redisDir = mkdtempSync(join(root, 'redis-'));
    const redis = await startRedis(redisDir);
    made.push({ close: () => redis.stop() });
    const postgres = await freshPostgresDatabase();
    if (!postgres) throw new Error(multiNodeSkip ?? 'no PostgreSQL');
    made.push({ close: () => postgres.drop() });
    const standIn = await startStandIn(mkdtempSync(join(root, 'clickhouse-')));
    made.push({
      close: async () => {
        await standIn.child.stop();
      },
    });
    const clickhouseUrl = `${standIn.url}/svc_multi`;
    const clickhouse = createClient({ url: standIn.url, database: 'svc_multi', clickhouse_settings: { output_format_json_quote_64bit_integers: 1 } });
    made.push({ close: () => clickhouse.close() });
    const filesDir = mkdtempSync(join(root, 'files-'));
    const shared: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      SECRET_KEY_BASE: randomBytes(32).toString('hex'),
      DATABASE_URL: postgres.url,
      CLICKHOUSE_URL: clickhouseUrl,
      STATE_URL: redis.url,
      FILES_DIR: filesDir,
      TRUSTED_PROXIES,
      LOG_LEVEL: 'info',
    };
    const nodes: ServiceNode[] = [];
    made.push({
      close: async () => {
        await Promise.all(nodes.map((node) => node.stop()));
      },
    });
    let meta: MetaStore | null = null;
    made.push({ close: async () => meta?.close() });
    const openMeta = async () => {
      meta ??= await openMetaStore({ kind: 'postgres', url: postgres.url });
      return meta;
    };
    let accounts = 0;
    const set: MultiNode = {
      redis,
      databaseUrl: postgres.url,
      clickhouseUrl,
      clickhouse,
      pauseClickhouse: () => standIn.child.pause(),
      resumeClickhouse: () => standIn.child.resume(),
      filesDir,
      nodes,
      async startNode(name, roles, env = {}) {
        const dataDir = mkdtempSync(join(root, `node-${name}-`));
        const node = new ServiceNode(name, roles, dataDir, { ...shared, DATA_DIR: dataDir, ...env });
        nodes.push(node);
        return node.start();
      },
      meta: openMeta,
      async createAccount(options = {}) {
        accounts += 1;
        const { db } = await openMeta();
        const now = Date.now();
        const tag = `${accounts}-${randomBytes(3).toString('hex')}`;
        const { userId, teamId } = await createUserWithTeam(db, { email: `owner-${tag}@example.com`, name: `Owner ${tag}` }, now);
        const site = await registerSite(db, { teamId, domain: options.domain ?? `site-${tag}.example.com`, timezone: 'Etc/UTC' }, now);
        const { record, key } = await createApiKey(db, { teamId, userId, name: 'multi-node test' }, now);
        return { userId, teamId, key, keyId: record.id, domain: site.domain, siteId: site.id };
      },
      async rows<T>(query: string, params: Record<string, unknown> = {}) {
        return (await clickhouse.query({ query, query_params: params, format: 'JSONEachRow' })).json<T>();
      },
      close: closeAll,
    };
    return set;
  } catch (error) {
    await closeAll();
    throw error;
  }
}

/** Polls `read` every 100 ms until `done` holds of its value or `timeoutMs` passes; returns the last value read. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const started = performance.now();
  for (;;) {
    const value = await read();
    if (done(value) || performance.now() - started > timeoutMs) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs `work` for each item with at most `width` at once. */
export async function inParallel<T>(items: readonly T[], width: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index] as T, index);
      }
    }),
  );
}
