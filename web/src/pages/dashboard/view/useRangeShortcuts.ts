import { useEffect, useRef } from 'react';
import { isTyping, type ShortcutAction, shortcutOf, viewChange } from '../shortcuts';
import type { ViewState } from '../state';

/**
 * The dashboard's keyboard shortcuts (shortcuts.ts), as in Plausible; never while typing in a
 * field. Ranges, the comparison and moving the range change the view; C and ? open what the page
 * shows for them.
 */
export function useRangeShortcuts(options: { state: ViewState; today: string; update(change: Partial<ViewState>): void; open(what: 'custom' | 'help'): void }) {
  // The listener stays the same while the view changes; it reads the latest view through the ref.
  const latest = useRef(options);
  latest.current = options;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const action: ShortcutAction | null = shortcutOf({
        key: event.key,
        metaKey: event.metaKey,
        ctrlKey: event.ctrlKey,
        altKey: event.altKey,
        // An open dialog (the filter menu, the details, the ? overlay) keeps the keys to itself.
        typing: isTyping(event.target) || document.querySelector('dialog[open]') !== null,
      });
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
