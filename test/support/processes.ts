import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';

/** Runs ./bin/svc with only the given environment (plus PATH); never throws on a non-zero exit. */
export function svc(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('./bin/svc', args, { env: { PATH: process.env.PATH ?? '', ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** Starts the built service as `npm start` would and resolves once it prints its address. */
export async function startServiceProcess(env: Record<string, string>): Promise<{ child: ChildProcess; url: string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, ['dist/main.js'], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^\s]+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    exited.then((code) => reject(new Error(`service exited with ${code}: ${output}`)));
  });
  return { child, url: url.replace('0.0.0.0', '127.0.0.1'), exited };
}
