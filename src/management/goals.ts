import { defaultGoalName, type Goal as GoalJson, type GoalPayload } from '../contracts/goals.js';
import { badRequest, notFound } from '../errors.js';
import type { MetaDb } from '../stores/meta/database.js';
import { deleteGoal, findGoalByDefinition, findGoalByDisplayName, type Goal, insertGoal } from '../stores/meta/goals.js';

export const MAX_EVENT_NAME_LENGTH = 120;
export const MAX_PAGE_PATH_LENGTH = 2000;

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

type Definition = { eventName: string; currency: string | null } | { pagePath: string; scrollThreshold: number };

/** Turns a payload into exactly one goal definition, or a sentence naming what is wrong. */
export function goalDefinition(payload: GoalPayload): Definition {
  if (payload.custom_props !== undefined && Object.keys(payload.custom_props).length > 0) {
    throw badRequest('invalid_goal', 'Goals with "custom_props" are not supported yet; send {} or leave the field out.');
  }
  if (payload.goal_type === 'event') {
    if (payload.page_path !== undefined || payload.scroll_threshold !== undefined) {
      throw badRequest('invalid_goal', 'An event goal takes "event_name", not "page_path" or "scroll_threshold".');
    }
    const eventName = payload.event_name?.trim() ?? '';
    if (eventName.length === 0) throw badRequest('invalid_goal', 'Field "event_name" is required for an event goal.');
    if (eventName.length > MAX_EVENT_NAME_LENGTH)
      throw badRequest('invalid_goal', `Field "event_name" must be at most ${MAX_EVENT_NAME_LENGTH} characters long.`);
    if (eventName === 'engagement') throw badRequest('invalid_goal', 'The event name "engagement" is reserved and cannot be used as a goal.');
    return { eventName, currency: payload.currency === undefined ? null : parseCurrency(payload.currency) };
  }
  if (payload.event_name !== undefined) throw badRequest('invalid_goal', `A ${payload.goal_type} goal takes "page_path", not "event_name".`);
  if (payload.currency !== undefined) throw badRequest('invalid_goal', 'Only event goals carry revenue; "currency" is not accepted for a page goal.');
  const raw = payload.page_path?.trim() ?? '';
  if (raw.length === 0) throw badRequest('invalid_goal', `Field "page_path" is required for a ${payload.goal_type} goal.`);
  const pagePath = raw.startsWith('/') ? raw : `/${raw}`;
  if (pagePath.length > MAX_PAGE_PATH_LENGTH || /\s/.test(pagePath)) {
    throw badRequest('invalid_goal', `Field "page_path" must be a path without spaces, at most ${MAX_PAGE_PATH_LENGTH} characters long.`);
  }
  const scrollThreshold = payload.scroll_threshold ?? -1;
  if (payload.goal_type === 'scroll' && scrollThreshold < 0) {
    throw badRequest('invalid_goal', 'A scroll goal needs "scroll_threshold" from 0 to 100 (percent of the page).');
  }
  return { pagePath, scrollThreshold };
}

function parseCurrency(input: string): string {
  const code = input.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code) || !CURRENCIES.has(code))
    throw badRequest('invalid_goal', `Field "currency" must be an ISO 4217 currency code such as EUR or USD; "${input}" is not one.`);
  return code;
}

/**
 * Find-or-create, as Plausible does: the same definition answers the existing goal. A revenue
 * goal's currency is fixed once created, so asking for the same event with another currency
 * is refused rather than silently answered with the old one.
 */
export async function findOrCreateGoal(db: MetaDb, siteId: number, payload: GoalPayload, now: number): Promise<{ goal: Goal; created: boolean }> {
  const definition = goalDefinition(payload);
  const existing = await findGoalByDefinition(db, siteId, definition);
  if (existing) {
    if ('eventName' in definition && payload.currency !== undefined && existing.currency !== definition.currency) {
      throw badRequest(
        'goal_currency_fixed',
        `The goal for event "${definition.eventName}" already exists ${existing.currency ? `with currency ${existing.currency}` : 'without revenue'}; a goal's currency cannot change.`,
      );
    }
    return { goal: existing, created: false };
  }
  const displayName = payload.display_name?.trim() || defaultGoalName(definition);
  if (await findGoalByDisplayName(db, siteId, displayName)) {
    throw badRequest('goal_name_taken', `Another goal of this site is already called "${displayName}"; give a different "display_name".`);
  }
  const goal = await insertGoal(
    db,
    {
      siteId,
      eventName: 'eventName' in definition ? definition.eventName : null,
      pagePath: 'pagePath' in definition ? definition.pagePath : null,
      scrollThreshold: 'pagePath' in definition ? definition.scrollThreshold : -1,
      currency: 'eventName' in definition ? definition.currency : null,
      displayName,
    },
    now,
  );
  return { goal, created: true };
}

/** Plausible's goal JSON, with the scroll threshold and currency this service also keeps. */
export function goalJson(goal: Goal, domain: string): GoalJson {
  return {
    id: goal.id,
    goal_type: goal.eventName !== null ? 'event' : goal.scrollThreshold >= 0 ? 'scroll' : 'page',
    event_name: goal.eventName,
    page_path: goal.pagePath,
    scroll_threshold: goal.scrollThreshold,
    display_name: goal.displayName,
    currency: goal.currency,
    custom_props: {},
    domain,
  };
}

/** Deletes one of a site's goals; an id the site does not have is refused, not ignored. */
export async function removeGoal(db: MetaDb, siteId: number, goalId: number): Promise<void> {
  if (!(await deleteGoal(db, siteId, goalId))) throw notFound('Goal could not be found.');
}
