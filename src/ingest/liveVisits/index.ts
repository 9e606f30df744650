export { decodeLiveVisit, encodeLiveVisit } from './codec.js';
export { type LiveVisits, LONGEST_VISIT_MS, type MaybePromise, type RecordedVisit, SessionTracker, type SessionTrackerOptions } from './tracker.js';
export { continueVisit, isLive, type LiveVisit, SESSION_TIMEOUT_MS, startVisit, type VisitEvent, visitFromRow, visitRow } from './visit.js';
