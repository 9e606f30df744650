import { roleIn, TEAM_MANAGERS } from '../../../../src/accounts/roles';
import { teamApi } from '../../api';
import { navigate } from '../../router';
import { useSession } from '../../session';
import { Loading } from '../../ui/Loading';
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
  const others = session.teams.filter((t) => t.id !== team.id);
  return (
    <SettingsLayout
      title={
        others.length > 0 ? (
          <label className="team-switch">
            <span className="visually-hidden">Team</span>
            <select value={team.id} onChange={(event) => navigate(`/settings/team/${current.section}?team=${event.target.value}`)}>
              {session.teams.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </label>
        ) : (
          team.name
        )
      }
      heading="Team settings"
      base="/settings/team"
      items={SECTIONS.map((s) => ({ ...s, section: `${s.section}?team=${team.id}` }))}
      current={`${current.section}?team=${team.id}`}
      locked={team.locked ? { reason: team.locked_reason } : null}
      notices={<TeamNotices teamId={team.id} webhooksHref={`/settings/team/webhooks?team=${team.id}`} />}
    >
      {current.section === 'members' && <MembersSection api={api} teamId={team.id} role={team.role} />}
      {current.section === 'api-keys' && <ApiKeysSection teamId={team.id} />}
      {current.section === 'webhooks' && <TeamWebhooks api={api} />}
    </SettingsLayout>
  );
}
