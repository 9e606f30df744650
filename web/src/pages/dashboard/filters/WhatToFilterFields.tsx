import type { SiteInfo } from '../context';
import { deedVerb, FILTER_DIMENSIONS, isDeedDimension, OPERATOR_LABELS } from '../state';
import { draftDimension, type FilterDraft, isClosedList, PROPERTY } from './filterDraft';

const GROUPS = [...new Set(FILTER_DIMENSIONS.map((d) => d.group))];
const SCOPES: FilterDraft['scope'][] = ['events', 'has_done', 'has_not_done'];

/**
 * The filter dialog's first fields: the dimension (goals and custom properties included), the
 * property, whether to keep events or whole visits that did (or never did) such an event, and the
 * operator (goals and places, values of a closed list, are only is or is not).
 */
export function WhatToFilterFields({ id, site, draft, change }: { id: string; site: SiteInfo; draft: FilterDraft; change(parts: Partial<FilterDraft>): void }) {
  const dimension = draftDimension(draft);
  const operators = isClosedList(dimension) ? ['is', 'is_not'] : Object.keys(OPERATOR_LABELS);
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-dimension`}>Filter by</label>
        <select
          id={`${id}-dimension`}
          value={draft.choice}
          onChange={(event) => {
            const choice = event.target.value;
            change({ choice, values: [], typed: '', ...(isClosedList(choice) && !['is', 'is_not'].includes(draft.operator) ? { operator: 'is' } : {}) });
          }}
        >
          {GROUPS.map((group) => (
            <optgroup key={group} label={group}>
              {FILTER_DIMENSIONS.filter((d) => d.group === group).map((d) => (
                <option key={d.dimension} value={d.dimension}>
                  {d.label}
                </option>
              ))}
            </optgroup>
          ))}
          {site.custom_properties.length > 0 && (
            <optgroup label="Custom properties">
              <option value={PROPERTY}>Property…</option>
            </optgroup>
          )}
        </select>
      </div>
      {draft.choice === PROPERTY && (
        <div className="field">
          <label htmlFor={`${id}-property`}>Property</label>
          <select id={`${id}-property`} value={draft.property} onChange={(event) => change({ property: event.target.value, values: [], typed: '' })}>
            {site.custom_properties.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
      )}
      {isDeedDimension(dimension) && (
        <div className="field">
          <label htmlFor={`${id}-scope`}>Show</label>
          <select id={`${id}-scope`} value={draft.scope} onChange={(event) => change({ scope: SCOPES.find((s) => s === event.target.value) ?? 'events' })}>
            <option value="events">The matching events</option>
            <option value="has_done">Visits that {deedVerb('has_done', dimension)} …</option>
            <option value="has_not_done">Visits that {deedVerb('has_not_done', dimension)} …</option>
          </select>
        </div>
      )}
      <div className="field">
        <label htmlFor={`${id}-operator`}>Operator</label>
        <select id={`${id}-operator`} value={draft.operator} onChange={(event) => change({ operator: event.target.value })}>
          {operators.map((op) => (
            <option key={op} value={op}>
              {OPERATOR_LABELS[op]}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}
