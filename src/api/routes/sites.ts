import type { FastifyInstance } from 'fastify';
import type { Acknowledgement } from '../../contracts/acknowledgements.js';
import type * as contract from '../../contracts/sites.js';
import {
  type SiteList,
  type SiteSnippet,
  siteCreation,
  siteListQuery,
  siteUpdate,
  type TeamList,
  type TrackerConfiguration,
  type TrackerConfigurationChange,
  teamListQuery,
} from '../../contracts/sites.js';
import { AppError, badRequest } from '../../errors.js';
import { parsePayload } from '../../management/payload.js';
import { checkTeamParameter, requireRole, requireTeamSite } from '../../management/siteAccess.js';
import { rawRetentionJson, registerSite } from '../../management/sites.js';
import { completeTrackerConfiguration, mergeTrackerConfiguration, renderTrackerSnippet } from '../../management/trackerSnippet.js';
import { listCustomProps } from '../../stores/meta/customProps.js';
import { setTrackerScriptConfiguration, trackerScriptConfiguration } from '../../stores/meta/siteSettings.js';
import { deleteSite, listTeamSites, type Site, updateSite } from '../../stores/meta/sites.js';
import { requireTeam } from '../../stores/meta/teams.js';
import { fetchPage, pageOfList, parsePageRequest } from '../pagination.js';
import { singleValued } from '../requestParts.js';
import { type ManagementDeps, PROVISION, READ } from './management/context.js';

const teamNotFound = () => new AppError(404, 'not_found', 'Team could not be found.');

/** Sites in Plausible's Sites API shapes, plus the tracker snippet. */
export function siteRoutes(app: FastifyInstance, deps: ManagementDeps): void {
  const { db, clock } = deps;

  async function siteJson(site: Site): Promise<contract.Site> {
    return {
      domain: site.domain,
      timezone: site.timezone,
      custom_properties: await listCustomProps(db, site.id),
      tracker_script_configuration: completeTrackerConfiguration(await trackerScriptConfiguration(db, site.id)),
      ...rawRetentionJson(site),
    };
  }

  async function saveTrackerConfiguration(siteId: number, change: TrackerConfigurationChange, now: number): Promise<TrackerConfiguration> {
    const merged = mergeTrackerConfiguration(completeTrackerConfiguration(await trackerScriptConfiguration(db, siteId)), change);
    await setTrackerScriptConfiguration(db, siteId, { ...merged }, now);
    return merged;
  }

  app.get('/api/v1/sites', READ, async (request): Promise<SiteList> => {
    const query = parsePayload(siteListQuery, singleValued(request.query));
    checkTeamParameter(request.caller, query.team_id, teamNotFound);
    const page = parsePageRequest(query);
    const { rows, meta } = await fetchPage(
      page,
      (site: Site) => site.id,
      ({ from, forward, limit }) => listTeamSites(db, request.caller.teamId, forward ? { limit, afterId: from } : { limit, beforeId: from }),
    );
    return { sites: rows.map((site) => ({ domain: site.domain, timezone: site.timezone })), meta };
  });

  app.get('/api/v1/sites/teams', READ, async (request): Promise<TeamList> => {
    const page = parsePageRequest(parsePayload(teamListQuery, singleValued(request.query)));
    // A key belongs to one team, so that team is the only one it can see.
    const team = await requireTeam(db, request.caller.teamId);
    const { rows, meta } = await pageOfList([team], page, (t) => t.id);
    return { teams: rows.map((t) => ({ id: String(t.id), name: t.name, api_available: true })), meta };
  });

  app.get('/api/v1/sites/:site_id', READ, async (request): Promise<contract.Site> => {
    const site_id = singleValued(request.params).site_id ?? '';
    return siteJson(await requireTeamSite(db, request.caller, site_id, clock.now()));
  });

  app.post('/api/v1/sites', PROVISION, async (request): Promise<contract.Site> => {
    const body = parsePayload(siteCreation, request.body);
    checkTeamParameter(request.caller, body.team_id, () => new AppError(403, 'forbidden_team', "You can't add sites to the selected team."));
    const now = clock.now();
    const site = await registerSite(
      db,
      { teamId: request.caller.teamId, domain: body.domain, timezone: body.timezone ?? 'Etc/UTC', rawRetentionDays: body.raw_retention_days },
      now,
    );
    if (body.tracker_script_configuration) await saveTrackerConfiguration(site.id, body.tracker_script_configuration, now);
    deps.siteChanged(site.id);
    return siteJson(site);
  });

  app.put('/api/v1/sites/:site_id', PROVISION, async (request): Promise<contract.Site> => {
    const site_id = singleValued(request.params).site_id ?? '';
    const body = parsePayload(siteUpdate, request.body);
    if (Object.values(body).every((value) => value === undefined)) {
      const names = Object.keys(siteUpdate.shape).map((name) => `'${name}'`);
      throw badRequest('invalid_payload', `Payload must contain at least one of the parameters ${names.join(', ')}.`);
    }
    const now = clock.now();
    const current = await requireTeamSite(db, request.caller, site_id, now);
    const site = await updateSite(db, current.id, { domain: body.domain, timezone: body.timezone, rawRetentionDays: body.raw_retention_days }, now);
    if (body.tracker_script_configuration) await saveTrackerConfiguration(site.id, body.tracker_script_configuration, now);
    deps.siteChanged(site.id);
    return siteJson(site);
  });

  app.delete('/api/v1/sites/:site_id', PROVISION, async (request): Promise<Acknowledgement<'deleted'>> => {
    const site_id = singleValued(request.params).site_id ?? '';
    const now = clock.now();
    const site = await requireTeamSite(db, request.caller, site_id, now);
    await requireRole(db, request.caller, ['owner'], 'delete a site');
    await deleteSite(db, site.id, now);
    deps.siteChanged(site.id);
    return { deleted: true };
  });

  app.get('/api/v1/sites/:site_id/snippet', READ, async (request): Promise<SiteSnippet> => {
    const site_id = singleValued(request.params).site_id ?? '';
    const site = await requireTeamSite(db, request.caller, site_id, clock.now());
    const configuration = completeTrackerConfiguration(await trackerScriptConfiguration(db, site.id));
    return { domain: site.domain, ...renderTrackerSnippet({ baseUrl: deps.baseUrl, domain: site.domain, configuration }) };
  });
}
