import { MAX_FUNNEL_STEPS as MAX_STEPS, MIN_FUNNEL_STEPS as MIN_STEPS } from '@contracts/funnels';
import { type DragEvent, useState } from 'react';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Section } from '../../../ui/Section';
import { Field, ServerForm } from '../../../ui/ServerForm';
import type { SiteSectionProps } from '../siteSection';

/** Funnels: 2–8 goals in order; steps are reordered by dragging or with the arrow buttons. */
export function FunnelsSection(props: SiteSectionProps) {
  return (
    <>
      <FunnelList {...props} />
      <AddFunnel {...props} />
    </>
  );
}

/** The site's funnels, each with its steps and a way to delete it. */
function FunnelList({ site, api, refreshSite }: SiteSectionProps) {
  const query = `site_id=${encodeURIComponent(site.domain)}`;
  return (
    <Section title="Funnels" description="A funnel follows visitors through goals in order and shows where they drop off.">
      {site.funnels.length === 0 && <p className="muted">No funnels yet.</p>}
      <ul className="settings-list">
        {site.funnels.map((funnel) => (
          <li key={funnel.id}>
            <div>
              <strong>{funnel.name}</strong>
              <div className="muted small">{funnel.steps.map((s) => s.display_name ?? `Goal ${s.goal_id}`).join(' → ')}</div>
            </div>
            <ConfirmButton
              label="Delete"
              className="btn btn-small btn-danger"
              title={`Delete the funnel “${funnel.name}”?`}
              message="The funnel is removed from the dashboard; its goals stay."
              onConfirm={async () => {
                await api.delete(`/api/v1/sites/funnels/${funnel.id}?${query}`);
                refreshSite();
              }}
            />
          </li>
        ))}
      </ul>
    </Section>
  );
}

/** A new funnel: its name and its steps, goals picked one by one and put in order. */
function AddFunnel({ site, api, refreshSite }: SiteSectionProps) {
  const [name, setName] = useState('');
  const [steps, setSteps] = useState<number[]>([]);
  const unused = site.goals.filter((g) => !steps.includes(g.id));
  return (
    <Section title="Add a funnel">
      {site.goals.length < MIN_STEPS ? (
        <p className="muted">A funnel needs at least two goals: add them in Goals first.</p>
      ) : (
        <ServerForm
          submitLabel="Add funnel"
          onSubmit={async () => {
            await api.put('/api/v1/sites/funnels', { site_id: site.domain, name, steps });
            setName('');
            setSteps([]);
            refreshSite();
          }}
        >
          <Field id="funnel-name" label="Name" name="name">
            <input value={name} onChange={(event) => setName(event.target.value)} placeholder="Checkout" />
          </Field>
          <p className="field-hint">
            Steps: {MIN_STEPS} to {MAX_STEPS} goals in the order visitors reach them. Drag a step, or use its arrows, to change the order.
          </p>
          <FunnelSteps site={site} steps={steps} setSteps={setSteps} />
          {steps.length < MAX_STEPS && unused.length > 0 && (
            <div className="field">
              <label htmlFor="funnel-add-step">Add a step</label>
              <select
                id="funnel-add-step"
                value=""
                onChange={(event) => {
                  if (event.target.value) setSteps([...steps, Number(event.target.value)]);
                }}
              >
                <option value="">Choose a goal…</option>
                {unused.map((goal) => (
                  <option key={goal.id} value={goal.id}>
                    {goal.display_name}
                  </option>
                ))}
              </select>
            </div>
          )}
          <ErrorNote error={steps.length > 0 && steps.length < MIN_STEPS ? `Add at least ${MIN_STEPS} steps.` : null} />
        </ServerForm>
      )}
    </Section>
  );
}

/** The chosen steps in order: dragged, or moved with their arrows, or removed. */
function FunnelSteps({ site, steps, setSteps }: { site: SiteSectionProps['site']; steps: number[]; setSteps(steps: number[]): void }) {
  const [dragged, setDragged] = useState<number | null>(null);
  const goalName = (id: number) => site.goals.find((g) => g.id === id)?.display_name ?? `Goal ${id}`;
  const move = (from: number, to: number) => {
    if (to < 0 || to >= steps.length) return;
    const next = [...steps];
    next.splice(to, 0, ...next.splice(from, 1));
    setSteps(next);
  };
  const drop = (event: DragEvent, index: number) => {
    event.preventDefault();
    if (dragged !== null) move(dragged, index);
    setDragged(null);
  };
  return (
    <ol className="funnel-steps" aria-label="Steps">
      {steps.map((id, index) => (
        <li
          key={id}
          draggable
          onDragStart={() => setDragged(index)}
          onDragOver={(event) => event.preventDefault()}
          onDrop={(event) => drop(event, index)}
          className={dragged === index ? 'dragging' : undefined}
        >
          <span className="drag-handle" aria-hidden="true">
            ⋮⋮
          </span>
          <span className="step-name">
            {index + 1}. {goalName(id)}
          </span>
          <button type="button" className="btn btn-small" aria-label={`Move ${goalName(id)} up`} disabled={index === 0} onClick={() => move(index, index - 1)}>
            ↑
          </button>
          <button
            type="button"
            className="btn btn-small"
            aria-label={`Move ${goalName(id)} down`}
            disabled={index === steps.length - 1}
            onClick={() => move(index, index + 1)}
          >
            ↓
          </button>
          <button type="button" className="btn btn-small" aria-label={`Remove ${goalName(id)}`} onClick={() => setSteps(steps.filter((s) => s !== id))}>
            ✕
          </button>
        </li>
      ))}
    </ol>
  );
}
