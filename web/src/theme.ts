/**
 * The colour theme: the dark palette applies under `<html data-theme="dark">` (styles.css). It
 * follows the system's choice, and an embedded shared link may fix it (`theme=light|dark`,
 * SharedDashboardPage). One switch in the script, so the palette is written once in the styles.
 */
export type Theme = 'light' | 'dark' | 'system';

const systemDark = window.matchMedia('(prefers-color-scheme: dark)');
let chosen: Theme = 'system';

function apply() {
  document.documentElement.dataset.theme = chosen === 'system' ? (systemDark.matches ? 'dark' : 'light') : chosen;
}

/** Sets the theme before the first render and follows the system's changes. */
export function startTheme(): void {
  apply();
  systemDark.addEventListener('change', apply);
}

/** Fixes the theme (an embed's choice); 'system' follows the system again. */
export function chooseTheme(theme: Theme): void {
  chosen = theme;
  apply();
}
