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
