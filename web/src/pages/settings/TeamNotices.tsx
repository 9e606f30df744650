import { noticeList } from '@contracts/webhooks';
import { useState } from 'react';
import { api } from '../../api';
import { Link } from '../../router';
import { ErrorNote } from '../../ui/ErrorNote';
import { useResource } from '../../ui/useResource';

/**
 * The team's open notices (a webhook endpoint that looks broken, or was stopped) as banners above
 * every settings page of those who manage the team, until one of them dismisses it
 * (src/web/routes/notices.ts).
 */
export function TeamNotices({ teamId, webhooksHref }: { teamId: number; webhooksHref: string }) {
  const notices = useResource((signal) => api.get(`/app/api/teams/${teamId}/notices`, noticeList, signal), [teamId]);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <ErrorNote error={error} />
      {notices.data?.notices.map((notice) => (
        <div key={notice.id} className="banner banner-warn" role="alert" data-notice={notice.kind}>
          <span>
            {notice.message} <Link href={webhooksHref}>Open webhooks</Link>
          </span>
          <button
            type="button"
            className="btn btn-small"
            onClick={() => {
              setError(null);
              api
                .post(`/app/api/teams/${teamId}/notices/${notice.id}/dismiss`)
                .then(() => notices.reload())
                .catch((failure: Error) => setError(failure.message));
            }}
          >
            Dismiss
          </button>
        </div>
      ))}
    </>
  );
}
