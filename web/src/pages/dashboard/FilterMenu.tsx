import { lazy, Suspense, useState } from 'react';
import type { Filter } from './context';

// Fetched when first opened: the dialog and its value search stay out of the dashboard's first load (test/web/bundleSize.test.ts).
const FilterDialog = lazy(() => import('./filters/FilterDialog').then((module) => ({ default: module.FilterDialog })));

/**
 * Builds any filter the query API takes (spec.md "Filters"): a dimension (goals and custom
 * properties included), an operator (is, is not, contains, does not contain, matches a regular
 * expression, does not match) and one or more values, ORed. On an event dimension it can also
 * select whole visits that did, or never did, such an event (`has_done` / `has_not_done`). Values
 * are suggested from the site's own data for the view's range. The engine checks what is built.
 */
export function FilterMenu({ onAdd }: { onAdd(filter: Filter): void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn btn-small" onClick={() => setOpen(true)} aria-haspopup="dialog">
        + Filter
      </button>
      {open && (
        <Suspense fallback={null}>
          <FilterDialog
            onClose={() => setOpen(false)}
            onAdd={(filter) => {
              onAdd(filter);
              setOpen(false);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
