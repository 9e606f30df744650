import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/stores/meta/apiKeys.js';
import { createUserWithTeam } from '../../src/stores/meta/users.js';
import { SMALL_SITE, SMALL_SITE_NOW } from '../query/smallSite.js';
import { insertEvents } from '../support/eventFixtures.js';
import { ManualClock } from '../support/manualClock.js';
import { type Account, createAccount, startTestApp, type TestApp } from '../support/testApp.js';
import { apiClient, testEnv } from './client.js';

let t: TestApp;
let owner: Account;
beforeAll(async () => {
  t = await startTestApp({ clock: new ManualClock(SMALL_SITE_NOW), env: testEnv() });
  owner = await createAccount(t.app);
  await insertEvents(t.app, owner.siteId, SMALL_SITE);
});
afterAll(() => t.close());

const ALL_SCOPES = ['stats:read', 'sites:read', 'sites:provision'];

/** Another member of the owner's team, with this role, and a key of theirs. */
async function teammate(role: string, scopes = ALL_SCOPES) {
  const now = t.app.clock.now();
  const tag = Math.random().toString(36).slice(2, 8);
  const { userId } = await createUserWithTeam(t.app.meta.db, { email: `${role}-${tag}@example.com`, name: `A ${role}` }, now);
  await t.app.meta.db.insertInto('memberships').values({ team_id: owner.teamId, user_id: userId, role, created_at: now }).execute();
  const { key } = await createApiKey(t.app.meta.db, { teamId: owner.teamId, userId, name: 'test', scopes }, now);
  return apiClient(t.url, key);
}

const segments = (site = owner.domain) => `/api/v1/sites/${site}/segments`;
const germany = { filters: [['is', 'visit:country', ['DE']]], labels: { DE: 'Germany' } };

describe('saved segments', () => {
  it('creates, lists, renames, updates and deletes a personal segment', async () => {
    const api = apiClient(t.url, owner.key);
    const created = await api.post(segments(), { name: ' Germany ', segment_data: germany });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Germany', type: 'personal', segment_data: germany, owner_id: owner.userId, owner_name: expect.any(String) });
    const id = created.body.id;
    expect((await api.get(segments())).body.segments.map((s: { id: number }) => s.id)).toContain(id);

    const renamed = await api.patch(`${segments()}/${id}`, { name: 'German visitors' });
    expect(renamed.body).toMatchObject({ id, name: 'German visitors', segment_data: germany });
    const pricing = { filters: [['is', 'event:page', ['/pricing']]], labels: {} };
    const updated = await api.patch(`${segments()}/${id}`, { segment_data: pricing });
    expect(updated.body).toMatchObject({ name: 'German visitors', segment_data: pricing });

    expect((await api.delete(`${segments()}/${id}`)).body).toEqual({ deleted: true });
    expect(await api.delete(`${segments()}/${id}`)).toEqual({ status: 404, body: { error: 'Segment could not be found.', code: 'not_found' } });
  });

  it('shows a personal segment to its owner only, and a shared one to everyone on the team', async () => {
    const api = apiClient(t.url, owner.key);
    const viewer = await teammate('viewer', ['stats:read', 'sites:read']);
    const mine = (await viewer.post(segments(), { name: 'Mine', segment_data: germany })).body;
    const shared = (await api.post(segments(), { name: 'Team view', type: 'site', segment_data: germany })).body;
    expect(shared.type).toBe('site');

    const viewerSees = (await viewer.get(segments())).body.segments.map((s: { name: string }) => s.name);
    expect(viewerSees).toEqual(expect.arrayContaining(['Mine', 'Team view']));
    const ownerSees = (await api.get(segments())).body.segments.map((s: { name: string }) => s.name);
    expect(ownerSees).toContain('Team view');
    expect(ownerSees).not.toContain('Mine');
    // Another's personal segment is not theirs to change, nor to filter on.
    expect((await api.patch(`${segments()}/${mine.id}`, { name: 'Taken' })).status).toBe(404);
    const foreign = await query(api, [['is', 'segment', [mine.id]]]);
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toContain(`no segment ${mine.id}`);
    expect((await query(viewer, [['is', 'segment', [mine.id]]])).status).toBe(200);
  });

  it('lets editors and up share segments, not viewers', async () => {
    const viewer = await teammate('viewer', ['stats:read', 'sites:read']);
    const refused = await viewer.post(segments(), { name: 'Shared', type: 'site', segment_data: germany });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toContain('sites:provision');
    const viewerWithKey = await teammate('viewer');
    const byRole = await viewerWithKey.post(segments(), { name: 'Shared', type: 'site', segment_data: germany });
    expect(byRole.status).toBe(403);
    expect(byRole.body.error).toContain('editor');

    const editor = await teammate('editor');
    const shared = await editor.post(segments(), { name: 'Shared by an editor', type: 'site', segment_data: germany });
    expect(shared.status).toBe(201);
    // A viewer sees it and filters on it, but may not change it.
    expect((await viewerWithKey.patch(`${segments()}/${shared.body.id}`, { name: 'Mine now' })).status).toBe(403);
    expect((await viewerWithKey.delete(`${segments()}/${shared.body.id}`)).status).toBe(403);
    expect((await query(viewerWithKey, [['is', 'segment', [shared.body.id]]])).status).toBe(200);
    // A personal segment becomes shared only by someone who may share.
    const personal = (await viewerWithKey.post(segments(), { name: 'Personal', segment_data: germany })).body;
    expect((await viewerWithKey.patch(`${segments()}/${personal.id}`, { type: 'site' })).status).toBe(403);
  });

  it('filters a query by a segment as by its filters', async () => {
    const api = apiClient(t.url, owner.key);
    const segment = (await api.post(segments(), { name: 'Germany', segment_data: germany })).body;
    const bySegment = await query(api, [['is', 'segment', [segment.id]]]);
    const byFilters = await query(api, germany.filters);
    expect(bySegment.status).toBe(200);
    expect(bySegment.body.results).toEqual(byFilters.body.results);
    expect(bySegment.body.results).toEqual([{ metrics: [2], dimensions: [] }]);
    expect(bySegment.body.query.filters).toEqual([['is', 'segment', [segment.id]]]);
    // Beside other filters, and under a combinator.
    const both = await query(api, [
      ['is', 'segment', [segment.id]],
      ['is', 'visit:source', ['Twitter']],
    ]);
    expect(both.body.results).toEqual([{ metrics: [1], dimensions: [] }]);
    const negated = await query(api, [['not', ['is', 'segment', [segment.id]]]]);
    expect(negated.body.results).toEqual((await query(api, [['not', germany.filters[0]]])).body.results);
  });

  it('refuses bad segments and bad segment filters with a sentence', async () => {
    const api = apiClient(t.url, owner.key);
    const other = await createAccount(t.app);
    const elsewhere = (await apiClient(t.url, other.key).post(segments(other.domain), { name: 'Elsewhere', type: 'site', segment_data: germany })).body;
    const cases: Array<[unknown[], string]> = [
      [[['is', 'segment', [elsewhere.id]]], `no segment ${elsewhere.id} among the segments of ${owner.domain}`],
      [[['is', 'segment', [999999]]], 'no segment 999999'],
      [[['is_not', 'segment', [1]]], 'with "is" only'],
      [[['is', 'segment', ['x']]], 'ids of saved segments'],
      [[['has_done', ['is', 'segment', [1]]]], 'cannot stand inside has_done'],
    ];
    for (const [filters, sentence] of cases) {
      const res = await query(api, filters);
      expect(res.status, JSON.stringify(filters)).toBe(400);
      expect(res.body.error).toContain(sentence);
    }
    const payloads: Array<[unknown, string]> = [
      [{ name: '', segment_data: germany }, '"name"'],
      [{ name: 'No filters', segment_data: { filters: [] } }, '"segment_data.filters"'],
      [{ name: 'Bad filter', segment_data: { filters: [['is', 'visit:nowhere', ['x']]] } }, '#/segment_data/filters/0'],
      [{ name: 'Nested', segment_data: { filters: [['is', 'segment', [1]]] } }, 'cannot hold another segment'],
      [{ name: 'Kind', type: 'team', segment_data: germany }, '"type"'],
      [{ name: 'Extra', segment_data: germany, colour: 'red' }, '"colour"'],
    ];
    for (const [body, mention] of payloads) {
      const res = await api.post(segments(), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toContain(mention);
    }
    expect((await api.get(segments('nowhere.example.com'))).status).toBe(404);
    expect((await api.delete(`${segments()}/abc`)).status).toBe(400);
  });
});

function query(api: ReturnType<typeof apiClient>, filters: unknown[]) {
  return api.post('/api/v2/query', { site_id: owner.domain, metrics: ['visitors'], date_range: '7d', filters });
}
