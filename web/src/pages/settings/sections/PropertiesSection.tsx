import { useState } from 'react';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { Section } from '../../../ui/Section';
import { Field, ServerForm } from '../../../ui/ServerForm';
import { notYetUsed, useReceivedNames } from '../receivedNames';
import type { SiteSectionProps } from '../siteSection';

/** Custom properties the dashboard offers as breakdowns and filters. */
export function PropertiesSection({ site, api, refreshSite }: SiteSectionProps) {
  const [property, setProperty] = useState('');
  const query = `site_id=${encodeURIComponent(site.domain)}`;
  const suggested = notYetUsed(useReceivedNames(site.domain).property_keys, site.custom_properties);
  return (
    <>
      <Section title="Custom properties" description="Properties sent with events (props) that the dashboard lists for breakdowns and filters.">
        {site.custom_properties.length === 0 && <p className="muted">No properties listed yet.</p>}
        <ul className="settings-list">
          {site.custom_properties.map((name) => (
            <li key={name}>
              <code>{name}</code>
              <ConfirmButton
                label="Remove"
                className="btn btn-small btn-danger"
                title={`Remove the property “${name}”?`}
                message="It leaves the dashboard's lists; the values already collected stay stored."
                onConfirm={async () => {
                  await api.delete(`/api/v1/sites/custom-props/${encodeURIComponent(name)}?${query}`);
                  refreshSite();
                }}
              />
            </li>
          ))}
        </ul>
      </Section>
      <Section title="Add a property">
        <ServerForm
          submitLabel="Add property"
          onSubmit={async () => {
            await api.put('/api/v1/sites/custom-props', { site_id: site.domain, property });
            setProperty('');
            refreshSite();
          }}
        >
          <Field id="prop-name" label="Property name" name="property">
            <input value={property} onChange={(event) => setProperty(event.target.value)} placeholder="plan" list="received-properties" autoComplete="off" />
          </Field>
          <datalist id="received-properties">
            {suggested.map((name) => (
              <option key={name} value={name} />
            ))}
          </datalist>
        </ServerForm>
      </Section>
    </>
  );
}
