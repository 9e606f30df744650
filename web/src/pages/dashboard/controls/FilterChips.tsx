import type { Filter } from '../context';
import { Flag } from '../Flag';
import { describeFilter } from '../state';

/** The view's filters, each in words with a button that removes it. */
export function FilterChips({ filters, remove }: { filters: Filter[]; remove(index: number): void }) {
  if (filters.length === 0) return null;
  return (
    <section className="filter-chips" aria-label="Filters">
      {filters.map((filter, i) => {
        const text = describeFilter(filter);
        const countries = filter[1] === 'visit:country' && Array.isArray(filter[2]) ? filter[2].map(String) : [];
        return (
          <span key={text} className="chip">
            {countries.map((code) => (
              <Flag key={code} code={code} />
            ))}
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
