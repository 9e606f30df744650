import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Clock } from '../../clock.js';
import { DEFAULT_LEASE_PERIOD_MS } from '../../config/config.js';
import { type MetaDb, records } from './database.js';

/**
 * Leases for work that must run on one node at a time (docs/scaling.md, Leases): the periodic
 * roll-ups, retention and purge, the ClickHouse migrations at start, each import and each export.
 *
 * A lease is a row per named piece of work: who holds it and until when. Claiming takes the row
 * when it is free or expired, in one conditional statement (`INSERT … ON CONFLICT DO UPDATE … WHERE`
 * the row is expired or already ours), so of two nodes claiming at once exactly one gets it: on
 * PostgreSQL the conflicting insert waits for the other's row lock and then re-checks the
 * condition against the row as committed; SQLite runs the statement under its write lock. The
 * holder renews at a third of the period while it works and releases when done; a holder that
 * dies stops renewing, and another node takes the work over within one period.
 *
 * Time is the injected clock's, never the system's, so tests move it by hand.
 */

/** How long a lease lasts without renewal, when the caller does not say: a dead holder is replaced within this. */
export const LEASE_PERIOD_MS = DEFAULT_LEASE_PERIOD_MS;

/** This process, as lease holder: random per process, so a restarted node never resumes a dead one's lease. */
export const NODE_ID = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

export interface LeaseRow {
  name: string;
  holder: string;
  expiresAt: number;
  claimedAt: number;
}

/** Takes the lease if it is free, expired, or already this holder's; true when it is now held. */
export async function claimLease(db: MetaDb, name: string, holder: string, now: number, periodMs = LEASE_PERIOD_MS): Promise<boolean> {
  const row = await db
    .insertInto('leases')
    .values({ name, holder, expires_at: now + periodMs, claimed_at: now })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ holder, expires_at: now + periodMs, claimed_at: now })
        .where((eb) => eb.or([eb('leases.expires_at', '<=', now), eb('leases.holder', '=', holder)])),
    )
    .returning('holder')
    .executeTakeFirst();
  return row?.holder === holder;
}

/** Moves the expiry on; false when the lease is no longer this holder's (it expired and was taken). */
export async function renewLease(db: MetaDb, name: string, holder: string, now: number, periodMs = LEASE_PERIOD_MS): Promise<boolean> {
  const result = await db
    .updateTable('leases')
    .set({ expires_at: now + periodMs })
    .where('name', '=', name)
    .where('holder', '=', holder)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Gives the lease up, if this holder still has it. */
export async function releaseLease(db: MetaDb, name: string, holder: string): Promise<void> {
  await db.deleteFrom('leases').where('name', '=', name).where('holder', '=', holder).execute();
}

/** The lease's row as stored, expired or not; undefined when nobody holds it. */
export async function readLease(db: MetaDb, name: string): Promise<LeaseRow | undefined> {
  const row = await records(db).selectFrom('leases').selectAll().where('name', '=', name).executeTakeFirst();
  return row && { ...row, expiresAt: Number(row.expiresAt), claimedAt: Number(row.claimedAt) };
}

/** Forgets leases expired for more than `olderThanMs` (a finished import's, a dead node's): they are taken like absent ones anyway. */
export async function pruneLeases(db: MetaDb, now: number, olderThanMs = LEASE_PERIOD_MS): Promise<void> {
  await db
    .deleteFrom('leases')
    .where('expires_at', '<', now - olderThanMs)
    .execute();
}

/** A lease this node holds while its work runs. */
export interface HeldLease {
  name: string;
  /** True once a renewal found the lease taken by another node: the work should stop. */
  lost(): boolean;
  /** Aborted when the lease is lost. */
  signal: AbortSignal;
}

export interface Leases {
  holder: string;
  periodMs: number;
  claim(name: string): Promise<boolean>;
  renew(name: string): Promise<boolean>;
  release(name: string): Promise<void>;
  read(name: string): Promise<LeaseRow | undefined>;
  /** True when some node holds the lease and has renewed it within its period. */
  held(name: string): Promise<boolean>;
  /**
   * Claims the lease and runs `work` holding it, renewing at a third of the period and releasing
   * when it settles; `{ ran: false }` without running it when another node holds it.
   */
  run<T>(name: string, work: (lease: HeldLease) => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }>;
  /**
   * As `run`, but waits for a held lease to be released or to expire, polling every `pollMs`
   * (real time) up to `timeoutMs`; past that it throws, naming the holder.
   */
  runWhenFree<T>(name: string, work: (lease: HeldLease) => Promise<T>, options?: { pollMs?: number; timeoutMs?: number }): Promise<T>;
}

export interface LeaseOptions {
  db: MetaDb;
  clock: Clock;
  /** NODE_ID unless given (tests play several nodes in one process). */
  holder?: string;
  periodMs?: number;
  /** Real time between renewals; a third of the period unless given. */
  renewEveryMs?: number;
  onError?: (error: unknown) => void;
}

export function createLeases(options: LeaseOptions): Leases {
  const { db, clock } = options;
  const holder = options.holder ?? NODE_ID;
  const periodMs = options.periodMs ?? LEASE_PERIOD_MS;
  const renewEveryMs = options.renewEveryMs ?? Math.floor(periodMs / 3);
  const onError = options.onError ?? (() => {});

  const hold = async <T>(name: string, work: (lease: HeldLease) => Promise<T>): Promise<T> => {
    const controller = new AbortController();
    let lost = false;
    let renewing: Promise<void> | null = null;
    const timer = setInterval(() => {
      renewing ??= renewLease(db, name, holder, clock.now(), periodMs)
        .then((kept) => {
          if (kept || lost) return;
          lost = true;
          controller.abort(new Error(`The lease ${name} was taken over by another node.`));
        })
        // A failed renewal is tried again at the next tick; the lease lasts three of them.
        .catch(onError)
        .finally(() => {
          renewing = null;
        });
    }, renewEveryMs);
    timer.unref();
    try {
      return await work({ name, lost: () => lost, signal: controller.signal });
    } finally {
      clearInterval(timer);
      await renewing;
      if (!lost) await releaseLease(db, name, holder).catch(onError);
    }
  };

  return {
    holder,
    periodMs,
    claim: (name) => claimLease(db, name, holder, clock.now(), periodMs),
    renew: (name) => renewLease(db, name, holder, clock.now(), periodMs),
    release: (name) => releaseLease(db, name, holder),
    read: (name) => readLease(db, name),
    async held(name) {
      const row = await readLease(db, name);
      return row !== undefined && row.expiresAt > clock.now();
    },
    async run(name, work) {
      if (!(await claimLease(db, name, holder, clock.now(), periodMs))) return { ran: false };
      return { ran: true, value: await hold(name, work) };
    },
    async runWhenFree(name, work, wait = {}) {
      const pollMs = wait.pollMs ?? 500;
      const timeoutMs = wait.timeoutMs ?? 2 * periodMs;
      const started = performance.now();
      while (!(await claimLease(db, name, holder, clock.now(), periodMs))) {
        if (performance.now() - started >= timeoutMs) {
          const row = await readLease(db, name);
          throw new Error(
            `Waited ${Math.round(timeoutMs / 1000)} s for the lease ${name}, still held by ${row?.holder ?? 'another node'}; start again once it is done.`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
      return hold(name, work);
    },
  };
}
