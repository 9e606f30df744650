import { ApiError } from '../../../api';

/**
 * What a panel says when its numbers cannot be read: the engine's sentences are written for API
 * clients (JSON pointers, dimension names), so a refused view reads as what to do about it. A
 * locked team or a lost session keeps the server's own sentence, meant for people.
 */
export function panelError(failure: Error): string {
  if (failure instanceof ApiError && failure.status === 400) return 'These numbers cannot be shown with this view’s filters; change or remove a filter.';
  if (failure instanceof ApiError && (failure.status === 401 || failure.status === 402 || failure.status === 403)) return failure.message;
  return 'The numbers could not be loaded; try again in a moment.';
}
