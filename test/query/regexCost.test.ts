import { describe, expect, it } from 'vitest';
import { expandedRegexSize } from '../../src/query/request/regexCost.js';

describe('expandedRegexSize', () => {
  it.each([
    ['/blog', 5],
    ['^/blog/.*$', 9],
    ['a{3}', 3],
    ['.{1000}x', 1001],
    ['(ab){2}{3}', 12],
    ['(?:a|bc){10}', 30],
    ['[a-z0-9]{5}', 5],
    ['\\d{4}-\\d{2}', 7],
    ['(?i)/Pricing', 8],
    ['a{2,}', 3],
    ['a{,5}', 5],
    ['x{', 2],
    ['a|b|c', 3],
  ])('%s → %d', (pattern, size) => {
    expect(expandedRegexSize(pattern)).toBe(size);
  });

  it('gives up on sizes past counting', () => {
    expect(expandedRegexSize('((((a{1000}){1000}){1000}){1000})')).toBe(Number.POSITIVE_INFINITY);
  });
});
