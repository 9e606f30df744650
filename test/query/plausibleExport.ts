import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { type Account, bearer, type TestApp } from '../support/testApp.js';
import { zipOf } from '../support/zip.js';

/** The hand-written Plausible export in fixtures/plausible-export (1–2 January 2024; figures in test/query/importedMerge.test.ts). */
const FIXTURES = join(import.meta.dirname, 'fixtures', 'plausible-export');

/** Imports an export (a ZIP) into a site through the API and waits for it; answers the import's record. */
export async function importZip(t: TestApp, site: Account, zip: Buffer): Promise<{ id: number; status: string }> {
  const response = await fetch(`${t.url}/api/v1/sites/${site.domain}/imports?file_name=export.zip`, {
    method: 'POST',
    headers: { ...bearer(site.key), 'content-type': 'application/zip' },
    body: new Uint8Array(zip),
  });
  expect(response.status).toBe(202);
  const { id } = await response.json();
  await t.app.imports.idle();
  return (await fetch(`${t.url}/api/v1/sites/${site.domain}/imports/${id}`, { headers: bearer(site.key) })).json();
}

/** Imports the hand-written fixture export. */
export async function importPlausibleExport(t: TestApp, site: Account): Promise<{ id: number; status: string }> {
  return importZip(t, site, await zipOf(Object.fromEntries(readdirSync(FIXTURES).map((name) => [name, readFileSync(join(FIXTURES, name))]))));
}
