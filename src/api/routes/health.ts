import type { FastifyInstance } from 'fastify';

interface Probe {
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

/** 200 when every store answers; 503 naming the ones that do not. */
export function healthRoutes(app: FastifyInstance, probes: Probe[]): void {
  app.get('/api/health', async (_request, reply) => {
    const results = await Promise.all(probes.map(async (probe) => [probe.name, await answers(probe)] as const));
    const down = results.filter(([, ok]) => !ok).map(([name]) => name);
    const stores = Object.fromEntries(results.map(([name, ok]) => [name, ok ? 'ok' : 'unavailable']));
    if (down.length > 0) {
      return reply.code(503).send({ error: `The ${down.join(' and ')} ${down.length > 1 ? 'are' : 'is'} not answering.`, code: 'store_unavailable', stores });
    }
    return { status: 'ok', stores };
  });
}
