import { bearer } from '../support/testApp.js';

/** POST /api/v2/journeys with a key: its status, headers and JSON answer. */
export async function postJourneys(url: string, key: string, body: Record<string, unknown>) {
  const res = await fetch(`${url}/api/v2/journeys`, {
    method: 'POST',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

/** The answer of a journeys request that must succeed. */
export async function journeysAnswer(url: string, key: string, body: Record<string, unknown>): Promise<any> {
  const res = await postJourneys(url, key, body);
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body;
}
