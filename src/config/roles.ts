import { type Config, ConfigError } from './config.js';

/**
 * What a process of the service does (`svc serve --role …`, docs/scaling.md). Every part of the
 * service belongs to exactly one role; a node builds and serves only the parts of its roles.
 */
export const NODE_ROLES = ['ingest', 'query', 'web', 'worker'] as const;
export type NodeRole = (typeof NODE_ROLES)[number];

/** What each role serves and runs, as `svc serve --help` and docs/scaling.md describe it. */
export const NODE_ROLE_PARTS: Record<NodeRole, string> = {
  ingest: '/api/event, the pixel and the NDJSON event import',
  query: 'the stats APIs (v1, v2), the management and webhooks APIs, and MCP',
  web: 'the web app, its session routes and the tracker script',
  worker: 'roll-ups, retention, purges, webhook deliveries, imports and prepared exports',
};

/** The `code` of a --role that names no known role. */
export const INVALID_ROLE = 'invalid_role';

/** The word for every role at once; `svc serve` and `npm start` default to it. */
export const ALL_ROLES_WORD = 'all';

export function allRoles(): NodeRole[] {
  return [...NODE_ROLES];
}

/** True when the node has every role, as a single-process install does. */
export function hasAllRoles(roles: readonly NodeRole[]): boolean {
  return NODE_ROLES.every((role) => roles.includes(role));
}

/**
 * `ingest,query` (any order, spaces allowed, repeats ignored) or `all`, into roles in the order
 * of NODE_ROLES. Throws ConfigError with one sentence naming what is wrong.
 */
export function parseRoles(text: string): NodeRole[] {
  const words = text
    .split(',')
    .map((word) => word.trim().toLowerCase())
    .filter((word) => word !== '');
  const accepted = `${NODE_ROLES.join(', ')} or ${ALL_ROLES_WORD}`;
  if (words.length === 0) throw new ConfigError(`--role needs at least one role: ${accepted}.`, INVALID_ROLE);
  if (words.includes(ALL_ROLES_WORD)) {
    if (words.length > 1) throw new ConfigError(`--role ${ALL_ROLES_WORD} already means every role; give it alone.`, INVALID_ROLE);
    return allRoles();
  }
  const unknown = words.filter((word) => !(NODE_ROLES as readonly string[]).includes(word));
  if (unknown.length > 0) {
    const named = unknown.map((word) => `"${word}"`).join(', ');
    throw new ConfigError(
      `${unknown.length > 1 ? 'Roles' : 'Role'} ${named} ${unknown.length > 1 ? 'are' : 'is'} not known; the roles are ${accepted}.`,
      INVALID_ROLE,
    );
  }
  return NODE_ROLES.filter((role) => words.includes(role));
}

/** `ingest,query`, or `all` for every role. */
export function describeRoles(roles: readonly NodeRole[]): string {
  return hasAllRoles(roles) ? ALL_ROLES_WORD : roles.join(',');
}

/**
 * Why this node may not start, in one sentence, or null when it may. A node that is not `all`,
 * or any node with STATE_URL set, runs beside other nodes, so it needs what they share: the
 * secret from the environment (a generated one differs per node, breaking sign-in sessions and
 * sealed webhook secrets), PostgreSQL (SQLite belongs to one host) and a ClickHouse server
 * (embedded chDB belongs to one host).
 */
export function multiNodeRefusal(
  config: Pick<Config, 'secretKeyBaseSource' | 'metadata' | 'clickhouse' | 'stateUrl'>,
  roles: readonly NodeRole[],
): string | null {
  const partial = !hasAllRoles(roles);
  if (!partial && config.stateUrl === null) return null;
  const missing: string[] = [];
  if (config.secretKeyBaseSource !== 'environment') missing.push('SECRET_KEY_BASE set in the environment (a generated secret differs per node)');
  if (config.metadata.kind !== 'postgres') missing.push('a PostgreSQL DATABASE_URL (SQLite belongs to one host)');
  if (config.clickhouse.kind !== 'server') missing.push('CLICKHOUSE_URL (embedded chDB belongs to one host)');
  if (missing.length === 0) return null;
  const why = partial ? `A node with --role ${roles.join(',')} runs beside other nodes` : 'With STATE_URL set this node runs beside other nodes';
  return `${why}, so it needs ${listed(missing)}.`;
}

function listed(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The `code` of the refusal (`svc serve --json`). */
export const MULTI_NODE_REFUSAL = 'missing_configuration';

/** Throws the refusal as a ConfigError: `svc serve` prints it and exits 2, createNode throws it. */
export function assertMayStart(config: Parameters<typeof multiNodeRefusal>[0], roles: readonly NodeRole[]): void {
  const refusal = multiNodeRefusal(config, roles);
  if (refusal !== null) throw new ConfigError(refusal, MULTI_NODE_REFUSAL);
}
