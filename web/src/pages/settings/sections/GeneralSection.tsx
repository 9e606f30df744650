import { useState } from 'react';
import TIME_ZONES from '../../../../../src/accounts/timeZoneNames.json';
import { navigate } from '../../../router';
import { ConfirmButton, Section, ServerForm } from '../parts';
import type { SiteSectionProps } from '../SiteSettingsPage';

/** Domain change (the old name keeps answering for 30 days), time zone, and deleting the site. */
export function GeneralSection({ site, api, refreshSite }: SiteSectionProps) {
  const [domain, setDomain] = useState(site.domain);
  const [timezone, setTimezone] = useState(site.timezone);
  const path = `/api/v1/sites/${encodeURIComponent(site.domain)}`;
  const zones = TIME_ZONES.includes(site.timezone) ? TIME_ZONES : [site.timezone, ...TIME_ZONES];
  return (
    <>
      <Section title="Domain" description="Change it when the site moves. Every event stays; the old name keeps receiving events and answering for 30 days.">
        <ServerForm
          submitLabel="Change domain"
          onSubmit={async () => {
            const updated = await api.put<{ domain: string }>(path, { domain });
            navigate(`/${encodeURIComponent(updated.domain)}/settings/general`, { replace: true });
            refreshSite();
          }}
        >
          <div className="field">
            <label htmlFor="site-domain">Domain</label>
            <input id="site-domain" value={domain} onChange={(event) => setDomain(event.target.value)} autoComplete="off" spellCheck={false} />
          </div>
        </ServerForm>
      </Section>
      <Section title="Time zone" description="Days, weeks and months of every report are counted in this time zone.">
        <ServerForm
          submitLabel="Save time zone"
          onSubmit={async () => {
            await api.put(path, { timezone });
            refreshSite();
          }}
        >
          <div className="field">
            <label htmlFor="site-timezone">Time zone</label>
            <select id="site-timezone" value={timezone} onChange={(event) => setTimezone(event.target.value)}>
              {zones.map((zone) => (
                <option key={zone} value={zone}>
                  {zone}
                </option>
              ))}
            </select>
          </div>
        </ServerForm>
      </Section>
      <Section title="Delete this site" danger description="The site and all its statistics are removed for good. Only the team's owner can do this.">
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
      </Section>
    </>
  );
}
