import { dateRangeOf, type ViewState } from '../state';

/** The ZIP's address for the view: its range, filters and imported-data choice (src/contracts/dashboardDownload.ts). */
export function downloadHref(base: string, state: ViewState, today: string): string {
  const range = dateRangeOf(state, today);
  const query = new URLSearchParams({ date_range: Array.isArray(range) ? range.join(',') : range });
  if (state.filters.length > 0) query.set('filters', JSON.stringify(state.filters));
  if (!state.imported) query.set('imports', 'false');
  return `${base}?${query}`;
}

/**
 * The whole view as a ZIP of one CSV per panel (the graph's series included), as Plausible's
 * dashboard export; a plain link, so the browser downloads it with the session (or the shared
 * link's) cookie and shows its own progress.
 */
export function DashboardDownload({ base, state, today }: { base: string; state: ViewState; today: string }) {
  return (
    <a className="btn btn-small" href={downloadHref(base, state, today)} download title="Every panel of this view as CSV files, in one ZIP">
      Download ZIP
    </a>
  );
}
