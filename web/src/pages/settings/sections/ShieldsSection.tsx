import { classifications, shieldRuleList } from '@contracts/shields';
import { useEffect, useState } from 'react';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { ErrorNote } from '../../../ui/ErrorNote';
import { useOutcomeGuide } from '../../../ui/outcomeGuide';
import { Section } from '../../../ui/Section';
import { Field, ServerForm } from '../../../ui/ServerForm';
import { useResource } from '../../../ui/useResource';
import type { SiteSectionProps } from '../siteSection';

type Kind = 'ip' | 'country' | 'page' | 'hostname';

const KINDS: { kind: Kind; title: string; one: string; description: string; placeholder: string; empty: string }[] = [
  {
    kind: 'ip',
    title: 'IP addresses',
    one: 'IP address or range',
    description: 'Events from these addresses or ranges are dropped (your office, your own devices).',
    placeholder: '203.0.113.0/24',
    empty: 'No address is shielded.',
  },
  {
    kind: 'country',
    title: 'Countries',
    one: 'Country code',
    description: 'Events from these countries are dropped. Two-letter codes.',
    placeholder: 'DE',
    empty: 'No country is shielded.',
  },
  {
    kind: 'page',
    title: 'Pages',
    one: 'Page path',
    description: 'Events on these pages are dropped; * matches one segment, ** any depth.',
    placeholder: '/admin/**',
    empty: 'No page is shielded.',
  },
  {
    kind: 'hostname',
    title: 'Hostnames',
    one: 'Hostname',
    description: 'An allow list: when it has entries, only events from these hostnames are counted.',
    placeholder: '*.example.com',
    empty: 'No list: events from every hostname are counted.',
  },
];

function ShieldList({ site, api, kind }: SiteSectionProps & { kind: (typeof KINDS)[number] }) {
  const query = `site_id=${encodeURIComponent(site.domain)}`;
  const rules = useResource((signal) => api.get(`/api/v1/sites/shields/${kind.kind}?${query}`, shieldRuleList, signal), [site.domain, kind.kind]);
  const [value, setValue] = useState('');
  const [description, setDescription] = useState('');
  return (
    <Section title={kind.title} description={kind.description}>
      <ErrorNote error={rules.error} />
      {rules.data?.rules.length === 0 && <p className="muted small">{kind.empty}</p>}
      <ul className="settings-list">
        {rules.data?.rules.map((rule) => (
          <li key={rule.id}>
            <div>
              <code>{rule.value}</code> {rule.description && <span className="muted small">— {rule.description}</span>}
            </div>
            <ConfirmButton
              label="Remove"
              className="btn btn-small btn-danger"
              title={`Remove the shield ${rule.value}?`}
              message="Events it stopped are counted again from now on."
              onConfirm={async () => {
                await api.delete(`/api/v1/sites/shields/${kind.kind}/${rule.id}?${query}`);
                rules.reload();
              }}
            />
          </li>
        ))}
      </ul>
      <ServerForm
        submitLabel="Add"
        className="settings-form inline-form"
        onSubmit={async () => {
          await api.put(`/api/v1/sites/shields/${kind.kind}`, { site_id: site.domain, value, ...(description ? { description } : {}) });
          setValue('');
          setDescription('');
          rules.reload();
        }}
      >
        <Field id={`shield-${kind.kind}`} label={kind.one} name="value" codes={['invalid_shield_rule']}>
          <input value={value} onChange={(event) => setValue(event.target.value)} placeholder={kind.placeholder} />
        </Field>
        <Field id={`shield-${kind.kind}-note`} label="Note (optional)" name="description">
          <input value={description} onChange={(event) => setDescription(event.target.value)} />
        </Field>
      </ServerForm>
    </Section>
  );
}

/** Classified events are stored but left out of reports; each reason can be put back. */
function ClassificationSettings({ site, api, refreshSite }: SiteSectionProps) {
  const query = `site_id=${encodeURIComponent(site.domain)}`;
  const current = useResource((signal) => api.get(`/api/v1/sites/classifications?${query}`, classifications, signal), [site.domain]);
  const guide = useOutcomeGuide();
  const [included, setIncluded] = useState<string[]>([]);
  useEffect(() => {
    if (current.data) setIncluded(current.data.included);
  }, [current.data]);
  return (
    <Section
      title="Classifications"
      description="Events classified as below are stored with their reason and left out of reports. Tick a reason to put those events back into every report."
    >
      <ErrorNote error={current.error ?? guide.error} />
      {current.data && (
        <ServerForm
          submitLabel="Save"
          savedMessage="Saved: every report now counts the ticked reasons."
          onSubmit={async () => {
            await api.put('/api/v1/sites/classifications', { site_id: site.domain, included });
            current.reload();
            refreshSite();
          }}
        >
          <fieldset className="checks">
            <legend className="visually-hidden">Put back into reports</legend>
            {current.data.reasons.map((reason) => {
              const explained = guide.data?.outcomes[reason];
              return (
                // The explanation describes the switch but is not its name, so the switch reads as the reason itself.
                <div key={reason} className="check">
                  <input
                    id={`put-back-${reason}`}
                    type="checkbox"
                    name={reason}
                    aria-describedby={explained ? `put-back-${reason}-note` : undefined}
                    checked={included.includes(reason)}
                    onChange={(event) => setIncluded(event.target.checked ? [...included, reason] : included.filter((r) => r !== reason))}
                  />
                  <span>
                    <label htmlFor={`put-back-${reason}`}>
                      <code>{reason}</code>
                    </label>
                    {explained && (
                      <span id={`put-back-${reason}-note`} className="muted small">
                        {' '}
                        — {explained.meaning} {explained.action}
                      </span>
                    )}
                  </span>
                </div>
              );
            })}
          </fieldset>
        </ServerForm>
      )}
    </Section>
  );
}

export function ShieldsSection(props: SiteSectionProps) {
  return (
    <>
      {KINDS.map((kind) => (
        <ShieldList key={kind.kind} {...props} kind={kind} />
      ))}
      <ClassificationSettings {...props} />
    </>
  );
}
