import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';

export interface StateLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/**
 * How long one Redis call may hold an event. Redis answers a loopback or LAN call in well under
 * a millisecond; past this the node answers from its own state instead (an event never gets a
 * 5xx for it), so one hung Redis costs each event at most this once. Not shorter: Node runs due
 * timers before it reads sockets, so on a loaded machine a 100 ms limit fired on answers that had
 * already arrived, and every node then limited rates on its own (test/multiNode/sharedState).
 */
export const STATE_COMMAND_TIMEOUT_MS = 500;
/** After a failed call the node stays on its own state this long before asking Redis again. */
export const STATE_RETRY_MS = 1_000;
/** The fall-back to local state is logged at most this often, so a Redis that stays down does not flood the log. */
export const STATE_LOG_INTERVAL_MS = 60_000;
/** Every key this service writes starts with it, so a shared Redis can hold other things too. */
export const STATE_KEY_PREFIX = 'svc:';

/** A Lua script run by its SHA-1, loaded on the first NOSCRIPT (after a restart of Redis). */
export class StateScript {
  readonly sha: string;
  constructor(readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }
}

/**
 * The connection to the shared per-event state (STATE_URL, docs/scaling.md "Shared state
 * (Redis)"). Commands fail at once while the connection is down (no offline queue: a queue would
 * hold events for as long as Redis is away) and each waits at most STATE_COMMAND_TIMEOUT_MS; a
 * caller that gets `undefined` from `call` uses its local state for that event.
 */
export class SharedState {
  readonly client: Redis;
  private downSince: number | null = null;
  private retryAt = 0;
  private lastLogged = Number.NEGATIVE_INFINITY;
  private subscribers: Redis[] = [];

  /**
   * `now` is wall time in milliseconds for retrying and for spacing the log (the injected event
   * clock of src/clock.ts may stand still in tests and replays, and these are about the network).
   */
  constructor(
    readonly url: string,
    private readonly log: StateLog,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.client = new Redis(url, SharedState.options());
    // Without a listener a connection error would be thrown; the fall-back reports it instead.
    this.client.on('error', (error: Error) => this.unavailable(error));
    // A new connection is worth asking at once, without waiting out the pause after a failure.
    this.client.on('ready', () => {
      this.retryAt = 0;
    });
  }

  private static options() {
    return {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: STATE_COMMAND_TIMEOUT_MS,
      connectTimeout: 1_000,
      // Reconnect for ever, at most a second apart, so Redis coming back is used again.
      retryStrategy: (times: number) => Math.min(times * 100, 1_000),
      // Calls made in the same tick go out in one write.
      enableAutoPipelining: true,
      lazyConnect: false,
    };
  }

  /** True while this node answers from its own state because Redis did not. */
  get degraded(): boolean {
    return this.downSince !== null;
  }

  /** Whether Redis may be asked now: connected, and not within STATE_RETRY_MS of a failure. */
  get usable(): boolean {
    return this.client.status === 'ready' && this.now() >= this.retryAt;
  }

  /** Resolves once connected, or after `ms` (a node whose Redis is down still starts). */
  async ready(ms = 2_000): Promise<boolean> {
    if (this.client.status === 'ready') return true;
    let timer: NodeJS.Timeout | undefined;
    const connected = await Promise.race([
      new Promise<boolean>((resolve) => this.client.once('ready', () => resolve(true))),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), ms);
      }),
    ]);
    clearTimeout(timer);
    return connected;
  }

  /** Runs `command` against Redis; undefined when Redis is unusable or the call failed. */
  async call<T>(command: (client: Redis) => Promise<T>): Promise<T | undefined> {
    if (!this.usable) {
      this.skipped();
      return undefined;
    }
    try {
      const result = await command(this.client);
      this.available();
      return result;
    } catch (error) {
      this.unavailable(error instanceof Error ? error : new Error(String(error)));
      return undefined;
    }
  }

  /** Notes a call not made because Redis was unusable (and logs that, at most once a minute). */
  skipped(): void {
    this.unavailable(null);
  }

  /** EVALSHA, or EVAL when Redis does not hold the script (first use, or restarted empty). */
  async script(client: Redis, script: StateScript, keys: string[], args: (string | number)[]): Promise<unknown> {
    try {
      return await client.evalsha(script.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return client.eval(script.source, keys.length, ...keys, ...args);
    }
  }

  /** A second connection for SUBSCRIBE (a subscribed connection can run nothing else). */
  subscriber(): Redis {
    const connection = new Redis(this.url, {
      ...SharedState.options(),
      // Its one SUBSCRIBE waits for the connection however long Redis is away (ioredis subscribes again after each reconnection).
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      commandTimeout: undefined,
      enableAutoPipelining: false,
    });
    connection.on('error', (error: Error) => this.unavailable(error));
    this.subscribers.push(connection);
    return connection;
  }

  async close(): Promise<void> {
    for (const connection of [this.client, ...this.subscribers]) connection.disconnect();
  }

  private available(): void {
    if (this.downSince === null) return;
    this.log.info({ down_ms: this.now() - this.downSince }, 'shared state (STATE_URL) answers again; using it');
    this.downSince = null;
    this.lastLogged = Number.NEGATIVE_INFINITY;
  }

  private unavailable(error: Error | null): void {
    const now = this.now();
    if (error) this.retryAt = now + STATE_RETRY_MS;
    this.downSince ??= now;
    if (now - this.lastLogged < STATE_LOG_INTERVAL_MS) return;
    this.lastLogged = now;
    this.log.warn(
      { err: error ?? undefined, status: this.client.status },
      'shared state (STATE_URL) does not answer; this node counts rate limits and idempotency keys on its own until it does',
    );
  }
}
