import { type Direction, journeysResponse } from '@contracts/journeys';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../../api';
import { countOf, formatNumber, formatPercent } from '../../../format';
import { useScrollEdges } from '../../../ui/useScrollEdges';
import { canEditSite, useDashboard } from '../context';
import { FunnelChart } from '../panels/FunnelChart';
import { ColumnPlaceholder, JourneyColumn } from './JourneyColumn';
import { canGrow, chartSteps, columnTitle, samplingNote, stepOf } from './journey';
import { SaveAsFunnel } from './SaveAsFunnel';
import { type AskJourneys, useJourney } from './useJourney';
import './explore.css';

const DIRECTIONS: { value: Direction; label: string }[] = [
  { value: 'forward', label: 'Starting at' },
  { value: 'backward', label: 'Ending at' },
];

/**
 * Explore (docs/explore.md): the journeys visitors take within a visit, a column per step. It
 * opens on the view's suggested journey; choosing a step in a column replaces it and asks what
 * came next (or, read backward, before). Under the columns, the journey's funnel; editors can
 * save it as one of the site's funnels.
 */
export function ExploreView({ journeysPath, dashboardHref, refreshSite }: { journeysPath: string; dashboardHref: string; refreshSite?: () => Promise<void> }) {
  const { site, dateRange, filters, readOnly } = useDashboard();
  const [direction, setDirection] = useState<Direction>('forward');
  const rangeKey = JSON.stringify([dateRange, filters]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: rangeKey stands for the range and filters
  const ask = useCallback<AskJourneys>(
    (question, signal) => api.post(journeysPath, { date_range: dateRange, filters, ...question }, journeysResponse, signal),
    [journeysPath, rangeKey],
  );
  const { journey, choose } = useJourney(ask, direction);
  const { steps, answers, pending, error } = journey;

  // A step chosen by hand brings its new column into sight (on a phone, past the screen's edge).
  const columns = useRef<HTMLOListElement>(null);
  useScrollEdges(columns);
  const chosenByHand = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new answer is a new column
  useEffect(() => {
    if (!chosenByHand.current) return;
    chosenByHand.current = false;
    columns.current?.lastElementChild?.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'smooth' });
  }, [answers.length]);

  const settled = !pending && answers.length === steps.length + 1;
  const last = answers[answers.length - 1];
  const funnel = settled && steps.length > 0 ? answers[steps.length]!.funnel : null;
  const nobody = settled && steps.length === 0 && answers[0]!.next.length === 0;
  const note = last ? samplingNote(last.meta) : null;
  // Columns up to the API's nine steps: one per step, and one more to choose the next from.
  const shown = answers.slice(0, steps.length + (canGrow(steps) ? 1 : 0));
  const editor = !readOnly && canEditSite(site) && site.team_id !== undefined;

  return (
    <>
      <section className="card explore" aria-labelledby="explore-title" aria-busy={pending}>
        <div className="explore-head">
          <h2 id="explore-title">Explore</h2>
          <fieldset className="explore-direction">
            <legend className="visually-hidden">Read the journey</legend>
            {DIRECTIONS.map((d) => (
              <label key={d.value} className={direction === d.value ? 'active' : undefined}>
                <input type="radio" name="journey-direction" value={d.value} checked={direction === d.value} onChange={() => setDirection(d.value)} />
                {d.label}
              </label>
            ))}
          </fieldset>
        </div>
        <p className="muted small explore-lead">
          {direction === 'forward'
            ? 'What visitors did next within a visit, one step right after another. Choose a step to see where they went from there.'
            : 'What visitors did before, within a visit, one step right before another. Choose a step to see where they came from.'}
          {note && <span className="explore-sampling"> {note}</span>}
        </p>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        {nobody ? (
          <p className="explore-empty muted" role="status">
            No visitors in this period{filters.length > 0 ? ' with these filters' : ''}: choose a longer range{filters.length > 0 ? ' or remove a filter' : ''}.
          </p>
        ) : (
          <ol ref={columns} className="journey-columns scrolls-sideways" aria-label="Steps">
            {shown.map((answer, i) => (
              <JourneyColumn
                // A column is another question once a step before it changes: its search starts afresh.
                key={JSON.stringify([direction, steps.slice(0, i).map(stepOf)])}
                title={columnTitle(i, direction)}
                answer={answer}
                chosen={steps[i] ?? null}
                ask={ask}
                question={{ steps: steps.slice(0, i).map(stepOf), direction }}
                choose={(step) => {
                  chosenByHand.current = true;
                  choose(i, step);
                }}
                nothingMore={direction === 'forward' ? 'Visits ended here: nothing came right after.' : 'Visits started here: nothing came right before.'}
              />
            ))}
            {pending && !error && canGrow(answers) && <ColumnPlaceholder title={columnTitle(answers.length, direction)} />}
          </ol>
        )}
      </section>
      {!nobody && (
        <section className="card explore-funnel" aria-labelledby="explore-funnel-title" aria-busy={!funnel && !error}>
          <div className="explore-head">
            <h2 id="explore-funnel-title">The journey’s funnel</h2>
            {editor && (
              <SaveAsFunnel
                site={{ ...site, team_id: site.team_id! }}
                steps={steps.map(stepOf)}
                direction={direction}
                dashboardHref={dashboardHref}
                refreshSite={refreshSite ?? (async () => {})}
                disabled={!settled}
              />
            )}
          </div>
          {funnel ? (
            <>
              <p className="funnel-summary small muted">
                {countOf(funnel.at(-1)!.visitors, 'visitor')} took the whole journey: {formatPercent(funnel.at(-1)!.conversion_rate)} of the{' '}
                {formatNumber(funnel[0]!.visitors)} at its {direction === 'forward' ? 'first' : 'last'} step.
                {direction === 'backward' && ' Read backward: the first step is where the journey ends, each next one the step right before it.'}
              </p>
              <FunnelChart steps={chartSteps(funnel)} />
            </>
          ) : settled ? (
            <p className="muted small">Choose a step above: its funnel shows here.</p>
          ) : (
            !error && <div className="panel-skeleton explore-funnel-placeholder" aria-hidden="true" />
          )}
        </section>
      )}
    </>
  );
}
