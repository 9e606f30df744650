import type { ReactNode } from 'react';
import { INTERVALS, type Interval } from '../state';
import type { Series } from './series';

/** The graph's controls: the interval (a choice when the range allows several), the site's time zone, the imported-data switch and the CSV download. */
export function GraphHead({
  series,
  timezone,
  onInterval,
  imported,
  onImported,
  download,
  annotations,
}: {
  series: Series | null;
  timezone: string;
  onInterval(interval: Interval): void;
  imported: boolean;
  onImported(imported: boolean): void;
  download(): void;
  /** The editors' annotations button, when the viewer may write notes. */
  annotations: ReactNode;
}) {
  return (
    <div className="graph-head">
      <span className="graph-interval muted small">
        {series && series.intervals.length > 1 ? (
          <label>
            <span className="visually-hidden">Interval</span>
            <select
              value={series.interval}
              onChange={(event) => {
                const chosen = INTERVALS.find((i) => i.value === event.target.value);
                if (chosen) onInterval(chosen.value);
              }}
            >
              {INTERVALS.filter((i) => series.intervals.includes(i.value)).map((i) => (
                <option key={i.value} value={i.value}>
                  {i.label}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span>{INTERVALS.find((i) => i.value === series?.interval)?.label ?? '\u00a0'}</span>
        )}
        <span>{timezone}</span>
        {/* Once imports are off the engine is not asked about them: the switch stays to turn them back on. */}
        {(series?.imports.applies || !imported) && (
          <label className="imported-switch">
            <input type="checkbox" checked={imported} onChange={(event) => onImported(event.target.checked)} /> Imported data
          </label>
        )}
      </span>
      <span className="graph-actions">
        {annotations}
        <button type="button" className="btn btn-small" onClick={download} disabled={!series}>
          Download CSV
        </button>
      </span>
    </div>
  );
}
