import type { DimensionDef } from './catalog.js';
import type { FilterLeaf } from './filterTrees.js';
import type { CompileContext } from './model.js';

/**
 * A filter leaf's condition on one string column, written by the SQL compiler (src/query/sql/filters.ts)
 * and by the metric registry (src/query/metrics.ts: bounces of visits entered on the filtered page).
 */

/** A leaf on a column, with the column given (the bounce-rate condition reuses page filters on entry_page). */
export function columnLeaf(leaf: FilterLeaf, column: string, def: Pick<DimensionDef, 'emptyLabel'>, ctx: CompileContext): string {
  const negated = leaf.op.endsWith('_not');
  const positive = valueCondition(leaf, column, def.emptyLabel, ctx);
  return negated ? `NOT (${positive})` : positive;
}

/**
 * The positive form of a leaf (`is` for `is_not`, …) on a string expression. Values equal to the
 * empty label (`(not set)`, `Direct / None`) match empty values, as the labels are what reports show.
 */
export function valueCondition(leaf: FilterLeaf, column: string, emptyLabel: string | null, ctx: CompileContext): string {
  const { params } = ctx;
  const fold = (text: string) => (leaf.caseSensitive ? text : text.toLowerCase());
  const subject = leaf.caseSensitive ? column : `lowerUTF8(${column})`;
  const matchesEmpty = (test: (label: string) => boolean) => (emptyLabel !== null && test(fold(emptyLabel)) ? ` OR ${column} = ''` : '');
  if (leaf.op.startsWith('is')) {
    const values = leaf.values.map(fold);
    return `${subject} IN ${params.strings(values)}${matchesEmpty((label) => values.includes(label))}`;
  }
  if (leaf.op.startsWith('contains')) {
    const needles = leaf.values.map(fold);
    const position = leaf.caseSensitive ? 'position' : 'positionCaseInsensitiveUTF8';
    return `arrayExists(needle -> ${position}(${column}, needle) > 0, ${params.strings(leaf.values)})${matchesEmpty((label) => needles.some((n) => label.includes(n)))}`;
  }
  return `match(${column}, ${params.string(regexUnion(leaf.values, leaf.caseSensitive))})`;
}

/** One RE2 pattern matching any of the given ones (unanchored, as the reference's multiMatchAny). */
function regexUnion(patterns: string[], caseSensitive: boolean): string {
  return `${caseSensitive ? '' : '(?i)'}${patterns.map((p) => `(?:${p})`).join('|')}`;
}
