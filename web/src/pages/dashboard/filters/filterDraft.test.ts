import { describe, expect, it } from 'vitest';
import { type FilterDraft, filterOfDraft, PROPERTY } from './filterDraft';

const draft = (parts: Partial<FilterDraft>): FilterDraft => ({ choice: 'event:page', property: '', operator: 'is', scope: 'events', values: [''], ...parts });

// What the filter menu's dialog adds to the dashboard (FilterDialog.tsx), or says is missing.
describe('a filter from the filter dialog', () => {
  it('takes the trimmed values that are not empty, ORed in one filter', () => {
    expect(filterOfDraft(draft({ values: [' /pricing ', '', '/blog'] }))).toEqual({ filter: ['is', 'event:page', ['/pricing', '/blog']] });
  });

  it('filters on a custom property by its name', () => {
    expect(filterOfDraft(draft({ choice: PROPERTY, property: 'plan', values: ['pro'] }))).toEqual({ filter: ['is', 'event:props:plan', ['pro']] });
    expect(filterOfDraft(draft({ choice: PROPERTY, property: '', values: ['pro'] }))).toEqual({ error: 'Choose a property.' });
  });

  it('keeps whole visits that did, or never did, an event when asked', () => {
    expect(filterOfDraft(draft({ choice: 'event:goal', scope: 'has_done', values: ['Signup'] }))).toEqual({
      filter: ['has_done', ['is', 'event:goal', ['Signup']]],
    });
    expect(filterOfDraft(draft({ scope: 'has_not_done', operator: 'contains', values: ['/blog'] }))).toEqual({
      filter: ['has_not_done', ['contains', 'event:page', ['/blog']]],
    });
    // A visit dimension has no events to have done: the plain filter stands.
    expect(filterOfDraft(draft({ choice: 'visit:source', scope: 'has_done', values: ['Google'] }))).toEqual({ filter: ['is', 'visit:source', ['Google']] });
  });

  it('asks for a value, and for regular expressions that compile', () => {
    expect(filterOfDraft(draft({ values: ['  '] }))).toEqual({ error: 'Give at least one value.' });
    expect(filterOfDraft(draft({ operator: 'matches_not', values: ['^/a', '(unclosed'] }))).toEqual({ error: '“(unclosed” is not a regular expression.' });
    expect(filterOfDraft(draft({ operator: 'contains', values: ['(unclosed'] }))).toEqual({ filter: ['contains', 'event:page', ['(unclosed']] });
  });
});
