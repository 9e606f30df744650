import { useEffect, useRef } from 'react';
import { pressedShortcut, viewChange } from '../shortcuts';
import type { ViewState } from '../state';

/**
 * The dashboard's keyboard shortcuts (shortcuts.ts), as in Plausible; never while typing in a
 * field. Ranges, the comparison and moving the range change the view; C and ? open what the page
 * shows for them; the site switcher (SiteSwitcher.tsx) takes the keys 1–9.
 */
export function useRangeShortcuts(options: { state: ViewState; today: string; update(change: Partial<ViewState>): void; open(what: 'custom' | 'help'): void }) {
  // The listener stays the same while the view changes; it reads the latest view through the ref.
  const latest = useRef(options);
  latest.current = options;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const action = pressedShortcut(event);
      if (!action) return;
      const { state, today, update, open } = latest.current;
      if (action.kind === 'custom' || action.kind === 'help') {
        event.preventDefault();
        open(action.kind);
        return;
      }
      const change = viewChange(action, state, today);
      if (change) {
        event.preventDefault();
        update(change);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
