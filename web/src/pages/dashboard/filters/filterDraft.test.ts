import { describe, expect, it } from 'vitest';
import { type FilterDraft, filterOfDraft, PROPERTY } from './filterDraft';

const draft = (parts: Partial<FilterDraft>): FilterDraft => ({
  choice: 'event:page',
  property: '',
  operator: 'is',
  scope: 'events',
  values: [],
  typed: '',
  ...parts,
});

// What the filter menu's dialog adds to the dashboard (FilterDialog.tsx), or says is wrong.
describe('a filter from the filter dialog', () => {
  it('takes the chosen values and the trimmed typed one, ORed in one filter', () => {
    expect(filterOfDraft(draft({ values: ['/pricing'], typed: ' /blog ' }))).toEqual({ filter: ['is', 'event:page', ['/pricing', '/blog']] });
    expect(filterOfDraft(draft({ values: ['/pricing'], typed: '  ' }))).toEqual({ filter: ['is', 'event:page', ['/pricing']] });
  });

  it('filters on a custom property by its name', () => {
    expect(filterOfDraft(draft({ choice: PROPERTY, property: 'plan', typed: 'pro' }))).toEqual({ filter: ['is', 'event:props:plan', ['pro']] });
    expect(filterOfDraft(draft({ choice: PROPERTY, property: '', typed: 'pro' }))).toEqual({ error: 'Choose a property.' });
  });

  it('turns a typed country name or code into its code, and says when it is none', () => {
    expect(filterOfDraft(draft({ choice: 'visit:country', typed: 'Germany' }))).toEqual({ filter: ['is', 'visit:country', ['DE']] });
    expect(filterOfDraft(draft({ choice: 'visit:country', values: ['FR'], typed: 'united states' }))).toEqual({
      filter: ['is', 'visit:country', ['FR', 'US']],
    });
    expect(filterOfDraft(draft({ choice: 'visit:country', operator: 'is_not', typed: 'deu' }))).toEqual({ filter: ['is_not', 'visit:country', ['DE']] });
    expect(filterOfDraft(draft({ choice: 'visit:country', typed: 'Germny' }))).toEqual({
      error: '“Germny” is not a country; type its name or choose one from the list.',
    });
  });

  it('takes a goal by its name whatever its case, and refuses a goal the site lacks', () => {
    expect(filterOfDraft(draft({ choice: 'event:goal', typed: 'signup' }), ['Signup'])).toEqual({ filter: ['is', 'event:goal', ['Signup']] });
    expect(filterOfDraft(draft({ choice: 'event:goal', typed: 'Buy' }), ['Signup'])).toEqual({
      error: 'This site has no goal “Buy”; choose one from the list.',
    });
  });

  it('keeps whole visits that did, or never did, an event when asked', () => {
    expect(filterOfDraft(draft({ choice: 'event:goal', scope: 'has_done', values: ['Signup'] }))).toEqual({
      filter: ['has_done', ['is', 'event:goal', ['Signup']]],
    });
    expect(filterOfDraft(draft({ scope: 'has_not_done', operator: 'contains', typed: '/blog' }))).toEqual({
      filter: ['has_not_done', ['contains', 'event:page', ['/blog']]],
    });
    // A visit dimension has no events to have done: the plain filter stands.
    expect(filterOfDraft(draft({ choice: 'visit:source', scope: 'has_done', typed: 'Google' }))).toEqual({ filter: ['is', 'visit:source', ['Google']] });
  });

  it('asks for a value, and for regular expressions that compile', () => {
    expect(filterOfDraft(draft({ typed: '  ' }))).toEqual({ error: 'Give at least one value.' });
    expect(filterOfDraft(draft({ operator: 'matches_not', values: ['^/a'], typed: '(unclosed' }))).toEqual({
      error: '“(unclosed” is not a regular expression.',
    });
    expect(filterOfDraft(draft({ operator: 'contains', typed: '(unclosed' }))).toEqual({ filter: ['contains', 'event:page', ['(unclosed']] });
  });
});
