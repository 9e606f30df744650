import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { getHeapStatistics } from 'node:v8';

/** How long a lease lasts without renewal unless LEASE_PERIOD_SECONDS says (src/stores/meta/leases.ts): a dead holder is replaced within it. */
export const DEFAULT_LEASE_PERIOD_MS = 60_000;

/** The whole service configuration, parsed once from the environment. */
export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  dataDir: string;
  clickhouse: { kind: 'embedded'; path: string; memoryLimitBytes: number } | { kind: 'server'; url: string; database: string; cluster: string | null };
  metadata: { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };
  trustedProxies: Cidr[];
  logLevel: LogLevel;
  secretKeyBase: string;
  /** Whether SECRET_KEY_BASE came from the environment or was generated into DATA_DIR (one node's own; src/config/roles.ts). */
  secretKeyBaseSource: 'environment' | 'generated';
  /** Webhook deliveries may reach private and loopback addresses (internal receivers). */
  webhookAllowPrivate: boolean;
  /** smtp:// or smtps:// server for reports, traffic notices and owner notices; null sends no email. */
  smtpUrl: string | null;
  query: QueryConfig;
  /** redis://… holding per-event state shared by several nodes (docs/scaling.md); null keeps it in this process. */
  stateUrl: string | null;
  /** Import uploads and prepared exports; several nodes share it as one volume. */
  filesDir: string;
  /** Live visits kept in this process; past it the least recently seen are read back from the store when their visitor returns. */
  liveVisitsMax: number;
  /** How long a lease lasts without renewal (src/stores/meta/leases.ts): a dead holder's work is taken over within it. */
  leasePeriodMs: number;
}

/** Guardrails and data of the query engine. */
export interface QueryConfig {
  /** Each analytics query's own `max_execution_time`. */
  timeoutSeconds: number;
  /** Each analytics query's own `max_memory_usage`. */
  memoryLimitBytes: number;
  /** Above this many events in the queried range a query is sampled unless it asks for `exact`. */
  samplingThresholdEvents: number;
  /** An operator-supplied exchange-rates JSON file; null uses the bundled snapshot. */
  exchangeRatesFile: string | null;
  /** Connections answering queries side by side (embedded: each is one engine thread of work). */
  connections: number;
  /** Statements one team may run at once; below `connections`, so other teams always find one free. */
  perTeam: number;
  /** Statements one team may have waiting; beyond, a 429. */
  waitingPerTeam: number;
  /**
   * Today's events a site needs before the roll-up job merges its day so far
   * (src/stores/clickhouse/daySoFar.ts): grouping fewer raw rows in a statement costs a millisecond
   * or two, and a day so far is 31 statements a round.
   */
  daySoFarEvents: number;
}

export interface Cidr {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A configuration problem, phrased as a sentence that names the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  /** The `code` of `svc … --json` errors. */
  constructor(
    message: string,
    readonly code = 'invalid_configuration',
  ) {
    super(message);
  }
}

/** Every variable the service reads, with its default and meaning; the README table mirrors this. */
export const CONFIG_VARIABLES = [
  ['PORT', '8000', 'HTTP port.'],
  ['HOST', '0.0.0.0', 'Address the HTTP server binds to.'],
  ['BASE_URL', 'http://localhost:$PORT', 'Public address of the service, used in tracker snippets and links.'],
  ['DATA_DIR', './data', 'Where every byte of embedded data lives (chDB, SQLite, the generated secret); created on first start.'],
  ['CLICKHOUSE_URL', '(unset: embedded chDB)', 'A ClickHouse server, e.g. http://user:pass@host:8123/db.'],
  ['CLICKHOUSE_CLUSTER', '(unset)', 'Cluster name: migrations run ON CLUSTER with Replicated and Distributed tables.'],
  ['CLICKHOUSE_MEMORY_LIMIT_MB', 'min(2048, 25% of RAM)', 'Memory cap of the embedded engine (whole engine, all queries).'],
  ['DATABASE_URL', '(unset: SQLite in DATA_DIR)', 'postgres://… to keep metadata in PostgreSQL.'],
  ['STATE_URL', '(unset: in this process)', 'redis://host:6379 to share live visits, rate limits and idempotency keys between nodes (docs/scaling.md).'],
  ['FILES_DIR', '$DATA_DIR', 'Where import uploads and prepared exports are kept; a volume every node mounts when there are several.'],
  [
    'LIVE_VISITS_MAX',
    'a thirty-second of the heap (at most 128 MiB) at 200 bytes a visit',
    'Live visits held in memory; past it the least recently seen wait on local disk (DATA_DIR/live-visits) and come back from there, or from the visits table, when their visitor returns.',
  ],
  [
    'LEASE_PERIOD_SECONDS',
    '60',
    "How long a node's lease on one-at-a-time work (roll-ups, an import, an export) lasts unrenewed: a dead holder's work is taken over within it (docs/scaling.md, Leases).",
  ],
  ['TRUSTED_PROXIES', '(none)', 'Comma-separated CIDRs whose forwarding headers (X-Forwarded-For, Forwarded, …) are believed.'],
  ['LOG_LEVEL', 'info', `One of ${LOG_LEVELS.join(', ')}.`],
  ['SECRET_KEY_BASE', '(generated into DATA_DIR)', 'Secret for signing; at least 32 characters.'],
  ['WEBHOOK_ALLOW_PRIVATE', 'false', 'true lets webhooks reach private, loopback and link-local addresses (receivers on an internal network).'],
  [
    'SMTP_URL',
    '(unset: no email)',
    'smtp://user:pass@host:587 or smtps://…:465 (optional ?from=address) to send password resets, email changes, invitations, email reports and traffic notices (docs/settings.md) and broken-webhook notices.',
  ],
  ['QUERY_TIMEOUT_SECONDS', '30', 'Time limit of one analytics query (each statement of a stats request).'],
  ['QUERY_MEMORY_LIMIT_MB', '512', 'Memory limit of one analytics query.'],
  ['QUERY_CONNECTIONS', '3 (8 with CLICKHOUSE_URL)', 'Statistics statements answered side by side, shared between teams in turn.'],
  ['QUERY_TEAM_CONCURRENCY', 'QUERY_CONNECTIONS − 1', 'Statements one team may run at once.'],
  ['QUERY_TEAM_QUEUE', '20', 'Statements one team may have waiting; beyond, 429.'],
  ['QUERY_SAMPLING_THRESHOLD', '20000000', 'Events in a queried range above which stats queries are sampled by visitor (unless `exact: true`).'],
  [
    'ROLLUP_DAY_SO_FAR_EVENTS',
    '20000',
    "Today's events a site needs before the roll-up job merges its day so far, so ranges ending today read fewer raw rows (docs/rollups.md).",
  ],
  [
    'EXCHANGE_RATES_FILE',
    '(bundled snapshot)',
    "JSON file of exchange rates used to convert revenue into each goal's currency; see the README (Querying → Revenue).",
  ],
] as const;

type Env = Record<string, string | undefined>;

/** Parse and validate the environment. Throws ConfigError naming the first bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const port = parsePort(env.PORT);
  const host = nonEmpty(env.HOST) ?? '0.0.0.0';
  const baseUrl = parseBaseUrl(env.BASE_URL, port);
  const dataDir = resolve(nonEmpty(env.DATA_DIR) ?? './data');
  const clickhouse = parseClickhouse(env, dataDir);
  const metadata = parseDatabaseUrl(env.DATABASE_URL, dataDir);
  const trustedProxies = parseTrustedProxies(env.TRUSTED_PROXIES);
  const logLevel = parseLogLevel(env.LOG_LEVEL);
  const secretKeyBase = parseSecretKeyBase(env.SECRET_KEY_BASE, dataDir);
  const secretKeyBaseSource = nonEmpty(env.SECRET_KEY_BASE) === undefined ? 'generated' : 'environment';
  const webhookAllowPrivate = parseBoolean('WEBHOOK_ALLOW_PRIVATE', env.WEBHOOK_ALLOW_PRIVATE);
  const smtpUrl = parseSmtpUrl(env.SMTP_URL);
  const query = parseQueryConfig(env);
  const stateUrl = parseStateUrl(env.STATE_URL);
  const filesDir = resolve(nonEmpty(env.FILES_DIR) ?? dataDir);
  const liveVisitsMax = parseWholeNumber('LIVE_VISITS_MAX', env.LIVE_VISITS_MAX, defaultLiveVisitsMax(), 1000);
  const leasePeriodMs = parseWholeNumber('LEASE_PERIOD_SECONDS', env.LEASE_PERIOD_SECONDS, DEFAULT_LEASE_PERIOD_MS / 1000, 1) * 1000;
  return {
    port,
    host,
    baseUrl,
    dataDir,
    clickhouse,
    metadata,
    trustedProxies,
    logLevel,
    secretKeyBase,
    secretKeyBaseSource,
    webhookAllowPrivate,
    smtpUrl,
    query,
    stateUrl,
    filesDir,
    liveVisitsMax,
    leasePeriodMs,
  };
}

/** Bytes one live visit may cost in this process (docs/collecting-events.md); the cap is sized from it. */
export const LIVE_VISIT_BYTES = 200;

/**
 * A thirty-second of the heap the process was given, at most 128 MiB, at LIVE_VISIT_BYTES each.
 * The visits live in typed arrays beside the heap, allocated in pages as they grow, and the
 * embedded engine shares the process: at this size a flood of new visitors keeps the whole
 * process under 1 GB (npm run bench:soak, docs/benchmarks.md), which twice this size did not.
 * Visits past the cap wait on local disk, so a smaller cap costs a disk read per
 * returning visitor, not a read of the store.
 */
export function defaultLiveVisitsMax(): number {
  return Math.max(1000, Math.floor(Math.min(heapLimitBytes() / 32, 128 * 2 ** 20) / LIVE_VISIT_BYTES));
}

function heapLimitBytes(): number {
  return getHeapStatistics().heap_size_limit;
}

function parseStateUrl(raw: string | undefined): string | null {
  return parseServiceUrl(raw, ['redis:', 'rediss:'], 'STATE_URL must be a Redis URL such as redis://127.0.0.1:6379 (or rediss:// for TLS).');
}

function parseWholeNumber(name: string, raw: string | undefined, fallback: number, min: number): number {
  const value = nonEmpty(raw);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min) {
    throw new ConfigError(`${name} must be a whole number, at least ${min}, got "${value}".`);
  }
  return Number(value);
}

function parseQueryConfig(env: Env): QueryConfig {
  const file = nonEmpty(env.EXCHANGE_RATES_FILE);
  if (file !== undefined && !existsSync(file)) {
    throw new ConfigError(`EXCHANGE_RATES_FILE names "${file}", which does not exist.`);
  }
  // Embedded, each connection is a thread of the one engine on this machine; a server takes more.
  const connections = parseWholeNumber('QUERY_CONNECTIONS', env.QUERY_CONNECTIONS, nonEmpty(env.CLICKHOUSE_URL) ? 8 : 3, 1);
  return {
    timeoutSeconds: parseWholeNumber('QUERY_TIMEOUT_SECONDS', env.QUERY_TIMEOUT_SECONDS, 30, 1),
    memoryLimitBytes: parseWholeNumber('QUERY_MEMORY_LIMIT_MB', env.QUERY_MEMORY_LIMIT_MB, 512, 16) * 2 ** 20,
    samplingThresholdEvents: parseWholeNumber('QUERY_SAMPLING_THRESHOLD', env.QUERY_SAMPLING_THRESHOLD, 20_000_000, 1),
    exchangeRatesFile: file === undefined ? null : resolve(file),
    connections,
    perTeam: parseWholeNumber('QUERY_TEAM_CONCURRENCY', env.QUERY_TEAM_CONCURRENCY, Math.max(1, connections - 1), 1),
    waitingPerTeam: parseWholeNumber('QUERY_TEAM_QUEUE', env.QUERY_TEAM_QUEUE, 20, 1),
    daySoFarEvents: parseWholeNumber('ROLLUP_DAY_SO_FAR_EVENTS', env.ROLLUP_DAY_SO_FAR_EVENTS, 20_000, 1),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function parsePort(raw: string | undefined): number {
  const value = nonEmpty(raw);
  if (value === undefined) return 8000;
  if (!/^\d+$/.test(value) || Number(value) > 65535) {
    throw new ConfigError(`PORT must be a whole number from 0 to 65535, got "${value}".`);
  }
  return Number(value);
}

function parseBaseUrl(raw: string | undefined, port: number): string {
  const value = nonEmpty(raw);
  if (value === undefined) return `http://localhost:${port}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`BASE_URL must be an absolute http(s) URL such as https://stats.example.com, got "${value}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`BASE_URL must use http or https, got "${url.protocol}".`);
  }
  return value.replace(/\/+$/, '');
}

function parseClickhouse(env: Env, dataDir: string): Config['clickhouse'] {
  const raw = nonEmpty(env.CLICKHOUSE_URL);
  const cluster = nonEmpty(env.CLICKHOUSE_CLUSTER) ?? null;
  if (cluster !== null && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(cluster)) {
    throw new ConfigError(`CLICKHOUSE_CLUSTER must be a plain identifier (letters, digits, underscore), got "${cluster}".`);
  }
  if (raw === undefined) {
    if (cluster !== null) throw new ConfigError('CLICKHOUSE_CLUSTER needs CLICKHOUSE_URL: the embedded engine has no cluster.');
    return { kind: 'embedded', path: join(dataDir, 'clickhouse'), memoryLimitBytes: parseMemoryLimit(env.CLICKHOUSE_MEMORY_LIMIT_MB) };
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('CLICKHOUSE_URL must be a URL such as http://user:pass@host:8123/db.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`CLICKHOUSE_URL must use http or https, got "${url.protocol}".`);
  }
  const database = decodeURIComponent(url.pathname.replace(/^\/+/, '')) || 'default';
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(database)) {
    throw new ConfigError(`CLICKHOUSE_URL names database "${database}", which is not a plain identifier.`);
  }
  return { kind: 'server', url: raw, database, cluster };
}

function parseMemoryLimit(raw: string | undefined): number {
  const value = nonEmpty(raw);
  if (value === undefined) return Math.min(2048 * 2 ** 20, Math.floor(totalmem() * 0.25));
  if (!/^\d+$/.test(value) || Number(value) < 128) {
    throw new ConfigError(`CLICKHOUSE_MEMORY_LIMIT_MB must be a whole number of megabytes, at least 128, got "${value}".`);
  }
  return Number(value) * 2 ** 20;
}

function parseDatabaseUrl(raw: string | undefined, dataDir: string): Config['metadata'] {
  const value = nonEmpty(raw);
  if (value === undefined) return { kind: 'sqlite', path: join(dataDir, 'meta.sqlite') };
  if (!/^postgres(ql)?:\/\//.test(value)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// URL (leave it unset for SQLite in DATA_DIR).');
  }
  return { kind: 'postgres', url: value };
}

export function parseCidr(text: string): Cidr | null {
  const [address = '', prefixText, ...rest] = text.trim().split('/');
  if (rest.length > 0) return null;
  const version = isIP(address);
  if (version === 0) return null;
  const max = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d+$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) return null;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

function parseTrustedProxies(raw: string | undefined): Cidr[] {
  const value = nonEmpty(raw);
  if (value === undefined) return [];
  return value.split(',').map((part) => {
    const cidr = parseCidr(part);
    if (!cidr) throw new ConfigError(`TRUSTED_PROXIES must be comma-separated addresses or CIDRs; "${part.trim()}" is not one.`);
    return cidr;
  });
}

function parseLogLevel(raw: string | undefined): LogLevel {
  const value = nonEmpty(raw)?.toLowerCase() ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(value)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${value}".`);
  }
  return value as LogLevel;
}

function parseBoolean(name: string, raw: string | undefined): boolean {
  const value = nonEmpty(raw)?.toLowerCase();
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new ConfigError(`${name} must be true or false, got "${raw}".`);
}

function parseSmtpUrl(raw: string | undefined): string | null {
  return parseServiceUrl(raw, ['smtp:', 'smtps:'], 'SMTP_URL must be a URL such as smtp://user:pass@mail.example.com:587 or smtps://mail.example.com:465.');
}

/** An optional URL of a server this service talks to, with one of `protocols` and a host. */
function parseServiceUrl(raw: string | undefined, protocols: string[], problem: string): string | null {
  const value = nonEmpty(raw);
  if (value === undefined) return null;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !protocols.includes(url.protocol) || !url.hostname) throw new ConfigError(problem);
  return value;
}

/** An unset secret is generated once and kept in DATA_DIR so restarts keep signatures valid. */
function parseSecretKeyBase(raw: string | undefined, dataDir: string): string {
  const value = nonEmpty(raw);
  if (value !== undefined) {
    if (value.length < 32) throw new ConfigError('SECRET_KEY_BASE must be at least 32 characters long.');
    return value;
  }
  const file = join(dataDir, 'secret_key_base');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
