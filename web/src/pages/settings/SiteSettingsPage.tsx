import { ROLE_SCOPES, ROLES, type Role, roleIn, SITE_EDITORS, TEAM_MANAGERS } from '@contracts/roles';
import { viewedSite } from '@contracts/sites';
import type { ReactNode } from 'react';
import { api, teamApi } from '../../api';
import { Link } from '../../router';
import { Loading } from '../../ui/Loading';
import { useResource } from '../../ui/useResource';
import { NoAccess, SettingsLayout } from './SettingsLayout';
import { EmailReportsSection } from './sections/EmailReportsSection';
import { ExportSection } from './sections/ExportSection';
import { FunnelsSection } from './sections/FunnelsSection';
import { GeneralSection } from './sections/GeneralSection';
import { GoalsSection } from './sections/GoalsSection';
import { HealthSection } from './sections/HealthSection';
import { ImportsSection } from './sections/ImportsSection';
import { PropertiesSection } from './sections/PropertiesSection';
import { ShieldsSection } from './sections/ShieldsSection';
import { TrackerSection } from './sections/TrackerSection';
import { TrafficNoticesSection } from './sections/TrafficNoticesSection';
import { VisibilitySection } from './sections/VisibilitySection';
import { WebhooksSection } from './sections/WebhooksSection';
import type { SiteSectionProps } from './siteSection';
import { TeamNotices } from './TeamNotices';

const SECTIONS: { section: string; label: string; render(props: SiteSectionProps): ReactNode; for?: readonly Role[] }[] = [
  { section: 'general', label: 'General', render: (p) => <GeneralSection {...p} /> },
  { section: 'goals', label: 'Goals', render: (p) => <GoalsSection {...p} /> },
  { section: 'funnels', label: 'Funnels', render: (p) => <FunnelsSection {...p} /> },
  { section: 'properties', label: 'Custom properties', render: (p) => <PropertiesSection {...p} /> },
  { section: 'visibility', label: 'Visibility', render: (p) => <VisibilitySection {...p} /> },
  { section: 'shields', label: 'Shields', render: (p) => <ShieldsSection {...p} /> },
  { section: 'tracker', label: 'Tracker', render: (p) => <TrackerSection {...p} /> },
  { section: 'health', label: 'Ingestion health', render: (p) => <HealthSection {...p} /> },
  { section: 'email-reports', label: 'Email reports', render: (p) => <EmailReportsSection {...p} /> },
  { section: 'traffic-notices', label: 'Traffic notices', render: (p) => <TrafficNoticesSection {...p} /> },
  { section: 'webhooks', label: 'Webhooks', render: (p) => <WebhooksSection {...p} />, for: ROLES.filter((r) => ROLE_SCOPES[r].includes('webhooks:write')) },
  { section: 'imports', label: 'Imports', render: (p) => <ImportsSection {...p} /> },
  { section: 'export', label: 'Export data', render: (p) => <ExportSection {...p} /> },
];

export function SiteSettingsPage({ domain, section }: { domain: string; section: string }) {
  const { data: site, error, reload } = useResource((signal) => api.get(`/app/api/sites/${encodeURIComponent(domain)}`, viewedSite, signal), [domain]);
  if (error) return <NoAccess message={error} />;
  if (!site || site.team_id === undefined) return <Loading />;
  const role = ROLES.find((r) => r === site.role);
  if (!role || !roleIn(role, SITE_EDITORS) || site.guest) {
    return <NoAccess message={`You can see the dashboard of ${site.domain}, but its settings are for the editors, admins and owner of its team.`} />;
  }
  const sections = SECTIONS.filter((s) => !s.for || s.for.includes(role));
  const current = sections.find((s) => s.section === section) ?? sections[0]!;
  const base = `/${encodeURIComponent(site.domain)}/settings`;
  const teamApiOfSite = teamApi(site.team_id);
  const webhooks = sections.find((s) => s.section === 'webhooks');
  return (
    <SettingsLayout
      title={<Link href={`/${encodeURIComponent(site.domain)}`}>{site.domain}</Link>}
      heading="Site settings"
      base={base}
      items={sections}
      current={current.section}
      locked={site.locked ? { reason: site.locked_reason ?? null } : null}
      notices={webhooks && roleIn(role, TEAM_MANAGERS) && <TeamNotices teamId={site.team_id} webhooksHref={`${base}/${webhooks.section}`} />}
    >
      {current.render({ site, role, api: teamApiOfSite, refreshSite: reload })}
    </SettingsLayout>
  );
}
