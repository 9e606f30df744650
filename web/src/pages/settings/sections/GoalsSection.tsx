import { type Goal, type GoalList, goalList, scrollWords } from '@contracts/goals';
import { useState } from 'react';
import { ConfirmButton } from '../../../ui/ConfirmButton';
import { ErrorNote } from '../../../ui/ErrorNote';
import { Section } from '../../../ui/Section';
import { Field, ServerForm } from '../../../ui/ServerForm';
import { type Resource, useResource } from '../../../ui/useResource';
import { notYetUsed, useReceivedNames } from '../receivedNames';
import type { SiteSectionProps } from '../siteSection';

type Kind = 'event' | 'page' | 'scroll' | 'revenue';

const KINDS: { kind: Kind; label: string; hint: string }[] = [
  { kind: 'event', label: 'Custom event', hint: 'Counts a custom event by its name, e.g. Signup.' },
  { kind: 'page', label: 'Pageview', hint: 'Counts visits to a page; * matches one path segment, ** any depth.' },
  { kind: 'scroll', label: 'Scroll depth', hint: 'Counts visitors who scrolled a page at least this far.' },
  { kind: 'revenue', label: 'Revenue', hint: 'A custom event that carries an amount; totals are shown in this currency.' },
];

/** Suggestions only: the server checks the code against the runtime's own list (src/management/goals.ts). */
const CURRENCIES = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('currency') : [];
const currencyNames = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(undefined, { type: 'currency' }) : null;

const describe = (goal: Goal) =>
  goal.goal_type === 'event'
    ? `Event ${goal.event_name}${goal.currency ? ` · revenue in ${goal.currency}` : ''}`
    : goal.goal_type === 'scroll'
      ? `${scrollWords(goal.scroll_threshold)} on ${goal.page_path}`
      : `Pageview of ${goal.page_path}`;

/** Goals: the conversions the dashboard's goals panel counts. */
export function GoalsSection(props: SiteSectionProps) {
  const { site, refreshSite } = props;
  const goals = useResource(
    (signal) => props.api.get(`/api/v1/sites/goals?site_id=${encodeURIComponent(site.domain)}&limit=1000`, goalList, signal),
    [site.domain],
  );
  const changed = () => {
    goals.reload();
    refreshSite();
  };
  return (
    <>
      <Goals {...props} goals={goals} changed={changed} />
      <AddGoal {...props} changed={changed} goalEvents={goals.data?.goals.flatMap((goal) => (goal.event_name === null ? [] : [goal.event_name])) ?? []} />
    </>
  );
}

/** The site's goals, each described and deletable. */
function Goals({ site, api, goals, changed }: SiteSectionProps & { goals: Resource<GoalList>; changed(): void }) {
  const query = `site_id=${encodeURIComponent(site.domain)}`;
  return (
    <Section title="Goals" description="Goals turn events and pageviews into conversions, shown in the dashboard's Goals panel.">
      <ErrorNote error={goals.error} />
      {goals.data && goals.data.goals.length === 0 && <p className="muted">No goals yet: add the first one below.</p>}
      <ul className="settings-list">
        {goals.data?.goals.map((goal) => (
          <li key={goal.id}>
            <div>
              <strong>{goal.display_name}</strong>
              {/* A goal under its default name ("Scroll 75% on /blog") is described by it already. */}
              {describe(goal) !== goal.display_name && <div className="muted small">{describe(goal)}</div>}
            </div>
            <ConfirmButton
              label="Delete"
              className="btn btn-small btn-danger"
              title={`Delete the goal “${goal.display_name}”?`}
              message="Its conversions disappear from reports (the events stay), and funnels that use it are deleted."
              onConfirm={async () => {
                await api.delete(`/api/v1/sites/goals/${goal.id}?${query}`);
                changed();
              }}
            />
          </li>
        ))}
      </ul>
    </Section>
  );
}

/** A new goal: its kind, then the fields that kind needs. */
function AddGoal({ site, api, changed, goalEvents }: SiteSectionProps & { changed(): void /** The event names goals already count. */; goalEvents: string[] }) {
  const suggested = notYetUsed(useReceivedNames(site.domain).event_names, goalEvents);
  const [kind, setKind] = useState<Kind>('event');
  const [eventName, setEventName] = useState('');
  const [pagePath, setPagePath] = useState('');
  const [threshold, setThreshold] = useState('50');
  const [currency, setCurrency] = useState('EUR');
  const [displayName, setDisplayName] = useState('');
  const payload = () => {
    const base = { site_id: site.domain, ...(displayName.trim() ? { display_name: displayName.trim() } : {}) };
    if (kind === 'event') return { ...base, goal_type: 'event', event_name: eventName };
    if (kind === 'revenue') return { ...base, goal_type: 'event', event_name: eventName, currency };
    if (kind === 'page') return { ...base, goal_type: 'page', page_path: pagePath };
    return { ...base, goal_type: 'scroll', page_path: pagePath, scroll_threshold: Number(threshold) };
  };
  return (
    <Section title="Add a goal">
      <ServerForm
        submitLabel="Add goal"
        onSubmit={async () => {
          await api.put('/api/v1/sites/goals', payload());
          setEventName('');
          setPagePath('');
          setDisplayName('');
          changed();
        }}
      >
        <fieldset className="choice-row">
          <legend>Kind</legend>
          {KINDS.map((k) => (
            <label key={k.kind} className={`choice${kind === k.kind ? ' chosen' : ''}`}>
              <input type="radio" name="goal-kind" value={k.kind} checked={kind === k.kind} onChange={() => setKind(k.kind)} />
              {k.label}
            </label>
          ))}
        </fieldset>
        <p className="field-hint">{KINDS.find((k) => k.kind === kind)?.hint}</p>
        {(kind === 'event' || kind === 'revenue') && (
          <Field id="goal-event" label="Event name" name="event_name">
            <input
              value={eventName}
              onChange={(event) => setEventName(event.target.value)}
              placeholder="Signup"
              list="goal-received-events"
              autoComplete="off"
            />
          </Field>
        )}
        <datalist id="goal-received-events">
          {suggested.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
        {kind === 'revenue' && <CurrencyField currency={currency} setCurrency={setCurrency} />}
        {(kind === 'page' || kind === 'scroll') && (
          <Field id="goal-page" label="Page path" name="page_path">
            <input value={pagePath} onChange={(event) => setPagePath(event.target.value)} placeholder="/pricing or /blog/**" />
          </Field>
        )}
        {kind === 'scroll' && (
          <Field id="goal-threshold" label="Scrolled at least (%)" name="scroll_threshold">
            <input type="number" min={1} max={100} value={threshold} onChange={(event) => setThreshold(event.target.value)} />
          </Field>
        )}
        <Field id="goal-name" label="Display name (optional)" name="display_name" codes={['goal_name_taken']}>
          <input value={displayName} onChange={(event) => setDisplayName(event.target.value)} />
        </Field>
      </ServerForm>
    </Section>
  );
}

/** A revenue goal's currency, typed with the runtime's codes as suggestions. */
function CurrencyField({ currency, setCurrency }: { currency: string; setCurrency(currency: string): void }) {
  return (
    <>
      <Field id="goal-currency" label="Currency" name="currency" hint="An ISO 4217 code; start typing to pick one.">
        <input
          value={currency}
          onChange={(event) => setCurrency(event.target.value.toUpperCase())}
          maxLength={3}
          placeholder="EUR"
          list="goal-currencies"
          autoComplete="off"
        />
      </Field>
      <datalist id="goal-currencies">
        {CURRENCIES.map((code) => (
          <option key={code} value={code}>
            {currencyNames?.of(code) ?? code}
          </option>
        ))}
      </datalist>
    </>
  );
}
