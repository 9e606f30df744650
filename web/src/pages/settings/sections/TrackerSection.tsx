import { queryResponse } from '@contracts/query';
import { siteSnippet, type TrackerConfiguration, type TrackerFlag } from '@contracts/sites';
import { useEffect, useState } from 'react';
import { api as appApi } from '../../../api';
import { CopyButton } from '../../../ui/CopyButton';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Section } from '../../../ui/Section';
import { useResource } from '../../../ui/useResource';
import type { SiteSectionProps } from '../siteSection';

/** The switches of the snippet (Plausible's tracker_script_configuration names). */
const OPTIONS: { flag: TrackerFlag; label: string; hint: string }[] = [
  { flag: 'outbound_links', label: 'Outbound links', hint: 'Clicks on links to other sites.' },
  { flag: 'file_downloads', label: 'File downloads', hint: 'Clicks on links to files (pdf, zip, …).' },
  { flag: 'form_submissions', label: 'Form submissions', hint: 'Submitted forms.' },
  { flag: 'tagged_events', label: 'Tagged events', hint: 'Clicks on elements with a svc-event-name=… class.' },
  { flag: 'revenue_tracking', label: 'Revenue', hint: 'Revenue on tagged events.' },
  { flag: 'pageview_props', label: 'Pageview properties', hint: 'Custom properties on every pageview (data-props).' },
  { flag: 'hash_based_routing', label: 'Hash routing', hint: 'Single-page apps that route with #/paths.' },
  { flag: 'track_404_pages', label: '404 pages', hint: 'A line for your 404 page that records which paths were not found.' },
];

/** The snippet to paste, with its options as switches, and a check that events arrive. */
export function TrackerSection({ site, api }: SiteSectionProps) {
  const path = `/api/v1/sites/${encodeURIComponent(site.domain)}`;
  const snippet = useResource((signal) => api.get(`${path}/snippet`, siteSnippet, signal), [site.domain]);
  const [error, setError] = useState<string | null>(null);
  // A switch shows its new position at once; the server's configuration replaces it when the snippet is read again.
  const [switching, setSwitching] = useState<Record<string, boolean>>({});
  // biome-ignore lint/correctness/useExhaustiveDependencies: the effect runs when a new snippet arrives, which it does not read
  useEffect(() => setSwitching({}), [snippet.data]);
  const [check, setCheck] = useState<{ checking: boolean; pages: { page: string; visitors: number }[] | null; error: string | null }>({
    checking: false,
    pages: null,
    error: null,
  });
  const toggle = async (flag: string, on: boolean) => {
    setError(null);
    setSwitching((current) => ({ ...current, [flag]: on }));
    try {
      await api.put(path, { tracker_script_configuration: { [flag]: on } });
      snippet.reload();
    } catch (failure) {
      setSwitching(({ [flag]: _, ...rest }) => rest);
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  };
  // Loads nothing from the site itself: it asks our own store whether events came in.
  const verify = async () => {
    setCheck({ checking: true, pages: null, error: null });
    try {
      const result = await appApi.post(
        `/app/api/sites/${encodeURIComponent(site.domain)}/query`,
        { metrics: ['visitors'], date_range: 'realtime', dimensions: ['event:page'], pagination: { limit: 5 } },
        queryResponse,
      );
      setCheck({ checking: false, pages: result.results.map((r) => ({ page: r.dimensions[0] ?? '', visitors: r.metrics[0] ?? 0 })), error: null });
    } catch (failure) {
      setCheck({ checking: false, pages: null, error: failure instanceof Error ? failure.message : String(failure) });
    }
  };
  const configuration: Partial<TrackerConfiguration> = snippet.data?.tracker_script_configuration ?? {};
  return (
    <>
      <Section title="Snippet" description="Paste this into the <head> of every page of the site.">
        <ErrorNote error={snippet.error ?? error} />
        {snippet.data && (
          <>
            <pre className="snippet" data-testid="snippet">
              {snippet.data.snippet}
            </pre>
            <CopyButton text={snippet.data.snippet} label="Copy snippet" />
            {snippet.data.not_found_page_snippet && (
              <>
                <h3>On your 404 page only</h3>
                <pre className="snippet">{snippet.data.not_found_page_snippet}</pre>
                <CopyButton text={snippet.data.not_found_page_snippet} label="Copy" />
              </>
            )}
          </>
        )}
      </Section>
      <Section title="Options" description="Each option changes the script the snippet loads; copy the snippet again after a change.">
        <div className="switches">
          {OPTIONS.map((option) => (
            <label key={option.flag} className="switch">
              <input
                type="checkbox"
                checked={switching[option.flag] ?? configuration[option.flag] === true}
                onChange={(event) => void toggle(option.flag, event.target.checked)}
              />
              <span>
                <strong>{option.label}</strong>
                <span className="muted small"> — {option.hint}</span>
              </span>
            </label>
          ))}
        </div>
      </Section>
      <Section
        title="Verify installation"
        description="Checks whether any event arrived in the last 30 minutes, and from which pages. Open a page of the site first."
      >
        <button type="button" className="btn" onClick={() => void verify()} disabled={check.checking}>
          {check.checking ? 'Checking…' : 'Check now'}
        </button>
        <ErrorNote error={check.error} />
        {check.pages && check.pages.length === 0 && (
          <p className="banner banner-warn">
            No event in the last 30 minutes yet. If the snippet is in place, Ingestion health shows whether events were dropped, and why.
          </p>
        )}
        {check.pages && check.pages.length > 0 && (
          <div className="banner banner-good" role="status">
            Events are arriving. Latest pages: {check.pages.map((p) => p.page).join(', ')}
          </div>
        )}
      </Section>
    </>
  );
}
