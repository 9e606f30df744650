import type { FastifyInstance } from 'fastify';
import { CLASSIFICATIONS } from '../../../classifications.js';
import type { Acknowledgement } from '../../../contracts/acknowledgements.js';
import type * as contract from '../../../contracts/shields.js';
import { type Classifications, classificationChoice, type ShieldRuleList, type ShieldRules, shieldRuleAddition } from '../../../contracts/shields.js';
import { badRequest, notFound } from '../../../errors.js';
import { parseId, parsePayload } from '../../../management/payload.js';
import { MAX_RULES_PER_KIND, normaliseShieldRule } from '../../../management/shieldRules.js';
import { requireTeamSite } from '../../../management/siteAccess.js';
import {
  addShieldRule,
  countShieldRules,
  listShieldRules,
  removeShieldRule,
  SHIELD_KINDS,
  type ShieldKind,
  type ShieldRule,
} from '../../../stores/meta/shields.js';
import { includedClassifications, setIncludedClassifications } from '../../../stores/meta/siteSettings.js';
import { singleValued } from '../../requestParts.js';
import { bodyWithSiteId, isoTime, type ManagementDeps, PROVISION, READ, siteIdParameter } from './context.js';

function parseKind(raw: string): ShieldKind {
  const kind = SHIELD_KINDS.find((known) => known === raw);
  if (kind === undefined) throw notFound(`There are no "${raw}" shields; the kinds are ${SHIELD_KINDS.join(', ')}.`);
  return kind;
}

const ruleJson = (rule: ShieldRule): contract.ShieldRule => ({
  id: rule.id,
  value: rule.value,
  description: rule.description,
  created_at: isoTime(rule.createdAt),
});

/** Shields (exclusion rules applied at ingestion) and which classified traffic reports include. */
export function shieldRoutes(app: FastifyInstance, deps: ManagementDeps): void {
  const { db, clock } = deps;

  app.get('/api/v1/sites/shields', READ, async (request): Promise<ShieldRules> => {
    const site = await requireTeamSite(db, request.caller, siteIdParameter(request), clock.now());
    const entries = await Promise.all(SHIELD_KINDS.map(async (kind) => [kind, (await listShieldRules(db, site.id, kind)).map(ruleJson)] as const));
    return Object.fromEntries(entries);
  });

  app.get('/api/v1/sites/shields/:kind', READ, async (request): Promise<ShieldRuleList> => {
    const kind = parseKind(singleValued(request.params).kind ?? '');
    const site = await requireTeamSite(db, request.caller, siteIdParameter(request), clock.now());
    return { rules: (await listShieldRules(db, site.id, kind)).map(ruleJson) };
  });

  app.put('/api/v1/sites/shields/:kind', PROVISION, async (request): Promise<contract.ShieldRule> => {
    const kind = parseKind(singleValued(request.params).kind ?? '');
    const body = parsePayload(shieldRuleAddition, bodyWithSiteId(request));
    const now = clock.now();
    const site = await requireTeamSite(db, request.caller, body.site_id, now);
    const value = normaliseShieldRule(kind, body.value);
    const existing = (await listShieldRules(db, site.id, kind)).find((rule) => rule.value === value);
    if (existing) return ruleJson(existing);
    if ((await countShieldRules(db, site.id, kind)) >= MAX_RULES_PER_KIND) {
      throw badRequest('too_many_shield_rules', `A site can have at most ${MAX_RULES_PER_KIND} ${kind} rules; remove one first.`);
    }
    const { rule } = await addShieldRule(db, { siteId: site.id, kind, value, description: body.description?.trim() || null }, now);
    deps.siteChanged(site.id);
    return ruleJson(rule);
  });

  app.delete('/api/v1/sites/shields/:kind/:rule_id', PROVISION, async (request): Promise<Acknowledgement<'deleted'>> => {
    const params = singleValued(request.params);
    const kind = parseKind(params.kind ?? '');
    const ruleId = parseId(params.rule_id, 'The rule id');
    const site = await requireTeamSite(db, request.caller, siteIdParameter(request), clock.now());
    if (!(await removeShieldRule(db, site.id, kind, ruleId))) throw notFound('Shield rule could not be found.');
    deps.siteChanged(site.id);
    return { deleted: true };
  });

  app.get('/api/v1/sites/classifications', READ, async (request): Promise<Classifications> => {
    const site = await requireTeamSite(db, request.caller, siteIdParameter(request), clock.now());
    return { included: await includedClassifications(db, site.id), reasons: CLASSIFICATIONS };
  });

  app.put('/api/v1/sites/classifications', PROVISION, async (request): Promise<Classifications> => {
    const body = parsePayload(classificationChoice, bodyWithSiteId(request));
    const now = clock.now();
    const site = await requireTeamSite(db, request.caller, body.site_id, now);
    const included = await setIncludedClassifications(db, site.id, body.included, now);
    deps.siteChanged(site.id);
    return { included, reasons: CLASSIFICATIONS };
  });
}
