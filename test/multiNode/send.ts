import { CHROME_MAC } from '../support/collect.js';
import type { ServiceNode } from '../support/multiNode.js';

/** What a node answered an event: its status and the `x-svc-dropped` reason (null when counted); status 0 when the request failed. */
export interface Answer {
  status: number;
  dropped: string | null;
}

/** Sends one event to a node as a browser behind the trusted proxy at `ip` would. */
export async function send(node: ServiceNode, body: Record<string, unknown>, ip: string): Promise<Answer> {
  try {
    const res = await fetch(`${node.url}/api/event`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'user-agent': CHROME_MAC, 'x-forwarded-for': ip },
      body: JSON.stringify(body),
    });
    await res.arrayBuffer();
    return { status: res.status, dropped: res.headers.get('x-svc-dropped') };
  } catch {
    return { status: 0, dropped: null };
  }
}

/** True when the event was acknowledged as counted: 202 without a drop reason. */
export const acknowledged = (answer: Answer) => answer.status === 202 && answer.dropped === null;

/** The i-th visitor's own address (a residential-looking range, so no visitor is classified as a data centre). */
export function visitorAddress(i: number, block = 2): string {
  return `81.${block}.${Math.floor(i / 250)}.${(i % 250) + 1}`;
}

/** POST /api/v2/query on a query node; throws with the answer when it is not a 200. */
export async function query(
  node: ServiceNode,
  key: string,
  body: Record<string, unknown>,
): Promise<{ results: { dimensions: unknown[]; metrics: number[] }[] }> {
  const res = await fetch(`${node.url}/api/v2/query`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`POST /api/v2/query answered ${res.status}: ${text}`);
  return JSON.parse(text);
}

/** Today and yesterday (UTC), as a v2 date range: whatever the test sent lies within it. */
export function recentDays(): [string, string] {
  const today = new Date().toISOString().slice(0, 10);
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  return [yesterday, today];
}
