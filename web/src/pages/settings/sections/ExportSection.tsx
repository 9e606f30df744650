import { preparedExportList } from '@contracts/exports';
import { useEffect, useState } from 'react';
import { api } from '../../../api';
import { formatTime } from '../../../format';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Section } from '../../../ui/Section';
import { Field, ServerForm } from '../../../ui/ServerForm';
import { useResource } from '../../../ui/useResource';
import type { SiteSectionProps } from '../siteSection';

/** How often the list is read again while an export is being prepared. */
const PREPARING_POLL_MS = 1500;

const fileSize = (bytes: number) =>
  bytes < 1_048_576
    ? `${Math.max(1, Math.round(bytes / 1024)).toLocaleString()} KB`
    : `${(bytes / 1_048_576).toLocaleString(undefined, { maximumFractionDigits: 1 })} MB`;

/**
 * The export: a ZIP of the ten daily tables in Plausible's CSV format (importable there) and every
 * raw event, downloaded at once or, for a large site, prepared in the background and downloaded
 * when ready. Both work even when the team is locked.
 */
export function ExportSection({ site }: SiteSectionProps) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const base = `/app/api/sites/${encodeURIComponent(site.domain)}`;
  const query = new URLSearchParams({ ...(from ? { from } : {}), ...(to ? { to } : {}) });
  const href = `${base}/export${query.size ? `?${query}` : ''}`;
  const prepared = useResource((signal) => api.get(`${base}/exports`, preparedExportList, signal), [base]);
  // While an export is being prepared, the list is read again after each answer (not once per change of "preparing").
  useEffect(() => {
    if (!prepared.data?.exports.some((e) => e.status === 'preparing')) return;
    const timer = setTimeout(prepared.reload, PREPARING_POLL_MS);
    return () => clearTimeout(timer);
  }, [prepared.data, prepared.reload]);
  return (
    <>
      <Section
        title="Export data"
        description="A ZIP with one CSV per daily table (visitors, sources, pages, entry and exit pages, custom events, locations, devices, browsers, operating systems — the file names and columns of Plausible's export, so it imports there) and every raw event. Days are counted in the site's time zone."
      >
        <ServerForm
          className="settings-form inline-form"
          submitLabel="Prepare in the background"
          onSubmit={async () => {
            await api.post(`${base}/exports`, { ...(from ? { from } : {}), ...(to ? { to } : {}) });
            prepared.reload();
          }}
          actions={
            <a className="btn" href={href} download>
              Download ZIP
            </a>
          }
        >
          <Field id="export-from" label="From (optional)" name="from">
            <input type="date" value={from} onChange={(event) => setFrom(event.target.value)} />
          </Field>
          <Field id="export-to" label="To (optional; default today)" name="to">
            <input type="date" value={to} onChange={(event) => setTo(event.target.value)} />
          </Field>
        </ServerForm>
        <p className="muted small">
          Download ZIP streams the file as it is written. For a large site, prepare it in the background instead: it appears below when ready and is kept for a
          day. From a terminal: <code>./bin/svc export --site {site.domain} --out export.zip</code>.
        </p>
      </Section>
      {prepared.data && prepared.data.exports.length > 0 && (
        <Section title="Prepared exports">
          <ErrorNote error={prepared.error} />
          <ul className="settings-list">
            {prepared.data.exports.map((e) => (
              <li key={e.id} data-export-status={e.status}>
                <div className="grow">
                  <strong>
                    {e.from} to {e.to}
                  </strong>{' '}
                  <span className={`badge${e.status === 'failed' ? ' badge-bad' : e.status === 'ready' ? ' badge-good' : ''}`}>{e.status}</span>
                  <div className="muted small">
                    requested {formatTime(e.created_at)}
                    {e.bytes !== null && ` · ${fileSize(e.bytes)}`}
                  </div>
                  {e.error && <div className="form-error">{e.error}</div>}
                </div>
                {e.download_url && (
                  <a className="btn btn-small btn-primary" href={e.download_url} download>
                    Download
                  </a>
                )}
                <ConfirmButton
                  label="Delete"
                  className="btn btn-small btn-danger"
                  title="Delete this prepared export?"
                  message="Its file is deleted; you can prepare it again."
                  onConfirm={async () => {
                    await api.delete(`${base}/exports/${e.id}`);
                    prepared.reload();
                  }}
                />
              </li>
            ))}
          </ul>
        </Section>
      )}
    </>
  );
}
