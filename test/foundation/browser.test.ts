import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';

// The browser tests' foundation: Debian's Chromium starts under playwright-core and renders a page.
describe('browser', () => {
  const server = createServer((_request, response) => {
    response.setHeader('content-type', 'text/html');
    response.end('<!doctype html><title>t</title><p id="x">hello</p><script>document.getElementById("x").textContent += " from script"</script>');
  });
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('loads a page and runs its script', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(url);
      expect(await page.textContent('#x')).toBe('hello from script');
    } finally {
      await browser.close();
    }
  });
});
