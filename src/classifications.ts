/**
 * Why an event is kept out of reports by default, in the order `classify` checks them. The one
 * list: site settings (which reasons a site counts), the query engine (`with_bots`), the drop
 * reasons ingestion reports and the settings screen all derive from it.
 */
export const CLASSIFICATIONS = ['bot', 'datacenter_ip', 'referrer_spam', 'outdated_browser', 'automation'] as const;
export type Classification = (typeof CLASSIFICATIONS)[number];

export function isClassification(value: string): value is Classification {
  return (CLASSIFICATIONS as readonly string[]).includes(value);
}
