import { SENT_WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS, type WebhookEventType } from '@contracts/webhookEventTypes';
import { FAILING_THRESHOLD, OLD_SECRET_VALIDITY_MS, STOP_THRESHOLD } from '@contracts/webhookPolicy';
import { createdWebhook, deliveryLog, rotatedWebhookSecret, type Webhook, type WebhookList, webhookList } from '@contracts/webhooks';
import { useState } from 'react';
import type { TeamApi } from '../../../api';
import { formatTime } from '../../../format';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Section } from '../../../ui/Section';
import { Field, FieldError, ServerForm } from '../../../ui/ServerForm';
import { ShownOnce } from '../../../ui/ShownOnce';
import { type Resource, useResource } from '../../../ui/useResource';
import type { SiteSectionProps } from '../siteSection';

/** The spec's notice: the owner is told an endpoint looks broken at FAILING_THRESHOLD consecutive failures. */
const looksBroken = (hook: Webhook) => hook.state === 'stopped' || hook.consecutive_failures >= FAILING_THRESHOLD;

const brokenSentence = (hook: Webhook) =>
  `${hook.consecutive_failures} deliveries in a row failed${
    hook.state === 'stopped' ? ', so it was stopped. Fix the receiver, then re-enable it.' : `. It is stopped after ${STOP_THRESHOLD}.`
  }`;

/** What a webhook is subscribed to; a type this install never sends (subscribed through the API) says so. */
const subscribedTypes = (hook: Webhook) =>
  hook.event_types.length === 0
    ? 'Every event type'
    : hook.event_types.map((type) => (type in WEBHOOK_EVENTS && !WEBHOOK_EVENTS[type as WebhookEventType].sent ? `${type} (never sent)` : type)).join(', ');

/** Bodies longer than this open on demand, so the log stays one line per attempt. */
const SHORT_BODY = 60;

/** The first 2 KB of the receiver's answer, as logged (src/contracts/webhookPolicy.ts LOGGED_RESPONSE_BYTES). */
function ResponseBody({ body }: { body: string | null }) {
  if (!body) return <span className="muted small">—</span>;
  if (body.length <= SHORT_BODY) return <code className="small response">{body}</code>;
  return (
    <details className="response-details">
      <summary>
        <code className="small">{body.slice(0, SHORT_BODY)}…</code>
      </summary>
      <pre className="small">{body}</pre>
    </details>
  );
}

function Deliveries({ api, hook }: { api: TeamApi; hook: Webhook }) {
  const log = useResource((signal) => api.get(`/api/v1/webhooks/${hook.id}/deliveries?limit=20`, deliveryLog, signal), [hook.id]);
  const [note, setNote] = useState<string | null>(null);
  return (
    <div className="deliveries">
      <ErrorNote error={log.error ?? note} />
      {log.data && log.data.deliveries.length === 0 && <p className="muted small">No deliveries yet.</p>}
      {log.data && log.data.deliveries.length > 0 && (
        <table className="log-table">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col" className="num">
                Duration
              </th>
              <th scope="col">Response</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {log.data.deliveries.map((attempt) => (
              <tr key={attempt.id}>
                <td className="nowrap">{formatTime(attempt.attempted_at)}</td>
                <td>
                  <code className="small">{attempt.event_type}</code>
                </td>
                <td>
                  <span className={`badge ${attempt.status_code !== null && attempt.status_code < 300 ? 'badge-good' : 'badge-bad'}`}>
                    {attempt.status_code ?? attempt.error ?? 'failed'}
                  </span>
                </td>
                <td className="num">{attempt.duration_ms === null ? '—' : `${attempt.duration_ms} ms`}</td>
                <td>
                  <ResponseBody body={attempt.response_body} />
                </td>
                <td>
                  <button
                    type="button"
                    className="btn btn-small"
                    onClick={() => {
                      setNote(null);
                      api
                        .post(`/api/v1/webhooks/deliveries/${attempt.delivery_id}/redeliver`)
                        .then(() => log.reload())
                        .catch((failure: Error) => setNote(failure.message));
                    }}
                  >
                    Redeliver
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** A secret shown once: a new webhook's, or a rotated one's with when the old one stops. */
type ShownSecret = { label: string; value: string; note?: string };

/** Webhooks of the team: register, rotate, re-enable, delete, and read each one's delivery log. */
export function TeamWebhooks({ api }: { api: TeamApi }) {
  const hooks = useResource((signal) => api.get('/api/v1/webhooks', webhookList, signal), []);
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  return (
    <>
      <Webhooks api={api} hooks={hooks} secret={secret} setSecret={setSecret} />
      <AddWebhook api={api} hooks={hooks} setSecret={setSecret} />
    </>
  );
}

interface WebhooksProps {
  api: TeamApi;
  hooks: Resource<WebhookList>;
  secret: ShownSecret | null;
  setSecret(secret: ShownSecret): void;
}

/** The team's webhooks, each with its state, its notices, its actions and (opened) its delivery log. */
function Webhooks({ api, hooks, secret, setSecret }: WebhooksProps) {
  const [open, setOpen] = useState<number | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  return (
    <Section title="Webhooks" description="The service calls these https addresses when something happens in the team, signed with each webhook's secret.">
      <ErrorNote error={hooks.error ?? actionError} />
      {secret && <ShownOnce label={secret.label} value={secret.value} />}
      {secret?.note && <p className="muted small">{secret.note}</p>}
      {hooks.data && hooks.data.webhooks.length === 0 && <p className="muted">No webhooks yet.</p>}
      <ul className="settings-list webhooks">
        {hooks.data?.webhooks.map((hook) => (
          <li key={hook.id} className="webhook">
            <div className="grow">
              <div>
                <code>{hook.url}</code> <span className={`badge ${hook.state === 'sending' ? 'badge-good' : 'badge-bad'}`}>{hook.state}</span>
                {hook.consecutive_failures > 0 && !looksBroken(hook) && <span className="badge badge-bad">{hook.consecutive_failures} failures in a row</span>}
              </div>
              {looksBroken(hook) && (
                <p className="webhook-notice" data-testid="looks-broken">
                  <strong>Looks broken:</strong> {brokenSentence(hook)}
                </p>
              )}
              <div className="muted small">{subscribedTypes(hook)}</div>
              {hook.previous_secret_valid_until && (
                <div className="muted small">Secret rotated: the old one stays valid until {formatTime(hook.previous_secret_valid_until)}.</div>
              )}
              <div className="row-actions">
                <button type="button" className="btn btn-small" aria-expanded={open === hook.id} onClick={() => setOpen(open === hook.id ? null : hook.id)}>
                  {open === hook.id ? 'Hide deliveries' : 'Deliveries'}
                </button>
                <WebhookActions api={api} hooks={hooks} hook={hook} setSecret={setSecret} setActionError={setActionError} />
              </div>
              {open === hook.id && <Deliveries api={api} hook={hook} />}
            </div>
          </li>
        ))}
      </ul>
    </Section>
  );
}

/** A webhook's changes: re-enable (when stopped), rotate its secret, delete it. */
function WebhookActions({
  api,
  hooks,
  hook,
  setSecret,
  setActionError,
}: Omit<WebhooksProps, 'secret'> & { hook: Webhook; setActionError(error: string | null): void }) {
  return (
    <>
      {hook.state === 'stopped' && (
        <button
          type="button"
          className="btn btn-small"
          onClick={() => {
            setActionError(null);
            api
              .post(`/api/v1/webhooks/${hook.id}/enable`)
              .then(() => hooks.reload())
              .catch((failure: Error) => setActionError(failure.message));
          }}
        >
          Re-enable
        </button>
      )}
      <ConfirmButton
        label="Rotate secret"
        className="btn btn-small"
        title="Rotate the signing secret?"
        message={`A new secret signs every delivery from now on; the old one stays valid for ${OLD_SECRET_VALIDITY_MS / 60_000} minutes so receivers can switch.`}
        onConfirm={async () => {
          const rotated = await api.post(`/api/v1/webhooks/${hook.id}/rotate-secret`, {}, rotatedWebhookSecret);
          setSecret({
            label: 'New signing secret',
            value: rotated.secret,
            note: `The old secret stays valid until ${formatTime(rotated.previous_secret_valid_until)}.`,
          });
          hooks.reload();
        }}
      />
      <ConfirmButton
        label="Delete"
        className="btn btn-small btn-danger"
        title="Delete this webhook?"
        message="No more deliveries are sent to it; its log is deleted."
        onConfirm={async () => {
          await api.delete(`/api/v1/webhooks/${hook.id}`);
          hooks.reload();
        }}
      />
    </>
  );
}

/**
 * A new webhook: its https address and the event types it is sent (none: all). Only the types this
 * install sends are offered (src/contracts/webhookEventTypes.ts); the API accepts the others too.
 */
function AddWebhook({ api, hooks, setSecret }: Omit<WebhooksProps, 'secret'>) {
  const [url, setUrl] = useState('');
  const [types, setTypes] = useState<string[]>([]);
  return (
    <Section title="Add a webhook">
      <ServerForm
        submitLabel="Add webhook"
        onSubmit={async () => {
          const created = await api.post('/api/v1/webhooks', { url, event_types: types }, createdWebhook);
          setSecret({ label: 'Signing secret', value: created.secret });
          setUrl('');
          setTypes([]);
          hooks.reload();
        }}
      >
        <Field id="webhook-url" label="URL" name="url" codes={['invalid_url']}>
          <input type="url" value={url} onChange={(event) => setUrl(event.target.value)} placeholder="https://example.com/hooks/svc" />
        </Field>
        <fieldset className="checks columns">
          <legend>Event types (none ticked: every type)</legend>
          {SENT_WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="check">
              <input
                type="checkbox"
                checked={types.includes(type)}
                onChange={(event) => setTypes(event.target.checked ? [...types, type] : types.filter((t) => t !== type))}
              />
              <span>
                <code>{type}</code>
                <span className="muted small check-description">{WEBHOOK_EVENTS[type].description}</span>
              </span>
            </label>
          ))}
          <FieldError name="event_types" codes={['invalid_event_types', 'invalid_event_type']} />
        </fieldset>
      </ServerForm>
    </Section>
  );
}

export function WebhooksSection({ api }: SiteSectionProps) {
  return <TeamWebhooks api={api} />;
}
