import type { ReactNode } from 'react';

/** A settings card: a title, one sentence on what it is for, then its content. */
export function Section({ title, description, children, danger }: { title: string; description?: ReactNode; children: ReactNode; danger?: boolean }) {
  return (
    <section className={`card settings-section${danger ? ' danger-zone' : ''}`} aria-label={title}>
      <h2>{title}</h2>
      {description && <p className="muted section-description">{description}</p>}
      {children}
    </section>
  );
}
