import { list as isbotPatterns } from 'isbot';
import type { ListSource } from './listFiles.js';
import { parseList } from './listFiles.js';

/**
 * Agents longer than this are checked on their first 1,024 characters only, so a hostile
 * 10 kB agent costs what an ordinary one does; every known bot names itself well before that.
 */
export const USER_AGENT_CHECK_LENGTH = 1_024;

const PATTERN_EXPECTED = 'a user-agent substring of at least 3 characters';

/** Substring patterns of one or more lists (bots.txt, automation.txt), lower-cased. */
export function parseAgentPatterns(sources: ListSource[]): string[] {
  return sources.flatMap((source) =>
    parseList(source, PATTERN_EXPECTED, (entry) => (entry.length >= 3 ? entry.toLowerCase() : undefined)),
  );
}

/** One case-insensitive regular expression matching any of the substrings. */
export function substringMatcher(patterns: readonly string[]): RegExp {
  return new RegExp(patterns.map(escapeRegExp).join('|'), 'i');
}

/** isbot's own patterns plus ours, compiled into one expression so an agent is scanned once. */
export function botMatcher(patterns: readonly string[]): RegExp {
  return new RegExp([...isbotPatterns, ...patterns.map(escapeRegExp)].join('|'), 'i');
}

/** The agent as checked: capped, and empty when it is only whitespace (an empty agent counts as a bot). */
export function checkedAgent(userAgent: string): string {
  const capped = userAgent.length > USER_AGENT_CHECK_LENGTH ? userAgent.slice(0, USER_AGENT_CHECK_LENGTH) : userAgent;
  return capped.trim();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
