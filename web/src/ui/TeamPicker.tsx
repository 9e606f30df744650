import { navigate } from '../router';
import type { SessionTeam } from '../session';

/**
 * The team a page shows, as its title: a `<select>` of the user's teams when they belong to more
 * than one (choosing one goes to `hrefOf` that team), else the team's name.
 */
export function TeamPicker({ teams, current, hrefOf }: { teams: readonly SessionTeam[]; current: SessionTeam; hrefOf(teamId: string): string }) {
  if (!teams.some((team) => team.id !== current.id)) return current.name;
  return (
    <label>
      <span className="visually-hidden">Team</span>
      <select className="team-select" value={current.id} onChange={(event) => navigate(hrefOf(event.target.value))}>
        {teams.map((team) => (
          <option key={team.id} value={team.id}>
            {team.name}
          </option>
        ))}
      </select>
    </label>
  );
}
