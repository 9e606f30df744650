import { ZipFile } from 'yazl';
import type { DashboardDownloadQuery } from '../contracts/dashboardDownload.js';
import type { QueryResponse } from '../contracts/query.js';
import { AppError } from '../errors.js';

/** One file of the dashboard's ZIP: a panel tab's breakdown (or the graph's series) and the figures it holds. */
interface DashboardFile {
  name: string;
  dimension: string;
  /** Metrics a filter may refuse (views per visit beside a page filter, exit rate beside an event filter) come last: see `answer`. */
  metrics: string[];
}

/** A visit dimension's figures, as the details views list them (web/src/pages/dashboard/panels/DetailsModal.tsx). */
const VISIT_METRICS = ['visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration'];
const visitFile = (name: string, dimension: string): DashboardFile => ({ name, dimension, metrics: VISIT_METRICS });

/**
 * The dashboard's panels, tab by tab (web/src/pages/dashboard/panels/Reports.tsx), each a CSV file
 * named as Plausible's dashboard export names its files; `visitors.csv` is the graph.
 */
const PANEL_FILES: DashboardFile[] = [
  { name: 'visitors.csv', dimension: 'time', metrics: [...VISIT_METRICS, 'views_per_visit'] },
  visitFile('channels.csv', 'visit:channel'),
  visitFile('sources.csv', 'visit:source'),
  visitFile('utm_mediums.csv', 'visit:utm_medium'),
  visitFile('utm_sources.csv', 'visit:utm_source'),
  visitFile('utm_campaigns.csv', 'visit:utm_campaign'),
  { name: 'pages.csv', dimension: 'event:page', metrics: ['visitors', 'pageviews', 'bounce_rate', 'time_on_page'] },
  { name: 'entry_pages.csv', dimension: 'visit:entry_page', metrics: ['visitors', 'visits', 'bounce_rate', 'visit_duration'] },
  { name: 'exit_pages.csv', dimension: 'visit:exit_page', metrics: ['visitors', 'visits', 'exit_rate'] },
  visitFile('countries.csv', 'visit:country'),
  visitFile('regions.csv', 'visit:region'),
  visitFile('cities.csv', 'visit:city'),
  visitFile('browsers.csv', 'visit:browser'),
  visitFile('operating_systems.csv', 'visit:os'),
  visitFile('screen_sizes.csv', 'visit:screen'),
];

/** What the site shows besides the fixed panels: the goals panel when it has goals, a properties file per custom property. */
export interface DashboardSite {
  domain: string;
  hasGoals: boolean;
  customProperties: string[];
}

/** A file name from a property's name (any text a site owner typed): letters, digits, `-` and `_` kept. */
const propertyFileName = (property: string) => `property_${property.replace(/[^\p{L}\p{N}_-]+/gu, '_').slice(0, 80)}.csv`;

function filesOf(site: DashboardSite): DashboardFile[] {
  return [
    ...PANEL_FILES,
    ...(site.hasGoals ? [{ name: 'conversions.csv', dimension: 'event:goal', metrics: ['visitors', 'events', 'conversion_rate'] }] : []),
    ...site.customProperties.map((property) => ({ name: propertyFileName(property), dimension: `event:props:${property}`, metrics: ['visitors', 'events'] })),
  ];
}

/** The most rows a file holds: the query API's largest page. */
const ROWS = 10_000;

/** A CSV cell: quoted when it holds a comma, a quote or a line break (RFC 4180). */
const cell = (value: unknown) => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};
const csvLine = (values: unknown[]) => `${values.map(cell).join(',')}\n`;

/** A dimension's column heading: `source` for visit:source, `props:plan` for event:props:plan. */
const heading = (dimension: string) => dimension.replace(/^(visit|event):/, '');

export type RunQuery = (body: Record<string, unknown>) => Promise<QueryResponse>;

/**
 * The file's figures. A metric the view's filters refuse (the engine answers 400, as views per
 * visit beside a page filter) is left out, the last first, so the file still holds the others.
 */
async function answer(run: RunQuery, file: DashboardFile, view: DashboardDownloadQuery): Promise<QueryResponse> {
  for (let count = file.metrics.length; ; count--) {
    try {
      return await run({
        metrics: file.metrics.slice(0, count),
        dimensions: [file.dimension],
        date_range: view.date_range,
        filters: view.filters ?? [],
        order_by: file.dimension === 'time' ? [['time', 'asc']] : [['visitors', 'desc']],
        pagination: { limit: ROWS },
        include: { ...(view.imports === 'false' ? {} : { imports: true }), ...(file.dimension === 'time' ? { time_labels: true } : {}) },
      });
    } catch (failure) {
      if (!(failure instanceof AppError) || failure.status !== 400 || count === 1) throw failure;
    }
  }
}

/** A file's text: a heading line, then a row per value; the graph's file has a line per bucket, empty ones counted as nothing. */
function csvOf(file: DashboardFile, response: QueryResponse): string {
  const metrics = response.query.metrics;
  const lines = [csvLine([heading(file.dimension), ...metrics])];
  const labels = response.meta.time_labels;
  if (file.dimension === 'time' && labels) {
    const byLabel = new Map(response.results.map((row) => [String(row.dimensions[0]), row.metrics]));
    for (const label of labels) lines.push(csvLine([label, ...(byLabel.get(label) ?? metrics.map(() => 0))]));
  } else for (const row of response.results) lines.push(csvLine([...row.dimensions, ...row.metrics]));
  return lines.join('');
}

/**
 * The whole dashboard view as a ZIP of one CSV per panel tab, for the view's range and filters,
 * every figure from the query engine as the panels ask for it. The queries run one after another
 * (as a dashboard's panels would), and the ZIP is written once all have answered, so a refusal
 * (a bad range or filter) is an error answer rather than a broken download.
 */
export async function dashboardZip(
  run: RunQuery,
  site: DashboardSite,
  view: DashboardDownloadQuery,
): Promise<{ zip: NodeJS.ReadableStream; fileName: string }> {
  const zip = new ZipFile();
  let range: readonly string[] = [];
  for (const file of filesOf(site)) {
    const response = await answer(run, file, view);
    range = response.query.date_range;
    zip.addBuffer(Buffer.from(csvOf(file, response)), file.name);
  }
  zip.end();
  const day = (time: string | undefined) => (time ?? '').slice(0, 10).replaceAll('-', '');
  return { zip: zip.outputStream, fileName: `${site.domain.replaceAll('.', '_')}_dashboard_${day(range[0])}_${day(range[1])}.zip` };
}
