/**
 * The answers of the views a person has just seen, kept for `freshForMs`: removing a chip or going
 * back to the previous range shows those numbers again at once instead of asking the engine for
 * every panel anew. Only answers are kept (a failed or abandoned request is asked again next time),
 * the oldest go past `max`, and an answer older than `freshForMs` is asked for again.
 */
export interface RecentAnswers<T> {
  /** The answer kept under `key` while fresh, else `ask`'s (kept once it comes). */
  through(key: string, ask: () => Promise<T>): Promise<T>;
}

export function recentAnswers<T>({ freshForMs, max, now }: { freshForMs: number; max: number; now: () => number }): RecentAnswers<T> {
  const kept = new Map<string, { at: number; answer: T }>();
  return {
    async through(key, ask) {
      const recent = kept.get(key);
      if (recent && now() - recent.at < freshForMs) return recent.answer;
      const askedAt = now();
      const answer = await ask();
      // Re-inserted, so the Map's order stays oldest first.
      kept.delete(key);
      kept.set(key, { at: askedAt, answer });
      for (const oldest of kept.keys()) {
        if (kept.size <= max) break;
        kept.delete(oldest);
      }
      return answer;
    },
  };
}
