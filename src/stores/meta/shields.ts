import type { MetaDb } from './database.js';

export const SHIELD_KINDS = ['ip', 'country', 'page', 'hostname'] as const;
export type ShieldKind = (typeof SHIELD_KINDS)[number];

/** What ingestion needs to decide whether a site's shields stop an event. */
export interface SiteShields {
  /** Addresses or CIDRs (IPv4/IPv6, optional /prefix). */
  ipRules: string[];
  /** ISO 3166-1 alpha-2, upper case. */
  countryRules: string[];
  /** Path patterns with * and ** wildcards, each starting with /. */
  pageRules: string[];
  /** Allow-list patterns with * wildcards; an empty list allows every hostname. */
  hostnameRules: string[];
}

export interface ShieldRule {
  id: number;
  kind: ShieldKind;
  value: string;
  description: string | null;
  createdAt: number;
}

type ShieldRow = { id: number; kind: ShieldKind; value: string; description: string | null; created_at: number };
const toRule = (row: ShieldRow): ShieldRule => ({ id: row.id, kind: row.kind, value: row.value, description: row.description, createdAt: row.created_at });

export async function loadSiteShields(db: MetaDb, siteId: number): Promise<SiteShields> {
  const rows = await db.selectFrom('site_shields').select(['kind', 'value']).where('site_id', '=', siteId).orderBy('id').execute();
  const of = (kind: ShieldKind) => rows.filter((r) => r.kind === kind).map((r) => r.value);
  return { ipRules: of('ip'), countryRules: of('country'), pageRules: of('page'), hostnameRules: of('hostname') };
}

export async function listShieldRules(db: MetaDb, siteId: number, kind: ShieldKind): Promise<ShieldRule[]> {
  const rows = await db.selectFrom('site_shields').selectAll().where('site_id', '=', siteId).where('kind', '=', kind).orderBy('id').execute();
  return rows.map(toRule);
}

/**
 * Find-or-create by value: adding a rule that exists returns it unchanged. `value` must already
 * be validated and normalised (src/management/shieldRules.ts), so equal rules are equal strings.
 */
export async function addShieldRule(
  db: MetaDb,
  input: { siteId: number; kind: ShieldKind; value: string; description: string | null },
  now: number,
): Promise<{ rule: ShieldRule; created: boolean }> {
  const find = () =>
    db
      .selectFrom('site_shields')
      .selectAll()
      .where('site_id', '=', input.siteId)
      .where('kind', '=', input.kind)
      .where('value', '=', input.value)
      .executeTakeFirst();
  const existing = await find();
  if (existing) return { rule: toRule(existing), created: false };
  const row = await db
    .insertInto('site_shields')
    .values({ site_id: input.siteId, kind: input.kind, value: input.value, description: input.description, created_at: now })
    .onConflict((oc) => oc.columns(['site_id', 'kind', 'value']).doNothing())
    .returningAll()
    .executeTakeFirst();
  // A concurrent identical add won the race: answer with its row.
  return row ? { rule: toRule(row), created: true } : { rule: toRule((await find())!), created: false };
}

export async function countShieldRules(db: MetaDb, siteId: number, kind: ShieldKind): Promise<number> {
  const row = await db
    .selectFrom('site_shields')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('site_id', '=', siteId)
    .where('kind', '=', kind)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** True when the rule existed and was removed. */
export async function removeShieldRule(db: MetaDb, siteId: number, kind: ShieldKind, ruleId: number): Promise<boolean> {
  const result = await db.deleteFrom('site_shields').where('site_id', '=', siteId).where('kind', '=', kind).where('id', '=', ruleId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
