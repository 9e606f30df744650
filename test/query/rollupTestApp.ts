import { afterAll, beforeAll, expect } from 'vitest';
import type { App } from '../../src/app.js';
import { type QueryEngineDeps, runQuery } from '../../src/query/run/engine.js';
import { queryEngineDeps } from '../../src/queryEngine.js';
import { openRollups } from '../../src/rollups/rollups.js';
import { ManualClock } from '../support/manualClock.js';
import { watchingStatements } from '../support/refusingRollups.js';
import { type Account, bearer, startTestApp, type TestApp } from '../support/testApp.js';
import { SMALL_SITE_NOW } from './smallSite.js';

/**
 * What the roll-up test files (rollups, rollupWindows, rollupWindowMerges, rollupsRandom) share. Each file runs its
 * own app: every round of the job goes over every site of its app, so one app for all of them
 * made each later round go over the sites of every test before it.
 */

/** A file's roll-up test app, and what its tests ask of it. */
export interface RollupTestApp {
  readonly app: App;
  readonly url: string;
  readonly clock: ManualClock;
  /** POST /api/v2/query for the account's site: the status and the parsed body. */
  post(account: Account, body: Record<string, unknown>): Promise<{ status: number; body: any }>;
  /** The body of a 200 answer to POST /api/v2/query; anything else fails the test with the body asked. */
  ask(account: Account, body: Record<string, unknown>): Promise<any>;
  /** The roll-ups as a restarted service finds them: read from the store, before any round of its own. */
  restarted(client?: App['events']['jobs']): ReturnType<typeof openRollups>;
  /** Each body's answer before the job runs, from raw rows. */
  rawAnswers(account: Account, bodies: Record<string, unknown>[]): Promise<unknown[]>;
}

/** An app started before the file's tests, its clock at SMALL_SITE_NOW, its rounds run when a test asks (not on the app's timer halfway through one). */
export function rollupTestApp(): RollupTestApp {
  let started: TestApp | undefined;
  const clock = new ManualClock(SMALL_SITE_NOW);
  beforeAll(async () => {
    // Every site with an event today merges its day so far (src/stores/clickhouse/daySoFar.ts), so each answer of a range ending today is checked with one.
    started = await startTestApp({ clock, env: { ROLLUP_DAY_SO_FAR_EVENTS: '1' } });
    await started.app.jobs.stop();
  });
  afterAll(() => started?.close());
  const t = () => {
    if (!started) throw new Error('The roll-up test app starts before the tests (beforeAll).');
    return started;
  };
  const post = async (account: Account, body: Record<string, unknown>) => {
    const res = await fetch(`${t().url}/api/v2/query`, {
      method: 'POST',
      headers: { ...bearer(account.key), 'content-type': 'application/json' },
      body: JSON.stringify({ site_id: account.domain, ...body }),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  return {
    get app() {
      return t().app;
    },
    get url() {
      return t().url;
    },
    clock,
    post,
    ask: async (account, body) => {
      const res = await post(account, body);
      if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)} for ${JSON.stringify(body)}`);
      return res.body;
    },
    restarted: (client = t().app.events.jobs) =>
      openRollups({
        client,
        cluster: null,
        memoryLimitBytes: t().app.config.query.memoryLimitBytes,
        flushWrites: async () => {},
        onError: (error) => {
          throw error;
        },
      }),
    rawAnswers: async (account, bodies) => {
      const deps = queryEngineDeps(t().app);
      const raw = [];
      for (const body of bodies) raw.push((await runQuery(deps, account.teamId, body)).results);
      return raw;
    },
  };
}

export const answer = (body: any) => body.results;

/**
 * The windows kept for a site rolled up through 9 Jan 2024 (src/stores/clickhouse/rollupWindows.ts
 * windowsEnding) whose days reach back thirteen weeks: twelve of the presets (7, 28, 30 and 91 days
 * and the periods before them, `month`, `last_month`, `12mo` and `all`; `year` is `month` in
 * January), and eleven from Mondays (the one from 1 Jan is `month`'s, the one from 11 Dec the 30
 * days'). A site whose first day is in the last week keeps the presets' alone (windowKinds).
 */
export const WINDOWS = 23;
export const PRESET_WINDOWS = 12;
export const RANGE = ['2024-01-08', '2024-01-10'];

/** Each body asked again through `deps`: read from a window, `sources` among its sources, and answered as `raw` (in order). */
export async function expectWindowAnswers(deps: QueryEngineDeps, account: Account, bodies: Record<string, unknown>[], raw: unknown[], sources = ['rollup']) {
  const { deps: watched, statements } = watchingStatements(deps);
  for (const [i, body] of bodies.entries()) {
    statements.length = 0;
    const answer = await runQuery(watched, account.teamId, body);
    expect(answer.meta.sources, JSON.stringify(body)).toEqual(expect.arrayContaining(sources));
    expect(statements.join(), JSON.stringify(body)).toMatch(/FROM window_/);
    expect(answer.results, JSON.stringify(body)).toEqual(raw[i]);
  }
}
