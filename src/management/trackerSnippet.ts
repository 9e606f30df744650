import {
  INSTALLATION_TYPES,
  TRACKER_FLAGS,
  type TrackerConfiguration,
  type TrackerConfigurationChange,
  type TrackerFlag,
  type TrackerSnippet,
} from '../contracts/sites.js';

/** Stored options with every flag present (absent means off); unknown stored keys are dropped. */
export function completeTrackerConfiguration(stored: Record<string, unknown>): TrackerConfiguration {
  const flags = Object.fromEntries(TRACKER_FLAGS.map((flag) => [flag, stored[flag] === true])) as Record<TrackerFlag, boolean>;
  const type = stored.installation_type;
  const installation_type = (INSTALLATION_TYPES as readonly unknown[]).includes(type) ? (type as TrackerConfiguration['installation_type']) : null;
  return { installation_type, ...flags };
}

/** An update sets the flags it names and keeps the others. */
export function mergeTrackerConfiguration(current: TrackerConfiguration, change: TrackerConfigurationChange): TrackerConfiguration {
  const merged: TrackerConfiguration = { ...current };
  for (const flag of TRACKER_FLAGS) {
    const value = change[flag];
    if (value !== undefined) merged[flag] = value;
  }
  if (change.installation_type !== undefined) merged.installation_type = change.installation_type;
  return merged;
}

/**
 * Script file extensions, in this fixed order, that the tracker build serves as
 * `/js/script.<ext>.<ext>.js` (the naming of Plausible's per-feature scripts).
 */
export const SCRIPT_EXTENSIONS: Array<[TrackerFlag, string]> = [
  ['file_downloads', 'file-downloads'],
  ['form_submissions', 'form-submissions'],
  ['hash_based_routing', 'hash'],
  ['outbound_links', 'outbound-links'],
  ['pageview_props', 'pageview-props'],
  ['revenue_tracking', 'revenue'],
  ['tagged_events', 'tagged-events'],
];

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function renderTrackerSnippet(input: { baseUrl: string; domain: string; configuration: TrackerConfiguration }): TrackerSnippet {
  const { baseUrl, domain, configuration } = input;
  const extensions = SCRIPT_EXTENSIONS.filter(([flag]) => configuration[flag]).map(([, ext]) => ext);
  const scriptUrl = `${baseUrl}/js/${['script', ...extensions, 'js'].join('.')}`;
  const pixelUrl = `${baseUrl}/api/event/pixel.gif?d=${encodeURIComponent(domain)}`;
  const image = `<img src="${escapeAttribute(pixelUrl)}" alt="" width="1" height="1" referrerpolicy="no-referrer-when-downgrade" style="position:absolute;width:1px;height:1px;border:0">`;
  const lines = [
    `<script defer data-domain="${escapeAttribute(domain)}" src="${escapeAttribute(scriptUrl)}"></script>`,
    // Calls made before the script has loaded are queued and replayed by it.
    '<script>window.svc = window.svc || function () { (window.svc.q = window.svc.q || []).push(arguments) }; window.plausible = window.plausible || window.svc</script>',
  ];
  lines.push(`<noscript>${image}</noscript>`);
  const notFound = configuration.track_404_pages
    ? '<script>document.addEventListener("DOMContentLoaded", function () { svc("404", { props: { path: document.location.pathname } }) })</script>'
    : null;
  return { script_url: scriptUrl, snippet: lines.join('\n'), pixel: image, not_found_page_snippet: notFound, tracker_script_configuration: configuration };
}
