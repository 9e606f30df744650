import type { FastifyRequest } from 'fastify';
import { parseUserAgent } from '../ingest/userAgent.js';
import type { SessionDevice } from '../stores/meta/webSessions.js';

/**
 * What the sessions list may say of where a session was signed in: the browser's and operating
 * system's names, read from the user agent at sign-in. The agent itself, its versions and the
 * client's address are not kept (docs/settings.md, Account).
 */
export function sessionDevice(request: FastifyRequest): SessionDevice {
  const agent = request.headers['user-agent'];
  if (typeof agent !== 'string' || agent === '') return { browser: '', os: '' };
  const parsed = parseUserAgent(agent);
  return { browser: parsed.browser, os: parsed.os };
}
