import { type MetaDb, records } from './database.js';

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

const RULE_COLUMNS = ['id', 'kind', 'value', 'description', 'createdAt'] as const;

export async function loadSiteShields(db: MetaDb, siteId: number): Promise<SiteShields> {
  const rows = await records(db).selectFrom('site_shields').select(['kind', 'value']).where('siteId', '=', siteId).orderBy('id').execute();
  const of = (kind: ShieldKind) => rows.filter((r) => r.kind === kind).map((r) => r.value);
  return { ipRules: of('ip'), countryRules: of('country'), pageRules: of('page'), hostnameRules: of('hostname') };
}

export async function listShieldRules(db: MetaDb, siteId: number, kind: ShieldKind): Promise<ShieldRule[]> {
  const rows = await records(db).selectFrom('site_shields').select(RULE_COLUMNS).where('siteId', '=', siteId).where('kind', '=', kind).orderBy('id').execute();
  return rows;
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
    records(db)
      .selectFrom('site_shields')
      .select(RULE_COLUMNS)
      .where('siteId', '=', input.siteId)
      .where('kind', '=', input.kind)
      .where('value', '=', input.value)
      .executeTakeFirst();
  const existing = await find();
  if (existing) return { rule: existing, created: false };
  const row = await records(db)
    .insertInto('site_shields')
    .values({ siteId: input.siteId, kind: input.kind, value: input.value, description: input.description, createdAt: now })
    .onConflict((oc) => oc.columns(['siteId', 'kind', 'value']).doNothing())
    .returning(RULE_COLUMNS)
    .executeTakeFirst();
  // A concurrent identical add won the race: answer with its row.
  return row ? { rule: row, created: true } : { rule: (await find())!, created: false };
}

export async function countShieldRules(db: MetaDb, siteId: number, kind: ShieldKind): Promise<number> {
  const row = await records(db)
    .selectFrom('site_shields')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('siteId', '=', siteId)
    .where('kind', '=', kind)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** True when the rule existed and was removed. */
export async function removeShieldRule(db: MetaDb, siteId: number, kind: ShieldKind, ruleId: number): Promise<boolean> {
  const result = await records(db).deleteFrom('site_shields').where('siteId', '=', siteId).where('kind', '=', kind).where('id', '=', ruleId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
