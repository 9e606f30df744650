import { roleIn, SITE_EDITORS } from '@contracts/roles';
import { useRef } from 'react';
import { metricHeading } from '../../format';
import { useDashboard } from './context';
import { AnnotationsDialog } from './graph/AnnotationsDialog';
import './graph/graph.css';
import { GraphHead } from './graph/GraphHead';
import { type Comparison, type Series, seriesCsv } from './graph/series';
import { useAnnotations } from './graph/useAnnotations';
import { useGraphSeries } from './graph/useGraphSeries';
import { usePlot } from './graph/usePlot';
import { headlinesFor } from './headlines';
import { REALTIME_GRAPH } from './RealtimeStats';
import type { Interval } from './state';

function downloadCsv(series: Series, metric: string, domain: string) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([seriesCsv(series, metric)], { type: 'text/csv' }));
  link.download = `${domain}-${metric}.csv`;
  link.click();
  // The download starts after this handler; the blob is released once it has.
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/**
 * The chosen metric over time in the chosen interval, with the comparison line dashed and the
 * bucket still filling drawn dashed from the last complete one (its figure will still grow).
 */
export function MainGraph({
  metric: chosen,
  comparison,
  interval,
  onInterval,
  imported,
  onImported,
  annotationsPath,
  today,
}: {
  metric: string;
  comparison: Comparison;
  interval: Interval | null;
  onInterval(interval: Interval): void;
  imported: boolean;
  onImported(imported: boolean): void;
  annotationsPath: string | undefined;
  today: string;
}) {
  const { site, filters, readOnly, dateRange } = useDashboard();
  // Realtime draws its pageviews by the minute as bars, as Plausible's realtime graph does.
  const realtime = dateRange === 'realtime';
  const metric = realtime ? REALTIME_GRAPH.metric : chosen;
  // The tooltip names the metric as the top stats do (a goal's visitors are its conversions).
  const label = realtime ? REALTIME_GRAPH.label : (headlinesFor(filters, site).list.find((m) => m.metric === metric)?.label ?? metricHeading(metric));
  const holder = useRef<HTMLDivElement>(null);
  const { series, error } = useGraphSeries(metric, comparison, interval);
  const { annotations, reload } = useAnnotations(annotationsPath);
  usePlot(holder, series, metric, label, annotations, realtime);
  // Team editors and up, and guests invited as editors, write notes (src/web/routes/annotations.ts).
  const annotate = !readOnly && annotationsPath && roleIn(site.role, SITE_EDITORS);
  return (
    <section className="card graph" aria-label="Graph">
      <GraphHead
        series={series}
        timezone={site.timezone}
        onInterval={onInterval}
        imported={imported}
        onImported={onImported}
        download={() => series && downloadCsv(series, metric, site.domain)}
        annotations={annotate ? <AnnotationsDialog path={annotationsPath} annotations={annotations} today={today} changed={reload} /> : null}
      />
      {error && (
        <p className="form-error small clamped" title={error}>
          {error}
        </p>
      )}
      {!series && !error && <div className="graph-skeleton" aria-hidden="true" />}
      <div
        ref={holder}
        className="graph-plot"
        data-points={series?.labels.length ?? 0}
        data-annotations={annotations.length}
        data-comparison={series?.previous ? series.comparisonLabel : undefined}
        data-interval={series?.interval}
        data-shape={realtime ? 'bars' : 'line'}
        data-in-progress={series && series.presentIndex !== null && series.presentIndex >= 0 ? series.presentIndex : undefined}
      />
    </section>
  );
}
