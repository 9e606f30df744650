import { METRIC_DESCRIPTIONS } from '../contracts/metrics.js';
import { escapeHtml, type Framed, frameMail } from './mailLayout.js';
import type { ReportPeriod } from './periods.js';
import type { Figure, ReportContent } from './reportContent.js';

/** A report as a mail: subject, plain text and HTML with the same content. */

const dayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const monthFormat = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const asUtcDay = (date: string) => new Date(`${date}T00:00:00Z`);

/** "16 Nov 2026 – 22 Nov 2026" for a week, "October 2026" for a month. */
export function periodWords(period: Pick<ReportPeriod, 'kind' | 'from' | 'to'>): string {
  if (period.kind === 'monthly') return monthFormat.format(asUtcDay(period.from));
  return `${dayFormat.format(asUtcDay(period.from))} – ${dayFormat.format(asUtcDay(period.to))}`;
}

const count = (n: number) => Math.round(n).toLocaleString('en-US');

/** A figure as the dashboard writes it (src/contracts/metrics.ts units). */
export function figureValue(figure: Figure): string {
  if (figure.value === null) return '—';
  const unit = METRIC_DESCRIPTIONS[figure.metric].unit;
  if (unit === 'percent') return `${figure.value}%`;
  if (unit === 'seconds') {
    const total = Math.round(figure.value);
    const minutes = Math.floor(total / 60);
    return minutes > 0 ? `${minutes}m ${total % 60}s` : `${total}s`;
  }
  return count(figure.value);
}

/** The change as the engine reports it: percent of the earlier figure, or percentage points for the bounce rate. */
export function figureChange(figure: Figure): string {
  if (figure.change === null) return 'no earlier figure';
  const sign = figure.change > 0 ? '+' : figure.change < 0 ? '−' : '±';
  const size = Math.abs(figure.change);
  return METRIC_DESCRIPTIONS[figure.metric].change === 'percent' ? `${sign}${size}%` : `${sign}${size} pts`;
}

const label = (figure: Figure) => METRIC_DESCRIPTIONS[figure.metric].label;

function textTable(title: string, rows: { name: string; visitors: number }[], empty: string): string {
  if (rows.length === 0) return `${title}\n  ${empty}`;
  return `${title}\n${rows.map((row, i) => `  ${i + 1}. ${row.name} — ${count(row.visitors)} visitors`).join('\n')}`;
}

function htmlTable(title: string, rows: { name: string; visitors: number }[], empty: string): string {
  const cell = 'padding:6px 0;border-bottom:1px solid #eef0f4';
  const body =
    rows.length === 0
      ? `<tr><td style="${cell};color:#5b6270">${escapeHtml(empty)}</td></tr>`
      : rows
          .map(
            (row) =>
              `<tr><td style="${cell};word-break:break-all">${escapeHtml(row.name)}</td><td style="${cell};text-align:right;white-space:nowrap">${count(row.visitors)}</td></tr>`,
          )
          .join('');
  return `<h2 style="font-size:15px;margin:24px 0 8px">${escapeHtml(title)}</h2>
<table role="presentation" style="width:100%;border-collapse:collapse;font-size:14px"><tr><th style="text-align:left;font-size:12px;color:#5b6270;font-weight:600">&nbsp;</th><th style="text-align:right;font-size:12px;color:#5b6270;font-weight:600">Visitors</th></tr>${body}</table>`;
}

export function reportMail(content: ReportContent, links: { dashboard: string; unsubscribe: string }): Framed & { subject: string } {
  const kindWord = content.period.kind === 'weekly' ? 'Weekly' : 'Monthly';
  const when = periodWords(content.period);
  const title = `${kindWord} report for ${content.domain}: ${when}`;
  const before = content.period.kind === 'weekly' ? 'the week before' : 'the month before';
  const zone = `Days in ${content.timezone}; changes against ${before}.`;
  const textFigures = content.figures.map((f) => `${label(f)}: ${figureValue(f)} (${figureChange(f)})`).join('\n');
  const htmlFigures = `<table role="presentation" style="width:100%;border-collapse:collapse;font-size:14px">${content.figures
    .map(
      (f) =>
        `<tr><td style="padding:6px 0;color:#5b6270">${escapeHtml(label(f))}</td><td style="padding:6px 0;text-align:right;font-size:18px;font-weight:600">${figureValue(f)}</td><td style="padding:6px 0 6px 12px;text-align:right;color:#5b6270;white-space:nowrap">${escapeHtml(figureChange(f))}</td></tr>`,
    )
    .join('')}</table>`;
  const textBody = [
    zone,
    textFigures,
    textTable('Top sources', content.sources, 'No visits in this period.'),
    textTable('Top pages', content.pages, 'No pageviews in this period.'),
    `The dashboard for this period: ${links.dashboard}`,
  ].join('\n\n');
  const htmlBody = `<p style="margin:0 0 16px;color:#5b6270;font-size:13px">${escapeHtml(zone)}</p>
${htmlFigures}
${htmlTable('Top sources', content.sources, 'No visits in this period.')}
${htmlTable('Top pages', content.pages, 'No pageviews in this period.')}
<p style="margin:24px 0 0"><a href="${escapeHtml(links.dashboard)}" style="display:inline-block;background:#4f46e5;color:#ffffff;text-decoration:none;padding:10px 16px;border-radius:6px;font-weight:600">Open the dashboard</a></p>
<p style="margin:8px 0 0;font-size:12px;color:#5b6270">${escapeHtml(links.dashboard)}</p>`;
  const framed = frameMail({
    title,
    textBody,
    htmlBody,
    why: `You get ${kindWord.toLowerCase()} reports of ${content.domain} because an editor of the site added this address.`,
    unsubscribeUrl: links.unsubscribe,
  });
  return { subject: title, ...framed };
}

/** The dashboard showing exactly the report's period. */
export const dashboardUrl = (baseUrl: string, domain: string, period: Pick<ReportPeriod, 'from' | 'to'>) =>
  `${baseUrl}/${encodeURIComponent(domain)}?period=custom&from=${period.from}&to=${period.to}`;
