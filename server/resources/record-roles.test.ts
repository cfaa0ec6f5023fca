import type request from 'supertest';
import { VIEWER_CANNOT_CHANGE_RECORDS, type RecordListPayload, type StaffRole } from '../../shared';
import { addUser, createDemoApp, signedInAgent, type DemoTestApp } from '../../testing/server/test-app';

/**
 * The roles that govern records: a viewer reads records but is refused every change (403, saying why), an editor
 * and an account without a role (an editor, as before roles existed) change them, and so does an operator.
 */
let host: DemoTestApp;
beforeEach(async () => {
  host = await createDemoApp();
});
afterEach(() => host.close());

const PASSWORD = 'correct horse battery';

async function agentWithRole(username: string, role: StaffRole | null): Promise<request.Agent> {
  await addUser(host.app, username, PASSWORD, ['acme']);
  if (role !== null) await host.app.users.setRole(username, role);
  return signedInAgent(host.app, username, PASSWORD);
}

async function firstArticleId(agent: request.Agent): Promise<number> {
  const list = (await agent.get('/api/resources/articles/records?limit=2').expect(200)).body as RecordListPayload;
  return list.records[0]!.id;
}

/** Every change of records the API offers, each as its request. */
function changes(agent: request.Agent, id: number) {
  const records = '/api/resources/articles/records';
  return {
    create: () => agent.post(records).send({ title: 'New one', label: 'new' }),
    update: () => agent.put(`${records}/${id}`).send({ title: 'Renamed' }),
    bulk: () => agent.post(`${records}/bulk`).send({ action: 'update', ids: [id], values: { group: 'news' } }),
    delete: () => agent.delete(`${records}/${id}`),
    restore: () => agent.post(`${records}/${id}/restore`),
  };
}

it('refuses a viewer every change of records with 403 naming the role, and changes nothing; reading works', async () => {
  const viewer = await agentWithRole('vera', 'viewer');
  const id = await firstArticleId(viewer);
  const before = (await viewer.get(`/api/resources/articles/records/${id}`).expect(200)).body;
  const count = (await viewer.get('/api/resources/articles/records').expect(200)).body.page.total.count;
  for (const [name, send] of Object.entries(changes(viewer, id))) {
    const answer = await send();
    expect([name, answer.status]).toEqual([name, 403]);
    expect(answer.body).toEqual({ error: { code: 'forbidden', message: VIEWER_CANNOT_CHANGE_RECORDS } });
    expect(answer.body.error.message).toMatch(/viewer role/);
  }
  expect((await viewer.get(`/api/resources/articles/records/${id}`).expect(200)).body).toEqual(before);
  expect((await viewer.get('/api/resources/articles/records').expect(200)).body.page.total.count).toBe(count);
  await viewer.get('/api/resources/articles').expect(200);
});

it.each<[string, StaffRole | null]>([
  ['an account without a role', null],
  ['an editor', 'editor'],
  ['an operator', 'operator'],
])('lets %s create, update, bulk-change, delete and restore records', async (_who, role) => {
  const agent = await agentWithRole('ed', role);
  const id = await firstArticleId(agent);
  const change = changes(agent, id);
  expect((await change.create()).status).toBe(201);
  expect((await change.update()).status).toBe(200);
  expect((await change.bulk()).status).toBe(200);
  expect((await change.delete()).status).toBe(200);
  expect((await change.restore()).status).toBe(200);
});

it('sends the role to the host with /me, and a role taken away makes the account an editor at its next request', async () => {
  const viewer = await agentWithRole('vera', 'viewer');
  expect((await viewer.get('/me').expect(200)).body.user.roles).toEqual(['viewer']);
  await host.app.users.setRole('vera', null);
  // Counted at the next request of the same session: no new sign-in needed.
  const again = viewer;
  expect((await again.get('/me').expect(200)).body.user.roles).toEqual([]);
  const id = await firstArticleId(again);
  expect((await changes(again, id).update()).status).toBe(200);
});
