import { storeChoice, storedChoice } from './ui/stored';

/**
 * The colour theme: the dark palette applies under `<html data-theme="dark">` (styles.css). It
 * follows the system's choice unless the person chose light or dark in their account settings
 * (remembered in this browser), and an embedded shared link may fix it for its page
 * (`theme=light|dark`, SharedDashboardPage). One switch in the script, so the palette is written
 * once in the styles.
 */
export const THEMES = ['light', 'dark', 'system'] as const;
export type Theme = (typeof THEMES)[number];

const KEY = 'svc.theme';
const systemDark = window.matchMedia('(prefers-color-scheme: dark)');
let chosen: Theme = 'system';
let fixed: Theme | null = null;

function apply() {
  const theme = fixed ?? chosen;
  document.documentElement.dataset.theme = theme === 'system' ? (systemDark.matches ? 'dark' : 'light') : theme;
}

/** Sets the theme before the first render and follows the system's changes. */
export function startTheme(): void {
  chosen = storedChoice(KEY, THEMES, 'system');
  apply();
  systemDark.addEventListener('change', apply);
}

/** The person's choice in this browser. */
export const chosenTheme = (): Theme => chosen;

/** The person's choice (account settings), remembered in this browser. */
export function chooseTheme(theme: Theme): void {
  chosen = theme;
  storeChoice(KEY, theme);
  apply();
}

/** Fixes the theme for the page shown (an embed's choice, not remembered); null gives it back to the person's choice. */
export function fixTheme(theme: Theme | null): void {
  fixed = theme;
  apply();
}
