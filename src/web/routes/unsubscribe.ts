import type { FastifyInstance, FastifyReply } from 'fastify';
import { unsubscribeRequest } from '../../contracts/emailReports.js';
import { escapeHtml } from '../../reports/mailLayout.js';
import { TOPIC_NAMES, type UnsubscribeClaims, type UnsubscribeTokens } from '../../reports/unsubscribe.js';
import type { MetaDb } from '../../stores/meta/database.js';
import { removeRecipient } from '../../stores/meta/emailRecipients.js';
import { getSite } from '../../stores/meta/sites.js';

/**
 * The unsubscribe link of every report and notice (src/reports/unsubscribe.ts): works without
 * signing in. Opening it shows what it stops and a button, since mail scanners open links and must
 * not unsubscribe anyone; the button, and a mail client's one-click request (RFC 8058: a form POST
 * of `List-Unsubscribe=One-Click` to the same address), take the address off the list.
 */
export function unsubscribeRoutes(scope: FastifyInstance, deps: { db: MetaDb; tokens: UnsubscribeTokens }): void {
  // The button's form and RFC 8058's request are form posts; their fields are not needed, the token is in the address.
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) => done(null, {}));

  const claimsOf = (query: unknown): (UnsubscribeClaims & { token: string }) | null => {
    const parsed = unsubscribeRequest.safeParse(query);
    const claims = parsed.success ? deps.tokens.verify(parsed.data.token) : null;
    return parsed.success && claims ? { ...claims, token: parsed.data.token } : null;
  };
  const what = async (claims: UnsubscribeClaims) => {
    const site = await getSite(deps.db, claims.site);
    return `${TOPIC_NAMES[claims.topic]} of ${site?.domain ?? 'a deleted site'}`;
  };

  scope.get('/unsubscribe', async (request, reply) => {
    const claims = claimsOf(request.query);
    if (!claims) return page(reply, 400, 'This link does not work', INVALID);
    const action = `/unsubscribe?token=${encodeURIComponent(claims.token)}`;
    return page(
      reply,
      200,
      'Unsubscribe',
      `<p>Stop sending ${escapeHtml(await what(claims))} to <strong>${escapeHtml(claims.email)}</strong>?</p>
<form method="post" action="${escapeHtml(action)}"><button type="submit">Unsubscribe</button></form>`,
    );
  });

  scope.post('/unsubscribe', async (request, reply) => {
    const claims = claimsOf(request.query);
    if (!claims) return page(reply, 400, 'This link does not work', INVALID);
    await removeRecipient(deps.db, claims.site, claims.topic, claims.email);
    return page(
      reply,
      200,
      'Unsubscribed',
      `<p><strong>${escapeHtml(claims.email)}</strong> gets no more ${escapeHtml(await what(claims))}. An editor of the site can add it again in Site settings.</p>`,
    );
  });
}

const INVALID =
  '<p>This unsubscribe link is incomplete or no longer valid (it may have been cut short, or the server’s secret key has changed). Ask an editor of the site to remove your address in Site settings › Email reports or › Traffic notices.</p>';

const STYLE = `body{margin:0;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;background:#f6f7f9;color:#1f2430}
main{max-width:480px;margin:12vh auto;background:#fff;border:1px solid #e3e6ec;border-radius:8px;padding:28px;line-height:1.5}
h1{font-size:20px;margin:0 0 12px}button{font:inherit;font-weight:600;background:#4f46e5;color:#fff;border:0;border-radius:6px;padding:10px 18px;cursor:pointer}
@media (prefers-color-scheme:dark){body{background:#14161b;color:#e6e8ee}main{background:#1d2027;border-color:#2c3039}}
@media (max-width:520px){main{margin:0;border-radius:0;border-width:0 0 1px}}`;

function page(reply: FastifyReply, status: number, title: string, body: string) {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="light dark"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
    );
}
