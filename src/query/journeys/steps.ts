import { FOLDER_SUFFIX, type JourneyStep, type LabelledStep } from '../../contracts/journeys.js';
import type { SqlParams } from '../sqlParams.js';

/**
 * The steps of a journey (docs/explore.md): what a visit's path is made of, how a requested step
 * matches one of its elements, and how steps are named. A path element is the tuple
 * (event name, page), `pageview` for a page; `x.1` and `x.2` in the statements.
 */

/** A page as paths hold it: a trailing slash is ignored, except on `/` itself. */
export const normalPage = (page: string) => (page.length > 1 && page.endsWith('/') ? page.replace(/(.)\/+$/, '$1') : page);

/** The same rule on the events' `pathname`. */
export const NORMAL_PATHNAME_SQL = "replaceRegexpOne(pathname, '(.)/+$', '\\\\1')";

/** A requested step with its page normalised; a folder's `/**` is kept. */
export function normalStep(step: JourneyStep): JourneyStep {
  if (step.page === undefined) return step;
  const folder = folderOf(step.page);
  return { ...step, page: folder === null ? normalPage(step.page) : `${folder}${FOLDER_SUFFIX}` };
}

/** The folder a `/blog/**` page names (`/blog`; `` for `/**`, every page), or null for one page. */
function folderOf(page: string): string | null {
  return page.endsWith(FOLDER_SUFFIX) ? normalPage(page.slice(0, -FOLDER_SUFFIX.length)) : null;
}

/** A step's columns: a path element's (`x.1`, `x.2`) or an event row's. */
export interface StepColumns {
  name: string;
  page: string;
}

export const elementColumns = (element: string): StepColumns => ({ name: `${element}.1`, page: `${element}.2` });
export const ROW_COLUMNS: StepColumns = { name: 'name', page: NORMAL_PATHNAME_SQL };

/** The condition on a page (or folder) given as a step's page. */
function pageCondition(page: string, column: string, params: SqlParams): string {
  const folder = folderOf(page);
  if (folder === null) return `${column} = ${params.string(page)}`;
  return `(${column} = ${params.string(folder)} OR startsWith(${column}, ${params.string(`${folder}/`)}))`;
}

/** Whether a path element (or an event row) matches a step: a pageview of the page (folder), or the event (on the page). */
export function stepCondition(step: JourneyStep, columns: StepColumns, params: SqlParams): string {
  const name = `${columns.name} = ${params.string(step.event ?? 'pageview')}`;
  return step.page === undefined ? name : `(${name} AND ${pageCondition(step.page, columns.page, params)})`;
}

/** How a requested step is named: its page, its event, or "Signup on /pricing". */
export function stepLabel(step: JourneyStep): string {
  if (step.event === undefined) return step.page!;
  return step.page === undefined ? step.event : `${step.event} on ${step.page}`;
}

export const labelled = (step: JourneyStep): LabelledStep => ({ ...step, label: stepLabel(step) });

/** What a candidate row is: one page, a folder of pages (a group), or an event on a page. */
export type CandidateKind = 'page' | 'group' | 'event';

/**
 * The candidates' labels in the statement, so a search and the order by label see them: the same
 * rule as stepLabel, with a group's page count ("/blog/** (12 pages)").
 */
export const CANDIDATE_LABEL_SQL = `multiIf(kind = 'page', page, kind = 'group', concat(page, '${FOLDER_SUFFIX} (', toString(pages), ' pages)'), concat(name, ' on ', page))`;

/** A candidate row as the answer's step. */
export function candidateStep(kind: CandidateKind, name: string, page: string, pages: number, label: string): LabelledStep {
  if (kind === 'event') return { event: name, page, label };
  if (kind === 'group') return { page: `${page}${FOLDER_SUFFIX}`, label, pages };
  return { page, label };
}
