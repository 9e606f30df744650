import type { ReactNode } from 'react';
import type { Filter, QueryResult } from '../context';

/** One breakdown a panel lists (Reports.tsx declares them), shown as a row list and in its details view. */
export interface PanelTab {
  /** The tab's name, and its list's column heading unless `tabName` is given. */
  label: string;
  /** The tab's name when the column heading is another (the behaviours card's Properties tab heads its list with the property). */
  tabName?: string;
  dimension: string;
  /** The first metric sizes the bars; the others are columns. */
  metrics: string[];
  /** Extra filters of this tab (a goal panel reads only goals). */
  filters?: Filter[];
  /** How a value reads (country names, "Direct / None"…). */
  render?(value: string): string;
  /** A picture before the value (a country's flag). */
  icon?(value: string): ReactNode;
  /** A link out to the tracked page, when the value is one. */
  href?(value: string): string | null;
  /** The currency a row's revenue is in (a goal's own). */
  currency?(value: string): string | undefined;
  /** The details view's columns, when not the usual ones of the dimension (DetailsModal.tsx). */
  detailMetrics?: string[];
  /** Draws the answer another way than as rows (the countries map); `pick` filters by a value. */
  visual?(result: QueryResult, pick: (value: string) => void): ReactNode;
  /** Rows to ask for, when not the panel's few (a map shows every country). */
  limit?: number;
  /** A control beside the panel's title while the tab is shown (which property, which funnel). */
  chooser?: ReactNode;
  /** A tab that asks for its own numbers and draws them (a funnel): no rows are asked for, no details view. */
  content?: ReactNode;
}

/** The name a tab shows (and is remembered by). */
export const tabName = (tab: PanelTab) => tab.tabName ?? tab.label;
