import { type SharedState, STATE_KEY_PREFIX, type StateLog } from './redis.js';

/** The one channel nodes tell each other on that cached metadata changed. */
export const INVALIDATION_CHANNEL = `${STATE_KEY_PREFIX}invalidate`;

/** What a node drops or re-reads when told. */
export interface InvalidationTargets {
  /** The site cache of ingestion (src/ingest/siteDirectory.ts; nodes without ingestion have none); no id drops every site. */
  sites?: { invalidate(siteId?: number): void };
  /** Roll-up coverage (src/rollups/rollups.ts), re-read from the store when it has `reload`. */
  rollups?: { reload?(): Promise<void> };
}

/**
 * Invalidation between nodes over Redis pub/sub: a change made through one node reaches every
 * other node's caches in one message (a deleted site is refused everywhere within a second,
 * docs/scaling.md). Messages are not kept, so whatever a node may have missed is a backstop's job:
 * the site cache's own expiry (SiteDirectory, 30 s), roll-ups' periodic re-read, and on every
 * reconnection of the subscriber a drop of all sites and a re-read of coverage.
 */
export class Invalidation {
  private constructor(
    private readonly state: SharedState,
    private readonly subscribing: Promise<void>,
  ) {}

  static start(state: SharedState, targets: InvalidationTargets, log: StateLog): Invalidation {
    const subscriber = state.subscriber();
    const reloadRollups = () => {
      targets.rollups?.reload?.().catch((error: unknown) => log.warn({ err: error }, 'reloading roll-up coverage on an invalidation failed'));
    };
    subscriber.on('message', (channel: string, message: string) => {
      if (channel !== INVALIDATION_CHANNEL) return;
      const site = /^site:(\d+)$/.exec(message);
      if (site) targets.sites?.invalidate(Number(site[1]));
      else if (message === 'sites') targets.sites?.invalidate();
      else if (message === 'rollups') reloadRollups();
    });
    let connectedBefore = false;
    subscriber.on('ready', () => {
      // ioredis subscribes again by itself; what was published meanwhile is lost, so drop it all.
      if (connectedBefore) {
        targets.sites?.invalidate();
        reloadRollups();
      }
      connectedBefore = true;
    });
    const subscribing = subscriber.subscribe(INVALIDATION_CHANNEL).then(
      () => undefined,
      (error: unknown) => log.warn({ err: error }, 'subscribing to invalidations failed; the caches expire on their own'),
    );
    return new Invalidation(state, subscribing);
  }

  /** Tells every node (this one included) that a site's settings, domain or existence changed. */
  siteChanged(siteId?: number): Promise<void> {
    return this.publish(siteId === undefined ? 'sites' : `site:${siteId}`);
  }

  /** Tells every node to read roll-up coverage again. */
  rollupsChanged(): Promise<void> {
    return this.publish('rollups');
  }

  /** Resolves once subscribed, so a test (or a node starting) does not miss the first message. */
  subscribed(): Promise<void> {
    return this.subscribing;
  }

  private async publish(message: string): Promise<void> {
    await this.state.call((client) => client.publish(INVALIDATION_CHANNEL, message));
  }
}
