import type { EmailSettings, NoticeKind } from '@contracts/emailReports';
import { WEBHOOK_EVENTS } from '@contracts/webhookEventTypes';
import { useEffect, useState } from 'react';
import { api } from '../../../api';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Section } from '../../../ui/Section';
import { Field, ServerForm } from '../../../ui/ServerForm';
import type { Resource } from '../../../ui/useResource';
import type { SiteSectionProps } from '../siteSection';
import { MailNotSetUp, RecipientList, useEmailSettings } from './EmailRecipients';

const NOTICES: { kind: NoticeKind; title: string; description: string; label: string }[] = [
  {
    kind: 'spike',
    title: 'Traffic spike',
    description: 'A mail when the visitors on the site right now (the last 5 minutes) reach this number.',
    label: 'Current visitors at or above',
  },
  {
    kind: 'drop',
    title: 'Traffic drop',
    description: 'A mail when the visitors over the last 12 hours fall below this number — often a sign that the tracking script went missing.',
    label: 'Visitors in 12 hours below',
  },
];

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function Threshold({ domain, kind, label, settings }: { domain: string; kind: NoticeKind; label: string; settings: Resource<EmailSettings> }) {
  const current = settings.data?.thresholds[kind] ?? null;
  const [value, setValue] = useState('');
  const [offError, setOffError] = useState<string | null>(null);
  useEffect(() => setValue(current === null ? '' : String(current)), [current]);
  const save = async (threshold: number | null) => {
    await api.put(`/app/api/sites/${encodeURIComponent(domain)}/traffic-thresholds`, { kind, threshold });
    settings.reload();
  };
  return (
    <ServerForm
      submitLabel={current === null ? 'Turn on' : 'Save'}
      className="settings-form inline-form threshold-form"
      savedMessage="Saved."
      onSubmit={() => save(value.trim() === '' ? null : Number(value))}
      actions={
        current !== null && (
          <button
            type="button"
            className="btn"
            onClick={() => {
              setOffError(null);
              save(null).then(
                () => setValue(''),
                (error: unknown) => setOffError(error instanceof Error ? error.message : String(error)),
              );
            }}
          >
            Turn off
          </button>
        )
      }
    >
      <ErrorNote error={offError} />
      <Field id={`threshold-${kind}`} label={label} name="threshold">
        <input type="number" min={1} step={1} inputMode="numeric" value={value} onChange={(event) => setValue(event.target.value)} placeholder="Off" />
      </Field>
    </ServerForm>
  );
}

/**
 * Traffic spike and drop notices (docs/settings.md, Traffic notices): the thresholds and who is
 * mailed. The same detection announces the `traffic.spike` and `traffic.drop` webhook events.
 */
export function TrafficNoticesSection({ site }: SiteSectionProps) {
  const settings = useEmailSettings(site.domain);
  return (
    <>
      {settings.data?.mail_configured === false && <MailNotSetUp what="notice" />}
      <ErrorNote error={settings.error} />
      {NOTICES.map((notice) => {
        const last = settings.data?.last_noticed[notice.kind] ?? null;
        const on = settings.data?.thresholds[notice.kind] != null;
        return (
          <Section key={notice.kind} title={notice.title} description={`${notice.description} Checked every 5 minutes; at most one notice every 12 hours.`}>
            <Threshold domain={site.domain} kind={notice.kind} label={notice.label} settings={settings} />
            <p className="muted small">
              {on ? (last ? `The last notice went out ${when(last)}.` : 'No notice has gone out yet.') : 'Off: set a number to turn it on.'}
              {WEBHOOK_EVENTS[`traffic.${notice.kind}` as const].sent && (
                <>
                  {' '}
                  Webhooks subscribed to <code>traffic.{notice.kind}</code> hear of it too.
                </>
              )}
            </p>
            <h3>Who is mailed</h3>
            <RecipientList domain={site.domain} topic={notice.kind} settings={settings} empty="Nobody is mailed yet." />
          </Section>
        );
      })}
    </>
  );
}
