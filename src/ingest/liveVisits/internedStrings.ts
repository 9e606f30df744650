/**
 * Strings shared by many live visits (browsers, countries, sources, pages, hostnames…) kept once
 * each and named by a small number. Each name counts the visits using it, and a string no visit
 * uses any more is forgotten and its number reused, so the table follows the live visits instead
 * of growing with everything ever seen.
 */
export class InternedStrings {
  private readonly ids = new Map<string, number>();
  private strings: string[] = [''];
  private refs: number[] = [0];
  private readonly free: number[] = [];

  /** Distinct strings held (the empty string, number 0, is always there). */
  get size(): number {
    return this.ids.size + 1;
  }

  /** The number of `text`, counting one more user of it. */
  take(text: string): number {
    if (text === '') return 0;
    let id = this.ids.get(text);
    if (id === undefined) {
      id = this.free.pop() ?? this.strings.length;
      // A string cut from a larger one (a URL, a request body) keeps its parent alive: keep a copy.
      const own = text.length > 12 ? flat(text) : text;
      this.strings[id] = own;
      this.refs[id] = 0;
      this.ids.set(own, id);
    }
    this.refs[id] = (this.refs[id] ?? 0) + 1;
    return id;
  }

  get(id: number): string {
    return this.strings[id] ?? '';
  }

  /** One user fewer of string `id`; the last one lets it go. */
  release(id: number): void {
    if (id === 0) return;
    const left = (this.refs[id] ?? 1) - 1;
    this.refs[id] = left;
    if (left > 0) return;
    this.ids.delete(this.strings[id] ?? '');
    this.strings[id] = '';
    this.free.push(id);
  }
}

function flat(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}
