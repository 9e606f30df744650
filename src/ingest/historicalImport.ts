import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { isIP } from 'node:net';
import type { ImportReport } from '../contracts/imports.js';
import { AppError } from '../errors.js';
import type { Ingestion } from './ingestion.js';
import { isJsonObject } from './payload.js';

/** Lines further in the future than this are refused: history cannot come from tomorrow. */
const FUTURE_TOLERANCE_MS = 5 * 60_000;
export const MAX_IMPORT_LINES = 1_000_000;

interface ImportLine {
  line: number;
  at: number;
  ip: string;
  userAgent: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** The oldest instant a site takes events for, and the sentence for an older line (src/rollups/retention.ts). */
export interface OldestAccepted {
  at: number;
  reason: string;
}

function parseLine(text: string, line: number, now: number, oldest: OldestAccepted | null): ImportLine | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not valid JSON';
  }
  if (!isJsonObject(value)) return 'not a JSON object';
  const { timestamp, ip, user_agent: userAgent, headers, ...body } = value;
  const at = typeof timestamp === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(timestamp) ? Date.parse(timestamp) : Number.NaN;
  if (Number.isNaN(at)) return '"timestamp" must be an ISO 8601 date-time such as 2026-03-01T12:00:00Z';
  if (at > now + FUTURE_TOLERANCE_MS) return '"timestamp" is in the future';
  if (oldest !== null && at < oldest.at) return oldest.reason;
  if (typeof ip !== 'string' || isIP(ip) === 0) return '"ip" must be an IPv4 or IPv6 address';
  if (typeof userAgent !== 'string') return '"user_agent" must be a string';
  if (headers !== undefined && !isJsonObject(headers)) return '"headers" must be an object';
  const lowered: Record<string, string> = Object.create(null);
  for (const [name, headerValue] of Object.entries(headers ?? {})) {
    if (typeof headerValue === 'string') lowered[name.toLowerCase()] = headerValue;
  }
  return { line, at, ip, userAgent, headers: lowered, body };
}

/** A line longer than this is rejected unread (a live event body may be at most 64 KiB). */
const MAX_LINE_BYTES = 1024 * 1024;
/** Rejected lines kept in a report; beyond them only `rejected_count` grows. */
export const MAX_REPORTED_REJECTIONS = 10_000;

/** Every line of a file with its number, byte offset and length, read in chunks (never whole). */
async function* fileLines(path: string): AsyncGenerator<{ line: number; offset: number; length: number; text: string | null }> {
  let line = 0;
  let lineStart = 0;
  let position = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const take = () => {
    const length = position - lineStart;
    const text = length > MAX_LINE_BYTES ? null : Buffer.concat(pending).toString('utf8');
    pending = [];
    pendingBytes = 0;
    return { length, text };
  };
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    let from = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, from)) {
      if (pendingBytes <= MAX_LINE_BYTES) pending.push(chunk.subarray(from, newline));
      position += newline - from;
      line += 1;
      yield { line, offset: lineStart, ...take() };
      position += 1;
      lineStart = position;
      from = newline + 1;
    }
    // A line's start waits for its end; past the cap its bytes are only counted.
    if (pendingBytes <= MAX_LINE_BYTES) {
      pending.push(chunk.subarray(from));
      pendingBytes += chunk.length - from;
    }
    position += chunk.length - from;
  }
  if (position > lineStart) yield { line: line + 1, offset: lineStart, ...take() };
}

/**
 * Replays an NDJSON file of raw events into one site through the same pipeline as live traffic,
 * in timestamp order, with the clock set to each line's time and salts made for those days.
 * Rejected lines are reported by number with the reason; the rest are counted by outcome. Lines
 * older than `oldest` are rejected: the site no longer keeps raw events of their days.
 * Memory stays flat whatever the file's size: a first pass keeps only each valid line's time and
 * place in the file, the second reads the lines back in time order.
 */
export async function importEventFile(
  ingestion: Ingestion,
  domain: string,
  path: string,
  now: number,
  oldest: OldestAccepted | null,
  progress: (linesDone: number) => Promise<void> = async () => {},
): Promise<ImportReport> {
  const report: ImportReport = { lines: 0, outcomes: {}, rejected: [], rejected_count: 0 };
  const reject = (line: number, reason: string) => {
    report.rejected_count += 1;
    if (report.rejected.length < MAX_REPORTED_REJECTIONS) report.rejected.push({ line, reason });
  };
  const order: { at: number; line: number; offset: number; length: number }[] = [];
  for await (const { line, offset, length, text } of fileLines(path)) {
    if (text === null) {
      report.lines += 1;
      reject(line, `longer than ${MAX_LINE_BYTES / 1024} KiB`);
      continue;
    }
    const trimmed = text.trim();
    if (trimmed === '') continue;
    report.lines += 1;
    if (report.lines > MAX_IMPORT_LINES) throw tooManyLines();
    const parsed = parseLine(trimmed, line, now, oldest);
    if (typeof parsed === 'string') reject(line, parsed);
    else order.push({ at: parsed.at, line, offset, length });
  }
  order.sort((a, b) => a.at - b.at || a.line - b.line);

  const { pipeline, finish } = ingestion.replay();
  const tally = (key: string) => {
    report.outcomes[key] = (report.outcomes[key] ?? 0) + 1;
  };
  const file = await open(path, 'r');
  try {
    for (const [index, place] of order.entries()) {
      const bytes = Buffer.alloc(place.length);
      await file.read(bytes, 0, place.length, place.offset);
      const item = parseLine(bytes.toString('utf8').trim(), place.line, now, oldest);
      if (typeof item === 'string') continue;
      const result = await pipeline.ingest({
        body: { ...item.body, d: domain },
        headers: { ...item.headers, 'user-agent': item.userAgent },
        socketAddress: item.ip,
        address: { address: item.ip, source: 'socket', forwarded: false },
        userAgent: item.userAgent,
        at: item.at,
        debug: false,
      });
      if (result.outcome === 'invalid') reject(item.line, result.message);
      else if (result.outcome === 'accepted') for (const outcome of result.outcomes) tally(outcome.reason ?? outcome.outcome);
      if ((index + 1) % 10_000 === 0) await progress(index + 1);
    }
  } finally {
    await file.close();
  }
  const last = order.at(-1);
  if (last) finish(last.at);
  report.rejected.sort((a, b) => a.line - b.line);
  return report;
}

export const tooManyLines = () =>
  new AppError(413, 'too_many_lines', `An import takes at most ${MAX_IMPORT_LINES.toLocaleString('en')} lines per request; split the file.`);
