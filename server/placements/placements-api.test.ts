/**
 * Placements in the database through the whole app over HTTP: the operator role, the draft and its problems slot
 * by slot, the diff, publishing (served on /meta at once, combined with code and REMOTES_CONFIG), a refused publish
 * that changes nothing, rollback, the audit trail, export and import, and a REMOTES_CONFIG reload that keeps them.
 */
import request from 'supertest';
import {
  ERROR_MESSAGES,
  OPERATOR_ROLE,
  PERMISSION_REFUSED,
  PLACEMENTS_EDIT,
  Slot,
  SlotLocation,
  type LocationsPayload,
  type MetaPayload,
  type PlacementAuditPayload,
  type PlacementRevision,
  type PlacementRevisionsPayload,
  type PlacementsDiffPayload,
  type PlacementsDraftPayload,
  type PlacementsPayload,
  type SlotInspectionPayload,
} from '../../shared';
import { createFixtureDist, type FixtureDist } from '../../testing/server/fixture-dist';
import { JSON_BODY_MESSAGES } from '../http/require-json-body';
import { addPlacedRemotes, BANNER_SCHEMA } from '../../testing/server/placements-fixtures';
import { addUser, createTestApp, signedInAgent, signedInOperator, type TestApp } from '../../testing/server/test-app';

const PASSWORD = 'correct horse battery';

let dist: FixtureDist;
/** The environment of the app: its REMOTES_CONFIG. */
let remotesEnv: () => Record<string, string>;
let testApp: TestApp;
let operator: Awaited<ReturnType<typeof signedInAgent>>;

/** Code places Welcome; the file places the billing remote's InvoiceNote; nothing in the database yet. */
beforeEach(async () => {
  dist = createFixtureDist();
  addPlacedRemotes(dist);
  const config = {
    remotes: [{ name: 'team_billing', slots: { 'dashboard-before-cards': [{ component: 'InvoiceNote' }] } }],
    locations: { 'header-banner': ['team_news'] },
  };
  const file = dist.write('remotes.json', JSON.stringify(config));
  remotesEnv = () => ({ REMOTES_CONFIG: file });
  testApp = await createTestApp({
    distDir: dist.dir,
    env: remotesEnv(),
    configure: (app) => app.registerSlots({ 'dashboard-before-cards': Slot.make('Welcome') }),
  });
  operator = await signedInOperator(testApp.app, 'ops', PASSWORD);
  await addUser(testApp.app, 'viewer', PASSWORD, ['acme']);
});
afterEach(async () => {
  await testApp.close();
  dist.remove();
});

const DOCUMENT = {
  remotes: [
    {
      name: 'team_billing',
      slots: { 'dashboard-before-cards': [{ component: 'InvoiceBanner', props: { title: 'Due' }, priority: 10 }] },
    },
  ],
};

async function saveDraft(document: unknown): Promise<PlacementsDraftPayload> {
  return (await operator.put('/api/placements/draft').send({ document }).expect(200)).body as PlacementsDraftPayload;
}

async function dashboardSlots(): Promise<string[]> {
  const meta = (await operator.get('/meta').expect(200)).body as MetaPayload;
  return (meta.slots['dashboard-before-cards'] ?? []).map((entry) => entry.component);
}

describe('who may use the placements API', () => {
  it('answers 401 without a session, 403 JSON to staff without the operator role', async () => {
    const anonymous = await request(testApp.app.handler).get('/api/placements').expect(401);
    expect(anonymous.body.error.code).toBe('unauthenticated');
    const viewer = await signedInAgent(testApp.app, 'viewer', PASSWORD);
    for (const [method, path] of [
      ['get', '/api/placements'],
      ['get', '/api/placements/revisions'],
      ['get', '/api/placements/export'],
      ['post', '/api/placements/publish'],
    ] as const) {
      const response = await viewer[method](path).send({}).expect(403);
      expect(response.body.error).toEqual({ code: 'forbidden', message: PERMISSION_REFUSED[PLACEMENTS_EDIT] });
    }
    await viewer.put('/api/placements/draft').send({ document: DOCUMENT }).expect(403);
    expect(await testApp.app.placements.store.draft()).toBeNull();
  });

  it('refuses a cross-site write of an operator', async () => {
    const response = await operator
      .post('/api/placements/publish')
      .set('Origin', 'https://evil.example.com')
      .send({})
      .expect(403);
    expect(response.body.error.message).toBe('Cross-site request refused.');
    expect(await testApp.app.placements.store.lastNumber()).toBe(0);
  });
});

describe('the draft', () => {
  it('starts as the empty document and is saved with each slot problem, before any publish', async () => {
    const first = (await operator.get('/api/placements').expect(200)).body as PlacementsPayload;
    expect(first).toMatchObject({
      draft: { document: { remotes: [], locations: {} }, updatedBy: null },
      published: null,
    });

    const { draft, problems } = await saveDraft({
      remotes: [
        {
          name: 'team_billing',
          slots: {
            'dashboard-before-cards': [
              { component: 'InvoiceBanner', props: { title: 3 } },
              { component: 'InvoiceBanner', props: { title: 'ok' }, priority: 'high' },
              { component: 'InvoiceNote', after: 'nowhere' },
            ],
          },
        },
      ],
    });
    expect(draft.updatedBy).toBe('ops');
    // Shape problems come first, each naming its slot; the document's other slots wait for them.
    expect(problems).toEqual([
      expect.objectContaining({
        kind: 'invalid-document',
        remote: 'team_billing',
        location: 'dashboard-before-cards',
        index: 1,
        blocking: true,
      }),
    ]);
    expect(problems[0]!.message).toMatch(/priority/);

    const fixed = await saveDraft({
      remotes: [
        {
          name: 'team_billing',
          slots: {
            'dashboard-before-cards': [
              { component: 'InvoiceBanner', props: { title: 3 } },
              { component: 'InvoiceNote', id: 'note-2', after: 'nowhere' },
            ],
            'header-banner': [{ component: 'InvoiceNote', id: 'header-note' }],
          },
        },
        { name: 'team_ghost', slots: { 'dashboard-after-cards': [{ component: 'Ghost' }] } },
      ],
    });
    const summary = fixed.problems.map(({ remote, location, index, kind }) => ({ remote, location, index, kind }));
    expect(summary).toEqual(
      expect.arrayContaining([
        { remote: 'team_billing', location: 'dashboard-before-cards', index: 0, kind: 'props-invalid' },
        { remote: 'team_billing', location: 'dashboard-before-cards', index: 1, kind: 'placement-invalid' },
        { remote: 'team_billing', location: 'header-banner', index: 0, kind: 'remote-not-allowed' },
        { remote: 'team_ghost', location: 'dashboard-after-cards', index: 0, kind: 'unknown-component' },
      ]),
    );
    expect(summary).toHaveLength(4);
    // Saved as given, problems and all: the draft is work in progress.
    const again = (await operator.get('/api/placements').expect(200)).body as PlacementsPayload;
    expect(again.problems).toHaveLength(4);
  });

  it('names each slot at a location this version does not have (an upgrade renamed or removed it)', async () => {
    const { problems } = await saveDraft({
      remotes: [
        {
          name: 'team_billing',
          slots: { 'dashboard-after-old-cards': [{ component: 'InvoiceBanner' }, { component: 'InvoiceNote' }] },
        },
      ],
    });
    expect(
      problems.map(({ remote, location, index, component, kind }) => ({ remote, location, index, component, kind })),
    ).toEqual(
      [0, 1].map((index) => ({
        remote: 'team_billing',
        location: 'dashboard-after-old-cards',
        index,
        component: ['InvoiceBanner', 'InvoiceNote'][index],
        kind: 'invalid-document',
      })),
    );
    expect(problems[1]!.message).toBe(
      'remotes[0] ("team_billing"): slots["dashboard-after-old-cards"][1] (InvoiceNote) is at ' +
        '"dashboard-after-old-cards", which is no location of this version (misspelt, or renamed or removed by an ' +
        'upgrade): remove it, or place it at another location. Locations: ' +
        `${SlotLocation.cases()
          .map((location) => location.value)
          .join(', ')}.`,
    );
  });

  it('refuses a body without a document, a non-JSON body, and a document nested too deep', async () => {
    await operator.put('/api/placements/draft').send({ remotes: [] }).expect(400);
    await operator.put('/api/placements/draft').set('Content-Type', 'text/plain').send('{}').expect(415);
    // Deeper than the document's 64 levels, within the 100 of any JSON body (require-json-body.ts).
    let deep: unknown = {};
    for (let level = 0; level < 80; level++) deep = { props: deep };
    const refused = await operator.put('/api/placements/draft').send({ document: deep }).expect(400);
    expect(refused.body.error.message).toBe('A placements document nests at most 64 levels deep.');
    await operator
      .post('/api/placements/import')
      .send({ remotes: [deep] })
      .expect(400);
    expect(await testApp.app.placements.store.draft()).toBeNull();
  });

  it('refuses a body over 512 KiB with 413, naming the limit and the size, and saves nothing', async () => {
    await saveDraft(DOCUMENT);
    const title = 'x'.repeat(600 * 1024);
    const large = {
      remotes: [
        {
          name: 'team_billing',
          slots: { 'dashboard-after-cards': [{ component: 'InvoiceBanner', props: { title } }] },
        },
      ],
    };
    const refused = await operator.put('/api/placements/draft').send({ document: large }).expect(413);
    expect(refused.body.error.code).toBe('payload_too_large');
    expect(refused.body.error.message).toMatch(
      /^Request body too large: a placements request carries at most 512 KiB of JSON \(this one: 60\d KiB\)\./,
    );
    const imported = await operator.post('/api/placements/import').send(large).expect(413);
    expect(imported.body.error.message).toMatch(/at most 512 KiB/);
    expect((await testApp.app.placements.store.draft())?.document).toEqual(DOCUMENT);
  });

  it('refuses, saving nothing, a document no editor could open again: its frame is not placements', async () => {
    await saveDraft(DOCUMENT);
    for (const document of [
      { remotes: 'x' },
      { remotes: [null] },
      { remotes: [{ name: 'team_billing', slots: { 'header-banner': 'x' } }] },
      { remotes: [{ name: 'team_billing', slots: [] }] },
      { remotes: [{ name: 'team_billing', forms: [] }] },
      { remotes: [], locations: [] },
      [],
      'text',
    ]) {
      const refused = await operator.put('/api/placements/draft').send({ document }).expect(400);
      expect(refused.body.error.message).toMatch(/^Not saved: /);
      // The same file imported (a primitive is no JSON body: refused before it).
      if (typeof document === 'object') await operator.post('/api/placements/import').send(document).expect(400);
    }
    expect((await testApp.app.placements.store.draft())?.document).toEqual(DOCUMENT);
  });
});

describe('publishing', () => {
  it('publishes the draft as revision 1, served at once after code and the file, ordered by priority', async () => {
    expect(await dashboardSlots()).toEqual(['Welcome', 'InvoiceNote']);
    const saved = await saveDraft(DOCUMENT);
    // The preview: where the draft's slot lands among code's and the file's, before publishing.
    expect(saved.preview['dashboard-before-cards']).toEqual([
      { id: 'InvoiceBanner', component: 'InvoiceBanner', remote: 'team_billing', source: 'draft' },
      { id: 'Welcome', component: 'Welcome', remote: null, source: 'code' },
      { id: 'InvoiceNote', component: 'InvoiceNote', remote: 'team_billing', source: 'file' },
    ]);
    const diff = (await operator.get('/api/placements/diff').expect(200)).body as PlacementsDiffPayload;
    // With the draft compared: a page that shows another one is behind a colleague's save.
    expect(diff).toEqual({
      revision: 0,
      draft: { updatedBy: 'ops', updatedAt: saved.draft.updatedAt },
      changes: [
        {
          change: 'added',
          location: 'dashboard-before-cards',
          remote: 'team_billing',
          id: 'InvoiceBanner',
          before: null,
          after: { component: 'InvoiceBanner', props: { title: 'Due' }, priority: 10 },
        },
      ],
    });
    const revision = (await operator.post('/api/placements/publish').send({}).expect(201)).body as PlacementRevision;
    expect(revision).toMatchObject({ number: 1, action: 'publish', publishedBy: 'ops', document: DOCUMENT });
    expect(await dashboardSlots()).toEqual(['InvoiceBanner', 'Welcome', 'InvoiceNote']);
    const after = (await operator.get('/api/placements/diff').expect(200)).body as PlacementsDiffPayload;
    expect(after).toEqual({ revision: 1, draft: diff.draft, changes: [] });
  });

  it('is listed by the location catalogue and the slot inspector as the placements’ own, apart from code’s and the file’s', async () => {
    await saveDraft(DOCUMENT);
    await operator.post('/api/placements/publish').send({}).expect(201);
    const sourcesOf = (slots: ReadonlyArray<{ component: string; source: string }> = []) =>
      slots.map(({ component, source }) => [component, source]);
    const sources = async () => {
      const catalogue = (await operator.get('/api/locations').expect(200)).body as LocationsPayload;
      const inspected = (await operator.get('/api/slots/inspect').expect(200)).body as SlotInspectionPayload;
      return {
        catalogue: sourcesOf(catalogue.locations.find((each) => each.location === 'dashboard-before-cards')?.slots),
        inspector: sourcesOf(inspected.locations['dashboard-before-cards']),
      };
    };
    const expected = {
      // In resolved order.
      catalogue: [
        ['InvoiceBanner', 'placements'],
        ['Welcome', 'code'],
        ['InvoiceNote', 'configuration'],
      ],
      // Code's, then the configured ones: the file's, then the revision's.
      inspector: [
        ['Welcome', 'code'],
        ['InvoiceNote', 'configuration'],
        ['InvoiceBanner', 'placements'],
      ],
    };
    expect(await sources()).toEqual(expected);
    // The file read again: its slots and the revision in force keep their sources.
    expect(await testApp.app.reloadRemotesConfig()).toBe(true);
    expect(await sources()).toEqual(expected);
  });

  it('refuses a draft with a blocking problem and changes nothing', async () => {
    await saveDraft(DOCUMENT);
    await operator.post('/api/placements/publish').send({}).expect(201);
    // An id the code's slot has: ids must not clash across code, the file and the database. Second in the
    // document, first on the page (priority 50 against 90).
    await saveDraft({
      remotes: [
        {
          name: 'team_billing',
          slots: {
            'dashboard-before-cards': [
              { component: 'InvoiceBanner', props: { title: 'Due' }, priority: 90 },
              { component: 'InvoiceNote', id: 'Welcome' },
            ],
          },
        },
      ],
    });
    const refused = await operator.post('/api/placements/publish').send({}).expect(400);
    expect(refused.body.error.message).toBe('The draft has 1 problem(s); nothing was published.');
    expect(refused.body.error.placementProblems).toEqual([
      // The draft's slot is named, not the code slot whose id it takes.
      expect.objectContaining({
        kind: 'placement-invalid',
        remote: 'team_billing',
        index: 1,
        component: 'InvoiceNote',
      }),
    ]);
    // Each line says where its problem is, as the page lists it (the editor that publishes may not show that slot):
    // the location's first card, whatever its index in the document.
    expect(refused.body.error.problems[0]).toMatch(
      /^dashboard-before-cards #1, InvoiceNote \(team_billing\), id "Welcome": .*"Welcome"/,
    );
    expect(await testApp.app.placements.store.lastNumber()).toBe(1);
    expect((await testApp.app.placements.store.audit()).length).toBe(1);
    expect(await dashboardSlots()).toEqual(['InvoiceBanner', 'Welcome', 'InvoiceNote']);
  });
});

describe('the diff', () => {
  it('names a draft’s slot as its order does, among the file’s; and has none for a draft it cannot read', async () => {
    // The file places InvoiceNote at the location: the draft's is the second there.
    const saved = await saveDraft({
      remotes: [{ name: 'team_billing', slots: { 'dashboard-before-cards': [{ component: 'InvoiceNote' }] } }],
    });
    const ids = saved.preview['dashboard-before-cards']!.filter((slot) => slot.source === 'draft').map(
      (slot) => slot.id,
    );
    expect(ids).toEqual(['InvoiceNote#2']);
    const diff = (await operator.get('/api/placements/diff').expect(200)).body as PlacementsDiffPayload;
    expect(diff.changes!.map(({ change, id }) => [change, id])).toEqual([['added', 'InvoiceNote#2']]);

    // A priority that is not a number: the slot cannot be read, so what a publish would do is not known.
    await saveDraft({
      remotes: [
        { name: 'team_billing', slots: { 'dashboard-before-cards': [{ component: 'InvoiceNote', priority: '7' }] } },
      ],
    });
    expect((await operator.get('/api/placements/diff').expect(200)).body).toMatchObject({ revision: 0, changes: null });
  });

  it('refuses query parameters it does not take, naming them: it compares the saved draft with the newest only', async () => {
    const refused = await operator.get('/api/placements/diff?from=1&to=2').expect(400);
    expect(refused.body.error.message).toBe('Unknown query parameter "from": the diff takes no query parameter.');
  });
});

/** Another operator (ops2) saves a draft with a slot nobody else has seen, and does not publish it. */
async function draftSavedByAnotherOperator() {
  const other = await signedInOperator(testApp.app, 'ops2', PASSWORD);
  const unseen = {
    remotes: [
      {
        name: 'team_billing',
        slots: { 'dashboard-before-cards': [{ component: 'InvoiceBanner', props: { title: 'Unseen' } }] },
      },
    ],
  };
  await other.put('/api/placements/draft').send({ document: unseen }).expect(200);
  return { other, unseen };
}

describe('rolling back over a saved draft', () => {
  it('refuses a rollback from a page that loaded another draft than the one saved since (409), as a publish', async () => {
    await saveDraft(DOCUMENT);
    await operator.post('/api/placements/publish').send({}).expect(201);
    const loaded = ((await operator.get('/api/placements').expect(200)).body as PlacementsPayload).draft.updatedAt;
    // Another operator saves changes nobody else has seen, and does not publish them.
    const { other, unseen } = await draftSavedByAnotherOperator();

    const refused = await operator
      .post('/api/placements/rollback')
      .send({ revision: 1, expectedUpdatedAt: loaded })
      .expect(409);
    expect(refused.body.error).toMatchObject({ code: 'conflict', savedDraft: { updatedBy: 'ops2' } });
    expect(Object.keys(refused.body.error.savedDraft).sort()).toEqual(['updatedAt', 'updatedBy']);
    expect(refused.body.error.message).toMatch(/so nothing was rolled back/);
    expect(await testApp.app.placements.store.lastNumber()).toBe(1);
    expect((await testApp.app.placements.store.draft())?.document).toEqual(unseen);
    const bad = await operator.post('/api/placements/rollback').send({ revision: 1, expectedUpdatedAt: 'x' });
    expect(bad.status).toBe(400);

    // Naming the draft saved since (the page reloaded it), the rollback replaces it.
    const { draft } = (await operator.get('/api/placements').expect(200)).body as PlacementsPayload;
    await operator
      .post('/api/placements/rollback')
      .send({ revision: 1, expectedUpdatedAt: draft.updatedAt })
      .expect(201);
    expect((await testApp.app.placements.store.draft())?.document).toEqual(DOCUMENT);
    // Without it (a script), as a publish without it: the saved draft is replaced whatever it holds.
    await other.put('/api/placements/draft').send({ document: unseen }).expect(200);
    await operator.post('/api/placements/rollback').send({ revision: 1 }).expect(201);
    expect(await testApp.app.placements.store.lastNumber()).toBe(3);
  });
});

describe('publishing what the operator saw', () => {
  it('refuses a publish from a page that loaded another draft than the one saved since, publishing nothing', async () => {
    const loaded = (await saveDraft(DOCUMENT)).draft.updatedAt;
    // Another operator saves a slot nobody else has seen.
    const { other, unseen } = await draftSavedByAnotherOperator();

    const refused = await operator.post('/api/placements/publish').send({ expectedUpdatedAt: loaded }).expect(409);
    expect(refused.body.error).toMatchObject({ code: 'conflict', savedDraft: { updatedBy: 'ops2' } });
    // Who and when, as a refused save says: not the draft itself.
    expect(Object.keys(refused.body.error.savedDraft).sort()).toEqual(['updatedAt', 'updatedBy']);
    expect(refused.body.error.message).toMatch(/nothing was published/);
    expect(await testApp.app.placements.store.lastNumber()).toBe(0);
    const bad = await operator.post('/api/placements/publish').send({ expectedUpdatedAt: 'yesterday' }).expect(400);
    expect(bad.body.error.code).toBe('invalid_request');
    // Misspelt, the key would be no check at all: refused, naming it, on a save, a publish and a rollback alike
    // (an outside test saved over another operator's draft and published with `expectedUpdateAt`).
    for (const [path, body, what] of [
      ['/api/placements/publish', { expectedUpdateAt: loaded }, 'A publish'],
      ['/api/placements/rollback', { revision: 1, expectedUpdateAt: loaded }, 'A rollback'],
    ] as const) {
      const misspelt = await operator.post(path).send(body).expect(400);
      expect(misspelt.body.error.message).toBe(
        `${what} has unknown key(s) expectedUpdateAt; allowed: ${what === 'A publish' ? '' : 'revision, '}expectedUpdatedAt, expectedRevision.`,
      );
    }
    const misspeltSave = await operator
      .put('/api/placements/draft')
      .send({ document: DOCUMENT, expectedUpdateAt: loaded })
      .expect(400);
    expect(misspeltSave.body.error.message).toBe(
      'A draft save has unknown key(s) expectedUpdateAt; allowed: document, expectedUpdatedAt.',
    );
    expect(await testApp.app.placements.store.lastNumber()).toBe(0);
    expect((await operator.get('/api/placements').expect(200)).body.draft.updatedBy).toBe('ops2');

    // Seen (the page reloaded the draft): published.
    const { draft } = (await operator.get('/api/placements').expect(200)).body as PlacementsPayload;
    await operator.post('/api/placements/publish').send({ expectedUpdatedAt: draft.updatedAt }).expect(201);
    expect((await testApp.app.placements.store.latest())?.document).toEqual(unseen);
  });

  it('refuses a publish or rollback from a page that saw an older revision, naming who published since', async () => {
    const saved = (await saveDraft(DOCUMENT)).draft.updatedAt;
    // Two operators have the same draft open against no revision; the other publishes it first.
    const other = await signedInOperator(testApp.app, 'ops2', PASSWORD);
    await other.post('/api/placements/publish').send({ expectedUpdatedAt: saved, expectedRevision: 0 }).expect(201);

    const twice = await operator
      .post('/api/placements/publish')
      .send({ expectedUpdatedAt: saved, expectedRevision: 0 })
      .expect(409);
    expect(twice.body.error.code).toBe('conflict');
    expect(twice.body.error.message).toMatch(
      /^Revision 1 was published by ops2 at \d{4}-\S+ since this change was checked against revision 0, so nothing was published/,
    );
    const rolledBack = await operator
      .post('/api/placements/rollback')
      .send({ revision: 1, expectedUpdatedAt: saved, expectedRevision: 0 })
      .expect(409);
    expect(rolledBack.body.error.message).toMatch(/^Revision 1 was published by ops2/);
    expect(await testApp.app.placements.store.lastNumber()).toBe(1);

    for (const wrong of [-1, 1.5, '1', null]) {
      const bad = await operator.post('/api/placements/publish').send({ expectedRevision: wrong }).expect(400);
      expect(bad.body.error.message).toMatch(/^"expectedRevision" must be the number of the newest published revision/);
    }
    // A revision that is not there yet (a database restored under the page) is no revision seen.
    const ahead = await operator.post('/api/placements/publish').send({ expectedRevision: 7 }).expect(409);
    expect(ahead.body.error.message).toMatch(/^The newest revision is 1, not 7, so nothing was published/);

    // Seen: published.
    await operator.post('/api/placements/publish').send({ expectedUpdatedAt: saved, expectedRevision: 1 }).expect(201);
    expect(await testApp.app.placements.store.lastNumber()).toBe(2);
  });
});

describe('importing over a draft saved since', () => {
  it('refuses an import from a page that loaded another draft (409), and takes one that names the draft in force', async () => {
    const loaded = (await saveDraft(DOCUMENT)).draft.updatedAt!;
    const other = await signedInOperator(testApp.app, 'ops2', PASSWORD);
    await other
      .put('/api/placements/draft')
      .send({ document: { remotes: [] } })
      .expect(200);
    const file = { remotes: [{ name: 'team_news', slots: { 'header-banner': [{ component: 'NewsTicker' }] } }] };

    const stale = `/api/placements/import?expectedUpdatedAt=${encodeURIComponent(loaded)}`;
    const refused = await operator.post(stale).send(file).expect(409);
    expect(refused.body.error.savedDraft).toMatchObject({ updatedBy: 'ops2' });
    expect((await testApp.app.placements.store.draft())?.document).toEqual({ remotes: [] });
    // Empty: no draft saved yet, which is not so either.
    await operator.post('/api/placements/import?expectedUpdatedAt=').send(file).expect(409);
    // Given twice, or misspelt: no time to check against, refused rather than the check skipped.
    const at = encodeURIComponent(loaded);
    for (const [query, message] of [
      [`expectedUpdatedAt=${at}&expectedUpdatedAt=${at}`, /"expectedUpdatedAt" must be given once/],
      [
        `expectedUpdateAt=${at}`,
        /Unknown query parameter "expectedUpdateAt": an import takes only "expectedUpdatedAt"/,
      ],
      ['expectedUpdatedAt[a]=2020', /Unknown query parameter "expectedUpdatedAt\[a\]"/],
    ] as const) {
      const refusedQuery = await operator.post(`/api/placements/import?${query}`).send(file).expect(400);
      expect(refusedQuery.body.error.message).toMatch(message);
    }
    expect((await testApp.app.placements.store.draft())?.document).toEqual({ remotes: [] });

    const current = (await testApp.app.placements.store.draft())!.updatedAt!;
    await operator
      .post(`/api/placements/import?expectedUpdatedAt=${encodeURIComponent(current)}`)
      .send(file)
      .expect(200);
    // Without it (a script), the import replaces the draft as before.
    await operator.post('/api/placements/import').send({ remotes: [] }).expect(200);
  });
});

describe('rules of published placements', () => {
  it('are evaluated per request: a slot shown to operators of one tenant only is never sent to others', async () => {
    const rule = { $all: [{ roles: [OPERATOR_ROLE] }, { tenants: ['acme'] }] };
    await saveDraft({
      remotes: [
        {
          name: 'team_billing',
          slots: {
            'dashboard-before-cards': [
              { component: 'InvoiceBanner', props: { title: 'Due' }, priority: 1, visibleWhen: rule },
            ],
          },
        },
      ],
    });
    await operator.post('/api/placements/publish').send({}).expect(201);
    expect(await dashboardSlots()).toEqual(['InvoiceBanner', 'Welcome', 'InvoiceNote']);
    const viewer = await signedInAgent(testApp.app, 'viewer', PASSWORD);
    const meta = (await viewer.get('/meta').expect(200)).body as MetaPayload;
    expect((meta.slots['dashboard-before-cards'] ?? []).map((entry) => entry.component)).toEqual([
      'Welcome',
      'InvoiceNote',
    ]);
    // A rule at a public location is refused, as in the file: GET /slots cannot evaluate it.
    const { problems } = await saveDraft({
      remotes: [{ name: 'team_news', slots: { 'header-banner': [{ component: 'NewsTicker', visibleWhen: rule }] } }],
    });
    expect(problems).toEqual([
      expect.objectContaining({ kind: 'invalid-document', location: 'header-banner', index: 0 }),
    ]);
  });
});

describe('rules that name nothing, or are no rule', () => {
  /** DOCUMENT with its slot shown when `rule` holds (at `priority`). */
  const ruled = (rule: unknown, priority = 10) => ({
    remotes: [
      {
        name: 'team_billing',
        slots: {
          'dashboard-before-cards': [
            { component: 'InvoiceBanner', props: { title: 'Due' }, priority, visibleWhen: rule },
          ],
        },
      },
    ],
  });
  const WHERE = 'remotes[0] ("team_billing"), slots["dashboard-before-cards"][0]: Slot "InvoiceBanner": ';

  it('names a role no account can hold, and the roles there are; the draft is saved, its publish refused', async () => {
    const { problems } = await saveDraft(ruled({ roles: ['vieweer'] }));
    expect(problems).toEqual([
      {
        remote: 'team_billing',
        location: 'dashboard-before-cards',
        index: 0,
        component: 'InvoiceBanner',
        kind: 'invalid-document',
        path: null,
        message: `${WHERE}"visibleWhen.roles" names the unknown role "vieweer"; roles: viewer, editor, operator.`,
        blocking: true,
      },
    ]);
    const refused = await operator.post('/api/placements/publish').send({}).expect(400);
    expect(refused.body.error.placementProblems).toEqual(problems);
    expect(await testApp.app.placements.store.lastNumber()).toBe(0);
    // The same rule imported from a file.
    const imported = (
      await operator
        .post('/api/placements/import')
        .send(ruled({ roles: ['vieweer'] }))
        .expect(200)
    ).body as PlacementsDraftPayload;
    expect(imported.problems).toEqual(problems);
  });

  it('names a tenant or flag that does not exist, and those there are: saved, refused on publish and import', async () => {
    await testApp.app.tenants.save({ id: 'globex', name: 'Globex' });
    const rule = { $any: [{ tenants: ['acmee'] }, { flags: ['no-such-flag'] }] };
    const { problems } = await saveDraft(ruled(rule));
    const at = { remote: 'team_billing', location: 'dashboard-before-cards', index: 0, component: 'InvoiceBanner' };
    expect(problems).toEqual([
      {
        ...at,
        kind: 'unknown-rule-name',
        path: null,
        message: '"visibleWhen.$any[0].tenants" names the unknown tenant "acmee"; tenants: acme, globex.',
        blocking: true,
      },
      {
        ...at,
        kind: 'unknown-rule-name',
        path: null,
        message:
          '"visibleWhen.$any[1].flags" names the unknown flag "no-such-flag"; flags: none yet. A flag exists once ' +
          'it is set, on or off: npm run flag -- set <name> off.',
        blocking: true,
      },
    ]);
    expect(((await operator.get('/api/placements').expect(200)).body as PlacementsPayload).problems).toEqual(problems);
    const refused = await operator.post('/api/placements/publish').send({}).expect(400);
    expect(refused.body.error.problems).toEqual([
      'dashboard-before-cards #1, InvoiceBanner (team_billing): "visibleWhen.$any[0].tenants" names the unknown ' +
        'tenant "acmee"; tenants: acme, globex.',
      expect.stringMatching(/"visibleWhen.\$any\[1\].flags" names the unknown flag "no-such-flag"/),
    ]);
    const imported = (await operator.post('/api/placements/import').send(ruled(rule)).expect(200))
      .body as PlacementsDraftPayload;
    expect(imported.problems).toEqual(problems);
    expect(await testApp.app.placements.store.lastNumber()).toBe(0);

    // Once the flag is set (off is enough) and the tenant is spelt right, it publishes.
    await testApp.app.flags.set('no-such-flag', false);
    await saveDraft(ruled({ $any: [{ tenants: ['acme'] }, { flags: ['no-such-flag'] }] }));
    await operator.post('/api/placements/publish').send({}).expect(201);
  });

  it('keeps serving, and a host starting takes, a revision whose flag was unset since it was published', async () => {
    await testApp.app.flags.set('beta', true);
    await saveDraft(ruled({ flags: ['beta'] }));
    await operator.post('/api/placements/publish').send({}).expect(201);
    expect(await testApp.app.flags.unset('beta')).toBe(true);
    // The draft (the revision) now has the problem: a warning, as the rule is the one in force, unchanged...
    const { problems } = (await operator.get('/api/placements').expect(200)).body as PlacementsPayload;
    expect(problems.map(({ kind, blocking }) => [kind, blocking])).toEqual([['unknown-rule-name', false]]);
    // ...so another change publishes over it (revision 2 keeps the rule), and a rollback to revision 1 (the same
    // rule) is taken too.
    await saveDraft(ruled({ flags: ['beta'] }, 20));
    await operator.post('/api/placements/publish').send({}).expect(201);
    await operator.post('/api/placements/rollback').send({ revision: 1 }).expect(201);
    // The revision in force stays, here and on a host that starts now.
    const again = await createTestApp({ dir: testApp.dir, distDir: dist.dir, env: remotesEnv() });
    try {
      expect(again.app.placements.service.revision).toBe(3);
    } finally {
      await again.close({ keepData: true });
    }
    // A rollback to a revision whose rule the newest does not have is a rule written anew: refused.
    await saveDraft(ruled({ roles: ['editor'] }));
    await operator.post('/api/placements/publish').send({}).expect(201);
    const refused = await operator.post('/api/placements/rollback').send({ revision: 1 }).expect(400);
    expect(refused.body.error.placementProblems).toEqual([
      expect.objectContaining({ kind: 'unknown-rule-name', blocking: true }),
    ]);
    expect(await testApp.app.placements.store.lastNumber()).toBe(4);
  });

  it('says what is wrong with a rule of the wrong shape', async () => {
    const { problems } = await saveDraft(ruled({ roles: 'editor', colour: 1 }));
    expect(problems.map((problem) => problem.message)).toEqual([
      `${WHERE}"visibleWhen" has 2 keys (roles, colour) where a rule has exactly one. "colour" is not a rule key; ` +
        'rule keys: roles, permissions, tenants, flags, $all, $any, $not. "visibleWhen.roles" must be a non-empty ' +
        'list of role names (viewer, editor, operator), got the string "editor" (write ["editor"]).',
    ]);
  });
});

describe('revisions, rollback and the audit trail', () => {
  it('rolls back to any revision as a new one, audited with the documents before and after', async () => {
    await saveDraft(DOCUMENT);
    await operator.post('/api/placements/publish').send({}).expect(201);
    const moved = {
      remotes: [
        {
          name: 'team_billing',
          slots: { 'dashboard-before-cards': [{ component: 'InvoiceBanner', props: { title: 'Due' }, priority: 90 }] },
        },
      ],
    };
    await saveDraft(moved);
    await operator.post('/api/placements/publish').send({}).expect(201);
    expect(await dashboardSlots()).toEqual(['Welcome', 'InvoiceNote', 'InvoiceBanner']);

    const rolledBack = (await operator.post('/api/placements/rollback').send({ revision: 1 }).expect(201))
      .body as PlacementRevision;
    expect(rolledBack).toMatchObject({ number: 3, action: 'rollback', restored: 1, document: DOCUMENT });
    expect(await dashboardSlots()).toEqual(['InvoiceBanner', 'Welcome', 'InvoiceNote']);
    // The draft goes on from what is in force.
    const overview = (await operator.get('/api/placements').expect(200)).body as PlacementsPayload;
    expect(overview.draft.document).toEqual(DOCUMENT);

    const { revisions } = (await operator.get('/api/placements/revisions').expect(200))
      .body as PlacementRevisionsPayload;
    expect(revisions.map(({ number, action, restored }) => [number, action, restored])).toEqual([
      [3, 'rollback', 1],
      [2, 'publish', null],
      [1, 'publish', null],
    ]);
    const second = (await operator.get('/api/placements/revisions/2').expect(200)).body as PlacementRevision;
    expect(second.document).toEqual(moved);
    await operator.get('/api/placements/revisions/9').expect(404);

    const { entries } = (await operator.get('/api/placements/audit').expect(200)).body as PlacementAuditPayload;
    expect(entries.map(({ action, actor, revision, restored }) => [action, actor, revision, restored])).toEqual([
      ['rollback', 'ops', 3, 1],
      ['publish', 'ops', 2, null],
      ['publish', 'ops', 1, null],
    ]);
    expect(entries[0]).toMatchObject({ before: moved, after: DOCUMENT });
    expect(entries[2]).toMatchObject({ before: null, after: DOCUMENT });
    expect(Date.parse(entries[0]!.at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('refuses a rollback to a revision that does not exist, or one that no longer passes the check', async () => {
    const missing = await operator.post('/api/placements/rollback').send({ revision: 4 }).expect(404);
    expect(missing.body.error.code).toBe('not_found');
    // Not a revision number at all: the request is wrong, whatever revisions there are.
    for (const revision of ['1', 1.5, 0, null]) {
      const refused = await operator.post('/api/placements/rollback').send({ revision }).expect(400);
      expect(refused.body.error.message).toMatch(/^"revision" must be the number of a published revision/);
    }
    expect((await operator.get('/api/placements/revisions/abc').expect(400)).body.error.code).toBe('invalid_request');
    expect((await operator.get('/api/placements/revisions/99').expect(404)).body.error.code).toBe('not_found');
    // A revision written when InvoiceBanner took other props (straight into the store: the API would refuse it).
    await testApp.app.placements.store.publish({
      document: {
        remotes: [{ name: 'team_billing', slots: { 'dashboard-after-cards': [{ component: 'InvoiceBanner' }] } }],
      },
      action: 'publish',
      restored: null,
      actor: 'ops',
      checkedAgainst: 0,
      setDraft: false,
    });
    await saveDraft(DOCUMENT);
    await operator.post('/api/placements/publish').send({}).expect(201);
    const refused = await operator.post('/api/placements/rollback').send({ revision: 1 }).expect(400);
    expect(refused.body.error.placementProblems[0]).toMatchObject({ kind: 'props-invalid', index: 0 });
    expect(await testApp.app.placements.store.lastNumber()).toBe(2);
  });
});

describe('the components a slot may name', () => {
  it('lists every remote known now with its components and their props schemas', async () => {
    const response = await operator.get('/api/placements/components').expect(200);
    expect(response.body).toEqual({
      remotes: [
        {
          name: 'team_billing',
          components: [
            { name: 'InvoiceBanner', schema: BANNER_SCHEMA, form: false },
            { name: 'InvoiceNote', schema: null, form: false },
          ],
        },
        {
          name: 'team_news',
          components: [
            { name: 'NewsTicker', schema: null, form: false },
            { name: 'Welcome', schema: null, form: false },
          ],
        },
      ],
    });
  });
});

describe('export and import', () => {
  it('exports the revision in force (or the draft) and imports a REMOTES_CONFIG file into the draft', async () => {
    await saveDraft(DOCUMENT);
    await operator.post('/api/placements/publish').send({}).expect(201);
    const exported = await operator.get('/api/placements/export').expect(200);
    expect(exported.headers['content-disposition']).toBe('attachment; filename="placements-published.json"');
    expect(exported.body).toEqual(DOCUMENT);
    // A file to read, diff and keep in version control: indented, one property a line, ending with a newline.
    expect(exported.text).toBe(`${JSON.stringify(DOCUMENT, null, 2)}\n`);

    const file = {
      $schema: './remotes-config.schema.json',
      allowedOrigins: ['https://admin.example.com'],
      remotes: [
        {
          name: 'team_news',
          entry: '/remotes/team_news/mf-manifest.json',
          releaseOrigins: ['https://cdn.example.com'],
        },
        {
          name: 'team_billing',
          components: ['InvoiceBanner', 'InvoiceNote'],
          slots: { 'dashboard-after-cards': [{ component: 'InvoiceBanner', props: { title: 'Imported' } }] },
        },
      ],
      locations: { 'dashboard-after-cards': ['team_billing'] },
    };
    const imported = (await operator.post('/api/placements/import').send(file).expect(200))
      .body as PlacementsDraftPayload;
    expect(imported.ignored).toEqual([
      '$schema',
      'allowedOrigins',
      'remotes[0].entry',
      'remotes[0].releaseOrigins',
      'remotes[1].components',
    ]);
    expect(imported.problems).toEqual([]);
    const placed = {
      remotes: [
        {
          name: 'team_billing',
          slots: { 'dashboard-after-cards': [{ component: 'InvoiceBanner', props: { title: 'Imported' } }] },
        },
      ],
      locations: { 'dashboard-after-cards': ['team_billing'] },
    };
    expect(imported.draft.document).toEqual(placed);
    expect((await operator.get('/api/placements/export?from=draft').expect(200)).body).toEqual(placed);
    // Importing changed the draft only.
    expect((await operator.get('/api/placements/export').expect(200)).body).toEqual(DOCUMENT);
    expect((await operator.get('/api/placements/export?from=published').expect(200)).body).toEqual(DOCUMENT);
    // A misspelt `draft` is refused rather than answered with the published document.
    for (const from of ['Draft', 'drafts', '']) {
      const refused = await operator.get(`/api/placements/export?from=${from}`).expect(400);
      expect(refused.body.error).toEqual({
        code: 'invalid_request',
        message: 'The parameter "from" must be "draft" or "published" (the default).',
      });
      expect(refused.headers['content-disposition']).toBeUndefined();
    }
    // A parameter it does not read (misspelt, or written as an array) is refused too: the published document was
    // downloaded as though the draft had been asked for.
    for (const query of ['from[]=draft', 'fromm=draft', 'from=draft&revision=2']) {
      const refused = await operator.get(`/api/placements/export?${query}`).expect(400);
      expect(refused.body.error.message).toMatch(
        /^Unknown query parameter "\w+(\[\])?": an export takes only "from"\.$/,
      );
    }
  });
});

describe('a body that is no JSON object', () => {
  it('refuses an import of an empty body (400), the saved draft left as it was', async () => {
    await saveDraft(DOCUMENT);
    // An empty body was read as `{}`: the import replaced the whole draft with nothing.
    const refused = await operator
      .post('/api/placements/import')
      .set('Content-Type', 'application/json')
      .set('Content-Length', '0')
      .expect(400);
    expect(refused.body.error).toEqual({ code: 'invalid_request', message: JSON_BODY_MESSAGES.empty });
    expect((await testApp.app.placements.store.draft())?.document).toEqual(DOCUMENT);
  });

  it.each(['publish', 'rollback'])('refuses a %s sent an array (400), nothing published', async (action) => {
    await saveDraft(DOCUMENT);
    await operator.post('/api/placements/publish').send({}).expect(201);
    const before = (await operator.get('/api/placements/revisions').expect(200)).body as PlacementRevisionsPayload;
    const refused = await operator.post(`/api/placements/${action}`).send([1, 2, 3]).expect(400);
    expect(refused.body.error).toEqual({ code: 'invalid_request', message: ERROR_MESSAGES.jsonNotObject });
    expect((await operator.get('/api/placements/revisions').expect(200)).body).toEqual(before);
  });
});

describe('importing a file with a top-level key that is neither placements nor REMOTES_CONFIG’s', () => {
  it('refuses it, naming the key, and leaves the draft as it was', async () => {
    await saveDraft(DOCUMENT);
    const file = {
      allowedOrigins: ['https://admin.example.com'],
      remotes: [{ name: 'team_billing', slots: { 'dashboard-after-cards': [{ component: 'InvoiceBanner' }] } }],
      locaitons: { 'dashboard-after-cards': ['team_billing'] },
    };
    const refused = await operator.post('/api/placements/import').send(file).expect(400);
    expect(refused.body.error.message).toMatch(/^Not imported: the top-level key "locaitons" is neither placements/);
    expect((await testApp.app.placements.store.draft())?.document).toEqual(DOCUMENT);
  });
});

describe('with a REMOTES_CONFIG reload', () => {
  it('keeps the revision in force when the file is read again', async () => {
    await saveDraft(DOCUMENT);
    await operator.post('/api/placements/publish').send({}).expect(201);
    expect(await testApp.app.reloadRemotesConfig()).toBe(true);
    expect(await dashboardSlots()).toEqual(['InvoiceBanner', 'Welcome', 'InvoiceNote']);
  });
});
