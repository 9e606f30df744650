// A separate worker process for the multi-process test: opens the metadata store named in
// SVC_TEST_METADATA, runs one tick at SVC_TEST_NOW on the injected clock, prints its summary.
import { readFileSync } from 'node:fs';
import { secretBoxFrom } from '../../../src/accounts/secretBox.js';
import { openMetaStore } from '../../../src/stores/meta/database.js';
import { createWebhookWorker } from '../../../src/webhooks/worker.js';
import { ManualClock } from '../../support/manualClock.js';

const quiet = { info: () => {}, warn: () => {}, error: (object: object, message: string) => process.stderr.write(`${message} ${JSON.stringify(object)}\n`) };
const store = await openMetaStore(JSON.parse(process.env.SVC_TEST_METADATA ?? '{}'));
const worker = createWebhookWorker({
  db: store.db,
  dialect: store.dialect,
  clock: new ManualClock(Number(process.env.SVC_TEST_NOW)),
  logger: quiet,
  allowPrivate: false,
  secrets: secretBoxFrom(process.env.SVC_TEST_SECRET_KEY_BASE ?? ''),
  tlsCa: readFileSync(process.env.SVC_TEST_CA ?? '', 'utf8'),
  concurrency: 4,
});
const summary = await worker.tick();
await store.close();
process.stdout.write(JSON.stringify(summary));
