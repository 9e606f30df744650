import type { FunnelReport } from '@contracts/funnels';
import { type CSSProperties, useId, useState } from 'react';
import { countOf, exactNumber, formatPercent } from '../../../format';
import './behaviours.css';

type Step = FunnelReport['steps'][number];

/**
 * A step's bar as shares of the funnel's entrants: the visitors who reached it, and above them
 * the ones the previous step had and this one lost, so each drop-off shows where it happens.
 */
export function stepShares(steps: readonly Step[]): { reached: number; dropped: number }[] {
  const first = steps[0]?.visitors ?? 0;
  return steps.map((step) => (first > 0 ? { reached: step.visitors / first, dropped: step.dropoff / first } : { reached: 0, dropped: 0 }));
}

/**
 * The funnel as a bar chart, a bar per step (rows of bars on a narrow card). Pointing at a step,
 * focusing it or tapping it shows its exact figures (Escape hides them): visitors, conversion
 * rate from the first step and the visitors it lost from the one before.
 */
export function FunnelChart({ steps }: { steps: readonly Step[] }) {
  const [shown, setShown] = useState<number | null>(null);
  const id = useId();
  const shares = stepShares(steps);
  return (
    <ol className="funnel-chart" style={{ '--steps': steps.length } as CSSProperties} onPointerLeave={() => setShown(null)}>
      {steps.map((step, i) => {
        const tip = `${id}-step-${i}`;
        const share = shares[i]!;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: a step is its place in the funnel (a journey may pass the same page twice)
          <li key={i} className="funnel-step" data-step={i + 1}>
            <button
              type="button"
              className="funnel-step-button"
              aria-describedby={shown === i ? tip : undefined}
              data-shown={shown === i}
              // A tap shows the figures too (a phone has no pointer to rest on a bar); leaving the chart or the step hides them.
              onClick={() => setShown(i)}
              onPointerEnter={() => setShown(i)}
              onFocus={() => setShown(i)}
              onBlur={() => setShown(null)}
              onKeyDown={(event) => event.key === 'Escape' && setShown(null)}
            >
              <span className="funnel-rate">{formatPercent(Number(step.conversion_rate))}</span>
              <span className="funnel-track" style={{ '--reached': share.reached, '--dropped': share.dropped } as CSSProperties} aria-hidden="true">
                <span className="funnel-dropped" />
                <span className="funnel-reached" />
              </span>
              <span className="funnel-label">
                <span className="funnel-name">
                  {i + 1}. {step.label}
                </span>
                <span className="funnel-count muted">{countOf(step.visitors, 'visitor')}</span>
              </span>
            </button>
            {shown === i && <StepTooltip id={tip} step={step} index={i} />}
          </li>
        );
      })}
    </ol>
  );
}

function StepTooltip({ id, step, index }: { id: string; step: Step; index: number }) {
  return (
    <div id={id} role="tooltip" className="funnel-tooltip">
      <strong>
        {index + 1}. {step.label}
      </strong>
      <dl>
        <dt>Visitors</dt>
        <dd>{exactNumber(step.visitors)}</dd>
        <dt>Conversion rate</dt>
        <dd>{formatPercent(Number(step.conversion_rate))}</dd>
        {index > 0 && (
          <>
            <dt>Dropped off</dt>
            <dd>
              {exactNumber(step.dropoff)} ({formatPercent(Number(step.dropoff_percentage))})
            </dd>
          </>
        )}
      </dl>
    </div>
  );
}
