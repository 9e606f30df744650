import { describe, expect, it } from 'vitest';
import { recentAnswers } from './recentAnswers';

function setup(max = 3) {
  let now = 1_000;
  const asked: string[] = [];
  const answers = recentAnswers<string>({ freshForMs: 30_000, max, now: () => now });
  const ask = (key: string) =>
    answers.through(key, async () => {
      asked.push(key);
      return `answer to ${key} at ${now}`;
    });
  return { ask, asked, later: (ms: number) => (now += ms) };
}

describe('recent answers', () => {
  it('answers a view seen moments ago from what it answered, and asks again once it is not fresh', async () => {
    const { ask, asked, later } = setup();
    expect(await ask('91d')).toBe('answer to 91d at 1000');
    later(29_999);
    expect(await ask('91d')).toBe('answer to 91d at 1000');
    later(1);
    expect(await ask('91d')).toBe('answer to 91d at 31000');
    expect(asked).toEqual(['91d', '91d']);
  });

  it('keeps no failure: a refused or abandoned request is asked again', async () => {
    const answers = recentAnswers<string>({ freshForMs: 30_000, max: 3, now: () => 0 });
    await expect(answers.through('year', () => Promise.reject(new Error('aborted')))).rejects.toThrow('aborted');
    expect(await answers.through('year', async () => 'answered')).toBe('answered');
  });

  it('lets the answers that came first go past its size', async () => {
    const { ask, asked } = setup(2);
    await ask('a');
    await ask('b');
    await ask('c');
    await ask('b');
    await ask('a');
    await ask('c');
    expect(asked).toEqual(['a', 'b', 'c', 'a']);
  });
});
