// Live visits moved to src/ingest/liveVisits/ (compact form, cap, read-back); this name stays for their users.
export {
  type LiveVisit,
  type LiveVisits,
  type MaybePromise,
  type RecordedVisit,
  SESSION_TIMEOUT_MS,
  SessionTracker,
  type SessionTrackerOptions,
  type VisitEvent,
} from './liveVisits/index.js';
