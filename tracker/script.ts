import { type EventOptions, init, track } from './tracker';

/**
 * The script-tag entry: configuration from the tag's attributes and file name, the `svc(...)`
 * global (with `plausible(...)` as an alias, so existing integrations keep working), and replay of
 * calls queued before the script loaded.
 */
type Queue = { q?: IArguments[] | unknown[][] };
type Global = ((name: string, options?: EventOptions) => void) & Queue;

const tag = document.currentScript as HTMLScriptElement | null;
const attribute = (name: string) => tag?.getAttribute(name) ?? null;
const src = tag?.src ?? '';
const features = (src.split('/').pop() ?? '').split('.').slice(1, -1);
const has = (feature: string, attr?: string) => features.includes(feature) || (attr !== undefined && attribute(attr) !== null);

const fileTypes = (list: string | null) => (list ? { fileExtensions: list.split(',').map((e) => e.trim()) } : true);

declare const FULL: boolean;
let props: Record<string, string> | undefined | null;
try {
  // A missing attribute parses as null, which spreads as nothing; a malformed one is ignored.
  props = JSON.parse(String(attribute('data-props')));
} catch {}
// Plausible's pageview-props: `event-<name>="value"` attributes on the tag (the full build only).
if (FULL) for (const { name, value } of tag?.attributes ?? []) if (name.startsWith('event-')) (props ??= {})[name.slice(6)] = value;

init({
  domain: attribute('data-domain') ?? location.hostname.replace(/^www\./, ''),
  endpoint: attribute('data-api') ?? (src ? `${new URL(src).origin}/api/event` : undefined),
  hashBasedRouting: has('hash', 'data-hash'),
  autoCapturePageviews: attribute('data-manual') === null,
  captureOnLocalhost: attribute('data-capture-on-localhost') !== null,
  allowAutomation: attribute('data-allow-automation') !== null,
  props,
  // The optional features exist only in the full build (scripts/build-tracker.mjs).
  ...(FULL
    ? {
        outboundLinks: has('outbound-links', 'data-outbound-links'),
        fileDownloads: has('file-downloads', 'data-file-downloads') ? fileTypes(attribute('data-file-types')) : false,
        formSubmissions: has('form-submissions', 'data-form-submissions'),
        taggedEvents: has('tagged-events', 'data-tagged-events') || has('revenue'),
      }
    : {}),
});

const w = window as unknown as { svc?: Global; plausible?: Global };
// The snippet makes `plausible` the same stub as `svc`, so both may hold one queue: replay each call once.
const queued = new Set([...(w.svc?.q ?? []), ...(w.plausible?.q ?? [])]);
w.svc = w.plausible = track;
for (const args of queued) track(...(Array.from(args) as [string, EventOptions?]));
// On a site's "not found" page: `<script data-404 …>` records a `404` event (the service adds the
// page as its `path` property, docs/collecting-events.md), as Plausible's 404 tracking does.
if (attribute('data-404') !== null) track('404');
