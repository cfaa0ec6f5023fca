/**
 * The draft's version: a save (or a rollback, which replaces the draft) that names the `updatedAt` of the draft it
 * was made from is refused (409, naming who saved since and when) when the draft was saved since, on this host or
 * another, on SQLite and on PostgreSQL, unless the draft holds that very document by the same user (the save sent
 * again); a save without it still wins as the last.
 */
import {
  instantInUtc,
  type ErrorBody,
  type JsonValue,
  type PlacementsDocument,
  type PlacementsDraftPayload,
  type PlacementsPayload,
} from '../../shared';
import { createFixtureDist, type FixtureDist } from '../../testing/server/fixture-dist';
import { addPlacedRemotes, newsTickerAt } from '../../testing/server/placements-fixtures';
import { describeWithPostgres, usePostgresDatabases } from '../../testing/server/postgres-server';
import {
  closeTwoHosts,
  createTestApp,
  createTwoHosts,
  signedInAgent,
  signedInOperator,
  type TestApp,
  type TestAppOptions,
} from '../../testing/server/test-app';

jest.setTimeout(60_000);

let dist: FixtureDist;
beforeAll(() => {
  dist = createFixtureDist();
  addPlacedRemotes(dist);
});
afterAll(() => dist.remove());

async function savesRefusedWhenStale(first: TestApp, second: TestApp): Promise<void> {
  const onFirst = await signedInOperator(first.app);
  const onSecond = await signedInAgent(second.app);
  const loaded = (await onSecond.get('/api/placements').expect(200)).body as PlacementsPayload;
  expect(loaded.draft.updatedAt).toBeNull();

  const saved = (
    await onFirst
      .put('/api/placements/draft')
      .send({ document: newsTickerAt(10), expectedUpdatedAt: null })
      .expect(200)
  ).body as PlacementsDraftPayload;
  const version = saved.draft.updatedAt;
  expect(version).not.toBeNull();

  // The same save sent again on the other host, as nginx resends a PUT whose host dropped the connection after
  // saving it: answered as the first, the draft not written again (its version stays).
  const replayed = await onSecond
    .put('/api/placements/draft')
    .send({ document: newsTickerAt(10), expectedUpdatedAt: null })
    .expect(200);
  expect(replayed.body).toEqual(saved);

  // The second host's editor still holds the draft as it was before that save.
  const refused = await onSecond
    .put('/api/placements/draft')
    .send({ document: newsTickerAt(20), expectedUpdatedAt: loaded.draft.updatedAt })
    .expect(409);
  const body = refused.body as ErrorBody;
  expect(body.error).toMatchObject({ code: 'conflict', savedDraft: { updatedBy: 'admin', updatedAt: version } });
  expect(body.error.message).toBe(
    `The draft was saved by admin at ${instantInUtc(version!)} since you loaded it: reload it to see their changes ` +
      '(yours are not saved), then make yours again.',
  );
  expect(body.error.message).toMatch(/ at \d{4}-\d\d-\d\d \d\d:\d\d UTC since/);
  const kept = (await onSecond.get('/api/placements').expect(200)).body as PlacementsPayload;
  expect(kept.draft).toMatchObject({ document: newsTickerAt(10), updatedAt: version });

  // Made from the draft now saved, the save goes through, and moves the version.
  const next = (
    await onSecond
      .put('/api/placements/draft')
      .send({ document: newsTickerAt(30), expectedUpdatedAt: version })
      .expect(200)
  ).body as PlacementsDraftPayload;
  expect(next.draft.updatedAt).not.toBe(version);
  await onFirst
    .put('/api/placements/draft')
    .send({ document: newsTickerAt(40), expectedUpdatedAt: version })
    .expect(409);

  // A rollback makes a draft too: a save made before it is stale.
  await onFirst.post('/api/placements/publish').send({}).expect(201);
  await onFirst.post('/api/placements/rollback').send({ revision: 1 }).expect(201);
  await onSecond
    .put('/api/placements/draft')
    .send({ document: newsTickerAt(50), expectedUpdatedAt: next.draft.updatedAt })
    .expect(409);

  // Without a version the last save wins; a version that is not a time is refused.
  await onSecond
    .put('/api/placements/draft')
    .send({ document: newsTickerAt(60) })
    .expect(200);
  const bad = await onFirst
    .put('/api/placements/draft')
    .send({ document: newsTickerAt(70), expectedUpdatedAt: 'yesterday' })
    .expect(400);
  expect((bad.body as ErrorBody).error.message).toMatch(/"expectedUpdatedAt" must be/);

  // A rollback replaces the draft: like a publish, one naming a draft saved since (on the other host) is refused,
  // in the service and again in the store's write, and the draft saved since stays.
  const seen = ((await onFirst.get('/api/placements').expect(200)).body as PlacementsPayload).draft.updatedAt;
  await onSecond
    .put('/api/placements/draft')
    .send({ document: newsTickerAt(80) })
    .expect(200);
  const rolledOver = await onFirst.post('/api/placements/rollback').send({ revision: 1, expectedUpdatedAt: seen });
  expect(rolledOver.status).toBe(409);
  expect((rolledOver.body as ErrorBody).error).toMatchObject({ code: 'conflict', savedDraft: { updatedBy: 'admin' } });
  const store = first.app.placements.store;
  const write = store.publish({
    document: newsTickerAt(10) as JsonValue,
    action: 'rollback',
    restored: 1,
    actor: 'admin',
    checkedAgainst: await store.lastNumber(),
    setDraft: true,
    draftVersion: seen,
  });
  await expect(write).rejects.toThrow(/so nothing was rolled back/);
  expect((await store.draft())?.document).toEqual(newsTickerAt(80));
}

/**
 * A save sent again is answered as the first only while the draft is what that save made: saved since by another
 * account, or by the same one from another tab (even back to that very document), or replaced by a rollback, the
 * save is stale (409), as any other.
 */
async function resentSaveOnlyWhileItsDraftStands(first: TestApp, second: TestApp): Promise<void> {
  const admin = await signedInOperator(first.app);
  const colleague = await signedInOperator(second.app, 'colleague', 'correct horse battery');
  const onSecond = await signedInAgent(second.app);
  const save = (agent: typeof admin, document: PlacementsDocument, expectedUpdatedAt: string | null) =>
    agent.put('/api/placements/draft').send({ document, expectedUpdatedAt });
  const draftOf = (response: { body: unknown }) => (response.body as PlacementsDraftPayload).draft;

  // The real resend, on the other host: the first answer again, over no draft and over a saved one.
  const saved = await save(admin, newsTickerAt(10), null).expect(200);
  expect((await save(onSecond, newsTickerAt(10), null).expect(200)).body).toEqual(saved.body);
  const v1 = draftOf(saved).updatedAt;
  const next = await save(admin, newsTickerAt(20), v1).expect(200);
  expect((await save(onSecond, newsTickerAt(20), v1).expect(200)).body).toEqual(next.body);

  // Another account's save in between, then this account's own back to that very document (from another tab): the
  // earlier save, sent again, finds a draft it did not make, and is refused as any stale save.
  const theirs = draftOf(await save(colleague, newsTickerAt(30), draftOf(next).updatedAt).expect(200));
  const back = draftOf(await save(admin, newsTickerAt(20), theirs.updatedAt).expect(200));
  const stale = await save(onSecond, newsTickerAt(20), v1).expect(409);
  expect((stale.body as ErrorBody).error).toMatchObject({
    code: 'conflict',
    savedDraft: { updatedBy: 'admin', updatedAt: back.updatedAt },
  });
  // The save that made it, sent again, is answered as the first.
  expect(draftOf(await save(onSecond, newsTickerAt(20), theirs.updatedAt).expect(200))).toEqual(back);

  // A rollback by the same account to that very document is no save of it: the save it replaced, sent again, is
  // stale.
  await admin.post('/api/placements/publish').send({}).expect(201);
  const last = draftOf(await save(admin, newsTickerAt(40), back.updatedAt).expect(200));
  await admin.post('/api/placements/publish').send({}).expect(201);
  await admin.post('/api/placements/rollback').send({ revision: 1 }).expect(201);
  const rolledBack = ((await admin.get('/api/placements').expect(200)).body as PlacementsPayload).draft;
  expect(rolledBack).toMatchObject({ document: newsTickerAt(20), updatedBy: 'admin' });
  await save(admin, newsTickerAt(20), theirs.updatedAt).expect(409);
  expect(rolledBack.updatedAt).not.toBe(last.updatedAt);
}

function hostOptions(extra: TestAppOptions = {}): TestAppOptions {
  return { distDir: dist.dir, ...extra };
}

describe('draft saves on two hosts of one SQLite file', () => {
  it('refuse a save made from a draft saved since, and name who saved it', async () => {
    const hosts = await createTwoHosts(createTestApp, hostOptions());
    try {
      await savesRefusedWhenStale(...hosts);
    } finally {
      await closeTwoHosts(hosts);
    }
  });

  it('answer a save sent again as the first only while the draft is what it made', async () => {
    const hosts = await createTwoHosts(createTestApp, hostOptions());
    try {
      await resentSaveOnlyWhileItsDraftStands(...hosts);
    } finally {
      await closeTwoHosts(hosts);
    }
  });
});

describeWithPostgres()('draft saves on two hosts of one PostgreSQL', () => {
  const databases = usePostgresDatabases('placements_draft_version', { poolSize: 4, statementTimeoutMs: 5000 });

  it('refuse a save made from a draft saved since, and name who saved it', async () => {
    const hosts = await createTwoHosts(createTestApp, hostOptions({ storage: await databases.create() }));
    try {
      await savesRefusedWhenStale(...hosts);
    } finally {
      await closeTwoHosts(hosts);
    }
  });

  it('answer a save sent again as the first only while the draft is what it made', async () => {
    const hosts = await createTwoHosts(createTestApp, hostOptions({ storage: await databases.create() }));
    try {
      await resentSaveOnlyWhileItsDraftStands(...hosts);
    } finally {
      await closeTwoHosts(hosts);
    }
  });
});
