import type { FunnelReport } from '@contracts/funnels';
import { type Direction, FOLDER_SUFFIX, JOURNEY_LIMITS, type JourneyStep, type JourneysResponse, type LabelledStep } from '@contracts/journeys';

/**
 * The Explore view's journey (docs/explore.md): the steps chosen so far, and for each column the
 * answer that lists its candidates. Column i lists the steps that come right after (or, read
 * backward, right before) the first i chosen steps, so a journey of k steps has k + 1 answers once
 * settled, the last one giving the journey's funnel and the column still to choose from.
 */
export interface Journey {
  steps: LabelledStep[];
  answers: JourneysResponse[];
}

/** How many steps the suggested journey takes at most, as Plausible's "interesting funnel". */
export const SUGGESTED_STEPS = 6;

/** A step as a request names it: its page and event, without the answer's label and page count. */
export function stepOf(step: LabelledStep): JourneyStep {
  return { ...(step.page !== undefined ? { page: step.page } : {}), ...(step.event !== undefined ? { event: step.event } : {}) };
}

export const sameStep = (a: JourneyStep, b: JourneyStep) => a.page === b.page && a.event === b.event;

/**
 * The suggested next step: the answer's most common candidate that is not yet in the journey.
 * A folder is passed over: it holds pages that may already be steps, and its own pages are listed
 * beside it.
 */
export function suggestedNext(steps: readonly JourneyStep[], answer: JourneysResponse): LabelledStep | null {
  return answer.next.find(({ step }) => step.pages === undefined && !steps.some((taken) => sameStep(taken, step)))?.step ?? null;
}

/**
 * The suggested journey: the most common first step, then again and again the most common next
 * step not yet in it, up to `most` steps; one request per step, and one for the column after the
 * last. `progress` hears the journey after every answer, with the step chosen from it.
 */
export async function suggestJourney(
  ask: (steps: JourneyStep[]) => Promise<JourneysResponse>,
  progress: (journey: Journey) => void = () => {},
  most = SUGGESTED_STEPS,
): Promise<Journey> {
  const steps: LabelledStep[] = [];
  const answers: JourneysResponse[] = [];
  for (;;) {
    const answer = await ask(steps.map(stepOf));
    answers.push(answer);
    const next = steps.length < most ? suggestedNext(steps, answer) : null;
    if (!next) return { steps, answers };
    steps.push(next);
    progress({ steps: [...steps], answers: [...answers] });
  }
}

/** Whether the journey can take one more step (the API takes at most nine). */
export const canGrow = (steps: readonly unknown[]) => steps.length < JOURNEY_LIMITS.steps;

/** A column's heading: the first (or, backward, the last) step, then how far after (or before) it a column is. */
export function columnTitle(index: number, direction: Direction): string {
  if (index === 0) return direction === 'forward' ? 'First step' : 'Last step';
  return `${index} step${index === 1 ? '' : 's'} ${direction === 'forward' ? 'after' : 'before'}`;
}

/** A step in words: its page or folder (without the page count), its event, or "Signup on /pricing". */
export function stepWords(step: JourneyStep): string {
  if (step.event === undefined) return step.page ?? '';
  return step.page === undefined ? step.event : `${step.event} on ${step.page}`;
}

/** The steps in the order visitors took them: a backward journey is read from its last step. */
export const inTimeOrder = <T>(steps: readonly T[], direction: Direction): T[] => (direction === 'backward' ? [...steps].reverse() : [...steps]);

/** How long a funnel's name may be (src/contracts/funnels.ts). */
const NAME_LENGTH = 120;

/** The name a saved funnel is offered: its steps in time order, "/pricing → /signup", cut to fit. */
export function funnelName(steps: readonly JourneyStep[], direction: Direction): string {
  const name = inTimeOrder(steps, direction).map(stepWords).join(' → ');
  return name.length <= NAME_LENGTH ? name : `${name.slice(0, NAME_LENGTH - 1)}…`;
}

/** The journey's funnel in the shape the dashboard's funnel chart draws (FunnelChart.tsx). */
export function chartSteps(funnel: JourneysResponse['funnel']): FunnelReport['steps'] {
  return funnel.map((step) => ({
    label: step.step.label,
    visitors: step.visitors,
    dropoff: step.dropoff,
    dropoff_percentage: String(step.dropoff_percentage),
    conversion_rate: String(step.conversion_rate),
    conversion_rate_step: String(step.conversion_rate_step),
  }));
}

/** What a sampled answer says about itself; null when every visitor was read. */
export function samplingNote(meta: JourneysResponse['meta']): string | null {
  if (meta.sample_rate >= 1) return null;
  const share = meta.sample_rate * 100;
  const percent = share >= 1 ? Math.round(share) : Number(share.toPrecision(1));
  const warnings = meta.sampling?.warnings?.map((w) => w.warning) ?? [];
  return [`Estimated from a sample of ${percent}% of visitors, scaled up.`, ...warnings].join(' ');
}

/** Whether a step is a folder of pages (`/blog/**`). */
export const isFolder = (step: JourneyStep) => step.page?.endsWith(FOLDER_SUFFIX) ?? false;
