import { readFileSync } from 'node:fs';
import { z } from 'zod';

// package.json is two levels up from src/mcp/ and from dist/mcp/ alike.
const { version } = z.object({ version: z.string() }).parse(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')));

/**
 * How the server introduces itself, shared by the HTTP server and the stdio bridge (which answers
 * `initialize` itself, so a client connects even when the key would be refused on every call).
 * The version is the release's, as the tracker's `v` is.
 */
export const SERVER_INFO = { name: 'svc-analytics', title: 'Web analytics', version };

export const SERVER_CAPABILITIES = { tools: { listChanged: true }, resources: { listChanged: true }, prompts: { listChanged: true } };

export const INSTRUCTIONS =
  "Privacy-first web analytics. Call list_sites first, then describe_site for a site's time zone, goals, funnels, custom properties and days with data. Shortcut tools answer common questions; the query tool asks anything. Figures name their units; date ranges are inclusive days in the site's time zone.";
