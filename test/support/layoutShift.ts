import type { Page } from 'playwright-core';

/** One layout shift the browser reported: its score and the elements that moved (tag.class, before → after). */
export interface LayoutShiftEntry {
  value: number;
  sources: string[];
}

declare global {
  interface Window {
    layoutShifts?: LayoutShiftEntry[];
  }
}

/**
 * Records the page's layout shifts from its first paint (installed before navigation), leaving out
 * those that follow the viewer's own input, as cumulative layout shift does
 * (https://web.dev/articles/cls).
 */
export async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: LayoutShiftEntry[] = [];
    window.layoutShifts = shifts;
    type Shift = PerformanceEntry & {
      value: number;
      hadRecentInput: boolean;
      sources: { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
    };
    const describe = (node: Node | null) =>
      node instanceof Element ? `${node.tagName.toLowerCase()}.${[...node.classList].join('.')}` : String(node?.nodeName);
    const rect = (r: DOMRectReadOnly) => `${Math.round(r.y)}+${Math.round(r.height)}`;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Shift[]) {
        if (entry.hadRecentInput) continue;
        shifts.push({ value: entry.value, sources: entry.sources.map((s) => `${describe(s.node)} ${rect(s.previousRect)} → ${rect(s.currentRect)}`) });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The shifts recorded so far (after two frames, so the last paint's are in). */
export async function layoutShifts(page: Page): Promise<{ total: number; entries: LayoutShiftEntry[] }> {
  const entries = await page.evaluate(
    () => new Promise<LayoutShiftEntry[]>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(window.layoutShifts ?? [])))),
  );
  return { total: entries.reduce((sum, entry) => sum + entry.value, 0), entries };
}
