import { list as isbotPatterns } from 'isbot';
import { LRUCache } from 'lru-cache';
import type { ListSource } from './listFiles.js';
import { parseList } from './listFiles.js';

/**
 * Agents longer than this are checked on their first 1,024 characters only, so a hostile
 * 10 kB agent costs what an ordinary one does; every known bot names itself well before that.
 */
export const USER_AGENT_CHECK_LENGTH = 1_024;

/** What an agent alone says about a visit. */
export type AgentVerdict = 'automation' | 'bot' | 'person';

/** The compiled agent patterns, with verdicts cached per agent: isbot is the costly part of a browser agent's verdict. */
export interface AgentRules {
  readonly automation: RegExp;
  readonly bots: RegExp;
  readonly verdicts: LRUCache<string, AgentVerdict>;
}

const VERDICT_CACHE_ENTRIES = 10_000;

/** Substring patterns of one or more lists (bots.txt, automation.txt), lower-cased. */
export function parseAgentPatterns(sources: ListSource[]): string[] {
  return sources.flatMap((source) =>
    parseList(source, 'a user-agent substring of at least 3 characters', (entry) => (entry.length >= 3 ? entry.toLowerCase() : undefined)),
  );
}

/** Automation patterns alone; bot patterns joined to isbot's so an agent is scanned once. */
export function compileAgentRules(automationPatterns: readonly string[], botPatterns: readonly string[]): AgentRules {
  return {
    automation: new RegExp(automationPatterns.map(escapeRegExp).join('|'), 'i'),
    bots: new RegExp([...isbotPatterns, ...botPatterns.map(escapeRegExp)].join('|'), 'i'),
    verdicts: new LRUCache({ max: VERDICT_CACHE_ENTRIES }),
  };
}

/** Automation first, then bots; an empty or blank agent counts as a bot (no browser sends one). */
export function agentVerdict(rules: AgentRules, userAgent: string): AgentVerdict {
  const agent = userAgent.length > USER_AGENT_CHECK_LENGTH ? userAgent.slice(0, USER_AGENT_CHECK_LENGTH) : userAgent;
  let verdict = rules.verdicts.get(agent);
  if (verdict === undefined) {
    const trimmed = agent.trim();
    verdict = rules.automation.test(trimmed) ? 'automation' : trimmed === '' || rules.bots.test(trimmed) ? 'bot' : 'person';
    rules.verdicts.set(agent, verdict);
  }
  return verdict;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
