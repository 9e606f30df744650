import { queryResponse } from '@contracts/query';
import { site as siteSchema, siteSnippet } from '@contracts/sites';
import { useEffect, useState } from 'react';
import { api as appApi, teamApi } from '../../api';
import { Link } from '../../router';
import { CopyButton } from '../../ui/CopyButton';
import { Layout } from '../../ui/Layout';
import { TimeZoneSelect } from '../../ui/TimeZoneSelect';
import { offeredZoneFor } from '../../ui/timeZoneChoices';
import { useCurrentTeam } from '../SitesPage';
import './sites.css';

/** Polls for the first event of a new site (realtime range: the last 30 minutes). */
function WaitingForFirstPageview({ domain }: { domain: string }) {
  const [arrived, setArrived] = useState<string | null>(null);
  useEffect(() => {
    if (arrived) return;
    const check = () =>
      appApi
        .post(
          `/app/api/sites/${encodeURIComponent(domain)}/query`,
          { metrics: ['pageviews'], date_range: 'realtime', dimensions: ['event:page'], pagination: { limit: 1 } },
          queryResponse,
        )
        .then((result) => {
          const first = result.results[0];
          if (first && (first.metrics[0] ?? 0) > 0) setArrived(first.dimensions[0] ?? '/');
        })
        .catch(() => {});
    void check();
    const timer = setInterval(check, 3000);
    return () => clearInterval(timer);
  }, [domain, arrived]);
  return (
    <div className={`waiting${arrived ? ' arrived' : ''}`} role="status" data-testid="waiting">
      <span className="dot" aria-hidden="true" />
      {arrived ? (
        <span>
          The first pageview arrived (from <code>{arrived}</code>). <Link href={`/${encodeURIComponent(domain)}`}>Go to the dashboard</Link>
        </span>
      ) : (
        <span>Waiting for the first pageview… open a page of {domain} that has the snippet.</span>
      )}
    </div>
  );
}

export function AddSitePage() {
  const team = useCurrentTeam();
  const [domain, setDomain] = useState('');
  const [timezone, setTimezone] = useState(() => offeredZoneFor(Intl.DateTimeFormat().resolvedOptions().timeZone));
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ domain: string; snippet: string } | null>(null);
  if (!team) return null;
  const api = teamApi(team.id);
  const add = async () => {
    setError(null);
    try {
      const site = await api.post('/api/v1/sites', { domain, timezone }, siteSchema);
      const snippet = await api.get(`/api/v1/sites/${encodeURIComponent(site.domain)}/snippet`, siteSnippet);
      setCreated({ domain: site.domain, snippet: snippet.snippet });
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  };
  return (
    <Layout title={team.name}>
      <div className="card add-site">
        {!created ? (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void add();
            }}
          >
            <h1>Add a site</h1>
            <div className="field">
              <label htmlFor="site-domain">Domain</label>
              <input
                id="site-domain"
                value={domain}
                onChange={(event) => setDomain(event.target.value)}
                placeholder="example.com"
                autoComplete="off"
                spellCheck={false}
              />
              <span className="field-hint">Just the domain: no https:// and no path. Subdomains count as their own site unless you add the parent domain.</span>
            </div>
            <div className="field">
              <label htmlFor="site-timezone">Reporting time zone</label>
              <TimeZoneSelect id="site-timezone" value={timezone} onZone={setTimezone} />
              <span className="field-hint">Days and months of every report are counted in this zone.</span>
            </div>
            {error && (
              <p className="form-error" role="alert">
                {error}
              </p>
            )}
            <button type="submit" className="btn btn-primary">
              Add site
            </button>
          </form>
        ) : (
          <>
            <h1>Paste this into {created.domain}</h1>
            <p className="muted">
              Put it in the &lt;head&gt; of every page. More options (outbound links, downloads, tagged events…) are under Site settings › Tracker.
            </p>
            <pre className="snippet-box" data-testid="snippet">
              {created.snippet}
            </pre>
            <CopyButton text={created.snippet} label="Copy snippet" />
            <WaitingForFirstPageview domain={created.domain} />
          </>
        )}
      </div>
    </Layout>
  );
}
