import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlineParameters, stringLiteral } from '../../src/stores/clickhouse/inlineParameters.js';
import { startTestApp, type TestApp } from '../support/testApp.js';

describe('inlineParameters', () => {
  it('renders each declared type as its literal', () => {
    expect(
      inlineParameters('SELECT {a:UInt64}, {b:String}, {c:Array(String)}, {d:Date}, {e:Array(Float64)}', {
        a: 7,
        b: "it's",
        c: ['x'],
        d: '2024-01-31',
        e: [0.5],
      }),
    ).toBe("SELECT toUInt64(7), 'it\\'s', CAST(['x'], 'Array(String)'), toDate('2024-01-31'), CAST([toFloat64(0.5)], 'Array(Float64)')");
  });

  it('refuses values that do not fit their type, and missing ones', () => {
    expect(() => inlineParameters('{a:UInt64}', { a: '1; DROP TABLE events' })).toThrow('is not a UInt64');
    expect(() => inlineParameters('{a:UInt64}', { a: -1 })).toThrow('is not a UInt64');
    expect(() => inlineParameters('{a:Date}', { a: "2024-01-01') OR 1=1 --" })).toThrow('is not a Date');
    expect(() => inlineParameters('{a:String}', {})).toThrow('no value');
    expect(() => inlineParameters('{a:String}', { a: 5 })).toThrow('is not a String');
  });

  it('escapes quotes, backslashes and control characters', () => {
    expect(stringLiteral("a'b\\c\u0000\n")).toBe("'a\\'b\\\\c\\x00\\x0a'");
  });
});

// The engine reads back exactly the string that was bound, whatever it holds.
describe('inlined strings in the engine', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('round-trips any string through the embedded engine', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ unit: 'binary-ascii', maxLength: 40 })), async (text) => {
        const result = await t.app.events.query.query({
          query: 'SELECT {s:String} AS s, length({s:String}) AS n',
          query_params: { s: text },
          format: 'JSONEachRow',
        });
        const [row] = await result.json<{ s: string; n: string }>();
        expect(row?.s).toBe(text);
        expect(Number(row?.n)).toBe(Buffer.byteLength(text));
      }),
      { numRuns: 300 },
    );
  });
});
