import { isIP } from 'node:net';
import { badRequest } from '../errors.js';
import { isDevelopmentHost, refusedAddress } from './addresses.js';

const MAX_URL_LENGTH = 2048;

/** The host as a connectable name: IPv6 literals lose their brackets. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * A receiver URL as registered: https, or plain http for localhost / 127.0.0.1 / [::1] only.
 * A literal address is checked here already; names are checked again at every delivery,
 * against what they resolve to then. Each refusal names "the webhook URL", as the API's `url`
 * and the Webhooks screen's URL field both are, and quotes what was sent as it was sent.
 */
export function parseWebhookUrl(input: unknown, options: { allowPrivate: boolean }): string {
  if (typeof input !== 'string' || input.trim() === '') {
    throw badRequest('invalid_url', 'Enter the webhook URL: the https address that receives the deliveries, such as https://example.com/hooks/svc.');
  }
  if (input.length > MAX_URL_LENGTH) throw badRequest('invalid_url', `The webhook URL is longer than ${MAX_URL_LENGTH.toLocaleString('en-US')} characters.`);
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw badRequest(
      'invalid_url',
      `The webhook URL "${input}" is not a whole address: write it with https:// in front, such as https://example.com/hooks/svc.`,
    );
  }
  const development = isDevelopmentHost(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && development)) {
    throw badRequest('invalid_url', `The webhook URL "${input}" must start with https:// (plain http:// only for localhost, 127.0.0.1 and [::1]).`);
  }
  if (url.username || url.password) {
    throw badRequest('invalid_url', 'The webhook URL must not contain a user name or password; verify deliveries by their signature instead.');
  }
  const host = bareHost(url);
  if (isIP(host) !== 0) {
    const refusal = refusedAddress(host, { loopbackAllowed: development, privateAllowed: options.allowPrivate });
    if (refusal) throw badRequest('invalid_url', `The webhook URL "${input}" cannot be delivered to: ${refusal}`);
  }
  url.hash = '';
  return url.href;
}
