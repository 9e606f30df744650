import { roleIn, TEAM_MANAGERS } from '@contracts/roles';
import { teamApi } from '../../api';
import { useSession } from '../../session';
import { Loading } from '../../ui/Loading';
import { TeamPicker } from '../../ui/TeamPicker';
import { NoAccess, SettingsLayout } from './SettingsLayout';
import { ApiKeysSection } from './sections/ApiKeysSection';
import { MembersSection } from './sections/MembersSection';
import { TeamWebhooks } from './sections/WebhooksSection';
import { TeamNotices } from './TeamNotices';

const SECTIONS = [
  { section: 'members', label: 'Members' },
  { section: 'api-keys', label: 'API keys' },
  { section: 'webhooks', label: 'Webhooks' },
];

/** `/settings/team/<section>?team=<id>`: the team's people, keys and webhooks. */
export function TeamSettingsPage({ section, teamParam }: { section: string; teamParam: string | null }) {
  const { session } = useSession();
  if (!session?.user) return <Loading />;
  const team = session.teams.find((t) => String(t.id) === teamParam) ?? session.teams[0];
  if (!team) return <NoAccess message="You belong to no team yet." />;
  if (!roleIn(team.role, TEAM_MANAGERS))
    return <NoAccess message={`Team settings are for the team's owner and admins; you are a ${team.role} in ${team.name}.`} />;
  const current = SECTIONS.find((s) => s.section === section) ?? SECTIONS[0]!;
  const api = teamApi(team.id);
  return (
    <SettingsLayout
      title={<TeamPicker teams={session.teams} current={team} hrefOf={(id) => `/settings/team/${current.section}?team=${id}`} />}
      heading="Team settings"
      base="/settings/team"
      items={SECTIONS.map((s) => ({ ...s, section: `${s.section}?team=${team.id}` }))}
      current={`${current.section}?team=${team.id}`}
      locked={team.locked ? { reason: team.locked_reason } : null}
      notices={<TeamNotices teamId={team.id} webhooksHref={`/settings/team/webhooks?team=${team.id}`} />}
    >
      {/* Keyed by the team: a section chosen for one team loads afresh for another, never shows the last one's. */}
      {current.section === 'members' && <MembersSection key={team.id} api={api} teamId={team.id} role={team.role} />}
      {current.section === 'api-keys' && <ApiKeysSection key={team.id} teamId={team.id} />}
      {current.section === 'webhooks' && <TeamWebhooks key={team.id} api={api} />}
    </SettingsLayout>
  );
}
