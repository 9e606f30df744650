import type { OutcomeGuide } from '../contracts/ingestion.js';
import type { PostResponseReason, PreResponseReason } from './pipeline.js';
import type { STATE_UNAVAILABLE } from './sharedState.js';

export type IngestOutcome = 'accepted' | PreResponseReason | PostResponseReason | typeof STATE_UNAVAILABLE;

/**
 * The ingestion health panel's explanation of every outcome an event can have (spec: Ingestion
 * outcomes). Keyed by the pipeline's own reason types, so a new reason does not compile until it
 * is explained here.
 */
export const OUTCOME_GUIDE: Record<IngestOutcome, OutcomeGuide> = {
  accepted: { label: 'Accepted', kind: 'accepted', meaning: 'Stored and counted in reports.', action: 'Nothing to do.' },
  unknown_site: {
    label: 'Unknown site',
    kind: 'dropped',
    meaning: 'The event named a domain no site holds.',
    action: 'Check data-domain in the snippet matches the site’s domain exactly.',
  },
  account_dormant: {
    label: 'Collection stopped',
    kind: 'dropped',
    meaning: 'Collection is stopped for this team.',
    action: 'Resume collection for the team (svc team resume-collection).',
  },
  site_deleted: {
    label: 'Site deleted',
    kind: 'dropped',
    meaning: 'The site was deleted.',
    action: 'Remove the snippet from the pages, or add the site again.',
  },
  shield_ip: {
    label: 'IP shield',
    kind: 'dropped',
    meaning: 'The address matched one of the site’s IP shields.',
    action: 'Review Shields › IP addresses if real visitors are blocked.',
  },
  rate_limited: {
    label: 'Rate limited',
    kind: 'dropped',
    meaning: 'One address sent more than 100 events per second.',
    action: 'Usually a script gone wrong or an attack; check the sending page or server.',
  },
  invalid_payload: {
    label: 'Invalid payload',
    kind: 'dropped',
    meaning: 'Properties or revenue were not of the right shape.',
    action: 'Send props as an object of strings and revenue as {amount, currency}; try X-Debug-Request: true.',
  },
  internal_error: {
    label: 'Internal error',
    kind: 'dropped',
    meaning: 'The service failed to process the event.',
    action: 'Nothing on your side: the failure is logged for the operator.',
  },
  bot: {
    label: 'Bot',
    kind: 'classified',
    meaning: 'The user agent is a known crawler or bot.',
    action: 'Stored but left out of reports; put it back under Shields › Classifications if wanted.',
  },
  datacenter_ip: {
    label: 'Data-center address',
    kind: 'classified',
    meaning: 'The address belongs to a hosting provider, not a home or office.',
    action: 'Put it back if your visitors browse through a VPN or cloud desktop.',
  },
  referrer_spam: { label: 'Referrer spam', kind: 'classified', meaning: 'The referrer is a known spam domain.', action: 'Usually right to leave out.' },
  outdated_browser: {
    label: 'Outdated browser',
    kind: 'classified',
    meaning: 'The browser version is so old that it is almost always a bot posing as one.',
    action: 'Put it back if your audience uses old devices.',
  },
  automation: {
    label: 'Automation',
    kind: 'classified',
    meaning: 'The browser reported being driven by automation (headless, WebDriver).',
    action: 'Put it back if you count your own automated tests on purpose.',
  },
  shield_country: {
    label: 'Country shield',
    kind: 'dropped',
    meaning: 'The visitor’s country matched a country shield (decided after the response).',
    action: 'Review Shields › Countries.',
  },
  shield_page: {
    label: 'Page shield',
    kind: 'dropped',
    meaning: 'The page matched a page shield (decided after the response).',
    action: 'Review Shields › Pages.',
  },
  hostname_not_allowed: {
    label: 'Hostname not allowed',
    kind: 'dropped',
    meaning: 'The page’s hostname is not on the site’s hostname allow list.',
    action: 'Add the hostname under Shields › Hostnames, or remove the list to allow all.',
  },
  state_unavailable: {
    label: 'Shared state unavailable',
    kind: 'accepted',
    meaning:
      'Accepted (and counted under Accepted too) by a node that could not reach the shared state (STATE_URL): its rate limit and duplicate check saw only that node’s traffic.',
    action: 'Nothing on your side: the operator’s Redis did not answer, and the node logs it.',
  },
  no_session_for_engagement: {
    label: 'Engagement without pageview',
    kind: 'dropped',
    meaning: 'An engagement measurement arrived, but its pageview never did (found 30 minutes later).',
    action: 'Usually harmless; many at once point to a page that sends engagement without a pageview.',
  },
};
