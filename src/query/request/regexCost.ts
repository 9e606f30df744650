/**
 * How large a regular expression grows once its counted repetitions are spelled out: `a{3}` is
 * `aaa`, `(ab){2}{3}` six copies of `ab`. ClickHouse matches with RE2, which never backtracks but
 * compiles a repetition into that many copies; past RE2's memory budget its fast matcher gives up
 * and a single `.{1000}` over long page paths can outrun the engine's time limit, which is
 * checked only between blocks of rows: an expanded size of 500 matched at once, 1,000 did not
 * finish. So patterns are held to an expanded size, each one and all
 * of a filter's together (they are matched as one union).
 */
export const MAX_REGEX_SIZE = 600;
/** All of one filter's patterns together (three of 400, or thirty of 63, still match at once). */
export const MAX_REGEX_UNION_SIZE = 2_000;

/** The expanded size of a pattern; Infinity for one too large to bother counting. */
export function expandedRegexSize(pattern: string): number {
  // Each open group's running size, and the size of the last atom (which a quantifier repeats).
  const stack: { size: number; alternatives: number[]; last: number }[] = [{ size: 0, alternatives: [], last: 0 }];
  const top = () => stack[stack.length - 1] as { size: number; alternatives: number[]; last: number };
  const atom = (size: number) => {
    top().size += size;
    top().last = size;
  };
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i];
    if (c === '\\') {
      i += 1;
      atom(1);
    } else if (c === '[') {
      // A class is one position however many characters it lists.
      let j = i + 1;
      if (pattern[j] === '^') j += 1;
      if (pattern[j] === ']') j += 1;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      i = j;
      atom(1);
    } else if (c === '(') {
      // Flags and non-capturing markers such as (?i) or (?: are no positions of their own.
      if (pattern[i + 1] === '?') {
        const close = pattern.indexOf(')', i);
        const colon = pattern.indexOf(':', i);
        if (close !== -1 && (colon === -1 || close < colon)) {
          i = close;
          continue;
        }
        i = colon === -1 ? i : colon;
      }
      stack.push({ size: 0, alternatives: [], last: 0 });
    } else if (c === ')') {
      if (stack.length === 1) {
        atom(1);
        continue;
      }
      const group = stack.pop() as { size: number; alternatives: number[]; last: number };
      atom([...group.alternatives, group.size].reduce((a, b) => a + b, 0));
    } else if (c === '|') {
      top().alternatives.push(top().size);
      top().size = 0;
      top().last = 0;
    } else if (c === '{') {
      const match = /^\{(\d*)(,(\d*))?\}/.exec(pattern.slice(i));
      if (!match) {
        atom(1);
        continue;
      }
      const low = Number(match[1] || 0);
      const high = match[2] === undefined ? low : match[3] === '' || match[3] === undefined ? low + 1 : Number(match[3]);
      const copies = Math.max(low, high, 1);
      const frame = top();
      frame.size += frame.last * (copies - 1);
      frame.last *= copies;
      i += match[0].length - 1;
      if (frame.size > 1e9) return Number.POSITIVE_INFINITY;
    } else if (c === '*' || c === '+' || c === '?') {
      // Unbounded or optional repetition costs RE2 a loop, not copies.
    } else {
      atom(1);
    }
  }
  while (stack.length > 1) {
    const group = stack.pop() as { size: number; alternatives: number[]; last: number };
    atom([...group.alternatives, group.size].reduce((a, b) => a + b, 0));
  }
  const root = top();
  return [...root.alternatives, root.size].reduce((a, b) => a + b, 0);
}
