import type { JourneyStep, JourneysResponse, LabelledStep } from '@contracts/journeys';
import { describe, expect, it } from 'vitest';
import { chartSteps, columnTitle, funnelName, type Journey, samplingNote, stepOf, suggestedNext, suggestJourney } from './journey';

const page = (path: string): LabelledStep => ({ page: path, label: path });
const folder = (path: string, pages: number): LabelledStep => ({ page: `${path}/**`, label: `${path}/** (${pages} pages)`, pages });
const event = (name: string, path: string): LabelledStep => ({ event: name, page: path, label: `${name} on ${path}` });

/** An answer listing these next steps, most visitors first as the API ranks them. */
function answer(next: [LabelledStep, number][], sampleRate = 1): JourneysResponse {
  return {
    funnel: [],
    next: next.map(([step, visitors]) => ({ step, visitors })),
    meta: { sample_rate: sampleRate },
    query: {
      site_id: 'example.com',
      date_range: ['2024-01-01T00:00:00Z', '2024-01-28T23:59:59Z'],
      filters: [],
      steps: [],
      direction: 'forward',
      timezone: 'UTC',
    },
  };
}

/** The answers of a site, by the steps asked (as the request sends them), and the questions asked in order. */
function answering(answers: Record<string, JourneysResponse>) {
  const asked: JourneyStep[][] = [];
  const ask = async (steps: JourneyStep[]) => {
    asked.push(steps);
    const found = answers[JSON.stringify(steps)];
    if (!found) throw new Error(`not asked for in this test: ${JSON.stringify(steps)}`);
    return found;
  };
  return { ask, asked };
}
const key = (...paths: string[]) => JSON.stringify(paths.map((path) => ({ page: path })));

// The suggested journey Explore opens on (journey.ts), from answers as the journeys API gives them.
describe('the suggested journey', () => {
  it('takes the most common first step, then the most common next one not yet taken', async () => {
    const { ask, asked } = answering({
      [key()]: answer([
        [page('/'), 11],
        [page('/pricing'), 10],
      ]),
      [key('/')]: answer([
        [page('/pricing'), 6],
        [page('/blog/a'), 3],
      ]),
      // Back to the start is not a new step: the next most common is.
      [key('/', '/pricing')]: answer([
        [page('/'), 7],
        [page('/signup'), 5],
      ]),
      [key('/', '/pricing', '/signup')]: answer([]),
    });
    const journey = await suggestJourney(ask);
    expect(journey.steps.map((s) => s.label)).toEqual(['/', '/pricing', '/signup']);
    expect(journey.answers).toHaveLength(4);
    expect(asked).toEqual([[], [{ page: '/' }], [{ page: '/' }, { page: '/pricing' }], [{ page: '/' }, { page: '/pricing' }, { page: '/signup' }]]);
  });

  it('stops at six steps, asking once for each and once for the column after the last', async () => {
    const paths = ['/a', '/b', '/c', '/d', '/e', '/f', '/g', '/h'];
    const answers = Object.fromEntries(paths.map((_, i) => [key(...paths.slice(0, i)), answer([[page(paths[i]!), 10 - i]])]));
    const { ask, asked } = answering(answers);
    const seen: Journey[] = [];
    const journey = await suggestJourney(ask, (sofar) => seen.push(sofar));
    expect(journey.steps.map((s) => s.page)).toEqual(paths.slice(0, 6));
    expect(asked).toHaveLength(7);
    // Each answer is heard with the step chosen from it, before the next question.
    expect(seen.map((j) => [j.steps.length, j.answers.length])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
      [5, 5],
      [6, 6],
    ]);
  });

  it('passes over folders and steps already taken, and sends steps without their labels', () => {
    const next = answer([
      [folder('/blog', 3), 9],
      [page('/'), 8],
      [event('Signup', '/pricing'), 2],
    ]);
    expect(suggestedNext([{ page: '/' }], next)).toEqual(event('Signup', '/pricing'));
    expect(suggestedNext([{ page: '/' }, { event: 'Signup', page: '/pricing' }], next)).toBeNull();
    expect(stepOf(folder('/blog', 3))).toEqual({ page: '/blog/**' });
    expect(stepOf(event('Signup', '/pricing'))).toEqual({ event: 'Signup', page: '/pricing' });
  });

  it('is empty on a site without visitors in the range', async () => {
    const { ask } = answering({ [key()]: answer([]) });
    expect(await suggestJourney(ask)).toEqual({ steps: [], answers: [answer([])] });
  });
});

describe('the words of a journey', () => {
  it('heads columns from the first step, or backward from the last', () => {
    expect([0, 1, 2].map((i) => columnTitle(i, 'forward'))).toEqual(['First step', '1 step after', '2 steps after']);
    expect([0, 1, 2].map((i) => columnTitle(i, 'backward'))).toEqual(['Last step', '1 step before', '2 steps before']);
  });

  it('names a funnel by its steps in time order, a backward journey reversed', () => {
    const steps = [{ page: '/pricing' }, { event: 'Signup', page: '/signup' }, { page: '/blog/**' }];
    expect(funnelName(steps, 'forward')).toBe('/pricing → Signup on /signup → /blog/**');
    expect(funnelName(steps, 'backward')).toBe('/blog/** → Signup on /signup → /pricing');
    const long = funnelName([{ page: `/${'a'.repeat(100)}` }, { page: `/${'b'.repeat(100)}` }], 'forward');
    expect(long).toHaveLength(120);
    expect(long.endsWith('…')).toBe(true);
  });

  it('draws the funnel with the dashboard’s chart, and says when the answer was sampled', () => {
    const funnel = [{ step: page('/'), visitors: 11, dropoff: 0, dropoff_percentage: 0, conversion_rate: 100, conversion_rate_step: 100 }];
    expect(chartSteps(funnel)).toEqual([
      { label: '/', visitors: 11, dropoff: 0, dropoff_percentage: '0', conversion_rate: '100', conversion_rate_step: '100' },
    ]);
    expect(samplingNote({ sample_rate: 1 })).toBeNull();
    expect(samplingNote({ sample_rate: 0.1 })).toBe('Estimated from a sample of 10% of visitors, scaled up.');
    expect(
      samplingNote({
        sample_rate: 0.004,
        sampling: { rate: 0.004, scaled_metrics: ['visitors'], direct_metrics: [], warnings: [{ code: 'sparse_sample', warning: 'The sample is sparse.' }] },
      }),
    ).toBe('Estimated from a sample of 0.4% of visitors, scaled up. The sample is sparse.');
  });
});
