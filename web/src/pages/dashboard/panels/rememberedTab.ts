import { storeChoice } from '../../../ui/stored';

/**
 * A panel's chosen tab (by its name, so it survives tabs coming and going, as the behaviours card's
 * do) and the behaviours card's chosen funnel, remembered per site in this browser, as Plausible's
 * dashboard keeps its panels' tabs across visits. Storage can be off (private windows, blocked
 * site data): the panel then starts on its first tab, as it would on a first visit.
 */
const key = (domain: string, panel: string) => `svc.dashboard.tab.${domain}.${panel}`;
const read = (key: string) => {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
};

export const rememberedTab = (domain: string, panel: string): string | null => read(key(domain, panel));
export const rememberTab = (domain: string, panel: string, tab: string): void => storeChoice(key(domain, panel), tab);

const funnelKey = (domain: string) => `svc.dashboard.funnel.${domain}`;
export const rememberedFunnel = (domain: string): string | null => read(funnelKey(domain));
export const rememberFunnel = (domain: string, name: string): void => storeChoice(funnelKey(domain), name);
