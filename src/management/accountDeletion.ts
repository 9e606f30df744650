import { conflict } from '../errors.js';
import type { MetaDb } from '../stores/meta/database.js';
import { deleteUser, ownedTeams } from '../stores/meta/users.js';

/**
 * Deleting one's own account (the Account page, `svc user delete`). Refused while the user owns a
 * team that holds anything besides them (other members, sites): its people and data would be left
 * without an owner. Teams they own with nothing in them go with the account.
 */
export async function deleteAccount(db: MetaDb, userId: number): Promise<void> {
  const teams = await ownedTeams(db, userId);
  const held = teams.filter((team) => team.otherMembers > 0 || team.liveSites > 0);
  if (held.length > 0) {
    const names = held.map((team) => `“${team.name}”`).join(', ');
    throw conflict(
      'owner_of_team',
      `You are the owner of ${names}, which has other members or sites: transfer its ownership (Team settings › Members) or delete its sites and remove its members first.`,
    );
  }
  // A team whose deleted sites are still on record stays, without members, for those records.
  const empty = teams.filter((team) => team.sites === 0).map((team) => team.id);
  await deleteUser(db, userId, empty);
}
