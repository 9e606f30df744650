import type { Role } from '@contracts/roles';
import type { TeamApi } from '../../api';
import type { SiteInfo } from '../dashboard/context';

/** What SiteSettingsPage hands each of its sections (sections/*.tsx). */
export interface SiteSectionProps {
  site: SiteInfo;
  /** The viewer's role in the site's team: sections leave out what the server would refuse them. */
  role: Role;
  api: TeamApi;
  /** Reads the site again after a change that the other sections or the dashboard show. */
  refreshSite(): void;
}
