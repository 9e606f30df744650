import { z } from 'zod';
import { MAX_CUSTOM_PROP_LENGTH } from '../../contracts/customProperties.js';
import { goalPayload } from '../../contracts/goals.js';
import { allowCustomProp } from '../../management/customProps.js';
import { findOrCreateGoal, goalJson, removeGoal } from '../../management/goals.js';
import { requireTeamSite } from '../../management/siteAccess.js';
import { listCustomProps } from '../../stores/meta/customProps.js';
import { listSiteGoals } from '../../stores/meta/goals.js';
import { type Tool, type ToolContext, tool } from '../registry.js';
import { siteField } from './sites.js';

const site = (ctx: ToolContext, domain: string) => requireTeamSite(ctx.deps.db, ctx.caller, domain, ctx.deps.clock.now());

// The management API's goal payload; custom_props is left out because only {} is supported.
const goalInput = goalPayload.omit({ custom_props: true }).extend({
  site_id: siteField,
  goal_type: goalPayload.shape.goal_type.describe('event: a custom event by name; page: a pageview of a path; scroll: scrolling a page past a depth.'),
  event_name: goalPayload.shape.event_name.describe('For an event goal: the event name, e.g. "Signup".'),
  page_path: goalPayload.shape.page_path.describe('For a page or scroll goal: the path, "*" as a wildcard, e.g. "/blog*".'),
  scroll_threshold: goalPayload.shape.scroll_threshold.describe('For a scroll goal: percent of the page, 0 to 100.'),
  display_name: goalPayload.shape.display_name.describe('Name shown in reports; default derived from the definition.'),
  currency: goalPayload.shape.currency.describe('For a revenue event goal: ISO 4217 code such as EUR; fixed once created.'),
});

export const setupTools: Tool[] = [
  tool({
    name: 'list_goals',
    title: 'List goals',
    description: "A site's goals (conversions): id, type, event name or page path, display name, currency.",
    scope: 'sites:read',
    effect: 'read',
    input: z.strictObject({ site_id: siteField }),
    run: async ({ site_id }, ctx) => {
      const found = await site(ctx, site_id);
      return { goals: (await listSiteGoals(ctx.deps.db, found.id)).map((goal) => goalJson(goal, found.domain)) };
    },
  }),
  tool({
    name: 'create_goal',
    title: 'Create a goal',
    description:
      'Adds a goal to a site, or answers the existing one when the same definition exists. Conversions are counted from the events already recorded too.',
    scope: 'sites:provision',
    effect: 'write',
    input: goalInput,
    run: async (args, ctx) => {
      const now = ctx.deps.clock.now();
      const found = await site(ctx, args.site_id);
      const { goal, created } = await findOrCreateGoal(ctx.deps.db, found.id, args, now);
      // Revenue goals decide at ingestion which currency an amount is reported in.
      if (created) ctx.deps.siteChanged(found.id);
      return { created, goal: goalJson(goal, found.domain) };
    },
  }),
  tool({
    name: 'delete_goal',
    title: 'Delete a goal',
    description: 'Removes a goal (by id, from list_goals) from a site. Recorded events stay; reports simply stop counting it.',
    scope: 'sites:provision',
    effect: 'delete',
    input: z.strictObject({ site_id: siteField, goal_id: z.number().int().positive().describe('The goal id, from list_goals.') }),
    run: async ({ site_id, goal_id }, ctx) => {
      const found = await site(ctx, site_id);
      await removeGoal(ctx.deps.db, found.id, goal_id);
      ctx.deps.siteChanged(found.id);
      return { deleted: true, goal_id };
    },
  }),
  tool({
    name: 'list_custom_properties',
    title: 'List custom properties',
    description: 'The custom event properties a site allows in reports (usable as event:props:<name> dimensions and filters).',
    scope: 'sites:read',
    effect: 'read',
    input: z.strictObject({ site_id: siteField }),
    run: async ({ site_id }, ctx) => ({ custom_properties: await listCustomProps(ctx.deps.db, (await site(ctx, site_id)).id) }),
  }),
  tool({
    name: 'add_custom_property',
    title: 'Add a custom property',
    description: "Allows a custom event property in a site's reports; adding one already allowed changes nothing.",
    scope: 'sites:provision',
    effect: 'write',
    input: z.strictObject({
      site_id: siteField,
      property: z.string().min(1).max(MAX_CUSTOM_PROP_LENGTH).describe('The property name as events send it, e.g. "plan".'),
    }),
    run: async ({ site_id, property }, ctx) => {
      const found = await site(ctx, site_id);
      await allowCustomProp(ctx.deps.db, found.id, property, ctx.deps.clock.now());
      return { custom_properties: await listCustomProps(ctx.deps.db, found.id) };
    },
  }),
];
