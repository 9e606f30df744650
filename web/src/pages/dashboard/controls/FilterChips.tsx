import type { Filter } from '../context';
import { describeFilter } from '../state';

/** The view's filters, each in words with a button that removes it. */
export function FilterChips({ filters, remove }: { filters: Filter[]; remove(index: number): void }) {
  if (filters.length === 0) return null;
  return (
    <section className="filter-chips" aria-label="Filters">
      {filters.map((filter, i) => {
        const text = describeFilter(filter);
        return (
          <span key={text} className="chip">
            {text}
            <button type="button" aria-label={`Remove filter: ${text}`} onClick={() => remove(i)}>
              ✕
            </button>
          </span>
        );
      })}
    </section>
  );
}
