import { z } from 'zod';
import { funnel } from './funnels.js';
import { goal } from './goals.js';
import { pageMeta, pageQuery } from './paging.js';

/**
 * Per-site tracker options, named as in Plausible's `tracker_script_configuration`, so a
 * provisioning tool can send the same object to either service.
 */
export const TRACKER_FLAGS = [
  'hash_based_routing',
  'outbound_links',
  'file_downloads',
  'form_submissions',
  'tagged_events',
  'revenue_tracking',
  'pageview_props',
  'track_404_pages',
] as const;
export type TrackerFlag = (typeof TRACKER_FLAGS)[number];

export const INSTALLATION_TYPES = ['manual', 'wordpress', 'gtm', 'npm'] as const;

const flag = z.boolean().optional();

/** A change of the options: the flags it names (src/management/trackerSnippet.ts merges it into the stored ones). */
export const trackerConfigurationChange = z.strictObject({
  installation_type: z.enum(INSTALLATION_TYPES).nullable().optional(),
  hash_based_routing: flag,
  outbound_links: flag,
  file_downloads: flag,
  form_submissions: flag,
  tagged_events: flag,
  revenue_tracking: flag,
  pageview_props: flag,
  track_404_pages: flag,
});
export type TrackerConfigurationChange = z.infer<typeof trackerConfigurationChange>;

/** The options as stored: every flag present. */
export const trackerConfiguration = z.object({
  installation_type: z.enum(INSTALLATION_TYPES).nullable(),
  hash_based_routing: z.boolean(),
  outbound_links: z.boolean(),
  file_downloads: z.boolean(),
  form_submissions: z.boolean(),
  tagged_events: z.boolean(),
  revenue_tracking: z.boolean(),
  pageview_props: z.boolean(),
  track_404_pages: z.boolean(),
}) satisfies z.ZodType<Record<TrackerFlag, boolean>>;
export type TrackerConfiguration = z.infer<typeof trackerConfiguration>;

/** Days of raw events kept once rolled up, or null for forever; the bounds are the store's (parseRawRetentionDays). */
const rawRetentionDays = z.number().nullable().optional();
const teamId = z.union([z.string(), z.number().int()]);

/** GET /api/v1/sites: its query string. */
export const siteListQuery = z.strictObject({ team_id: z.string().optional(), ...pageQuery.shape });
/** GET /api/v1/sites/teams: its query string. */
export const teamListQuery = pageQuery;

/** POST /api/v1/sites. */
export const siteCreation = z.strictObject({
  domain: z.string(),
  timezone: z.string().optional(),
  team_id: teamId.optional(),
  tracker_script_configuration: trackerConfigurationChange.optional(),
  raw_retention_days: rawRetentionDays,
});

/** PUT /api/v1/sites/:site_id: at least one of these. */
export const siteUpdate = z.strictObject({
  domain: z.string().optional(),
  timezone: z.string().optional(),
  tracker_script_configuration: trackerConfigurationChange.optional(),
  raw_retention_days: rawRetentionDays,
});

/** How long raw events are kept (docs/rollups.md, Retention). */
const rawRetentionFields = {
  /** Days of raw events kept once rolled up; null: forever. */
  raw_retention_days: z.number().nullable(),
  /** The first day whose raw events are all kept; null while none was deleted. */
  raw_events_from: z.string().nullable(),
};
export const rawRetention = z.object(rawRetentionFields);
export type RawRetention = z.infer<typeof rawRetention>;

/** A site as GET, POST and PUT /api/v1/sites… answer it. */
export const site = z.object({
  domain: z.string(),
  timezone: z.string(),
  custom_properties: z.array(z.string()),
  tracker_script_configuration: trackerConfiguration,
  ...rawRetentionFields,
});
export type Site = z.infer<typeof site>;

/** GET /api/v1/sites. */
export const siteList = z.object({ sites: z.array(z.object({ domain: z.string(), timezone: z.string() })), meta: pageMeta });
export type SiteList = z.infer<typeof siteList>;

/** GET /api/v1/sites/teams: the key's one team. */
export const teamList = z.object({ teams: z.array(z.object({ id: z.string(), name: z.string(), api_available: z.boolean() })), meta: pageMeta });
export type TeamList = z.infer<typeof teamList>;

/** The tracker snippet of a site (src/management/trackerSnippet.ts). */
export const trackerSnippet = z.object({
  script_url: z.string(),
  /** Paste into <head>: the script, the command queue for custom events, and the no-script pixel. */
  snippet: z.string(),
  /** For pages that run no script at all (e-mail, AMP, markdown hosts): an image that records a pageview. */
  pixel: z.string(),
  /** With track_404_pages: one more line for the site's 404 page only; otherwise null. */
  not_found_page_snippet: z.string().nullable(),
  tracker_script_configuration: trackerConfiguration,
});
export type TrackerSnippet = z.infer<typeof trackerSnippet>;

/** GET /api/v1/sites/:site_id/snippet. */
export const siteSnippet = trackerSnippet.extend({ domain: z.string() });
export type SiteSnippet = z.infer<typeof siteSnippet>;

/**
 * What a dashboard knows of its site before it asks for numbers (src/web/siteDescription.ts):
 * GET /app/api/share/:slug answers this.
 */
export const siteDescription = z.object({
  domain: z.string(),
  timezone: z.string(),
  created_at: z.string(),
  locked: z.boolean(),
  locked_reason: z.string().nullable(),
  goals: z.array(goal),
  funnels: z.array(funnel),
  custom_properties: z.array(z.string()),
  ...rawRetentionFields,
});
export type SiteDescription = z.infer<typeof siteDescription>;

/** GET /app/api/sites/:domain: the description, with the viewer's team, role and whether they are a guest. */
export const viewedSite = siteDescription.extend({ team_id: z.number(), role: z.string(), guest: z.boolean() });
export type ViewedSite = z.infer<typeof viewedSite>;

/** GET /app/api/sites/:domain/previous-domain. */
export const previousDomain = z.object({ previous_domain: z.string().nullable(), valid_until: z.string().nullable() });
export type PreviousDomain = z.infer<typeof previousDomain>;

/** GET /app/api/sites/:domain/received-names: custom event names and property keys the site received lately, most frequent first. */
export const receivedNames = z.object({ event_names: z.array(z.string()), property_keys: z.array(z.string()) });
export type ReceivedNames = z.infer<typeof receivedNames>;
