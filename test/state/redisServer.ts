import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, Socket } from 'node:net';

/** A free loopback port, found by letting the kernel pick one and closing it again. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export async function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.setTimeout(500);
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
  });
}

export interface TestRedis {
  url: string;
  port: number;
  /** Stops the server (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty (nothing is saved). */
  start(): Promise<void>;
}

/**
 * A redis-server of this test file's own on a free port, keeping nothing on disk, so the test may
 * stop or flush it (the machine's own Redis on 6379 is never touched).
 */
export async function startTestRedis(): Promise<TestRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    for (let i = 0; i < 200; i++) {
      if (await answersPing(port)) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`redis-server on ${port} did not start`);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = once(running, 'exit');
    running.kill('SIGTERM');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, stop, start };
}

/** The next `event` of a client (events.once would reject on the connection errors expected meanwhile). */
export function next(emitter: { once(event: string, listener: () => void): unknown }, event: string): Promise<void> {
  return new Promise((resolve) => emitter.once(event, () => resolve()));
}
