import { type PanelTab, tabName } from './panelTab';

/** A panel's tab list: one tab stop for the list, arrow keys move between tabs (WAI-ARIA tabs pattern). */
export function PanelTabs({ tabs, active, choose }: { tabs: PanelTab[]; active: number; choose(index: number): void }) {
  return (
    <div className="panel-tabs" role="tablist">
      {tabs.map((t, i) => (
        <button
          key={tabName(t)}
          type="button"
          role="tab"
          aria-selected={i === active}
          tabIndex={i === active ? 0 : -1}
          className={i === active ? 'active' : ''}
          onClick={() => choose(i)}
          onKeyDown={(event) => {
            const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
            if (!step) return;
            event.preventDefault();
            const next = (i + step + tabs.length) % tabs.length;
            choose(next);
            const sibling = event.currentTarget.parentElement?.children[next];
            if (sibling instanceof HTMLElement) sibling.focus();
          }}
        >
          {tabName(t)}
        </button>
      ))}
    </div>
  );
}
