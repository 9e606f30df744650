import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServiceProcess } from '../support/processes.js';
import { startTestApp } from '../support/testApp.js';

describe('the service process', () => {
  it('starts on embedded defaults, reports healthy, and exits cleanly on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-life-'));
    const service = await startServiceProcess({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' });
    const health = await fetch(`${service.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({
      status: 'ok',
      roles: ['ingest', 'query', 'web', 'worker'],
      stores: { 'metadata store': 'ok', 'event store': 'ok', 'state store': 'not configured' },
    });
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
  });

  it('refuses to start on a bad variable, naming it', async () => {
    const service = startServiceProcess({ DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-life-')), PORT: 'http' });
    await expect(service).rejects.toThrow(/PORT must be a whole number/);
  });

  it('answers 503 naming the store that does not answer', async () => {
    const t = await startTestApp();
    try {
      await t.app.meta.close();
      const res = await fetch(`${t.url}/api/health`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({
        error: 'The metadata store is not answering.',
        code: 'store_unavailable',
        roles: ['ingest', 'query', 'web', 'worker'],
        stores: { 'metadata store': 'unavailable', 'event store': 'ok', 'state store': 'not configured' },
      });
    } finally {
      await t.app.http.close();
      await t.app.events.close();
    }
  });

  it('finishes a request that is in flight when it is asked to close', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const t = await startTestApp({
      beforeListen: (app) =>
        app.http.get('/__slow', async () => {
          await gate;
          return { done: true };
        }),
    });
    const pending = fetch(`${t.url}/__slow`);
    await new Promise((r) => setTimeout(r, 50));
    const closing = t.app.close();
    release();
    expect(await (await pending).json()).toEqual({ done: true });
    await closing;
  });
});
