import { useEffect } from 'react';
import { PERIODS, type ViewState } from '../state';

/** Keyboard shortcuts for the common ranges, as in Plausible; never while typing. */
export function useRangeShortcuts(update: (change: Partial<ViewState>) => void) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.metaKey || event.ctrlKey || event.altKey || target?.closest('input, select, textarea')) return;
      const period = PERIODS.find((p) => p.key === event.key.toLowerCase());
      if (period) update({ period: period.value, from: null, to: null, interval: null });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [update]);
}
