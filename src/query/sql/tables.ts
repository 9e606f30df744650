import { earliestVisitStart } from '../../stores/clickhouse/schema.js';
import type { CompileContext } from '../model.js';

export function fromTable(ctx: CompileContext, table: 'events' | 'sessions'): string {
  // The rate is a number we computed, never request text; the same rate on every (sub)query
  // reads the same visitors, so primary, comparison and behavioural subqueries agree.
  return ctx.sampleRate === null ? table : `${table} SAMPLE ${ctx.sampleRate}`;
}

/** The classifications a query counts: unclassified rows, and those put back into reports. */
export function classificationCondition(ctx: CompileContext): string {
  return ctx.q.classifications.length === 0 ? "classification = ''" : `has(${ctx.params.strings(['', ...ctx.q.classifications])}, classification)`;
}

/** Events of the site in the range that its reports count; engagement rows only when asked. */
export function eventsBase(ctx: CompileContext, options: { engagement: boolean }): string[] {
  const { params, range } = ctx;
  return [
    `site_id = ${params.add(ctx.q.site.id, 'UInt64')}`,
    `timestamp >= ${params.instant(range.first)}`,
    `timestamp <= ${params.instant(range.last)}`,
    classificationCondition(ctx),
    ...(options.engagement ? [] : ["name != 'engagement'"]),
  ];
}

/**
 * Visits active in the range: last activity at or after its start and begun by its end. The
 * week-earlier bound on `start` only lets the primary key prune; no visit lasts that long.
 */
export function sessionsBase(ctx: CompileContext): string[] {
  const { params, range } = ctx;
  return [
    `site_id = ${params.add(ctx.q.site.id, 'UInt64')}`,
    `start >= ${params.instant(earliestVisitStart(range.first))}`,
    `timestamp >= ${params.instant(range.first)}`,
    `start <= ${params.instant(range.last)}`,
    classificationCondition(ctx),
  ];
}

export const and = (conditions: string[]) => (conditions.length ? conditions.map((c) => `(${c})`).join(' AND ') : '1');
