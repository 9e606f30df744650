import { CopyButton } from './CopyButton';

/** A secret shown once: in a box to copy, with the warning that it will not be shown again. */
export function ShownOnce({ label, value }: { label: string; value: string }) {
  return (
    <div className="shown-once" role="status">
      <p>
        <strong>{label}</strong> — copy it now: it will not be shown again.
      </p>
      <div className="copy-row">
        <code className="secret" data-testid="shown-once">
          {value}
        </code>
        <CopyButton text={value} />
      </div>
    </div>
  );
}
