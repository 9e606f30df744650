/**
 * A panel's chosen tab, remembered per site in this browser, as Plausible's dashboard keeps
 * its panels' tabs across visits. Storage can be off (private windows, blocked site data): the
 * panel then starts on its first tab, as it would on a first visit.
 */
const key = (domain: string, panel: string) => `svc.dashboard.tab.${domain}.${panel}`;

export function rememberedTab(domain: string, panel: string): number {
  try {
    const index = Number(window.localStorage.getItem(key(domain, panel)));
    return Number.isInteger(index) && index >= 0 ? index : 0;
  } catch {
    return 0;
  }
}

export function rememberTab(domain: string, panel: string, index: number): void {
  try {
    window.localStorage.setItem(key(domain, panel), String(index));
  } catch {
    // Not remembered: the next visit starts on the first tab.
  }
}
