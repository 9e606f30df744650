import { useState } from 'react';
import { Section } from '../parts';
import type { SiteSectionProps } from '../SiteSettingsPage';

/**
 * The export download: a ZIP of the ten daily tables in Plausible's CSV format (importable there)
 * and every raw event. It works even when the team is locked.
 */
export function ExportSection({ site }: SiteSectionProps) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const query = new URLSearchParams({ ...(from ? { from } : {}), ...(to ? { to } : {}) });
  const href = `/app/api/sites/${encodeURIComponent(site.domain)}/export${query.size ? `?${query}` : ''}`;
  return (
    <Section
      title="Export data"
      description="A ZIP with one CSV per daily table (visitors, sources, pages, entry and exit pages, custom events, locations, devices, browsers, operating systems — the file names and columns of Plausible's export, so it imports there) and every raw event. Days are counted in the site's time zone."
    >
      <div className="inline-form">
        <div className="field">
          <label htmlFor="export-from">From (optional)</label>
          <input id="export-from" type="date" value={from} onChange={(event) => setFrom(event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="export-to">To (optional; default today)</label>
          <input id="export-to" type="date" value={to} onChange={(event) => setTo(event.target.value)} />
        </div>
        <div className="form-actions">
          <a className="btn btn-primary" href={href} download>
            Download ZIP
          </a>
        </div>
      </div>
      <p className="muted small">
        Large sites take a while: the download streams as it is written. From a terminal: <code>./bin/svc export --site {site.domain} --out export.zip</code>.
      </p>
    </Section>
  );
}
