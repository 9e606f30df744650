/**
 * Collects the values of one statement as ClickHouse query parameters: every value that came
 * from a request reaches the engine as `{pN:Type}`, never spliced into the SQL text.
 */
export class SqlParams {
  readonly values: Record<string, unknown> = {};
  private next = 0;

  add(value: unknown, type: string): string {
    const name = `p${this.next++}`;
    this.values[name] = value;
    return `{${name}:${type}}`;
  }

  /**
   * The values collected so far in a collection of their own, numbering on from them: a query
   * prepared once renders each of its statements into a copy (src/query/sql/compile.ts).
   */
  copy(): SqlParams {
    const copy = new SqlParams();
    Object.assign(copy.values, this.values);
    copy.next = this.next;
    return copy;
  }

  string(value: string): string {
    return this.add(value, 'String');
  }

  strings(values: readonly string[]): string {
    return this.add(values, 'Array(String)');
  }

  /** An instant as DateTime in UTC (epoch seconds). */
  instant(ms: number): string {
    return `toDateTime(${this.add(Math.floor(ms / 1000), 'UInt32')}, 'UTC')`;
  }
}
