import type { Classification } from '../../classifications.js';
import type { ParsedUserAgent } from '../userAgent.js';
import type { AgentRules } from './agentRules.js';
import { agentVerdict, compileAgentRules, parseAgentPatterns } from './agentRules.js';
import { isBelowFloor, parseBrowserFloors } from './browserFloors.js';
import { BUILT_IN_AUTOMATION_PATTERNS, BUILT_IN_BOT_PATTERNS } from './builtInLists/agentPatterns.js';
import { BUILT_IN_BROWSER_FLOORS } from './builtInLists/browserFloors.js';
import { BUILT_IN_DATACENTER_ASNS } from './builtInLists/datacenterAsns.js';
import { BUILT_IN_SPAM_REFERRERS } from './builtInLists/spamReferrers.js';
import type { DatacenterNetworks } from './datacenterAddresses.js';
import { isInNetworks, loadDatacenterNetworks, parseAsns, parseCidrs } from './datacenterAddresses.js';
import { listSources } from './listFiles.js';
import { isListedHost, parseSpamDomains } from './spamReferrers.js';

export { CLASSIFICATIONS, type Classification } from '../../classifications.js';

/** The operator's files that extend the built-in lists, all optional, in `listsDir`. */
export const LIST_FILES = {
  automation: 'automation.txt',
  bots: 'bots.txt',
  spamReferrers: 'spam-referrers.txt',
  datacenterAsns: 'datacenter-asns.txt',
  datacenterCidrs: 'datacenter-cidrs.txt',
  browserFloors: 'browser-floors.txt',
} as const;

/** Every list `classify` consults, loaded once at start. Callers pass it along and never look inside. */
export interface ClassificationLists {
  readonly agents: AgentRules;
  readonly spamDomains: ReadonlySet<string>;
  readonly datacenter: DatacenterNetworks;
  readonly browserFloors: ReadonlyMap<string, number>;
  readonly loadMs: number;
}

export interface ClassificationListOptions {
  /** Directory of the operator's list files (see LIST_FILES); a missing directory or file is fine. */
  listsDir?: string;
  /** Where the hosting-provider ranges filtered from @ip-location-db/asn are cached between starts. */
  cacheDir?: string;
}

/**
 * Loads the built-in lists plus the operator's files. A malformed line throws an Error naming the
 * file and the line. Without `cacheDir` every call scans the ASN package (a few hundred ms).
 */
export async function loadClassificationLists(options: ClassificationListOptions = {}): Promise<ClassificationLists> {
  const started = performance.now();
  const { listsDir, cacheDir } = options;
  const [automation, bots, spam, asns, cidrs, floors] = await Promise.all([
    listSources(BUILT_IN_AUTOMATION_PATTERNS, listsDir, LIST_FILES.automation),
    listSources(BUILT_IN_BOT_PATTERNS, listsDir, LIST_FILES.bots),
    listSources(BUILT_IN_SPAM_REFERRERS, listsDir, LIST_FILES.spamReferrers),
    listSources(BUILT_IN_DATACENTER_ASNS, listsDir, LIST_FILES.datacenterAsns),
    listSources('', listsDir, LIST_FILES.datacenterCidrs),
    listSources(BUILT_IN_BROWSER_FLOORS, listsDir, LIST_FILES.browserFloors),
  ]);
  // Parse every file before the slow ASN scan, so a typo is reported at once.
  const automationPatterns = parseAgentPatterns(automation);
  const botPatterns = parseAgentPatterns(bots);
  const spamDomains = parseSpamDomains(spam);
  const browserFloors = parseBrowserFloors(floors);
  const datacenterAsns = parseAsns(asns);
  const datacenterCidrs = parseCidrs(cidrs);
  const datacenter = await loadDatacenterNetworks(datacenterAsns, datacenterCidrs, cacheDir);
  return {
    agents: compileAgentRules(automationPatterns, botPatterns),
    spamDomains,
    datacenter,
    browserFloors,
    loadMs: performance.now() - started,
  };
}

/** Counts and timing for the start-up log. */
export function describeClassificationLists(lists: ClassificationLists) {
  return {
    spamDomains: lists.spamDomains.size,
    datacenterAsns: lists.datacenter.asnCount,
    datacenterRangesV4: lists.datacenter.v4.count,
    datacenterRangesV6: lists.datacenter.v6.count,
    datacenterSource: lists.datacenter.source,
    cacheWriteError: lists.datacenter.cacheWriteError ?? null,
    loadMs: Math.round(lists.loadMs),
  };
}

/** Whether an IPv4 or IPv6 address belongs to a hosting provider's network. */
export function isDatacenterAddress(lists: ClassificationLists, ip: string): boolean {
  return isInNetworks(lists.datacenter, ip);
}

/** Whether the referrer host or any parent domain is a listed spam domain (case and `www.` ignored). */
export function isSpamReferrer(lists: ClassificationLists, referrerHost: string): boolean {
  return isListedHost(lists.spamDomains, referrerHost);
}

/** First reason that applies, in this precedence: automation, bot, datacenter_ip, referrer_spam, outdated_browser; null if none. */
export function classify(
  lists: ClassificationLists,
  input: { userAgent: string; ua: ParsedUserAgent; ip: string; referrerHost: string | null },
): Classification | null {
  const verdict = agentVerdict(lists.agents, input.userAgent);
  if (verdict !== 'person') return verdict;
  if (isInNetworks(lists.datacenter, input.ip)) return 'datacenter_ip';
  if (input.referrerHost !== null && isListedHost(lists.spamDomains, input.referrerHost)) return 'referrer_spam';
  if (isBelowFloor(lists.browserFloors, input.ua)) return 'outdated_browser';
  return null;
}
