// The service under test, on embedded defaults in the data directory it is given.
import { createApp } from '../dist/app.js';
import { loadConfig } from '../dist/config/config.js';
import { createApiKey } from '../dist/stores/meta/apiKeys.js';
import { createSite } from '../dist/stores/meta/sites.js';
import { createUserWithTeam } from '../dist/stores/meta/users.js';

const dataDir = process.argv[2];
// STATE_URL, when the benchmark sets it, puts per-event state in Redis (bench/wrk.mjs).
const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error', TRUSTED_PROXIES: '127.0.0.1' };
if (process.env.STATE_URL) env.STATE_URL = process.env.STATE_URL;
const app = await createApp(loadConfig(env));
const { userId, teamId } = await createUserWithTeam(app.meta.db, { email: 'bench@example.com', name: 'Bench' }, Date.now());
const site = await createSite(app.meta.db, { teamId, domain: 'bench.example.com', timezone: 'Etc/UTC' }, Date.now());
await createApiKey(app.meta.db, { teamId, userId, name: 'bench' }, Date.now());
const url = await app.listen();
process.send?.({ url, siteId: site.id });
process.on('message', async (message) => {
  if (message !== 'stop') return;
  await app.close();
  process.exit(0);
});
