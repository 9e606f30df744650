/** The tracker for bundlers: `import { init, track } from 'svc-analytics/tracker'`. */
export { type EventOptions, init, type TrackerOptions, track } from './tracker';
