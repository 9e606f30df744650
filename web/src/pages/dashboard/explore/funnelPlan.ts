import { MAX_FUNNEL_STEPS, MIN_FUNNEL_STEPS } from '@contracts/funnels';
import type { Goal } from '@contracts/goals';
import { type Direction, FOLDER_SUFFIX, type JourneyStep } from '@contracts/journeys';
import { inTimeOrder, isFolder, stepWords } from './journey';

/**
 * A journey saved as a funnel (the funnels API, docs/management-api.md): a funnel's steps are the
 * site's goals, 2 to 8 different ones in time order. A page or folder becomes a page goal, an
 * event an event goal; a goal counts an event on any page, so an event on one page can only be
 * saved when the person agrees to count it on every page. Nothing is changed without saying so.
 */

/** The goal a step becomes, as PUT /api/v1/sites/goals takes it (find-or-create). */
export type GoalDefinition = { goal_type: 'page'; page_path: string } | { goal_type: 'event'; event_name: string };

export interface PlannedStep {
  /** The step in words, as the journey shows it. */
  words: string;
  goal: GoalDefinition;
  /** The site's goal of that definition, when it has one already. */
  existing: Goal | null;
}

export interface FunnelPlan {
  steps: PlannedStep[];
  /** Why the journey cannot be saved as it stands; empty when it can. */
  problems: string[];
  /** Events on one page: saved only if counted on any page (`anyPage`). */
  eventsOnPages: JourneyStep[];
  /** What the funnel will count differently, said before saving. */
  notes: string[];
}

/** The goal of a step: its event on any page when `anyPage`, else null for an event on one page. */
function goalOf(step: JourneyStep, anyPage: boolean): GoalDefinition | null {
  if (step.event !== undefined) return step.page === undefined || anyPage ? { goal_type: 'event', event_name: step.event } : null;
  return { goal_type: 'page', page_path: step.page ?? '/' };
}

/** The name a new goal gets (src/contracts/goals.ts defaultGoalName): the event's, or "Visit /pricing". */
export const goalName = (goal: GoalDefinition) => (goal.goal_type === 'event' ? goal.event_name : `Visit ${goal.page_path}`);

function existingGoal(goals: readonly Goal[], goal: GoalDefinition): Goal | null {
  return (
    goals.find((g) =>
      goal.goal_type === 'event' ? g.goal_type === 'event' && g.event_name === goal.event_name : g.goal_type === 'page' && g.page_path === goal.page_path,
    ) ?? null
  );
}

/** How a journey's steps become a funnel, or why they cannot: steps in time order (a backward journey reversed). */
export function funnelPlan(steps: readonly JourneyStep[], direction: Direction, goals: readonly Goal[], anyPage = false): FunnelPlan {
  const ordered = inTimeOrder(steps, direction);
  const problems: string[] = [];
  const notes: string[] = [];
  if (ordered.length < MIN_FUNNEL_STEPS) problems.push(`A funnel needs at least ${MIN_FUNNEL_STEPS} steps: choose a step in the next column first.`);
  if (ordered.length > MAX_FUNNEL_STEPS)
    problems.push(`A funnel holds at most ${MAX_FUNNEL_STEPS} steps and this journey has ${ordered.length}: choose a step in an earlier column to shorten it.`);
  const eventsOnPages = ordered.filter((step) => step.event !== undefined && step.page !== undefined);
  const planned: PlannedStep[] = [];
  for (const step of ordered) {
    const goal = goalOf(step, anyPage);
    if (!goal) continue;
    const twice = `Two steps would both be the goal “${goalName(goal)}”: each step of a funnel is a different goal.`;
    if (planned.some((p) => JSON.stringify(p.goal) === JSON.stringify(goal)) && !problems.includes(twice)) problems.push(twice);
    planned.push({ words: stepWords(step), goal, existing: existingGoal(goals, goal) });
    const folder = isFolder(step) ? step.page!.slice(0, -FOLDER_SUFFIX.length) : '';
    // A goal's `**` matches any run of characters after the folder's slash: `/**` is every page, as in the journey.
    if (folder) {
      notes.push(`${step.page} becomes the page goal ${step.page}, which counts the pages below ${folder} but not ${folder} itself.`);
    }
  }
  if (eventsOnPages.length > 0 && !anyPage)
    problems.push(
      `A goal counts an event on any page, so a funnel cannot keep “${eventsOnPages.map(stepWords).join('”, “')}” to one page. Count ${eventsOnPages.length === 1 ? 'it' : 'them'} on any page, or choose other steps.`,
    );
  return { steps: planned, problems, eventsOnPages, notes };
}
