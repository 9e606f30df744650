import { useState } from 'react';
import { OWNER } from '../../../../../src/accounts/roles';
import TIME_ZONES from '../../../../../src/accounts/timeZoneNames.json';
import { api as appApi } from '../../../api';
import { navigate } from '../../../router';
import { ConfirmButton, Field, formatDay, Section, ServerForm, useResource } from '../parts';
import type { SiteSectionProps } from '../SiteSettingsPage';

/** Domain change (the old name keeps answering for 30 days), time zone, and deleting the site. */
export function GeneralSection({ site, role, api, refreshSite }: SiteSectionProps) {
  const [domain, setDomain] = useState(site.domain);
  const [timezone, setTimezone] = useState(site.timezone);
  const path = `/api/v1/sites/${encodeURIComponent(site.domain)}`;
  const previous = useResource(
    (signal) =>
      appApi.get<{ previous_domain: string | null; valid_until: string | null }>(`/app/api/sites/${encodeURIComponent(site.domain)}/previous-domain`, signal),
    [site.domain],
  );
  const zones = TIME_ZONES.includes(site.timezone) ? TIME_ZONES : [site.timezone, ...TIME_ZONES];
  return (
    <>
      <Section title="Domain" description="Change it when the site moves. Every event stays; the old name keeps receiving events and answering for 30 days.">
        {previous.data?.previous_domain && previous.data.valid_until && (
          <div className="banner banner-good" role="status" data-testid="previous-domain">
            <span>
              Renamed from <strong>{previous.data.previous_domain}</strong>. Snippets and links with the old name keep working until{' '}
              {formatDay(previous.data.valid_until)}; update them before then.
            </span>
          </div>
        )}
        <ServerForm
          submitLabel="Change domain"
          onSubmit={async () => {
            const updated = await api.put<{ domain: string }>(path, { domain });
            navigate(`/${encodeURIComponent(updated.domain)}/settings/general`, { replace: true });
            refreshSite();
          }}
        >
          <Field id="site-domain" label="Domain" name="domain" codes={['invalid_domain', 'domain_taken']}>
            <input value={domain} onChange={(event) => setDomain(event.target.value)} autoComplete="off" spellCheck={false} />
          </Field>
        </ServerForm>
      </Section>
      <Section title="Time zone" description="Days, weeks and months of every report are counted in this time zone.">
        <ServerForm
          submitLabel="Save time zone"
          savedMessage="Saved: reports now count days in this time zone."
          onSubmit={async () => {
            await api.put(path, { timezone });
            refreshSite();
          }}
        >
          <Field id="site-timezone" label="Time zone" name="timezone" codes={['invalid_timezone']}>
            <select value={timezone} onChange={(event) => setTimezone(event.target.value)}>
              {zones.map((zone) => (
                <option key={zone} value={zone}>
                  {zone}
                </option>
              ))}
            </select>
          </Field>
        </ServerForm>
      </Section>
      <Section title="Delete this site" danger description="The site and all its statistics are removed for good. Only the team's owner can do this.">
        {role !== OWNER ? (
          <p className="muted small">Ask the team's owner if this site should go.</p>
        ) : (
          <ConfirmButton
            label="Delete site"
            title={`Delete ${site.domain}?`}
            message="Every event, goal, funnel and shared link of this site is deleted. This cannot be undone."
            typed={site.domain}
            onConfirm={async () => {
              await api.delete(path);
              navigate('/');
            }}
          />
        )}
      </Section>
    </>
  );
}
