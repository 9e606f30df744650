import { RAW_RETENTION_DAYS } from '@contracts/rawRetention';
import { OWNER } from '@contracts/roles';
import { previousDomain, site as siteSchema } from '@contracts/sites';
import { useState } from 'react';
import { api as appApi } from '../../../api';
import { formatDay } from '../../../format';
import { navigate } from '../../../router';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { Section } from '../../../ui/Section';
import { Field, ServerForm } from '../../../ui/ServerForm';
import { TimeZoneSelect } from '../../../ui/TimeZoneSelect';
import { useResource } from '../../../ui/useResource';
import type { SiteSectionProps } from '../siteSection';

/** Domain change (the old name keeps answering for 30 days), time zone, raw-event retention, and deleting the site. */
export function GeneralSection(props: SiteSectionProps) {
  const path = `/api/v1/sites/${encodeURIComponent(props.site.domain)}`;
  return (
    <>
      <SiteDomain {...props} path={path} />
      <SiteTimeZone {...props} path={path} />
      <RawEventRetention {...props} path={path} />
      <DeleteSite {...props} path={path} />
    </>
  );
}

/** What each part of the section gets: the page's props and the site's management path. */
type PartProps = SiteSectionProps & { path: string };

/** The domain, and the previous one while it still answers. */
function SiteDomain({ site, api, refreshSite, path }: PartProps) {
  const [domain, setDomain] = useState(site.domain);
  const previous = useResource(
    (signal) => appApi.get(`/app/api/sites/${encodeURIComponent(site.domain)}/previous-domain`, previousDomain, signal),
    [site.domain],
  );
  return (
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
          const updated = await api.put(path, { domain }, siteSchema);
          navigate(`/${encodeURIComponent(updated.domain)}/settings/general`, { replace: true });
          refreshSite();
        }}
      >
        <Field id="site-domain" label="Domain" name="domain" codes={['invalid_domain', 'domain_taken']}>
          <input value={domain} onChange={(event) => setDomain(event.target.value)} autoComplete="off" spellCheck={false} />
        </Field>
      </ServerForm>
    </Section>
  );
}

/** The time zone reports count days in; fixed once raw events of earlier days are gone. */
function SiteTimeZone({ site, api, refreshSite, path }: PartProps) {
  const [timezone, setTimezone] = useState(site.timezone);
  return (
    <Section title="Time zone" description="Days, weeks and months of every report are counted in this time zone.">
      <ServerForm
        submitLabel="Save time zone"
        savedMessage="Saved: reports now count days in this time zone."
        onSubmit={async () => {
          await api.put(path, { timezone });
          refreshSite();
        }}
      >
        <Field
          id="site-timezone"
          label="Time zone"
          name="timezone"
          codes={['invalid_timezone', 'timezone_fixed']}
          hint={site.raw_events_from && 'Fixed: raw events of earlier days were deleted, and their daily roll-ups were cut in this time zone.'}
        >
          <TimeZoneSelect value={timezone} onZone={setTimezone} />
        </Field>
      </ServerForm>
    </Section>
  );
}

/** How long raw events are kept, with what a limit costs. */
function RawEventRetention({ site, api, refreshSite, path }: PartProps) {
  const [keepForever, setKeepForever] = useState(site.raw_retention_days === null);
  const [days, setDays] = useState(String(site.raw_retention_days ?? 365));
  return (
    <Section
      title="Raw events"
      description="Every pageview and event is kept as collected (raw) and rolled up per day. Reports the roll-ups answer (visitors, visits, pageviews, bounce rate and visit duration by page, source, location, device or goal, over whole days) work over any range either way."
    >
      <div className="muted small consequences">
        <p>With a limit, the raw events of rolled-up days older than it are deleted for good. Then:</p>
        <ul>
          <li>time on page, scroll depth, custom properties, revenue, funnels, hourly charts and single past days cover the kept days only;</li>
          <li>
            exports hold the kept days' raw events, and take their daily tables for earlier days from the roll-ups (without scroll depth, time on page, link
            URLs or paths);
          </li>
          <li>the time zone can no longer change.</li>
        </ul>
      </div>
      {site.raw_events_from && (
        <p className="muted small" data-testid="raw-events-from">
          Raw events are kept from {formatDay(site.raw_events_from)}; earlier days are in the daily roll-ups only.
        </p>
      )}
      <ServerForm
        submitLabel="Save raw-event retention"
        savedMessage={keepForever ? 'Saved: raw events are kept.' : 'Saved: older raw events go after the next roll-up round.'}
        onSubmit={async () => {
          // A value that is no number is sent as typed, so the server's sentence names it.
          const typed = Number(days.trim());
          await api.put(path, { raw_retention_days: keepForever ? null : days.trim() !== '' && !Number.isNaN(typed) ? typed : days });
          refreshSite();
        }}
      >
        <Field id="site-raw-keep" label="Keep raw events" name="raw_retention_kind">
          <select value={keepForever ? 'forever' : 'days'} onChange={(event) => setKeepForever(event.target.value === 'forever')}>
            <option value="forever">Forever</option>
            <option value="days">For a number of days</option>
          </select>
        </Field>
        {!keepForever && (
          <Field
            id="site-raw-days"
            label="Days kept"
            name="raw_retention_days"
            codes={['invalid_raw_retention_days']}
            hint={`From ${RAW_RETENTION_DAYS.min} to ${RAW_RETENTION_DAYS.max}.`}
          >
            <input
              type="number"
              inputMode="numeric"
              min={RAW_RETENTION_DAYS.min}
              max={RAW_RETENTION_DAYS.max}
              value={days}
              onChange={(event) => setDays(event.target.value)}
            />
          </Field>
        )}
      </ServerForm>
    </Section>
  );
}

/** Deleting the site, the owner's alone. */
function DeleteSite({ site, role, api, path }: PartProps) {
  return (
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
  );
}
