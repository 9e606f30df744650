/** A quiet placeholder that keeps the page from jumping while data loads. */
export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="loading-dot" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
