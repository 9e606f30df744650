import { funnel as funnelAnswer } from '@contracts/funnels';
import { goal as goalAnswer } from '@contracts/goals';
import type { Direction, JourneyStep } from '@contracts/journeys';
import { useEffect, useId, useRef, useState } from 'react';
import { teamApi } from '../../../api';
import { Link } from '../../../router';
import { Field, ServerForm } from '../../../ui/ServerForm';
import type { SiteInfo } from '../context';
import { rememberFunnel, rememberTab } from '../panels/rememberedTab';
import { funnelPlan, goalName } from './funnelPlan';
import { funnelName } from './journey';

/**
 * Save as funnel (editors and up): the journey's steps become the site's goals (found or created)
 * and a funnel of them in time order, through the funnels API the settings use. The dialog says
 * first what the funnel will count, and what it cannot keep of the journey.
 */
export function SaveAsFunnel({
  site,
  steps,
  direction,
  dashboardHref,
  refreshSite,
  disabled,
}: {
  site: SiteInfo & { team_id: number };
  steps: readonly JourneyStep[];
  direction: Direction;
  /** The dashboard of the same view, where the funnels are. */
  dashboardHref: string;
  refreshSite(): Promise<void>;
  disabled: boolean;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn btn-small" onClick={() => setOpen(true)} aria-haspopup="dialog" disabled={disabled}>
        Save as funnel
      </button>
      {open && (
        <SaveDialog site={site} steps={steps} direction={direction} dashboardHref={dashboardHref} refreshSite={refreshSite} onClose={() => setOpen(false)} />
      )}
    </>
  );
}

/** The choice to count events on any page: "Count “Signup” on any page, not only on /pricing". */
const anyPageWords = (events: readonly JourneyStep[]) =>
  events.length === 1 ? `Count “${events[0]!.event}” on any page, not only on ${events[0]!.page}` : 'Count these events on any page, not only on theirs';

function SaveDialog({
  site,
  steps,
  direction,
  dashboardHref,
  refreshSite,
  onClose,
}: {
  site: SiteInfo & { team_id: number };
  steps: readonly JourneyStep[];
  direction: Direction;
  dashboardHref: string;
  refreshSite(): Promise<void>;
  onClose(): void;
}) {
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  const [name, setName] = useState(() => funnelName(steps, direction));
  const [anyPage, setAnyPage] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const plan = funnelPlan(steps, direction, site.goals, anyPage);
  const save = async () => {
    const team = teamApi(site.team_id);
    const ids: number[] = [];
    for (const step of plan.steps) {
      ids.push(step.existing?.id ?? (await team.put('/api/v1/sites/goals', { site_id: site.domain, ...step.goal }, goalAnswer)).id);
    }
    const created = await team.put('/api/v1/sites/funnels', { site_id: site.domain, name: name.trim(), steps: ids }, funnelAnswer);
    await refreshSite();
    setSaved(created.name);
  };
  return (
    <dialog ref={dialog} className="details-modal card save-funnel-modal" aria-labelledby={`${id}-title`} onClose={onClose}>
      <div className="details-head">
        <h2 id={`${id}-title`}>Save as funnel</h2>
        <button type="button" className="btn btn-small" onClick={onClose} aria-label="Close">
          ✕
        </button>
      </div>
      {saved ? (
        <div className="save-funnel-done" role="status">
          <p>Saved the funnel “{saved}”.</p>
          <Link
            href={dashboardHref}
            onClick={() => {
              rememberTab(site.domain, 'Behaviours', 'Funnels');
              rememberFunnel(site.domain, saved);
            }}
          >
            See it in the dashboard’s funnels
          </Link>
        </div>
      ) : (
        <>
          <p className="small">
            A funnel counts the visitors who took these steps in this order, with other steps allowed in between, so its numbers can be higher than the
            journey’s, which counts only steps taken one right after another.
          </p>
          {plan.steps.length > 0 && (
            <ol className="save-funnel-steps" aria-label="The funnel’s steps">
              {plan.steps.map((step, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a funnel's step is its place (two may read the same)
                <li key={i}>
                  {step.words}{' '}
                  <span className="muted small">— {step.existing ? `the goal “${step.existing.display_name}”` : `a new goal “${goalName(step.goal)}”`}</span>
                </li>
              ))}
            </ol>
          )}
          {plan.notes.map((note) => (
            <p key={note} className="small muted">
              {note}
            </p>
          ))}
          {plan.problems.map((problem) => (
            <p key={problem} className="form-error" role="alert">
              {problem}
            </p>
          ))}
          {plan.eventsOnPages.length > 0 && (
            <label className="save-funnel-any-page small">
              <input type="checkbox" checked={anyPage} onChange={(event) => setAnyPage(event.target.checked)} /> {anyPageWords(plan.eventsOnPages)}
            </label>
          )}
          {plan.problems.length === 0 && (
            <ServerForm submitLabel="Save funnel" className="save-funnel-form" onSubmit={save}>
              <Field id={`${id}-name`} label="Name" name="name">
                <input value={name} maxLength={120} onChange={(event) => setName(event.target.value)} />
              </Field>
            </ServerForm>
          )}
        </>
      )}
    </dialog>
  );
}
