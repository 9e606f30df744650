import type { Direction, JourneyStep, JourneysResponse, LabelledStep } from '@contracts/journeys';
import { useCallback, useEffect, useRef, useState } from 'react';
import { panelError } from '../panels/panelError';
import { type Journey, stepOf, suggestJourney } from './journey';

/** One question to the journeys route: the view's range and filters are added by the caller. */
export type AskJourneys = (question: { steps: JourneyStep[]; direction: Direction; search?: string }, signal: AbortSignal) => Promise<JourneysResponse>;

export interface JourneyState extends Journey {
  /** Whether an answer is on its way (the column after the last step, or the suggestion's next). */
  pending: boolean;
  error: string | null;
}

const STARTING: JourneyState = { steps: [], answers: [], pending: true, error: null };

/**
 * The journey on screen: it opens on the suggested journey of the view and direction (asked again
 * when either changes), and `choose` replaces a column's step, drops the columns after it and asks
 * for the next column. A newer question cancels the one before, so only the latest is shown.
 */
export function useJourney(ask: AskJourneys, direction: Direction) {
  const [journey, setJourney] = useState<JourneyState>(STARTING);
  const running = useRef<AbortController | null>(null);

  const start = useCallback((work: (signal: AbortSignal) => Promise<void>) => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    work(controller.signal).catch((failure: Error) => {
      if (!controller.signal.aborted) setJourney((shown) => ({ ...shown, pending: false, error: panelError(failure) }));
    });
    return controller;
  }, []);

  useEffect(() => {
    setJourney(STARTING);
    const controller = start(async (signal) => {
      const shown = (steps: Journey, pending: boolean) => !signal.aborted && setJourney({ ...steps, pending, error: null });
      const suggested = await suggestJourney(
        (steps) => ask({ steps, direction }, signal),
        (sofar) => shown(sofar, true),
      );
      shown(suggested, false);
    });
    return () => controller.abort();
  }, [ask, direction, start]);

  const choose = (column: number, step: LabelledStep) => {
    const steps = [...journey.steps.slice(0, column), step];
    const answers = journey.answers.slice(0, column + 1);
    setJourney({ steps, answers, pending: true, error: null });
    start(async (signal) => {
      const answer = await ask({ steps: steps.map(stepOf), direction }, signal);
      if (!signal.aborted) setJourney({ steps, answers: [...answers, answer], pending: false, error: null });
    });
  };

  return { journey, choose };
}
