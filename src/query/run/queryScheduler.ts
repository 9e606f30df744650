import { AppError } from '../../errors.js';

/**
 * Shares the query connections fairly between teams. The embedded engine runs one statement per
 * connection at a time, so with one connection a team's slow query would make every other team
 * wait. Here statements run on a small pool of connections; a team runs at most
 * `perTeam` at once (so one team never holds them all), waiting teams are served in turn
 * (round-robin, not first come), and a team may queue only so many. Time spent waiting counts
 * against the statement's time limit: what is left is the `max_execution_time` it runs with.
 */
export interface QueryScheduler<Connection> {
  run<T>(teamId: number, work: (connection: Connection, secondsLeft: number, threads: number | null) => Promise<T>): Promise<T>;
  /** Statements running and waiting now (for tests and the health route). */
  load(): { running: number; waiting: number };
}

export interface SchedulerOptions<Connection> {
  connections: Connection[];
  perTeam: number;
  waitingPerTeam: number;
  timeoutSeconds: number;
  /**
   * The cores the engine shares with this process (the embedded engine), or null (a server's
   * are its own). A statement then starts with its share of them: two statements each on every
   * core cost more than each on its own (a query split over threads also merges their partial
   * results), measured in docs/benchmarks.md.
   */
  cores: number | null;
  /** Milliseconds on a monotonic clock. */
  now(): number;
}

interface Job<Connection> {
  teamId: number;
  queuedAt: number;
  start(connection: Connection, secondsLeft: number, threads: number | null): void;
  fail(error: AppError): void;
  timer: ReturnType<typeof setTimeout>;
}

const busy = (waiting: number) =>
  new AppError(429, 'too_many_queries', `This team already has ${waiting} queries waiting for the query engine; try again when they have answered.`, {
    'retry-after': '5',
  });

const waitedTooLong = (seconds: number) =>
  new AppError(
    503,
    'query_timeout',
    `The query waited its whole ${seconds}-second limit for the query engine, which other queries are using; try again shortly.`,
    {
      'retry-after': '10',
    },
  );

/** The threads a statement may use when it starts beside `running - 1` others on `cores`. */
export function threadShare(cores: number | null, running: number): number | null {
  return cores === null ? null : Math.max(1, Math.floor(cores / running));
}

export function createQueryScheduler<Connection>(options: SchedulerOptions<Connection>): QueryScheduler<Connection> {
  const free = [...options.connections];
  const running = new Map<number, number>();
  const waiting = new Map<number, Job<Connection>[]>();
  /** Teams with waiting jobs, in the order they are next served. */
  const turn: number[] = [];

  const dispatch = () => {
    while (free.length > 0) {
      const index = turn.findIndex((teamId) => (running.get(teamId) ?? 0) < options.perTeam);
      if (index === -1) return;
      const teamId = turn[index] as number;
      const queue = waiting.get(teamId) as Job<Connection>[];
      const job = queue.shift() as Job<Connection>;
      // The team goes to the back of the line, so the others are served before its next job.
      turn.splice(index, 1);
      if (queue.length > 0) turn.push(teamId);
      else waiting.delete(teamId);
      clearTimeout(job.timer);
      const secondsLeft = options.timeoutSeconds - (options.now() - job.queuedAt) / 1000;
      if (secondsLeft < 1) {
        job.fail(waitedTooLong(options.timeoutSeconds));
        continue;
      }
      running.set(teamId, (running.get(teamId) ?? 0) + 1);
      const connection = free.pop() as Connection;
      job.start(connection, Math.floor(secondsLeft), threadShare(options.cores, options.connections.length - free.length));
    }
  };

  const release = (teamId: number, connection: Connection) => {
    free.push(connection);
    const count = (running.get(teamId) ?? 1) - 1;
    if (count === 0) running.delete(teamId);
    else running.set(teamId, count);
    dispatch();
  };

  return {
    run<T>(teamId: number, work: (connection: Connection, secondsLeft: number, threads: number | null) => Promise<T>): Promise<T> {
      const queue = waiting.get(teamId) ?? [];
      if (queue.length >= options.waitingPerTeam) return Promise.reject(busy(queue.length));
      return new Promise<T>((resolve, reject) => {
        const job: Job<Connection> = {
          teamId,
          queuedAt: options.now(),
          start: (connection, secondsLeft, threads) => {
            work(connection, secondsLeft, threads)
              .then(resolve, reject)
              .finally(() => release(teamId, connection));
          },
          fail: reject,
          // A job still waiting when its time is up is refused there and then, not when a connection frees.
          timer: setTimeout(() => {
            const jobs = waiting.get(teamId);
            const at = jobs?.indexOf(job) ?? -1;
            if (!jobs || at === -1) return;
            jobs.splice(at, 1);
            if (jobs.length === 0) {
              waiting.delete(teamId);
              turn.splice(turn.indexOf(teamId), 1);
            }
            reject(waitedTooLong(options.timeoutSeconds));
          }, options.timeoutSeconds * 1000),
        };
        job.timer.unref?.();
        queue.push(job);
        if (!waiting.has(teamId)) {
          waiting.set(teamId, queue);
          turn.push(teamId);
        }
        dispatch();
      });
    },
    load() {
      let queued = 0;
      for (const jobs of waiting.values()) queued += jobs.length;
      return { running: options.connections.length - free.length, waiting: queued };
    },
  };
}
