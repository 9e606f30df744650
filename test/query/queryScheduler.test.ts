import { describe, expect, it } from 'vitest';
import { createQueryScheduler } from '../../src/query/run/queryScheduler.js';

/** A statement that runs until the test lets it finish. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('query scheduler', () => {
  const setup = (options: { connections: number; perTeam: number; waitingPerTeam?: number; cores?: number }) => {
    let now = 0;
    const started: string[] = [];
    const scheduler = createQueryScheduler({
      connections: Array.from({ length: options.connections }, (_, i) => `c${i}`),
      perTeam: options.perTeam,
      waitingPerTeam: options.waitingPerTeam ?? 10,
      timeoutSeconds: 30,
      cores: options.cores ?? null,
      now: () => now,
    });
    const threads: Record<string, number | null> = {};
    const submit = (team: number, label: string, until: Promise<void>) =>
      scheduler.run(team, async (_connection, secondsLeft, share) => {
        started.push(label);
        threads[label] = share;
        await until;
        return secondsLeft;
      });
    return { scheduler, started, threads, submit, advance: (ms: number) => (now += ms) };
  };

  it('never lets one team hold every connection', async () => {
    const { started, submit, scheduler } = setup({ connections: 2, perTeam: 1 });
    const slow = gate();
    const a1 = submit(1, 'a1', slow.opened);
    void submit(1, 'a2', slow.opened);
    const b1 = submit(2, 'b1', Promise.resolve());
    await b1;
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a1', 'b1']);
    expect(scheduler.load()).toEqual({ running: 1, waiting: 1 });
    slow.open();
    await a1;
  });

  it('serves waiting teams in turn, not in arrival order', async () => {
    const { started, submit } = setup({ connections: 1, perTeam: 1 });
    const first = gate();
    const done = [
      submit(1, 'a1', first.opened),
      submit(1, 'a2', Promise.resolve()),
      submit(1, 'a3', Promise.resolve()),
      submit(2, 'b1', Promise.resolve()),
      submit(3, 'c1', Promise.resolve()),
    ];
    first.open();
    await Promise.all(done);
    expect(started).toEqual(['a1', 'a2', 'b1', 'c1', 'a3']);
  });

  it('refuses a team more waiting statements than allowed with a 429', async () => {
    const { submit } = setup({ connections: 1, perTeam: 1, waitingPerTeam: 1 });
    const slow = gate();
    const running = submit(1, 'a1', slow.opened);
    const waiting = submit(1, 'a2', Promise.resolve());
    await expect(submit(1, 'a3', Promise.resolve())).rejects.toMatchObject({ status: 429, code: 'too_many_queries' });
    slow.open();
    await Promise.all([running, waiting]);
  });

  it('counts waiting against the time limit', async () => {
    const { submit, advance } = setup({ connections: 1, perTeam: 1 });
    const slow = gate();
    const running = submit(1, 'a1', slow.opened);
    const waiting = submit(2, 'b1', Promise.resolve());
    advance(12_000);
    slow.open();
    expect(await running).toBe(30);
    expect(await waiting).toBe(18);
  });

  it('refuses with a 503 a statement whose time ran out in the queue', async () => {
    const { submit, advance } = setup({ connections: 1, perTeam: 1 });
    const slow = gate();
    const running = submit(1, 'a1', slow.opened);
    const waiting = submit(2, 'b1', Promise.resolve());
    advance(31_000);
    slow.open();
    await running;
    await expect(waiting).rejects.toMatchObject({ status: 503, code: 'query_timeout' });
  });

  it('gives a statement the cores it does not share with those already running', async () => {
    const { submit, threads } = setup({ connections: 3, perTeam: 2, cores: 2 });
    const slow = gate();
    const alone = submit(1, 'alone', slow.opened);
    await new Promise((resolve) => setImmediate(resolve));
    const second = submit(2, 'second', slow.opened);
    const third = submit(3, 'third', slow.opened);
    slow.open();
    await Promise.all([alone, second, third]);
    expect(threads).toEqual({ alone: 2, second: 1, third: 1 });
    // A remote server's cores are its own: no share is set.
    const remote = setup({ connections: 1, perTeam: 1 });
    await remote.submit(1, 'remote', Promise.resolve());
    expect(remote.threads).toEqual({ remote: null });
  });
});
