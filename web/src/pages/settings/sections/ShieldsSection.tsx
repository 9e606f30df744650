import { useEffect, useState } from 'react';
import { ConfirmButton, ErrorNote, Section, ServerForm, useResource } from '../parts';
import type { SiteSectionProps } from '../SiteSettingsPage';

interface Rule {
  id: number;
  value: string;
  description: string | null;
}
type Kind = 'ip' | 'country' | 'page' | 'hostname';

const KINDS: { kind: Kind; title: string; one: string; description: string; placeholder: string }[] = [
  {
    kind: 'ip',
    title: 'IP addresses',
    one: 'IP address or range',
    description: 'Events from these addresses or ranges are dropped (your office, your own devices).',
    placeholder: '203.0.113.0/24',
  },
  { kind: 'country', title: 'Countries', one: 'Country code', description: 'Events from these countries are dropped. Two-letter codes.', placeholder: 'DE' },
  {
    kind: 'page',
    title: 'Pages',
    one: 'Page path',
    description: 'Events on these pages are dropped; * matches one segment, ** any depth.',
    placeholder: '/admin/**',
  },
  {
    kind: 'hostname',
    title: 'Hostnames',
    one: 'Hostname',
    description: 'An allow list: when it has entries, only events from these hostnames are counted.',
    placeholder: '*.example.com',
  },
];

function ShieldList({ site, api, kind }: SiteSectionProps & { kind: (typeof KINDS)[number] }) {
  const query = `site_id=${encodeURIComponent(site.domain)}`;
  const rules = useResource((signal) => api.get<{ rules: Rule[] }>(`/api/v1/sites/shields/${kind.kind}?${query}`, signal), [site.domain, kind.kind]);
  const [value, setValue] = useState('');
  const [description, setDescription] = useState('');
  return (
    <Section title={kind.title} description={kind.description}>
      <ErrorNote error={rules.error} />
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
        <div className="field">
          <label htmlFor={`shield-${kind.kind}`}>{kind.one}</label>
          <input id={`shield-${kind.kind}`} value={value} onChange={(event) => setValue(event.target.value)} placeholder={kind.placeholder} />
        </div>
        <div className="field">
          <label htmlFor={`shield-${kind.kind}-note`}>Note (optional)</label>
          <input id={`shield-${kind.kind}-note`} value={description} onChange={(event) => setDescription(event.target.value)} />
        </div>
      </ServerForm>
    </Section>
  );
}

interface Classifications {
  included: string[];
  reasons: string[];
}

/** Classified events are stored but left out of reports; each reason can be put back. */
function ClassificationSettings({ site, api, refreshSite }: SiteSectionProps) {
  const query = `site_id=${encodeURIComponent(site.domain)}`;
  const current = useResource((signal) => api.get<Classifications>(`/api/v1/sites/classifications?${query}`, signal), [site.domain]);
  const [included, setIncluded] = useState<string[]>([]);
  useEffect(() => {
    if (current.data) setIncluded(current.data.included);
  }, [current.data]);
  return (
    <Section
      title="Classifications"
      description="Events classified as below are stored with their reason and left out of reports. Tick a reason to put those events back into every report."
    >
      <ErrorNote error={current.error} />
      {current.data && (
        <ServerForm
          submitLabel="Save"
          onSubmit={async () => {
            await api.put('/api/v1/sites/classifications', { site_id: site.domain, included });
            current.reload();
            refreshSite();
          }}
        >
          <fieldset className="checks">
            <legend className="visually-hidden">Put back into reports</legend>
            {current.data.reasons.map((reason) => (
              <label key={reason} className="check">
                <input
                  type="checkbox"
                  name={reason}
                  checked={included.includes(reason)}
                  onChange={(event) => setIncluded(event.target.checked ? [...included, reason] : included.filter((r) => r !== reason))}
                />
                <code>{reason}</code>
              </label>
            ))}
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
