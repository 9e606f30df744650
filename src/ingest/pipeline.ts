import type { BlockList } from 'node:net';
import { normaliseDomain } from '../accounts/domains.js';
import { CLASSIFICATIONS } from '../classifications.js';
import { type ClassificationLists, classify, isDatacenterAddress } from './classification/index.js';
import { type ClientAddress, resolveClientAddress } from './clientAddress.js';
import { type Attribution, deriveAttribution } from './derive/attribution.js';
import type { GeoDatabase, GeoLocation } from './derive/geo.js';
import { languageFrom } from './derive/language.js';
import { parsePageUrl } from './derive/pageUrl.js';
import { screenSize } from './derive/screen.js';
import type { HealthCounters } from './healthCounters.js';
import { registrableDomain, type VisitorIds, visitorIds } from './identity.js';
import type { LiveVisits, RecordedVisit, VisitEvent } from './liveVisits/index.js';
import type { Log } from './log.js';
import type { HeldEngagement, HeldEngagements } from './orphans.js';
import { checkExtras, type EventPayload, parsePayload, type Revenue, withPathProp } from './payload.js';
import { clickhouseTime, type EventRow, eventRow, type SessionRow, type VisitAttributes } from './rows.js';
import type { DaySalts, SaltSource } from './salts.js';
import type { IngestSite, SiteDirectory, SiteLookup } from './siteDirectory.js';
import { type ParsedUserAgent, parseUserAgent } from './userAgent.js';

/** Reasons a site's outcome can carry that are decided before the response. */
const SITE_PRE_RESPONSE_REASONS = [
  'unknown_site',
  'account_dormant',
  'site_deleted',
  'shield_ip',
  'invalid_payload',
  'internal_error',
  ...CLASSIFICATIONS,
] as const;
const PRE_RESPONSE_REASONS: ReadonlySet<string> = new Set(SITE_PRE_RESPONSE_REASONS);
/** The reasons `x-svc-dropped` may name: a site's, or the request's own rate limit. */
export type PreResponseReason = 'rate_limited' | (typeof SITE_PRE_RESPONSE_REASONS)[number];

/** Reasons established after the response: counted on the health panel, never in the header. */
export type PostResponseReason = 'shield_country' | 'shield_page' | 'hostname_not_allowed' | 'no_session_for_engagement';

export interface IngestRequest {
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  /** The socket peer; forwarding headers count only if it is a trusted proxy. */
  socketAddress: string;
  /** When the event happened: now for live traffic, the line's timestamp for an import. */
  at: number;
  debug: boolean;
  /** Set by the import, which names the address and user agent explicitly. */
  address?: ClientAddress;
  userAgent?: string;
}

/**
 * What became of a request, in ingestion's words; the HTTP routes (src/api/routes/collect.ts) and
 * the history import (src/ingest/historicalImport.ts) each decide what that means for them.
 * `accepted` covers every drop too: a dropped event is still answered as taken (the spec's 202).
 */
export type IngestResult =
  | { outcome: 'invalid'; message: string }
  | { outcome: 'accepted'; dropped: PreResponseReason | null; outcomes: SiteOutcome[] }
  | { outcome: 'previewed'; debug: DebugReport };

export interface SiteOutcome {
  domain: string;
  /** 'stored' includes classified events, which are stored with their reason. */
  outcome: 'stored' | 'held' | 'duplicate' | 'dropped';
  reason: PreResponseReason | PostResponseReason | null;
  visitorId?: string;
  event?: EventRow;
  session?: SessionRow | null;
}

export interface DebugReport {
  address: { value: string; source: string; trusted_proxy_configured: boolean };
  salt_day: string;
  user_agent: ParsedUserAgent;
  geolocation: GeoLocation;
  channel: string;
  attribution: Attribution;
  dropped: PreResponseReason | null;
  truncated: Record<string, number>;
  sites: SiteOutcome[];
  written: false;
}

/**
 * State kept per event, in this process or shared between nodes (src/state/). Each answer may
 * come at once or from a round trip, so the pipeline awaits them all the same; live visits are
 * src/ingest/liveVisits/tracker.ts `LiveVisits`.
 */

export interface IdempotencyClaims {
  /** True when the key was used for this site within 24 hours; with `commit`, a first use is remembered at once. */
  claim(siteId: number, key: string, at: number, commit: boolean): boolean | Promise<boolean>;
  /**
   * Keys kept beside the live visits (Redis, src/state/idempotency.ts) are claimed by the event's
   * visit step itself, in the same call, so a keyed event waits for one round trip, not two:
   * the visits returned claim `key` for this one event. Undefined (or absent) when the key is to
   * be claimed first with `claim`.
   */
  claimingVisits?(siteId: number, key: string, at: number): ClaimingVisits | undefined;
}

/** What a claiming visit step answers, having changed nothing, when the event's key was used already. */
export const DUPLICATE = 'duplicate';

/** The visit step of one committed event whose idempotency key is claimed in the same step (LiveVisits' touch and record otherwise). */
export interface ClaimingVisits {
  touch(siteId: number, userIds: Iterable<string>, at: number): Promise<SessionRow | undefined | typeof DUPLICATE>;
  record(event: VisitEvent, userIds: Iterable<string>): Promise<RecordedVisit | typeof DUPLICATE>;
}

export interface RateLimit {
  /** Takes a token for the address; false when its bucket is empty. */
  take(address: string): boolean | Promise<boolean>;
}

/** Where accepted rows go: the write buffer, whose journal makes them durable (src/ingest/writeBuffer.ts). */
export interface EventSink {
  readonly hasRoom: boolean;
  add(events: EventRow[], sessions: SessionRow[]): void;
  hold(held: HeldEngagement): void;
  release(ids: Iterable<number>): void;
  durable(): Promise<void>;
}

export interface PipelineDeps {
  sites: SiteDirectory;
  salts: SaltSource;
  sessions: LiveVisits;
  orphans: HeldEngagements;
  idempotency: IdempotencyClaims;
  lists: ClassificationLists;
  geo: GeoDatabase;
  /** Null for the import, which replays history rather than taking live traffic. */
  rateLimiter: RateLimit | null;
  sink: EventSink;
  /** Told of every event about to be written, so roll-ups of a day it falls in are recomputed (src/rollups/rollups.ts). */
  noteWrite(siteId: number, at: number): void;
  counters: HealthCounters;
  trustedProxies: BlockList;
  trustedProxiesConfigured: boolean;
  log: Log;
}

/** Every event row carries its visit's attributes, fixed by the visit's first event. */
function withVisit(row: EventRow, session: SessionRow): EventRow {
  return eventRow(row, session, { session_id: session.session_id, user_id: session.user_id, classification: session.classification || row.classification });
}

const FORWARDING_HEADERS = ['x-forwarded-for', 'x-real-ip', 'forwarded', 'cf-connecting-ip'];

function header(headers: IngestRequest['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** `d` as sites are stored (or as sent, lower-cased, when it is no domain); the few sites sending are remembered. */
function siteDomain(raw: string): { name: string; valid: boolean } {
  let known = siteDomains.get(raw);
  if (!known) {
    const normalised = normaliseDomain(raw);
    known = { name: normalised ?? raw.trim().toLowerCase(), valid: normalised !== null };
    if (siteDomains.size >= 10_000) siteDomains.clear();
    siteDomains.set(raw, known);
  }
  return known;
}
const siteDomains = new Map<string, { name: string; valid: boolean }>();

function referrerHost(referrer: string | null): string | null {
  if (!referrer) return null;
  try {
    return new URL(referrer).hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}

/**
 * The ingestion pipeline: parse → address → rate limit → site → shields → validation →
 * classification → derivation → identity → visit → buffer. Each step may stop the event with a
 * reason from the spec's closed set; a debug request runs every step and writes nothing.
 */
export class IngestionPipeline {
  constructor(private readonly deps: PipelineDeps) {}

  async ingest(request: IngestRequest): Promise<IngestResult> {
    const parsed = parsePayload(request.body);
    if (!parsed.ok) return { outcome: 'invalid', message: parsed.message };
    const payload = parsed.payload;
    const { deps } = this;
    const address = request.address ?? resolveClientAddress(request.socketAddress, request.headers, deps.trustedProxies);
    const userAgent = request.userAgent ?? header(request.headers, 'user-agent') ?? '';
    const refusal = this.unidentifiedServer(request, address, userAgent);
    if (refusal) return { outcome: 'invalid', message: refusal };

    const sites = await this.resolveSites(payload.domains);
    if (!request.debug && deps.rateLimiter && !(await deps.rateLimiter.take(address.address))) {
      for (const site of sites) if (site.lookup?.kind === 'live') deps.counters.count(site.lookup.site.id, request.at, 'rate_limited');
      return { outcome: 'accepted', dropped: 'rate_limited', outcomes: sites.map((s) => ({ domain: s.domain, outcome: 'dropped', reason: 'rate_limited' })) };
    }

    const derived = await this.derive(request, payload, address, userAgent);
    const outcomes: SiteOutcome[] = [];
    for (const { domain, lookup } of sites) outcomes.push(await this.toSite(request, payload, derived, domain, lookup));

    const dropped = (outcomes.find((o) => o.reason !== null && PRE_RESPONSE_REASONS.has(o.reason))?.reason ?? null) as PreResponseReason | null;
    // Accepted means stored: the rows and holds of this request are in the journal, on disk,
    // before it is answered (docs/collecting-events.md).
    if (!request.debug && outcomes.some((o) => o.outcome === 'stored' || o.outcome === 'held')) await deps.sink.durable();
    if (request.debug) return { outcome: 'previewed', debug: debugReport(derived, address, deps.trustedProxiesConfigured, payload, dropped, outcomes) };
    return { outcome: 'accepted', dropped, outcomes: outcomes.map(({ domain, outcome, reason }) => ({ domain, outcome, reason })) };
  }

  /**
   * A refusal for a request straight from a data-center address with no user agent. A forwarding
   * header counts as a forwarded address here even from an untrusted peer: such a request is a
   * server relaying traffic, not an unidentified client, and is classified instead.
   */
  private unidentifiedServer(request: IngestRequest, address: ClientAddress, userAgent: string): string | null {
    const forwarding = address.forwarded || FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined);
    if (forwarding || userAgent.trim() !== '' || !isDatacenterAddress(this.deps.lists, address.address)) return null;
    return 'This request comes straight from a data-center address with neither a user agent nor a forwarded client address; send events from the browser, or forward the client address and user agent.';
  }

  /** What the request says about its visitor, the same for every site it names. */
  private async derive(request: IngestRequest, payload: EventPayload, address: ClientAddress, userAgent: string): Promise<DerivedRequest> {
    const { deps } = this;
    const ua = parseUserAgent(userAgent);
    const page = payload.url === null ? null : parsePageUrl(payload.url, payload.hashMode);
    const attribution = deriveAttribution({ page, referrer: payload.referrer, override: payload.override });
    const geo = deps.geo.lookup(address.address);
    const classification = classify(deps.lists, {
      userAgent,
      ua,
      ip: address.address,
      referrerHost: referrerHost(payload.override.referrer ?? payload.referrer),
    });
    const attributes: VisitAttributes = {
      referrer: attribution.referrer,
      referrer_source: attribution.referrerSource,
      click_id_param: attribution.clickIdParam,
      utm_medium: attribution.utmMedium,
      utm_source: attribution.utmSource,
      utm_campaign: attribution.utmCampaign,
      utm_content: attribution.utmContent,
      utm_term: attribution.utmTerm,
      channel: attribution.channel,
      country_code: geo.countryCode,
      subdivision1_code: geo.subdivision1Code,
      subdivision2_code: geo.subdivision2Code,
      city: geo.city,
      screen_size: screenSize(payload.width),
      device: ua.device,
      operating_system: ua.os,
      operating_system_version: ua.osVersion,
      browser: ua.browser,
      browser_version: ua.browserVersion,
      language: languageFrom(header(request.headers, 'accept-language')),
    };
    const hostname = page?.hostname ?? '(none)';
    return {
      ua,
      geo,
      attribution,
      salts: await deps.salts.saltsFor(request.at),
      userAgent,
      rootDomain: registrableDomain(hostname),
      event: { extras: checkExtras(payload), classification, attributes, hostname, pathname: page?.pathname ?? '', ip: address.address },
    };
  }

  /** The event's outcome for one site named in `d`. */
  private async toSite(
    request: IngestRequest,
    payload: EventPayload,
    derived: DerivedRequest,
    domain: string,
    lookup: SiteLookup | undefined,
  ): Promise<SiteOutcome> {
    const { deps } = this;
    if (!lookup || lookup.kind === 'unknown') return { domain, outcome: 'dropped', reason: 'unknown_site' };
    if (lookup.kind !== 'live') {
      const reason = lookup.kind === 'deleted' ? 'site_deleted' : 'account_dormant';
      if (!request.debug) deps.counters.count(lookup.siteId, request.at, reason);
      return { domain, outcome: 'dropped', reason };
    }
    const site = lookup.site;
    const userIds = visitorIds(derived.salts, { userAgent: derived.userAgent, address: derived.event.ip, domain: site.domain, rootDomain: derived.rootDomain });
    try {
      const outcome = await this.forSite(request, payload, site, { ...derived.event, userIds });
      return { domain, visitorId: userIds.current, ...outcome };
    } catch (error) {
      // One site's failure is that site's drop, counted where its owner will see it; the other
      // sites named in `d` still get the event.
      deps.log.error({ err: error, site: site.domain }, 'ingesting an event failed');
      if (!request.debug) deps.counters.count(site.id, request.at, 'internal_error');
      return { domain, visitorId: userIds.current, outcome: 'dropped', reason: 'internal_error' };
    }
  }

  private async resolveSites(domains: string[]) {
    const unique = [...new Set(domains.map((d) => siteDomain(d).name))];
    return Promise.all(unique.map(async (domain) => ({ domain, lookup: siteDomain(domain).valid ? await this.deps.sites.lookup(domain) : undefined })));
  }

  private async forSite(request: IngestRequest, payload: EventPayload, site: IngestSite, event: SiteEvent): Promise<Omit<SiteOutcome, 'domain'>> {
    const { deps } = this;
    const at = request.at;
    const commit = !request.debug;
    const count = (reason: string, value = 1) => {
      if (commit) deps.counters.count(site.id, at, reason, value);
    };
    const drop = (reason: PreResponseReason | PostResponseReason) => {
      count(reason);
      return { outcome: 'dropped' as const, reason };
    };

    if (site.shields.blocksAddress(event.ip)) return drop('shield_ip');
    if (!event.extras.ok) return drop('invalid_payload');
    if (commit && !deps.sink.hasRoom) return drop('internal_error');
    if (site.shields.blocksCountry(event.attributes.country_code)) return drop('shield_country');
    if (site.shields.blocksPage(event.pathname)) return drop('shield_page');
    if (!site.shields.allowsHostname(event.hostname)) return drop('hostname_not_allowed');
    const duplicate = () => {
      count('duplicate');
      return { outcome: 'duplicate' as const, reason: null };
    };
    // Claimed last, once nothing else can drop the event: a key is remembered only with its event.
    // Keys kept beside the visits are claimed by the visit step below, in the same round trip.
    const key = payload.idempotencyKey;
    const claiming = key && commit ? deps.idempotency.claimingVisits?.(site.id, key, at) : undefined;
    if (key && !claiming && (await deps.idempotency.claim(site.id, key, at, commit))) return duplicate();

    const props = withPathProp(payload.name, event.extras.props, event.pathname);
    const row = eventRowFor(payload, site, event, { props, revenue: event.extras.revenue }, at);
    const truncations = Object.values(payload.truncated).reduce((sum, n) => sum + n, 0);
    // Counted once the event is known not to be a duplicate.
    const countTruncations = () => {
      if (truncations > 0) count('truncated', truncations);
    };

    let written: EventRow[];
    let sessionRows: SessionRow[] = [];
    let session: SessionRow | null;
    let adopted: HeldEngagement[] = [];
    if (payload.name === 'engagement') {
      const live = claiming ? await claiming.touch(site.id, event.userIds, at) : await deps.sessions.touch(site.id, event.userIds, at, commit);
      if (live === DUPLICATE) return duplicate();
      countTruncations();
      if (!live) {
        if (commit) {
          const held = await deps.orphans.hold(site.id, event.userIds.current, row, at);
          if (!held) return drop('no_session_for_engagement');
          deps.sink.hold(held);
        }
        return { outcome: 'held', reason: null, event: row, session: null };
      }
      session = live;
      written = [withVisit(row, live)];
    } else {
      const visitEvent = visitEventFor(payload, site, event, props, row.classification, at);
      const recorded = claiming ? await claiming.record(visitEvent, event.userIds) : await deps.sessions.record(visitEvent, event.userIds, commit);
      if (recorded === DUPLICATE) return duplicate();
      countTruncations();
      session = recorded.session;
      sessionRows = recorded.rows;
      adopted = commit ? await deps.orphans.adopt(site.id, event.userIds, at) : [];
      written = [withVisit(row, session), ...adopted.map((held) => withVisit(held.row, recorded.session))];
    }
    const stored = written[0]!;
    if (commit) {
      deps.noteWrite(site.id, at);
      deps.sink.add(written, sessionRows);
      deps.sink.release(adopted.map((held) => held.id));
      count('accepted', written.length);
      for (const w of written) if (w.classification) count(w.classification);
    }
    const reason = (stored.classification || null) as PreResponseReason | null;
    return { outcome: 'stored', reason, event: stored, session };
  }
}

/** What the request says about its visitor (src/ingest/pipeline.ts derive). */
interface DerivedRequest {
  ua: ParsedUserAgent;
  geo: GeoLocation;
  attribution: Attribution;
  salts: DaySalts;
  userAgent: string;
  rootDomain: string;
  event: Omit<SiteEvent, 'userIds'>;
}

/** The event as one site sees it. */
interface SiteEvent {
  userIds: VisitorIds;
  extras: ReturnType<typeof checkExtras>;
  classification: string | null;
  attributes: VisitAttributes;
  hostname: string;
  pathname: string;
  ip: string;
}

function eventRowFor(
  payload: EventPayload,
  site: IngestSite,
  event: SiteEvent,
  { props, revenue }: { props: Record<string, string>; revenue: Revenue | null },
  at: number,
): EventRow {
  const isEngagement = payload.name === 'engagement';
  return eventRow(
    {
      timestamp: clickhouseTime(at),
      site_id: site.id,
      name: payload.name,
      user_id: event.userIds.current,
      session_id: '0',
      hostname: event.hostname,
      pathname: event.pathname,
      page_title: payload.title,
      props,
      revenue_source_amount: revenue?.amount ?? null,
      revenue_source_currency: revenue?.currency ?? '',
      scroll_depth: isEngagement ? payload.scrollDepth : 0,
      engagement_time: isEngagement ? payload.engagementTime : 0,
      interactive: payload.interactive ? 1 : 0,
      tracker_version: payload.trackerVersion,
      classification: event.classification ?? '',
      idempotency_key: payload.idempotencyKey ?? '',
    },
    event.attributes,
  );
}

function visitEventFor(
  payload: EventPayload,
  site: IngestSite,
  event: SiteEvent,
  props: Record<string, string>,
  classification: string,
  at: number,
): VisitEvent {
  return {
    siteId: site.id,
    userId: event.userIds.current,
    timestamp: at,
    name: payload.name,
    hostname: event.hostname,
    pathname: event.pathname,
    interactive: payload.interactive,
    attributes: event.attributes,
    props,
    classification,
  };
}

function debugReport(
  derived: DerivedRequest,
  address: ClientAddress,
  trustedProxyConfigured: boolean,
  payload: EventPayload,
  dropped: PreResponseReason | null,
  outcomes: SiteOutcome[],
): DebugReport {
  return {
    address: { value: address.address, source: address.source, trusted_proxy_configured: trustedProxyConfigured },
    salt_day: derived.salts.day,
    user_agent: derived.ua,
    geolocation: derived.geo,
    channel: derived.attribution.channel,
    attribution: derived.attribution,
    dropped,
    truncated: payload.truncated,
    sites: outcomes,
    written: false,
  };
}
