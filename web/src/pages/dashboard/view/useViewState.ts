import { useCallback, useMemo, useRef } from 'react';
import { navigate, useLocation } from '../../../router';
import { readState, type ViewState, writeState } from '../state';

/**
 * The view as the URL holds it (state.ts), and `update`, which changes part of it by navigating
 * (`replace` for a change not worth a step back). A shared link's key stays in the URL whatever the view.
 */
export function useViewState(basePath: string) {
  const { search } = useLocation();
  const searchText = search.toString();
  const state = useMemo(() => readState(new URLSearchParams(searchText)), [searchText]);
  const keep = useMemo<Record<string, string>>(() => {
    const auth = new URLSearchParams(searchText).get('auth');
    const kept: Record<string, string> = {};
    if (auth) kept.auth = auth;
    return kept;
  }, [searchText]);
  // `update` reads the latest view through a ref, so it stays the same function while the view
  // changes: the panels' query (which uses it for addFilter) then changes only with the range
  // and filters, and choosing the graph's metric does not reload every panel.
  const latest = useRef(state);
  latest.current = state;
  const update = useCallback(
    (change: Partial<ViewState>, replace = false) => {
      const next = writeState({ ...latest.current, ...change });
      const extra = new URLSearchParams(keep).toString();
      navigate(`${basePath}${next}${extra ? `${next ? '&' : '?'}${extra}` : ''}`, { replace });
    },
    [basePath, keep],
  );
  return { state, update };
}
