import type { Segment } from '@contracts/segments';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import type { Filter } from '../context';
import { describeFilter } from '../state';
import { ownFilters, segmentFilter, useSegments } from './useSegments';

type Segments = ReturnType<typeof useSegments>;

/**
 * Saved segments, as Plausible's filter menu has them: the view's filters saved under a name,
 * personal or shared with the site (editors and up share), applied with a click, renamed,
 * updated with the current filters, deleted (docs/dashboard.md "Segments").
 */
export function SegmentsMenu({
  domain,
  teamId,
  canShare,
  filters,
  apply,
}: {
  domain: string;
  teamId: number;
  canShare: boolean;
  filters: Filter[];
  apply(filters: Filter[]): void;
}) {
  const [open, setOpen] = useState(false);
  const segments = useSegments(domain, teamId);
  return (
    <>
      <button type="button" className="btn btn-small" onClick={() => setOpen(true)} aria-haspopup="dialog">
        Segments
      </button>
      {open && (
        <SegmentsDialog
          segments={segments}
          canShare={canShare}
          filters={filters}
          onClose={() => setOpen(false)}
          apply={(segment) => {
            apply([...ownFilters(filters), segmentFilter(segment.id)]);
            setOpen(false);
          }}
        />
      )}
    </>
  );
}

function SegmentsDialog({
  segments,
  canShare,
  filters,
  onClose,
  apply,
}: {
  segments: Segments;
  canShare: boolean;
  filters: Filter[];
  onClose(): void;
  apply(segment: Segment): void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  const attempt = (work: Promise<unknown>) => work.then(() => setError(null)).catch((failure: Error) => setError(failure.message));
  const own = ownFilters(filters);
  return (
    <dialog ref={dialog} className="details-modal card segments-modal" aria-label="Segments" onClose={onClose}>
      <div className="details-head">
        <h2>Segments</h2>
        <button type="button" className="btn btn-small" onClick={onClose} aria-label="Close">
          ✕
        </button>
      </div>
      {(error ?? segments.error) && (
        <p className="form-error small" role="alert">
          {error ?? segments.error}
        </p>
      )}
      {segments.segments.length === 0 ? (
        <p className="muted small">No saved segments yet: add filters, then save them here under a name.</p>
      ) : (
        <ul className="segment-list">
          {segments.segments.map((segment) => (
            <SegmentRow
              key={segment.id}
              segment={segment}
              editable={segment.type === 'personal' || canShare}
              current={own}
              apply={() => apply(segment)}
              attempt={attempt}
              segments={segments}
            />
          ))}
        </ul>
      )}
      <SaveForm canShare={canShare} filters={own} segments={segments} attempt={attempt} />
    </dialog>
  );
}

function SegmentRow({
  segment,
  editable,
  current,
  apply,
  attempt,
  segments,
}: {
  segment: Segment;
  editable: boolean;
  current: Filter[];
  apply(): void;
  attempt(work: Promise<unknown>): Promise<void>;
  segments: Segments;
}) {
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(segment.name);
  const rename = (event: FormEvent) => {
    event.preventDefault();
    void attempt(segments.rename(segment.id, name.trim())).then(() => setRenaming(false));
  };
  const summary = segment.segment_data.filters.map(describeFilter).join(' · ');
  return (
    <li className="segment-row">
      {renaming ? (
        <form className="segment-rename" onSubmit={rename}>
          <input aria-label={`New name for ${segment.name}`} value={name} onChange={(event) => setName(event.target.value)} required maxLength={120} />
          <button type="submit" className="btn btn-small btn-primary">
            Save
          </button>
          <button type="button" className="btn btn-small" onClick={() => setRenaming(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <button type="button" className="segment-apply" onClick={apply} title={summary}>
          <span className="segment-name">{segment.name}</span>
          <span className="muted small segment-summary">{summary}</span>
        </button>
      )}
      <span className={`segment-badge${segment.type === 'site' ? ' shared' : ''}`}>{segment.type === 'site' ? 'Shared' : 'Personal'}</span>
      {editable && !renaming && (
        <span className="segment-actions">
          <button type="button" className="btn btn-small" onClick={() => setRenaming(true)}>
            Rename
          </button>
          <button
            type="button"
            className="btn btn-small"
            disabled={current.length === 0}
            title="Replace its filters with the current ones"
            onClick={() => void attempt(segments.update(segment.id, current))}
          >
            Update
          </button>
          <ConfirmButton
            label="Delete"
            className="btn btn-small btn-danger"
            title={`Delete the segment “${segment.name}”?`}
            message={segment.type === 'site' ? 'It goes for everyone who sees this site.' : 'Only the segment goes; the data stays.'}
            onConfirm={() => segments.remove(segment.id)}
          />
        </span>
      )}
    </li>
  );
}

function SaveForm({
  canShare,
  filters,
  segments,
  attempt,
}: {
  canShare: boolean;
  filters: Filter[];
  segments: Segments;
  attempt(work: Promise<unknown>): Promise<void>;
}) {
  const id = useId();
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const save = (event: FormEvent) => {
    event.preventDefault();
    void attempt(segments.create(name.trim(), shared, filters).then(() => setName('')));
  };
  if (filters.length === 0) {
    return (
      <div className="segment-save">
        <h3>Save the current filters</h3>
        <p className="muted small">Add filters first; they are saved here under a name.</p>
      </div>
    );
  }
  return (
    <form className="segment-save" onSubmit={save}>
      <h3>Save the current filters</h3>
      <p className="muted small">{filters.map(describeFilter).join(' · ')}</p>
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input id={`${id}-name`} value={name} onChange={(event) => setName(event.target.value)} required maxLength={120} />
      </div>
      <label className="segment-share small">
        <input type="checkbox" checked={shared} disabled={!canShare} onChange={(event) => setShared(event.target.checked)} />
        Share with everyone who sees this site{canShare ? '' : ' (editors and up)'}
      </label>
      <div className="filter-actions">
        <button type="submit" className="btn btn-primary">
          Save segment
        </button>
      </div>
    </form>
  );
}
