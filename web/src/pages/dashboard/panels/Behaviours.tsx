import { useMemo, useState } from 'react';
import { type SiteInfo, useDashboard } from '../context';
import { Chooser } from './Chooser';
import { filteredGoals, specialGoalProperty } from './conversions';
import { FunnelReportView } from './Funnels';
import { useCarriedProperties } from './goalProperties';
import { Panel } from './Panel';
import type { PanelTab } from './panelTab';
import { rememberedFunnel, rememberFunnel } from './rememberedTab';

/**
 * Goals, custom properties and funnels in one card, a tab each (only those the site has), as
 * Plausible's "Behaviours" card. The card remembers its tab per site like the other panels.
 */
export function Behaviours() {
  const { site } = useDashboard();
  const goals = useGoalsTab(site);
  const properties = usePropertiesTab(site);
  const funnels = useFunnelsTab(site);
  const tabs = useMemo(() => [goals, properties, funnels].filter((tab): tab is PanelTab => tab !== null), [goals, properties, funnels]);
  if (tabs.length === 0) return null;
  return <Panel title="Behaviours" tabs={tabs} />;
}

/** The site's goals with their conversions; revenue columns only when a goal has a currency, each goal's in its own. */
function useGoalsTab(site: SiteInfo): PanelTab | null {
  return useMemo(() => {
    if (site.goals.length === 0) return null;
    const currencies = new Map(site.goals.flatMap((goal) => (goal.currency ? [[goal.display_name, goal.currency] as const] : [])));
    const revenue = currencies.size > 0 ? ['total_revenue', 'average_revenue'] : [];
    return {
      label: 'Goal',
      tabName: 'Goals',
      dimension: 'event:goal',
      metrics: ['visitors', 'events', 'conversion_rate', ...revenue.slice(0, 1)],
      detailMetrics: ['visitors', 'events', 'conversion_rate', ...revenue],
      currency: (goal: string) => currencies.get(goal),
    };
  }, [site.goals]);
}

/**
 * One custom property's values at a time, chosen beside the title. A filtered special goal
 * (outbound link, file download, 404) shows its own `url` or `path` property, as Plausible does;
 * another filtered goal offers the properties its events carry and opens on the first of them.
 */
function usePropertiesTab(site: SiteInfo): PanelTab | null {
  const { filters } = useDashboard();
  const special = specialGoalProperty(filters, site.goals);
  const underGoal = filteredGoals(filters).length > 0 && special === null;
  const { carried, error } = useCarriedProperties(site.custom_properties, underGoal);
  const [chosen, setChosen] = useState(site.custom_properties[0] ?? '');
  const offered = special ? [special, ...site.custom_properties.filter((name) => name !== special)] : underGoal ? carried : site.custom_properties;
  const namesKey = offered?.join('\n') ?? null;
  return useMemo(() => {
    if (!special && site.custom_properties.length === 0) return null;
    const names = namesKey ? namesKey.split('\n') : [];
    const prop = special ?? (names.includes(chosen) ? chosen : names[0]);
    const waiting = (text: string | null) => ({
      label: 'Property',
      tabName: 'Properties',
      dimension: 'event:props',
      metrics: [],
      content: text ? <p className="panel-empty muted">{text}</p> : <div className="panel-skeleton" aria-hidden="true" />,
    });
    if (error) return waiting(error);
    if (namesKey === null) return waiting(null);
    if (!prop) return waiting('This goal’s events carry none of the site’s properties in this period.');
    return {
      label: prop,
      tabName: 'Properties',
      dimension: `event:props:${prop}`,
      metrics: ['visitors', 'events'],
      // Only events that carry the property: the rest (every pageview) would lead the list as one big "(none)" row.
      filters: [['is_not', `event:props:${prop}`, ['(none)']]],
      chooser: <Chooser label="Property" names={names} chosen={prop} choose={setChosen} disabled={special !== null} />,
    };
  }, [special, site.custom_properties.length, namesKey, chosen, error]);
}

/** The chosen funnel's steps as a chart; the funnel is chosen beside the title, and remembered as the tabs are. */
function useFunnelsTab(site: SiteInfo): PanelTab | null {
  const { funnel } = useDashboard();
  const names = useMemo(() => site.funnels.map((f) => f.name), [site.funnels]);
  const [chosen, setChosen] = useState(() => rememberedFunnel(site.domain) ?? '');
  return useMemo(() => {
    if (!funnel || names.length === 0) return null;
    const name = names.includes(chosen) ? chosen : names[0]!;
    return {
      label: 'Funnels',
      dimension: 'funnel',
      metrics: [],
      chooser: (
        <Chooser
          label="Funnel"
          names={names}
          chosen={name}
          choose={(name) => {
            setChosen(name);
            rememberFunnel(site.domain, name);
          }}
        />
      ),
      content: <FunnelReportView name={name} />,
    };
  }, [funnel, names, chosen, site.domain]);
}
