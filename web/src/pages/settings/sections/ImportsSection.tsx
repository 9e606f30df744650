import { importDeletionRefusal, siteImportList } from '@contracts/imports';
import { useEffect, useState } from 'react';
import { formatTime } from '../../../format';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Section } from '../../../ui/Section';
import { useResource } from '../../../ui/useResource';
import type { SiteSectionProps } from '../siteSection';

const ACTIVE = ['pending', 'running'];

/** Upload an export (Plausible's or ours) into the site's imported data, and follow it. */
export function ImportsSection({ site, api }: SiteSectionProps) {
  const base = `/api/v1/sites/${encodeURIComponent(site.domain)}/imports`;
  const imports = useResource((signal) => api.get(base, siteImportList, signal), [site.domain]);
  const [file, setFile] = useState<File | null>(null);
  // Re-mounting the file input is the only way to empty it after an upload.
  const [inputKey, setInputKey] = useState(0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const running = imports.data?.imports.some((item) => ACTIVE.includes(item.status)) ?? false;
  // A running import is followed until it ends.
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(imports.reload, 1500);
    return () => clearInterval(timer);
  }, [running, imports.reload]);
  const send = async () => {
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      await api.upload(`${base}?file_name=${encodeURIComponent(file.name)}`, file);
      setFile(null);
      setInputKey((k) => k + 1);
      imports.reload();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Section
        title="Import data"
        description="Upload an export ZIP from Plausible (Site settings › Imports & Exports there) or from this service, or one of its CSV files. Importing the same days again replaces them."
      >
        <div className="inline-form">
          <div className="field">
            <label htmlFor="import-file">Export file (.zip or .csv)</label>
            <input key={inputKey} id="import-file" type="file" accept=".zip,.csv" onChange={(event) => setFile(event.target.files?.[0] ?? null)} />
          </div>
          <div className="form-actions">
            <button type="button" className="btn btn-primary" disabled={!file || busy} onClick={() => void send()}>
              {busy ? 'Uploading…' : 'Import'}
            </button>
          </div>
        </div>
        <ErrorNote error={error} />
      </Section>
      <Section title="Imports">
        <ErrorNote error={imports.error} />
        {imports.data && imports.data.imports.length === 0 && <p className="muted">Nothing imported yet.</p>}
        <ul className="settings-list">
          {imports.data?.imports.map((item) => (
            <li key={item.id} data-import-status={item.status}>
              <div className="grow">
                <strong>{item.file_name}</strong>{' '}
                <span className={`badge ${item.status === 'completed' ? 'badge-good' : item.status === 'failed' ? 'badge-bad' : ''}`}>{item.status}</span>
                <div className="muted small">
                  {item.from && item.to ? `${item.from} to ${item.to} · ` : ''}
                  {item.rows.toLocaleString()} {item.rows === 1 ? 'row' : 'rows'}
                  {ACTIVE.includes(item.status) && item.files_total > 0 ? ` · file ${item.files_done} of ${item.files_total}` : ''} · started{' '}
                  {formatTime(item.created_at)}
                </div>
                {item.error && <p className="form-error small">{item.error.message}</p>}
                {/* A finished events import says why it has no Delete (a running one shows its progress instead). */}
                {importDeletionRefusal(item)?.code === 'events_import' && <p className="muted small import-note">{importDeletionRefusal(item)?.message}</p>}
              </div>
              {/* Delete only where the server allows it. */}
              {importDeletionRefusal(item) === null && (
                <ConfirmButton
                  label="Delete"
                  className="btn btn-small btn-danger"
                  title={`Delete the import ${item.file_name}?`}
                  message="Its rows are removed from the site's imported data."
                  onConfirm={async () => {
                    await api.delete(`${base}/${item.id}`);
                    imports.reload();
                  }}
                />
              )}
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}
