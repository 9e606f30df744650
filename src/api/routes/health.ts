import type { FastifyInstance } from 'fastify';

export interface Probe {
  name: string;
  ping(): Promise<void>;
}

const PROBE_TIMEOUT_MS = 5_000;

async function answers(probe: Probe): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      probe.ping().then(
        () => true,
        () => false,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** What /api/health is told: the node's roles, the stores it uses, and the shared state store if any. */
export interface HealthDeps {
  roles: readonly string[];
  /** The stores every node uses (the metadata and event stores). */
  probes: Probe[];
  /** The STATE_URL store; null when STATE_URL is not set (reported as "not configured"). */
  state: Probe | null;
}

/** The name /api/health gives the STATE_URL store. */
export const STATE_STORE = 'state store';

/**
 * Every node answers it, whatever its roles: 200 naming its roles and its stores when every
 * store answers; 503 naming the ones that do not (a load balancer takes the node out).
 */
export function healthRoutes(app: FastifyInstance, deps: HealthDeps): void {
  const probes = deps.state === null ? deps.probes : [...deps.probes, { ...deps.state, name: STATE_STORE }];
  app.get('/api/health', async (_request, reply) => {
    const results = await Promise.all(probes.map(async (probe) => [probe.name, await answers(probe)] as const));
    const down = results.filter(([, ok]) => !ok).map(([name]) => name);
    const stores: Record<string, string> = Object.fromEntries(results.map(([name, ok]) => [name, ok ? 'ok' : 'unavailable']));
    if (deps.state === null) stores[STATE_STORE] = 'not configured';
    const roles = [...deps.roles];
    if (down.length > 0) {
      return reply
        .code(503)
        .send({ error: `The ${down.join(' and ')} ${down.length > 1 ? 'are' : 'is'} not answering.`, code: 'store_unavailable', roles, stores });
    }
    return { status: 'ok', roles, stores };
  });
}
