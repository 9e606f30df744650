import { Link } from '../../router';
import { canEditSite, useDashboard } from './context';

/** What an empty dashboard says: choose a longer range, or (for those who may) check the snippet. */
export function NobodyNotice({ realtime }: { realtime: boolean }) {
  const { site, readOnly } = useDashboard();
  return (
    <p className="empty-notice card" role="status">
      {realtime ? 'Nobody is on the site right now.' : 'No visitors in this period.'} Choose a longer range
      {readOnly || !canEditSite(site) ? (
        '.'
      ) : (
        <>
          , or, if the site is new, check that the snippet is on its pages:{' '}
          <Link href={`/${encodeURIComponent(site.domain)}/settings/tracker`}>Settings › Tracker</Link> shows it and says whether events arrive.
        </>
      )}
    </p>
  );
}
