// CI (.ci/run): a production-only install starts the service and runs an import.
//
// A container's runtime stage or `npm ci --omit=dev` on a server has only `dependencies`; a
// package the server loads at run time but lists in devDependencies breaks it there and nowhere
// else (yauzl did: src/imports/uploadEntries.ts). So this copies the tree `npm install` built
// (dist/ with the server, tracker and web app), installs it again with `npm ci --omit=dev
// --ignore-scripts`, brings over the one native build the skipped scripts would have made
// (better-sqlite3's; chDB ships prebuilt in its platform package), then, as a user would: creates
// an account with ./bin/svc, starts ./bin/svc serve, uploads a Plausible export ZIP to
// /api/v1/sites/{site_id}/imports and waits for its figures. Run from the repository root:
//   node scripts/check-production-install.mjs
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve('.');
const copy = mkdtempSync(join(tmpdir(), 'svc-production-'));
const dataDir = join(copy, 'data');
const step = (text) => console.log(`production install: ${text}`);

function freePort() {
  return new Promise((done, fail) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
    server.on('error', fail);
  });
}

/** A Plausible CSV export of two days (the columns of its imported_visitors file). */
async function plausibleExport() {
  // yazl from the production install: it is a runtime dependency (src/export/siteExport.ts).
  const { ZipFile } = createRequire(join(copy, 'package.json'))('yazl');
  const zip = new ZipFile();
  zip.addBuffer(
    Buffer.from('date,visitors,pageviews,bounces,visits,visit_duration\n2024-01-01,10,25,4,12,600\n2024-01-02,7,9,5,8,120\n'),
    'imported_visitors_20240101_20240102.csv',
  );
  zip.end();
  const chunks = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

let server;
try {
  step(`copying the built tree to ${copy}`);
  cpSync(root, copy, {
    recursive: true,
    filter: (source) => !['node_modules', '.git', 'data', '.bench'].some((skip) => source === join(root, skip)),
  });
  step('npm ci --omit=dev --ignore-scripts');
  execFileSync('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: copy, stdio: ['ignore', 'ignore', 'inherit'] });
  cpSync(join(root, 'node_modules/better-sqlite3/build'), join(copy, 'node_modules/better-sqlite3/build'), { recursive: true });

  const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(await freePort()) };
  const svc = (...args) => JSON.parse(execFileSync(join(copy, 'bin/svc'), [...args, '--json'], { cwd: copy, env, encoding: 'utf8' }));
  const user = svc('user', 'create', '--email', 'owner@example.com', '--name', 'Owner');
  svc('site', 'create', '--team', String(user.team_id), '--domain', 'production.example');
  const { key } = svc('api-key', 'create', '--team', String(user.team_id), '--user', String(user.user_id), '--name', 'check');

  step('starting ./bin/svc serve');
  server = spawn(join(copy, 'bin/svc'), ['serve'], { cwd: copy, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const base = `http://127.0.0.1:${env.PORT}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the service exited with code ${server.exitCode} before answering`);
    const health = await fetch(`${base}/api/health`).catch(() => null);
    if (health?.ok) break;
    if (Date.now() > deadline) throw new Error('the service did not answer /api/health within 60 s');
    await new Promise((done) => setTimeout(done, 250));
  }

  step('importing a Plausible export ZIP');
  const auth = { authorization: `Bearer ${key}` };
  const upload = await fetch(`${base}/api/v1/sites/production.example/imports?file_name=export.zip`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/zip' },
    body: await plausibleExport(),
  });
  const created = await upload.json();
  if (upload.status !== 202) throw new Error(`the upload was answered ${upload.status}: ${JSON.stringify(created)}`);
  let record = created;
  while (record.status !== 'completed') {
    if (record.status === 'failed') throw new Error(`the import failed: ${JSON.stringify(record.error)}`);
    if (Date.now() > deadline + 60_000) throw new Error(`the import did not finish: ${JSON.stringify(record)}`);
    await new Promise((done) => setTimeout(done, 250));
    record = await (await fetch(`${base}/api/v1/sites/production.example/imports/${created.id}`, { headers: auth })).json();
  }
  const stats = await fetch(
    `${base}/api/v1/stats/aggregate?site_id=production.example&period=custom&date=2024-01-01,2024-01-02&metrics=visitors,pageviews&with_imported=true`,
    { headers: auth },
  );
  const { results } = await stats.json();
  if (results?.visitors?.value !== 17 || results?.pageviews?.value !== 34) throw new Error(`the imported figures are wrong: ${JSON.stringify(results)}`);
  step('the service ran and imported 17 visitors and 34 pageviews');
} finally {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((done) => server.once('exit', done));
  }
  rmSync(copy, { recursive: true, force: true });
}
