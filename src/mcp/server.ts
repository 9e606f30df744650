import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { scopeRefusal } from '../api/authentication.js';
import type { ApiCaller } from '../stores/meta/apiKeys.js';
import { listTeamSites } from '../stores/meta/sites.js';
import { INSTRUCTIONS, SERVER_CAPABILITIES, SERVER_INFO } from './identity.js';
import { type McpDeps, registerTools, type ToolContext } from './registry.js';
import { setupTools } from './tools/setup.js';
import { describeSite, siteTools } from './tools/sites.js';
import { statsTools } from './tools/stats.js';
import { webhookTools } from './tools/webhooks.js';

export const TOOLS = [...siteTools, ...statsTools, ...setupTools, ...webhookTools];

const SITE_RESOURCES = 1000;

/** One server per authenticated request: the caller decides what every tool may do. */
export function createMcpServer(deps: McpDeps, caller: ApiCaller): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: SERVER_CAPABILITIES, instructions: INSTRUCTIONS });
  const ctx: ToolContext = { deps, caller };
  registerTools(server, TOOLS, ctx);
  registerSiteResources(server, ctx);
  registerPrompts(server);
  return server;
}

function registerSiteResources(server: McpServer, ctx: ToolContext): void {
  const readable = () => {
    const refusal = scopeRefusal(ctx.caller, 'sites:read', 'resource');
    if (refusal) throw refusal;
  };
  server.registerResource(
    'site',
    new ResourceTemplate('site://{domain}', {
      list: async () => {
        if (scopeRefusal(ctx.caller, 'sites:read', 'resource')) return { resources: [] };
        const sites = await listTeamSites(ctx.deps.db, ctx.caller.teamId, { limit: SITE_RESOURCES });
        return { resources: sites.map((site) => ({ uri: `site://${site.domain}`, name: site.domain, title: `${site.domain} (${site.timezone})` })) };
      },
    }),
    {
      title: 'Site description',
      description: "A site's time zone, goals, funnels, custom properties, askable metrics and dimensions, and days with data.",
      mimeType: 'application/json',
    },
    async (uri, { domain }) => {
      readable();
      const description = await describeSite(ctx, siteDomain(uri, domain));
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(description) }] };
    },
  );
}

/** The domain in a site resource's address, percent-decoded. */
function siteDomain(uri: URL, domain: string | string[] | undefined): string {
  try {
    return typeof domain === 'string' ? decodeURIComponent(domain) : '';
  } catch {
    throw new McpError(ErrorCode.InvalidParams, `${uri.href} is not a site's address: its percent-encoding is broken.`);
  }
}

const userMessage = (text: string) => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] });

function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'weekly_summary',
    {
      title: 'Weekly summary',
      description: "A short report of a site's last 7 days against the 7 before.",
      argsSchema: { site_id: z.string().describe("The site's domain.") },
    },
    ({ site_id }) =>
      userMessage(
        `Write a weekly summary of the traffic of ${site_id}. Steps: call compare_periods with site_id "${site_id}" and date_range "7d"; then top_sources, top_pages and top_countries for "7d" (limit 5 each); then describe_site to see its goals, and if it has any, query the conversions with metrics ["visitors", "conversion_rate"] and dimensions ["event:goal"] for "7d". Report in a few short paragraphs: the headline numbers with their changes (state units: percent, percentage points, seconds), what rose or fell most, the leading sources and pages, and anything unusual. Give the exact dates covered.`,
      ),
  );
  server.registerPrompt(
    'why_did_traffic_change',
    {
      title: 'Why did traffic change?',
      description: 'Finds what drove a rise or fall in visitors between a period and the one before it.',
      argsSchema: {
        site_id: z.string().describe("The site's domain."),
        date_range: z.string().optional().describe('The period to explain, a preset such as "7d" or "28d"; default "7d".'),
      },
    },
    ({ site_id, date_range }) => {
      const range = date_range ?? '7d';
      return userMessage(
        `Explain why the traffic of ${site_id} changed in "${range}" compared with the previous period. Steps: call compare_periods (site_id "${site_id}", date_range "${range}") for the overall change; then, with the query tool and include.comparisons {"mode": "previous_period"}, break visitors down by visit:source, visit:channel, event:page, visit:country and visit:device to find which groups account for most of the difference; use timeseries to see whether the change was sudden (one day) or gradual. Answer with the main causes ranked by how many visitors they explain, the figures that show it (with units), and what to check next. Do not guess beyond the data.`,
      );
    },
  );
}
