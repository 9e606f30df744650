import type { NoticeKind } from '../contracts/emailReports.js';
import { runQuery } from '../query/run/engine.js';
import { claimNotice, recipientsOf, type TrafficThreshold, thresholdsToWatch } from '../stores/meta/emailRecipients.js';
import { isoWithOffset } from '../time/localTime.js';
import { publishEvent } from '../webhooks/outbox.js';
import type { EmailDeps } from './emailDeps.js';
import { escapeHtml, frameMail } from './mailLayout.js';
import { unsubscribeUrl } from './unsubscribe.js';

/**
 * Traffic notices (docs/settings.md, Traffic notices) and the `traffic.spike` / `traffic.drop`
 * webhook events come from this one detector: a spike when the site's current visitors (the last
 * five minutes, as the dashboard's "current visitors" and /api/v1/stats/realtime/visitors count
 * them) reach the editor's threshold, a drop when the visitors of the last 12 hours are below
 * theirs. When it fires, both consumers hear it: the event goes to the webhook outbox and a mail
 * to the notice's recipients, at most once per kind and site every QUIET_MS — the claim on
 * `last_noticed_at` (src/stores/meta/emailRecipients.ts claimNotice) and the outbox event are
 * written in one transaction, so of several workers exactly one announces it.
 */

export const QUIET_MS = 12 * 3_600_000;
/** The drop notice's window: visitors over the last 12 hours. */
export const DROP_WINDOW_MS = 12 * 3_600_000;

export interface TrafficSignal {
  kind: NoticeKind;
  visitors: number;
  threshold: number;
}

type Watched = Awaited<ReturnType<typeof thresholdsToWatch>>[number];

/** The one detector: the signal a site's traffic gives against one threshold at `now`, or null. */
export async function detectTraffic(
  deps: Pick<EmailDeps, 'engine'>,
  site: Pick<Watched, 'teamId' | 'domain' | 'timezone'>,
  rule: Pick<TrafficThreshold, 'kind' | 'threshold'>,
  now: number,
): Promise<TrafficSignal | null> {
  const kind: NoticeKind = rule.kind === 'drop' ? 'drop' : 'spike';
  const dateRange = kind === 'spike' ? '5m' : [isoWithOffset(now - DROP_WINDOW_MS, site.timezone), isoWithOffset(now, site.timezone)];
  const answer = await runQuery(deps.engine, site.teamId, { site_id: site.domain, metrics: ['visitors'], date_range: dateRange });
  const visitors = answer.results[0]?.metrics[0] ?? 0;
  const fires = kind === 'spike' ? visitors >= rule.threshold : visitors < rule.threshold;
  return fires ? { kind, visitors, threshold: rule.threshold } : null;
}

/** One round over every site with a threshold: detect, and announce what fires and is out of its quiet time. */
export async function runTrafficNotices(deps: EmailDeps): Promise<TrafficSignal[]> {
  const now = deps.clock.now();
  const announced: TrafficSignal[] = [];
  for (const watched of await thresholdsToWatch(deps.db)) {
    // Within the quiet time there is nothing to announce, so nothing to ask the engine.
    if (watched.lastNoticedAt !== null && watched.lastNoticedAt > now - QUIET_MS) continue;
    try {
      const signal = await detectTraffic(deps, watched, watched, now);
      if (signal && (await announce(deps, watched, signal, now))) announced.push(signal);
    } catch (error) {
      deps.log.error({ err: error, siteId: watched.siteId, kind: watched.kind }, 'could not check a traffic notice; the next round tries again');
    }
  }
  return announced;
}

/** Claims the notice and publishes the webhook event together; then mails the recipients. False when another node had it. */
async function announce(deps: EmailDeps, site: Watched, signal: TrafficSignal, now: number): Promise<boolean> {
  const claimed = await deps.db.transaction().execute(async (trx) => {
    if (!(await claimNotice(trx, site.siteId, signal.kind, now, QUIET_MS))) return false;
    await publishEvent(
      trx,
      {
        type: signal.kind === 'spike' ? 'traffic.spike' : 'traffic.drop',
        teamId: site.teamId,
        siteId: site.siteId,
        data: {
          domain: site.domain,
          visitors: signal.visitors,
          threshold: signal.threshold,
          window_minutes: signal.kind === 'spike' ? 5 : DROP_WINDOW_MS / 60_000,
        },
      },
      now,
    );
    return true;
  });
  if (!claimed || !deps.mailer) return claimed;
  for (const email of await recipientsOf(deps.db, site.siteId, signal.kind)) {
    const mail = noticeMail(
      deps.baseUrl,
      site.domain,
      signal,
      unsubscribeUrl(deps.baseUrl, deps.tokens.sign({ site: site.siteId, topic: signal.kind, email })),
    );
    try {
      await deps.mailer.send({ to: [email], ...mail });
    } catch (error) {
      // A notice is news of the moment: not retried hours later.
      deps.log.warn({ err: error, siteId: site.siteId, kind: signal.kind, email }, 'the SMTP server refused a traffic notice');
    }
  }
  return true;
}

export function noticeMail(baseUrl: string, domain: string, signal: TrafficSignal, unsubscribe: string) {
  const dashboard = `${baseUrl}/${encodeURIComponent(domain)}`;
  const people = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'visitor' : 'visitors'}`;
  const subject =
    signal.kind === 'spike'
      ? `Traffic spike on ${domain}: ${people(signal.visitors)} now`
      : `Traffic drop on ${domain}: ${people(signal.visitors)} in 12 hours`;
  const sentence =
    signal.kind === 'spike'
      ? `${domain} has ${people(signal.visitors)} right now (the last 5 minutes), at or above your threshold of ${signal.threshold.toLocaleString('en-US')}.`
      : `${domain} had ${people(signal.visitors)} over the last 12 hours, below your threshold of ${signal.threshold.toLocaleString('en-US')}. If you expected more, check that the tracking script is still on your pages.`;
  const framed = frameMail({
    title: subject,
    textBody: `${sentence}\n\nThe dashboard: ${dashboard}\n\nThere is at most one such notice every 12 hours.`,
    htmlBody: `<p style="margin:0 0 16px;font-size:15px">${escapeHtml(sentence)}</p>
<p style="margin:0 0 16px"><a href="${escapeHtml(dashboard)}" style="display:inline-block;background:#4f46e5;color:#ffffff;text-decoration:none;padding:10px 16px;border-radius:6px;font-weight:600">Open the dashboard</a></p>
<p style="margin:0;font-size:13px;color:#5b6270">There is at most one such notice every 12 hours. ${escapeHtml(dashboard)}</p>`,
    why: `You get ${signal.kind} notices of ${domain} because an editor of the site added this address.`,
    unsubscribeUrl: unsubscribe,
  });
  return { subject, ...framed };
}
