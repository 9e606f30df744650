import { addDays, PERIODS, presetDays, shiftedRange } from './periods';
import type { ViewState } from './state';

/** What a key does on the dashboard (Plausible's letters, its dashboard-time-periods.ts). */
export type ShortcutAction =
  | { kind: 'period'; period: string }
  | { kind: 'custom' }
  | { kind: 'compare' }
  | { kind: 'shift'; direction: -1 | 1 }
  | { kind: 'help' }
  /** Keys 1–9: the site at that place (from 1) in the site switcher's list. */
  | { kind: 'site'; position: number };

/** Every shortcut with what it does in words, as the `?` overlay and docs/dashboard.md list them. */
export const SHORTCUTS: { keys: string; label: string; action: ShortcutAction }[] = [
  ...PERIODS.filter((p) => p.key).map((p) => ({ keys: p.key.toUpperCase(), label: p.label, action: { kind: 'period' as const, period: p.value } })),
  { keys: 'C', label: 'Custom range', action: { kind: 'custom' } },
  { keys: 'X', label: 'Compare with the previous period (or stop comparing)', action: { kind: 'compare' } },
  { keys: '←', label: 'Move the range back', action: { kind: 'shift', direction: -1 } },
  { keys: '→', label: 'Move the range forward', action: { kind: 'shift', direction: 1 } },
  { keys: '?', label: 'Show these shortcuts', action: { kind: 'help' } },
];

/** The site keys' line of the `?` overlay, shown where the dashboard can switch sites (not on a shared link). */
export const SITE_SHORTCUT = { keys: '1–9', label: 'Go to the site at that place in the site list' };

const BY_KEY = new Map<string, ShortcutAction>(
  SHORTCUTS.map((s) => [s.keys === '←' ? 'ArrowLeft' : s.keys === '→' ? 'ArrowRight' : s.keys.toLowerCase(), s.action]),
);

/** A key pressed as a shortcut: what it does, or null (with a modifier held, or while typing in a field). */
export function shortcutOf(event: { key: string; metaKey: boolean; ctrlKey: boolean; altKey: boolean; typing: boolean }): ShortcutAction | null {
  if (event.metaKey || event.ctrlKey || event.altKey || event.typing) return null;
  if (/^[1-9]$/.test(event.key)) return { kind: 'site', position: Number(event.key) };
  return BY_KEY.get(event.key.length === 1 ? event.key.toLowerCase() : event.key) ?? null;
}

/** Whether a key press lands in something that takes text or a choice (a field, a menu, an editable area). */
export const isTyping = (target: EventTarget | null): boolean =>
  target instanceof Element && target.closest('input, select, textarea, [contenteditable="true"]') !== null;

/** A key pressed on the page as a shortcut; an open dialog (the filter menu, the details, the ? overlay) keeps the keys to itself. */
export const pressedShortcut = (event: KeyboardEvent): ShortcutAction | null =>
  shortcutOf({
    key: event.key,
    metaKey: event.metaKey,
    ctrlKey: event.ctrlKey,
    altKey: event.altKey,
    typing: isTyping(event.target) || document.querySelector('dialog[open]') !== null,
  });

/** The days the view shows, when it is whole days (today counts as one). */
export function viewDays(state: ViewState, today: string): [string, string] | null {
  if (state.period === 'custom') return state.from && state.to ? [state.from, state.to] : null;
  return state.period === 'day' ? [today, today] : presetDays(state.period, today);
}

/**
 * The change of view a shortcut makes (null: nothing to do, such as → on a range ending today).
 * A moved range reads as "Today" or "Yesterday" again when it lands on them.
 */
export function viewChange(action: ShortcutAction, state: ViewState, today: string): Partial<ViewState> | null {
  if (action.kind === 'period') return { period: action.period, from: null, to: null, interval: null };
  if (action.kind === 'compare') return { compare: state.compare === 'off' ? 'previous_period' : 'off', compareFrom: null, compareTo: null };
  if (action.kind !== 'shift') return null;
  const days = viewDays(state, today);
  const next = days && shiftedRange(days, action.direction, today);
  if (!next) return null;
  const [from, to] = next;
  if (from === to && (to === today || to === addDays(today, -1))) return { period: to === today ? 'day' : 'yesterday', from: null, to: null, interval: null };
  return { period: 'custom', from, to, interval: null };
}
