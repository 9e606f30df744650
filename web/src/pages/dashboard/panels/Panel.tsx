import { type CSSProperties, lazy, type ReactNode, Suspense, useState } from 'react';
import { useDashboard } from '../context';
import { PanelRows } from './PanelRows';
import { PanelTabs } from './PanelTabs';
import { type PanelTab, tabName } from './panelTab';
import { rememberedTab, rememberTab } from './rememberedTab';
import { usePanelRows } from './usePanelRows';

// Fetched when a panel's details first open, not with the dashboard's first load (test/web/bundleSize.test.ts).
const DetailsModal = lazy(() => import('./DetailsModal').then((module) => ({ default: module.DetailsModal })));

/**
 * A report panel: tabs, a list of rows with a bar behind each sized by its share, the numbers
 * right-aligned. Clicking a row filters the whole dashboard by it. Each panel asks for its own
 * numbers, so no panel waits for another.
 */
export function Panel({
  title,
  tabs,
  footer,
  chooser,
  limit = 9,
}: {
  title: string;
  tabs: PanelTab[];
  footer?: ReactNode;
  /** A control beside the title that picks what the panel lists (the custom property). */
  chooser?: ReactNode;
  limit?: number;
}) {
  const { addFilter, site } = useDashboard();
  const [chosen, setChosen] = useState(() => rememberedTab(site.domain, title));
  // A remembered tab the panel does not have (the funnels of a site without any) falls back to the first.
  const active = Math.max(
    0,
    tabs.findIndex((t) => tabName(t) === chosen),
  );
  const [details, setDetails] = useState(false);
  const tab = tabs[active];
  const { metrics, result, error, loading, clear } = usePanelRows(tab, limit);
  const choose = (i: number) => {
    // The old tab's rows go at once, so nothing (Details included) acts on them meanwhile.
    if (i === active) return;
    clear();
    const name = tabName(tabs[i]!);
    setChosen(name);
    rememberTab(site.domain, title, name);
  };
  if (!tab) return null;
  return (
    <section
      className={`card panel${loading && result ? ' stale' : ''}`}
      aria-label={title}
      aria-busy={loading && !tab.content}
      // Its columns, and the rows it keeps room for (dashboard.css), so the list never moves what is below it.
      style={{ '--metrics': metrics.length, '--rows': limit } as CSSProperties}
    >
      <div className="panel-head">
        <h2>{title}</h2>
        {tab.chooser ?? chooser}
        {tabs.length > 1 && <PanelTabs tabs={tabs} active={active} choose={choose} />}
      </div>
      {tab.content ?? <PanelRows tab={tab} metrics={metrics} result={result} error={error} pick={(value) => addFilter(['is', tab.dimension, [value]])} />}
      <div className="panel-foot small muted">
        {!tab.content && result && result.results.length > 0 && (
          <button type="button" className="btn btn-small details-button" onClick={() => setDetails(true)}>
            Details
          </button>
        )}
        {footer}
      </div>
      {details && (
        <Suspense fallback={null}>
          <DetailsModal title={title} tab={tab} onClose={() => setDetails(false)} />
        </Suspense>
      )}
    </section>
  );
}
