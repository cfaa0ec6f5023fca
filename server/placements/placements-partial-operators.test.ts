/**
 * The placements API to an operator of some tenants only (who reads the page, changes nothing), over HTTP: every
 * answer (the draft, the revision in force, the diff, a revision, the audit trail, export, the preview and its
 * choices, the problems) counts the tenants they do not belong to instead of naming them, as the location catalogue
 * does (slots/shown-rule.ts); an operator of every tenant reads it all whole; a document that counts tenants is never
 * saved back.
 */
import type request from 'supertest';
import {
  OPERATOR_ROLE,
  PLACEMENTS_PREVIEW_PATH,
  Slot,
  VIEWER_ROLE,
  type PlacementPreviewChoices,
  type PlacementsDiffPayload,
  type PlacementsPayload,
  type PlacementsPreviewPayload,
} from '../../shared';
import { createFixtureDist, type FixtureDist } from '../../testing/server/fixture-dist';
import { addPlacedRemotes } from '../../testing/server/placements-fixtures';
import { addUser, createTestApp, signedInAgent, signedInOperator, type TestApp } from '../../testing/server/test-app';
import { HIDDEN_TENANT } from './shown-placements';

const PASSWORD = 'correct horse battery';
const LOCATION = 'dashboard-before-cards';
/** The tenant, and the unknown one, that tess may not learn of: neither may appear in any answer to her. */
const NOT_TESS_S = /initech|INITECH|initeck/;

let dist: FixtureDist;
let testApp: TestApp;
/** An operator of every tenant (the account's own role): writes the rules, reads them whole. */
let ops: request.Agent;
/** An operator of acme who is a viewer of globex, and no member of initech: reads the page, changes nothing. */
let tess: request.Agent;

/** Code places Welcome for initech only; tenants acme, globex and initech exist. */
beforeEach(async () => {
  dist = createFixtureDist();
  addPlacedRemotes(dist);
  testApp = await createTestApp({
    distDir: dist.dir,
    configure: (app) =>
      app.registerSlots({ [LOCATION]: Slot.make('Welcome').placed({ visibleWhen: { tenants: ['initech'] } }) }),
  });
  const { app } = testApp;
  ops = await signedInOperator(app, 'ops', PASSWORD, ['acme']);
  await addUser(app, 'tess', PASSWORD, ['acme', 'globex']);
  await app.tenants.save({ id: 'initech', name: 'INITECH' });
  await app.tenants.setMemberships((await app.users.findByUsername('tess'))!.id, [
    { tenant: 'acme', role: OPERATOR_ROLE },
    { tenant: 'globex', role: VIEWER_ROLE },
  ]);
  tess = await signedInAgent(app, 'tess', PASSWORD);
});
afterEach(async () => {
  await testApp.close();
  dist.remove();
});

/** One slot of team_billing's InvoiceBanner at LOCATION, with `visibleWhen`. */
function bannerWith(visibleWhen: unknown) {
  return {
    remotes: [
      {
        name: 'team_billing',
        slots: { [LOCATION]: [{ component: 'InvoiceBanner', props: { title: 'Due' }, visibleWhen }] },
      },
    ],
  };
}

const PUBLISHED_RULE = { $any: [{ tenants: ['globex', 'initech'] }, { roles: ['operator'] }] };
/** initeck exists nowhere: a problem of the draft, which names the tenants there are to ops. */
const DRAFT_RULE = { tenants: ['initech', 'initeck'] };

/** Revision 1 holds PUBLISHED_RULE; the saved draft, DRAFT_RULE. */
async function publishThenDraft(): Promise<void> {
  await ops
    .put('/api/placements/draft')
    .send({ document: bannerWith(PUBLISHED_RULE) })
    .expect(200);
  await ops.post('/api/placements/publish').send({}).expect(201);
  await ops
    .put('/api/placements/draft')
    .send({ document: bannerWith(DRAFT_RULE) })
    .expect(200);
}

const ruleOf = (document: unknown) =>
  (document as ReturnType<typeof bannerWith>).remotes[0]!.slots[LOCATION]![0]!.visibleWhen;

describe('to an operator of some tenants only', () => {
  it('every read of the API counts the tenants they do not belong to instead of naming them', async () => {
    await publishThenDraft();
    const overview = (await tess.get('/api/placements').expect(200)).body as PlacementsPayload;
    expect(overview.changesRefused).toBeDefined();
    expect(ruleOf(overview.draft.document)).toEqual({ tenants: [], otherTenants: 2 });
    expect(ruleOf(overview.published?.document)).toEqual({
      $any: [{ tenants: ['globex'], otherTenants: 1 }, { roles: ['operator'] }],
    });
    // The draft's unknown tenant is a problem all the same, said without the tenants there are.
    expect(overview.problems).toEqual([
      expect.objectContaining({
        kind: 'unknown-rule-name',
        message:
          '"visibleWhen.tenants" names a tenant that does not exist (not named here: you may read the ids of the ' +
          'tenants you belong to only).',
      }),
    ]);
    const diff = (await tess.get('/api/placements/diff').expect(200)).body as PlacementsDiffPayload;
    expect(diff.changes).toEqual([
      expect.objectContaining({
        change: 'changed',
        before: expect.objectContaining({ visibleWhen: ruleOf(overview.published?.document) }),
        after: expect.objectContaining({ visibleWhen: { tenants: [], otherTenants: 2 } }),
      }),
    ]);
    const revision = (await tess.get('/api/placements/revisions/1').expect(200)).body as { document: unknown };
    expect(ruleOf(revision.document)).toEqual(ruleOf(overview.published?.document));
    const exported = (await tess.get('/api/placements/export?from=draft').expect(200)).body as unknown;
    expect(ruleOf(exported)).toEqual({ tenants: [], otherTenants: 2 });

    for (const path of [
      '/api/placements',
      '/api/placements/diff',
      '/api/placements/revisions',
      '/api/placements/revisions/1',
      '/api/placements/audit',
      '/api/placements/export',
      '/api/placements/export?from=draft',
      PLACEMENTS_PREVIEW_PATH,
    ]) {
      const answer = await tess.get(path).expect(200);
      expect([path, answer.text]).toEqual([path, expect.not.stringMatching(NOT_TESS_S)]);
      // The operator of every tenant reads the same answers whole (the choices: every tenant, by name).
      const whole = await ops.get(path).expect(200);
      if (!path.endsWith('/revisions')) expect([path, whole.text]).toEqual([path, expect.stringMatching(/initech/)]);
    }
    expect(ruleOf((await ops.get('/api/placements').expect(200)).body.draft.document)).toEqual(DRAFT_RULE);
  });

  it('previews as a tenant of theirs only, with the rules and their reasons counting the others', async () => {
    await publishThenDraft();
    const choices = (await tess.get(PLACEMENTS_PREVIEW_PATH).expect(200)).body as PlacementPreviewChoices;
    expect(choices.tenants.map((tenant) => tenant.id)).toEqual(['acme', 'globex']);

    // The saved draft (the page leaves its document out), as a viewer of acme.
    const asked = { location: LOCATION, context: { roles: ['viewer'], tenant: 'acme' } };
    const answer = await tess.post(PLACEMENTS_PREVIEW_PATH).send(asked).expect(200);
    expect(answer.text).not.toMatch(NOT_TESS_S);
    const placed = (answer.body as PlacementsPreviewPayload).locations[LOCATION]!.placed;
    expect(placed).toEqual([
      expect.objectContaining({
        id: 'Welcome',
        source: 'code',
        outcome: 'hidden',
        visibleWhen: { tenants: [], otherTenants: 1 },
        reason: 'hidden by its rule: 1 tenant hidden from you',
      }),
      expect.objectContaining({
        id: 'InvoiceBanner',
        outcome: 'hidden',
        visibleWhen: { tenants: [], otherTenants: 2 },
        reason: 'hidden by its rule: 2 tenants hidden from you',
      }),
    ]);

    // As another tenant: refused alike whether it exists or not, so a preview tells no tenant's existence.
    for (const tenant of ['initech', 'nowhere']) {
      const refused = await tess
        .post(PLACEMENTS_PREVIEW_PATH)
        .send({ ...asked, context: { ...asked.context, tenant } })
        .expect(400);
      expect(refused.body.error.message).toBe(
        `"context.tenant" must be a tenant you belong to, got the string "${tenant}": a preview as another tenant ` +
          'needs the placements:edit permission in every tenant.',
      );
    }
    // The operator of every tenant previews as any, and reads the reasons whole.
    const whole = await ops
      .post(PLACEMENTS_PREVIEW_PATH)
      .send({ ...asked, context: { ...asked.context, tenant: 'globex' } })
      .expect(200);
    const wholePlaced = (whole.body as PlacementsPreviewPayload).locations[LOCATION]!.placed;
    expect(wholePlaced[1]).toMatchObject({ reason: 'hidden by its rule: tenant initech or initeck' });
  });

  it("names no hidden tenant in a problem of a draft's rule that is no rule yet", async () => {
    await ops
      .put('/api/placements/draft')
      .send({ document: bannerWith({ tenants: 'initech' }) })
      .expect(200);
    const whole = (await ops.get('/api/placements').expect(200)).body as PlacementsPayload;
    expect(whole.problems[0]?.message).toContain('got the string "initech" (write ["initech"])');

    const overview = await tess.get('/api/placements').expect(200);
    expect(overview.text).not.toMatch(NOT_TESS_S);
    const { draft, problems } = overview.body as PlacementsPayload;
    expect(ruleOf(draft.document)).toEqual({ tenants: [], otherTenants: 1 });
    expect(problems[0]?.message).toContain(`got the string ${HIDDEN_TENANT} (write [${HIDDEN_TENANT}])`);
  });

  it('names no hidden tenant whatever the slip of a rule that is no rule yet, and shows the rest of it', async () => {
    const slips: [unknown, unknown][] = [
      [{ tenant: ['initech'] }, { tenant: [], otherTenants: 1 }],
      [{ Tenants: ['initech', 'acme'] }, { Tenants: ['acme'], otherTenants: 1 }],
      [{ tenants: [['initech']] }, { tenants: [[]], otherTenants: 1 }],
      [{ tenants: [{ id: 'initech' }] }, { tenants: [{ id: HIDDEN_TENANT, otherTenants: 1 }] }],
      ['initech', HIDDEN_TENANT],
      [
        { $any: [{ roles: 'operator' }, { tenants: ['initech'] }] },
        { $any: [{ roles: 'operator' }, { tenants: [], otherTenants: 1 }] },
      ],
      [{ role: ['operator', 'initech'] }, { role: ['operator'], otherTenants: 1 }],
    ];
    for (const [rule, shown] of slips) {
      await ops
        .put('/api/placements/draft')
        .send({ document: bannerWith(rule) })
        .expect(200);
      const whole = (await ops.get('/api/placements').expect(200)).body as PlacementsPayload;
      expect([rule, whole.problems.length > 0]).toEqual([rule, true]);
      const overview = await tess.get('/api/placements').expect(200);
      expect([rule, overview.text]).not.toEqual([rule, expect.stringMatching(NOT_TESS_S)]);
      expect([rule, ruleOf((overview.body as PlacementsPayload).draft.document)]).toEqual([rule, shown]);
    }
  });
});

describe('the props of a slot shown only in other tenants', () => {
  /** What only initech's pages carry: tess, of acme and globex, must not read it. */
  const SECRET = 'INITECH renewal: 40 % off';
  const at = (visibleWhen: unknown, props: unknown = { title: SECRET }) => ({
    component: 'InvoiceBanner',
    props,
    visibleWhen,
  });
  const slotsOf = (document: unknown) => (document as ReturnType<typeof bannerWith>).remotes[0]!.slots[LOCATION]!;

  it('are taken out of every answer, with a problem of theirs said without its value', async () => {
    const aimed = [
      at({ tenants: ['initech'] }),
      at({ $not: { tenants: ['acme', 'globex'] } }),
      at({
        $all: [
          { roles: ['editor'] },
          { $any: [{ tenants: ['initech'] }, { $all: [{ roles: ['viewer'] }, { tenants: ['initech'] }] }] },
        ],
      }),
      // A wrong value of theirs, quoted by its problem to ops: said without it to tess.
      at({ tenants: ['initech'] }, { title: [SECRET] }),
    ];
    const shown = [
      at({ tenants: ['acme', 'initech'] }, { title: 'acme and initech' }),
      at({ $not: { tenants: ['initech'] } }, { title: 'all but initech' }),
      at({ roles: ['editor'] }, { title: 'editors' }),
    ];
    const documentOf = (slots: unknown[]) => ({ remotes: [{ name: 'team_billing', slots: { [LOCATION]: slots } }] });
    // Published without the wrong value (a problem refuses a publish), saved as the draft with it.
    const published = [...aimed.slice(0, 3), ...shown];
    await ops
      .put('/api/placements/draft')
      .send({ document: documentOf(published) })
      .expect(200);
    await ops.post('/api/placements/publish').send({}).expect(201);
    await ops
      .put('/api/placements/draft')
      .send({ document: documentOf([...aimed, ...shown]) })
      .expect(200);
    const whole = (await ops.get('/api/placements').expect(200)).body as PlacementsPayload;
    expect(whole.problems.map((problem) => problem.message)).toEqual([expect.stringContaining(SECRET)]);

    const overview = await tess.get('/api/placements').expect(200);
    const payload = overview.body as PlacementsPayload;
    for (const [answer, hidden] of [
      [payload.draft.document, aimed.length],
      [payload.published?.document, 3],
    ] as const) {
      const slots = slotsOf(answer);
      expect(slots.slice(0, hidden)).toEqual(
        aimed
          .slice(0, hidden)
          .map(() => ({ component: 'InvoiceBanner', visibleWhen: expect.anything(), propsHidden: true })),
      );
      expect(slots.slice(hidden).map((slot) => slot.props)).toEqual(shown.map((slot) => slot.props));
    }
    const { problems } = payload;
    expect(problems).toEqual([
      expect.objectContaining({ index: 3, path: 'props.title', message: expect.stringMatching(/string\.$/) }),
    ]);
    for (const path of [
      '/api/placements',
      '/api/placements/diff',
      '/api/placements/revisions/1',
      '/api/placements/audit',
      '/api/placements/export',
      '/api/placements/export?from=draft',
    ]) {
      const answer = await tess.get(path).expect(200);
      expect([path, answer.text]).toEqual([path, expect.not.stringContaining('40 %')]);
      expect([path, (await ops.get(path).expect(200)).text]).toEqual([path, expect.stringContaining('40 %')]);
    }
  });

  it('hidden, are never saved back nor previewed', async () => {
    const hidden = bannerWith({ roles: ['editor'] });
    const slot = hidden.remotes[0]!.slots[LOCATION]![0]! as Record<string, unknown>;
    delete slot.props;
    slot.propsHidden = true;
    for (const send of [
      () => ops.put('/api/placements/draft').send({ document: hidden }),
      () => ops.post('/api/placements/import').send(hidden),
    ]) {
      const refused = await send().expect(400);
      expect(refused.body.error.message).toMatch(
        /^Not saved: a slot of the document has its props hidden \("propsHidden"\), .* its props would be lost\./,
      );
    }
    const refused = await tess
      .post(PLACEMENTS_PREVIEW_PATH)
      .send({ document: hidden, location: LOCATION, context: { roles: ['viewer'], tenant: 'acme' } })
      .expect(400);
    expect(refused.body.error.message).toMatch(/^Not previewed: a slot of the document has its props hidden/);
  });
});

describe('a document that counts tenants', () => {
  const counted = bannerWith({ $all: [{ roles: ['editor'] }, { tenants: ['acme'], otherTenants: 2 }] });

  it('is saved for nobody: refused to a partial operator as any change, and to an operator of every tenant', async () => {
    await ops
      .put('/api/placements/draft')
      .send({ document: bannerWith(DRAFT_RULE) })
      .expect(200);
    const before = await testApp.app.placements.store.draft();
    await tess.put('/api/placements/draft').send({ document: counted }).expect(403);
    await tess.post('/api/placements/import').send(counted).expect(403);
    await tess.post('/api/placements/publish').send({}).expect(403);
    await tess.post('/api/placements/rollback').send({ revision: 1 }).expect(403);

    for (const send of [
      () => ops.put('/api/placements/draft').send({ document: counted }),
      () => ops.post('/api/placements/import').send(counted),
    ]) {
      const refused = await send().expect(400);
      expect(refused.body.error.message).toMatch(
        /^Not saved: a rule of the document counts tenants \("otherTenants"\)/,
      );
    }
    expect(await testApp.app.placements.store.draft()).toEqual(before);
  });

  it('is not previewed, since its rules are not those of the draft', async () => {
    const refused = await tess
      .post(PLACEMENTS_PREVIEW_PATH)
      .send({ document: counted, location: LOCATION, context: { roles: ['viewer'], tenant: 'acme' } })
      .expect(400);
    expect(refused.body.error.message).toMatch(/^Not previewed: .* Leave "document" out to preview the saved draft/);
  });
});
