/**
 * A choice remembered in this browser (local storage). Storage can be off (private windows,
 * blocked site data): nothing is read then, and the page starts on its default as on a first visit.
 */
export function storedChoice<T extends string>(key: string, choices: readonly T[], fallback: T): T {
  try {
    const value = window.localStorage.getItem(key);
    return choices.find((choice) => choice === value) ?? fallback;
  } catch {
    return fallback;
  }
}

export function storeChoice(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Not remembered: the next visit starts on the default.
  }
}
