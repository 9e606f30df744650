import { z } from 'zod';
import { funnelJson } from '../../management/funnels.js';
import { goalJson } from '../../management/goals.js';
import { visibleSegments } from '../../management/segments.js';
import { requireTeamSite } from '../../management/siteAccess.js';
import { DIMENSIONS, TIME_DIMENSIONS } from '../../query/catalog.js';
import { METRICS, PROP_AGGREGATES } from '../../query/metrics.js';
import { siteDataDays } from '../../query/run/engine.js';
import { listCustomProps } from '../../stores/meta/customProps.js';
import { listFunnels } from '../../stores/meta/funnels.js';
import { listSiteGoals } from '../../stores/meta/goals.js';
import { completedImports } from '../../stores/meta/imports.js';
import { listTeamSites } from '../../stores/meta/sites.js';
import { type Tool, type ToolContext, tool } from '../registry.js';

export const siteField = z.string().min(1).describe('The site\'s domain exactly as list_sites gives it, e.g. "example.com".');

const SITE_PAGE = 100;

/** Everything an assistant needs before asking about a site; also served as the site's resource. */
export async function describeSite(ctx: ToolContext, domain: string) {
  const { db, clock, engine } = ctx.deps;
  const site = await requireTeamSite(db, ctx.caller, domain, clock.now());
  const [goals, funnels, props, days, imports, segments] = await Promise.all([
    listSiteGoals(db, site.id),
    listFunnels(db, site.id),
    listCustomProps(db, site.id),
    siteDataDays(engine, ctx.caller.teamId, site.domain),
    completedImports(db, site.id),
    visibleSegments(db, site, ctx.caller),
  ]);
  const imported = imports.length > 0 ? { imported_days: imports.map(({ from, to }) => ({ from, to })) } : {};
  return {
    domain: site.domain,
    timezone: site.timezone,
    data: {
      ...(days.first === null ? { first_day: null, last_day: null, note: 'No events recorded yet.' } : { first_day: days.first, last_day: days.last }),
      ...imported,
    },
    goals: goals.map((goal) => goalJson(goal, site.domain)),
    funnels: funnels.map((funnel) => funnelJson(funnel, goals)),
    custom_properties: props,
    // Saved segments the query tool filters on with ["is", "segment", [id]].
    segments: segments.map(({ id, name, type, filters }) => ({ id, name, type, filters })),
    metrics: [...METRICS, ...PROP_AGGREGATES.map((fn) => `${fn}(event:props:<name>)`), 'p50…p99(event:props:<name>)'],
    dimensions: [...Object.keys(DIMENSIONS), 'event:goal', ...props.map((p) => `event:props:${p}`), ...TIME_DIMENSIONS],
  };
}

export const siteTools: Tool[] = [
  tool({
    name: 'list_sites',
    title: 'List sites',
    description: `Lists the sites of this API key's team (domain and time zone), ${SITE_PAGE} at a time. Start here: every other tool takes a site's domain as site_id.`,
    scope: 'sites:read',
    effect: 'read',
    input: z.strictObject({
      after: z.string().optional().describe('Continue after this domain (the last one of the previous page).'),
    }),
    run: async ({ after }, ctx) => {
      const { db, clock } = ctx.deps;
      const afterId = after === undefined ? undefined : (await requireTeamSite(db, ctx.caller, after, clock.now())).id;
      const sites = await listTeamSites(db, ctx.caller.teamId, { limit: SITE_PAGE + 1, afterId });
      const shown = sites.slice(0, SITE_PAGE);
      return {
        sites: shown.map((site) => ({ domain: site.domain, timezone: site.timezone })),
        ...(sites.length > SITE_PAGE ? { more: `More sites exist; call again with after "${shown.at(-1)!.domain}".` } : {}),
      };
    },
  }),
  tool({
    name: 'describe_site',
    title: 'Describe a site',
    description:
      'A site\'s set-up and what can be asked about it: time zone (date ranges and days are in it), goals, funnels, saved segments (the query tool filters on one with ["is", "segment", [id]]), allowed custom properties, the metrics and dimensions the query tool accepts, the first and last day with recorded events and the days of imported history. Call it before building a query.',
    scope: 'sites:read',
    effect: 'read',
    input: z.strictObject({ site_id: siteField }),
    run: ({ site_id }, ctx) => describeSite(ctx, site_id),
  }),
];
