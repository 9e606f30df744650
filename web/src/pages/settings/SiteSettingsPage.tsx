import type { ReactNode } from 'react';
import { api, type TeamApi, teamApi } from '../../api';
import { Link } from '../../router';
import { Loading } from '../../ui/Loading';
import type { SiteInfo } from '../dashboard/context';
import { useResource } from './parts';
import { NoAccess, SettingsLayout } from './SettingsLayout';
import { ExportSection } from './sections/ExportSection';
import { FunnelsSection } from './sections/FunnelsSection';
import { GeneralSection } from './sections/GeneralSection';
import { GoalsSection } from './sections/GoalsSection';
import { HealthSection } from './sections/HealthSection';
import { ImportsSection } from './sections/ImportsSection';
import { PropertiesSection } from './sections/PropertiesSection';
import { ShieldsSection } from './sections/ShieldsSection';
import { TrackerSection } from './sections/TrackerSection';
import { VisibilitySection } from './sections/VisibilitySection';
import { WebhooksSection } from './sections/WebhooksSection';

export interface SiteSectionProps {
  site: SiteInfo;
  api: TeamApi;
  /** Reads the site again after a change that the other sections or the dashboard show. */
  refreshSite(): void;
}

const SECTIONS: { section: string; label: string; render(props: SiteSectionProps): ReactNode }[] = [
  { section: 'general', label: 'General', render: (p) => <GeneralSection {...p} /> },
  { section: 'goals', label: 'Goals', render: (p) => <GoalsSection {...p} /> },
  { section: 'funnels', label: 'Funnels', render: (p) => <FunnelsSection {...p} /> },
  { section: 'properties', label: 'Custom properties', render: (p) => <PropertiesSection {...p} /> },
  { section: 'visibility', label: 'Visibility', render: (p) => <VisibilitySection {...p} /> },
  { section: 'shields', label: 'Shields', render: (p) => <ShieldsSection {...p} /> },
  { section: 'tracker', label: 'Tracker', render: (p) => <TrackerSection {...p} /> },
  { section: 'health', label: 'Ingestion health', render: (p) => <HealthSection {...p} /> },
  { section: 'webhooks', label: 'Webhooks', render: (p) => <WebhooksSection {...p} /> },
  { section: 'imports', label: 'Imports', render: (p) => <ImportsSection {...p} /> },
  { section: 'export', label: 'Export data', render: (p) => <ExportSection {...p} /> },
];

/** Roles that may open a site's settings; the server enforces the same through the route scopes. */
const SETTINGS_ROLES = ['owner', 'admin', 'editor'];

export function SiteSettingsPage({ domain, section }: { domain: string; section: string }) {
  const { data: site, error, reload } = useResource((signal) => api.get<SiteInfo>(`/app/api/sites/${encodeURIComponent(domain)}`, signal), [domain]);
  if (error) return <NoAccess message={error} />;
  if (!site || site.team_id === undefined) return <Loading />;
  if (!SETTINGS_ROLES.includes(site.role ?? '') || site.guest) {
    return <NoAccess message={`You can see the dashboard of ${site.domain}, but its settings are for the editors, admins and owner of its team.`} />;
  }
  const current = SECTIONS.find((s) => s.section === section) ?? SECTIONS[0]!;
  const base = `/${encodeURIComponent(site.domain)}/settings`;
  return (
    <SettingsLayout
      title={<Link href={`/${encodeURIComponent(site.domain)}`}>{site.domain}</Link>}
      heading="Site settings"
      base={base}
      items={SECTIONS}
      current={current.section}
      locked={site.locked ? { reason: site.locked_reason ?? null } : null}
    >
      {current.render({ site, api: teamApi(site.team_id), refreshSite: reload })}
    </SettingsLayout>
  );
}
