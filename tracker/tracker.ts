/**
 * The browser tracker. One source, two builds (scripts/build-tracker.mjs): the core
 * (pageviews, single-page-app navigation, engagement, custom events, pageview props) and the full
 * one, which adds outbound links, file downloads, form submissions and tagged events. A page opts
 * into features by the script's file name, as with Plausible (`script.outbound-links.js`), or by
 * attributes; the payload is the spec's event object, sent as text/plain (no CORS preflight).
 * No cookies, no storage of identifiers, no fingerprinting.
 */

declare const FULL: boolean;
declare const VERSION: string;

export interface EventOptions {
  props?: Record<string, string | number | boolean>;
  revenue?: { amount: number | string; currency: string };
  interactive?: boolean;
  url?: string;
  /** Plausible's name for `url`, so existing `plausible('pageview', {u})` calls keep their custom URL. */
  u?: string;
  callback?: (result: { status: number; dropped?: string | null; error?: unknown }) => void;
}

export interface TrackerOptions {
  domain: string;
  endpoint?: string;
  hashBasedRouting?: boolean;
  autoCapturePageviews?: boolean;
  captureOnLocalhost?: boolean;
  /** Count visits from browsers driven by automation (navigator.webdriver); off by default. */
  allowAutomation?: boolean;
  props?: Record<string, string> | null;
  outboundLinks?: boolean;
  fileDownloads?: boolean | { fileExtensions: string[] };
  formSubmissions?: boolean;
  taggedEvents?: boolean;
}

const FILE_TYPES = [
  'pdf',
  'xlsx',
  'docx',
  'txt',
  'rtf',
  'csv',
  'exe',
  'key',
  'pps',
  'ppt',
  'pptx',
  '7z',
  'pkg',
  'rar',
  'gz',
  'zip',
  'avi',
  'mov',
  'mp4',
  'mpeg',
  'wmv',
  'midi',
  'mp3',
  'wav',
  'wma',
  'dmg',
];

let config: TrackerOptions & { endpoint: string } = { domain: '', endpoint: '/api/event' };
let started = false;
let lastUrl: string | null = null;
let pageProps: Record<string, string> | null | undefined;
// Engagement of the current page: deepest scroll seen, visible-and-focused time not yet sent.
let maxScroll = 0;
let lastSentScroll = 0;
let engagedMs = 0;
let engagedSince: number | null = null;

// Short local names for the globals used throughout: the minifier can rename these, not globals.
const win = window;
const doc = document;
const location = () => win.location;

function ignored(): string | null {
  const { hostname, protocol } = location();
  if (!config.captureOnLocalhost && (/^(localhost|127\..*|\[::1\])$/.test(hostname) || protocol === 'file:')) return 'localhost';
  if (!config.allowAutomation && navigator.webdriver) return 'automation';
  try {
    if (win.localStorage.svc_ignore === 'true') return 'ignored';
  } catch {
    // Storage may be blocked; then nobody opted out.
  }
  return null;
}

function currentUrl(): string {
  const { href, hash } = location();
  return config.hashBasedRouting ? href : href.replace(hash, '');
}

function send(name: string, options: EventOptions = {}, beacon = false): void {
  const skip = ignored();
  if (skip) {
    options.callback?.({ status: 0, error: skip });
    return;
  }
  const payload: Record<string, unknown> = {
    n: name,
    u: options.url ?? currentUrl(),
    d: config.domain,
    r: doc.referrer,
    w: win.innerWidth,
    v: VERSION,
  };
  const props = name === 'pageview' || name === 'engagement' ? { ...pageProps, ...options.props } : options.props;
  if (props && Object.keys(props).length > 0) payload.p = props;
  if (options.revenue) payload.$ = options.revenue;
  if (options.interactive === false) payload.i = false;
  if (name === 'engagement') {
    payload.sd = Math.max(1, maxScroll);
    payload.e = engagedMs;
  }
  const body = JSON.stringify(payload);
  if (beacon && navigator.sendBeacon?.(config.endpoint, new Blob([body], { type: 'text/plain' }))) return;
  // A string body goes as text/plain, which needs no CORS preflight.
  fetch(config.endpoint, { method: 'POST', body, keepalive: true })
    .then((response) => options.callback?.({ status: response.status, dropped: response.headers.get('x-svc-dropped') }))
    .catch((error: unknown) => options.callback?.({ status: 0, error }));
}

/** How far down the page its bottom edge is seen, in percent; a page of no height is seen whole. */
function scrollPercent(): number {
  return Math.min(100, Math.round(((win.scrollY + win.innerHeight) / doc.documentElement.scrollHeight) * 100) || 100);
}

const engaged = () => !doc.hidden && doc.hasFocus();

function tick(): void {
  if (engagedSince !== null) engagedMs += Date.now() - engagedSince;
  engagedSince = engaged() ? Date.now() : null;
}

/** Sends the page's engagement when there is something new: deeper scroll or time not yet sent. */
function flushEngagement(beacon: boolean): void {
  tick();
  maxScroll = Math.max(maxScroll, scrollPercent());
  if (lastUrl === null || (maxScroll <= lastSentScroll && engagedMs < 3000)) return;
  send('engagement', { url: lastUrl }, beacon);
  lastSentScroll = maxScroll;
  engagedMs = 0;
}

const automatic = () => config.autoCapturePageviews !== false;

/**
 * A pageview, automatic or manual (`svc('pageview', {url})`). Either way the page it names is the
 * one whose engagement is measured from now on, and the page before it sends its own first.
 */
function pageview(options: EventOptions = {}, manual = false): void {
  const url = options.url ?? currentUrl();
  if (!manual && url === lastUrl) return;
  if (lastUrl !== null) flushEngagement(false);
  lastUrl = url;
  maxScroll = scrollPercent();
  lastSentScroll = 0;
  engagedMs = 0;
  engagedSince = engaged() ? Date.now() : null;
  send('pageview', options);
}

function onClick(event: MouseEvent): void {
  if (!FULL) return;
  const target = event.target instanceof Element ? event.target : null;
  const tagged = config.taggedEvents ? target?.closest('[class*="svc-event-name="],[class*="plausible-event-name="]') : null;
  if (tagged) {
    const classes = Array.from(tagged.classList);
    const value = (prefix: string) =>
      classes
        .find((c) => c.startsWith(prefix))
        ?.slice(prefix.length)
        .replace(/\+/g, ' ');
    const name = value('svc-event-name=') ?? value('plausible-event-name=');
    const props: Record<string, string> = {};
    for (const c of classes) {
      const match = /^(?:svc|plausible)-event-(.+?)=(.+)$/.exec(c);
      if (match && match[1] !== 'name' && match[1] !== 'revenue-amount' && match[1] !== 'revenue-currency')
        props[match[1] as string] = (match[2] as string).replace(/\+/g, ' ');
    }
    const amount = value('svc-event-revenue-amount=') ?? value('plausible-revenue-amount=');
    const currency = value('svc-event-revenue-currency=') ?? value('plausible-revenue-currency=');
    if (name) send(name, { props, ...(amount && currency ? { revenue: { amount, currency } } : {}) });
    return;
  }
  const link = target?.closest('a[href]');
  if (!(link instanceof HTMLAnchorElement)) return;
  const url = new URL(link.href, location().href);
  const extensions = typeof config.fileDownloads === 'object' ? config.fileDownloads.fileExtensions : FILE_TYPES;
  const extension = url.pathname.split('.').pop()?.toLowerCase() ?? '';
  if (config.fileDownloads && url.pathname.includes('.') && extensions.includes(extension)) {
    send('File Download', { props: { url: url.href } });
  } else if (config.outboundLinks && url.host !== location().host && /^https?:$/.test(url.protocol)) {
    send('Outbound Link: Click', { props: { url: url.href } });
  }
}

function onSubmit(event: SubmitEvent): void {
  if (!FULL || !config.formSubmissions) return;
  const form = event.target instanceof HTMLFormElement ? event.target : null;
  if (form && !form.noValidate && !form.checkValidity()) return;
  send('Form: Submission', { props: { path: location().pathname } });
}

/** Starts tracking (the script tag calls it from its attributes; bundlers call it themselves). */
export function init(options: TrackerOptions): void {
  if (started) return;
  started = true;
  config = { ...options, endpoint: options.endpoint ?? config.endpoint };
  pageProps = options.props;
  const history = win.history;
  for (const method of ['pushState', 'replaceState'] as const) {
    const original = history[method];
    history[method] = function (this: History, ...args: Parameters<History['pushState']>) {
      original.apply(this, args);
      if (automatic()) pageview();
    };
  }
  win.addEventListener('popstate', () => automatic() && pageview());
  if (config.hashBasedRouting) win.addEventListener('hashchange', () => automatic() && pageview());
  win.addEventListener(
    'scroll',
    () => {
      maxScroll = Math.max(maxScroll, scrollPercent());
    },
    { passive: true },
  );
  for (const name of ['focus', 'blur'] as const) win.addEventListener(name, tick);
  doc.addEventListener('visibilitychange', () => (doc.hidden ? flushEngagement(true) : tick()));
  win.addEventListener('pagehide', () => flushEngagement(true));
  if (FULL) {
    doc.addEventListener('click', onClick, true);
    doc.addEventListener('auxclick', onClick, true);
    doc.addEventListener('submit', onSubmit, true);
  }
  if (!automatic()) return;
  // A page rendered ahead of being shown (prerender) counts once it is shown.
  if ((doc as Document & { prerendering?: boolean }).prerendering) doc.addEventListener('prerenderingchange', () => pageview(), { once: true });
  else pageview();
}

/** A custom event, or a manual pageview with `url`. */
export function track(name: string, options: EventOptions = {}): void {
  const given = { ...options, url: options.url ?? options.u };
  if (name === 'pageview') pageview(given, true);
  else send(name, given);
}
