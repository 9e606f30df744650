import { isIP } from 'node:net';
import { AppError } from '../errors.js';
import type { Ingestion } from './ingestion.js';

/** Lines further in the future than this are refused: history cannot come from tomorrow. */
const FUTURE_TOLERANCE_MS = 5 * 60_000;
export const MAX_IMPORT_LINES = 1_000_000;

export interface ImportReport {
  lines: number;
  outcomes: Record<string, number>;
  rejected: Array<{ line: number; reason: string }>;
}

interface ImportLine {
  line: number;
  at: number;
  ip: string;
  userAgent: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

function parseLine(text: string, line: number, now: number): ImportLine | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not valid JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const { timestamp, ip, user_agent: userAgent, headers, ...body } = value as Record<string, unknown>;
  const at = typeof timestamp === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(timestamp) ? Date.parse(timestamp) : Number.NaN;
  if (Number.isNaN(at)) return '"timestamp" must be an ISO 8601 date-time such as 2026-03-01T12:00:00Z';
  if (at > now + FUTURE_TOLERANCE_MS) return '"timestamp" is in the future';
  if (typeof ip !== 'string' || isIP(ip) === 0) return '"ip" must be an IPv4 or IPv6 address';
  if (typeof userAgent !== 'string') return '"user_agent" must be a string';
  if (headers !== undefined && (typeof headers !== 'object' || headers === null || Array.isArray(headers))) return '"headers" must be an object';
  const lowered: Record<string, string> = Object.create(null);
  for (const [name, headerValue] of Object.entries((headers ?? {}) as Record<string, unknown>)) {
    if (typeof headerValue === 'string') lowered[name.toLowerCase()] = headerValue;
  }
  return { line, at, ip, userAgent, headers: lowered, body };
}

/**
 * Replays raw events into one site through the same pipeline as live traffic, in timestamp
 * order, with the clock set to each line's time and salts made for those days. Rejected lines
 * are reported by number with the reason; the rest are counted by outcome.
 */
export async function importEvents(ingestion: Ingestion, domain: string, ndjson: string, now: number): Promise<ImportReport> {
  const report: ImportReport = { lines: 0, outcomes: {}, rejected: [] };
  const items: ImportLine[] = [];
  const texts = ndjson.split('\n');
  if (texts.length > MAX_IMPORT_LINES + 1) {
    throw new AppError(413, 'too_many_lines', `An import takes at most ${MAX_IMPORT_LINES.toLocaleString('en')} lines per request; split the file.`);
  }
  for (let index = 0; index < texts.length; index += 1) {
    const text = texts[index]!.trim();
    if (text === '') continue;
    report.lines += 1;
    const parsed = parseLine(text, index + 1, now);
    if (typeof parsed === 'string') report.rejected.push({ line: index + 1, reason: parsed });
    else items.push(parsed);
  }
  items.sort((a, b) => a.at - b.at || a.line - b.line);

  const { pipeline, finish } = ingestion.replay();
  const tally = (key: string) => {
    report.outcomes[key] = (report.outcomes[key] ?? 0) + 1;
  };
  for (const item of items) {
    const result = await pipeline.ingest({
      body: { ...item.body, d: domain },
      headers: { ...item.headers, 'user-agent': item.userAgent },
      socketAddress: item.ip,
      address: { address: item.ip, source: 'socket', forwarded: false },
      userAgent: item.userAgent,
      at: item.at,
      debug: false,
    });
    if (result.status === 400) {
      report.rejected.push({ line: item.line, reason: result.message });
      continue;
    }
    if (result.status !== 202) continue;
    for (const outcome of result.outcomes) tally(outcome.reason ?? outcome.outcome);
  }
  const last = items.at(-1);
  if (last) finish(last.at);
  report.rejected.sort((a, b) => a.line - b.line);
  return report;
}
