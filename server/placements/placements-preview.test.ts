/**
 * `POST /api/placements/preview` through the whole app over HTTP: a document (saved or not) previewed for a chosen
 * account, in the server's order, with each rule's outcome for that account, the same slots `/meta` serves that
 * account once the document is published; the context's choices; who may ask; and bad requests answered 400 in JSON.
 */
import request from 'supertest';
import {
  FLAG_NAME_RULE,
  PERMISSION_REFUSED,
  PLACEMENTS_EDIT,
  PLACEMENTS_PREVIEW_PATH,
  Slot,
  VIEWER_ROLE,
  type MePayload,
  type MetaPayload,
  type PlacementPreviewChoices,
  type PlacementsPreviewPayload,
} from '../../shared';
import { createFixtureDist, type FixtureDist } from '../../testing/server/fixture-dist';
import { addPlacedRemotes } from '../../testing/server/placements-fixtures';
import { addUser, createTestApp, signedInAgent, signedInOperator, type TestApp } from '../../testing/server/test-app';

const PASSWORD = 'correct horse battery';
const LOCATION = 'dashboard-before-cards';

let dist: FixtureDist;
let testApp: TestApp;
let operator: Awaited<ReturnType<typeof signedInAgent>>;

/** Code places Welcome; the file places the billing remote's InvoiceNote; nothing in the database yet. */
beforeEach(async () => {
  dist = createFixtureDist();
  addPlacedRemotes(dist);
  const config = { remotes: [{ name: 'team_billing', slots: { [LOCATION]: [{ component: 'InvoiceNote' }] } }] };
  testApp = await createTestApp({
    distDir: dist.dir,
    env: { REMOTES_CONFIG: dist.write('remotes.json', JSON.stringify(config)) },
    configure: (app) => app.registerSlots({ [LOCATION]: Slot.make('Welcome') }),
  });
  operator = await signedInOperator(testApp.app, 'ops', PASSWORD, ['acme', 'globex']);
  await addUser(testApp.app, 'reader', PASSWORD, ['acme']);
  await testApp.app.users.setRole('reader', VIEWER_ROLE);
  await testApp.app.flags.set('new-billing', true, 'acme');
});
afterEach(async () => {
  await testApp.close();
  dist.remove();
});

/**
 * Three slots of the document with rules (operators only, tenant globex only, flag new-billing on), and one whose
 * props fail the schema (its title is missing), which no host would serve.
 */
const DOCUMENT = {
  remotes: [
    {
      name: 'team_billing',
      slots: {
        [LOCATION]: [
          { component: 'InvoiceBanner', props: { title: 'Due' }, priority: 10, visibleWhen: { roles: ['operator'] } },
          { component: 'InvoiceBanner', id: 'untitled-banner', props: {} },
        ],
      },
    },
    {
      name: 'team_news',
      slots: {
        [LOCATION]: [
          { component: 'NewsTicker', priority: 90, visibleWhen: { tenants: ['globex'] } },
          { component: 'Welcome', id: 'billing-news', priority: 95, visibleWhen: { flags: ['new-billing'] } },
        ],
      },
    },
  ],
};

async function preview(body: object): Promise<PlacementsPreviewPayload> {
  return (await operator.post(PLACEMENTS_PREVIEW_PATH).send(body).expect(200)).body as PlacementsPreviewPayload;
}

describe('the preview of a document for a chosen account', () => {
  it('orders the slots as the server does and evaluates each rule for the context: an operator in acme', async () => {
    const answer = await preview({
      document: DOCUMENT,
      location: LOCATION,
      context: { roles: ['operator'], tenant: 'acme' },
    });
    expect(answer.context).toEqual({
      roles: ['operator', 'editor'],
      permissions: ['records:read', 'records:write', 'releases:manage', 'placements:edit'],
      tenant: 'acme',
      flags: ['new-billing'],
    });
    expect(Object.keys(answer.locations)).toEqual([LOCATION]);
    const { slots, placed } = answer.locations[LOCATION]!;
    expect(slots).toEqual([
      { component: 'InvoiceBanner', props: { title: 'Due' } },
      { component: 'Welcome', props: {} },
      { component: 'InvoiceNote', props: {} },
      { component: 'Welcome', props: {} },
    ]);
    expect(placed.map(({ id, source, outcome }) => [id, source, outcome])).toEqual([
      ['InvoiceBanner', 'draft', 'shown'],
      ['Welcome', 'code', 'shown'],
      ['InvoiceNote', 'file', 'shown'],
      ['NewsTicker', 'draft', 'hidden'],
      ['billing-news', 'draft', 'shown'],
      ['untitled-banner', 'draft', 'left-out'],
    ]);
    expect(placed[3]).toMatchObject({
      reason: 'hidden by its rule: tenant globex',
      visibleWhen: { tenants: ['globex'] },
    });
    expect(placed[5]!.reason).toBe('left out: props.title is required (string)');
    // Previewing saves nothing: neither the draft nor what is served.
    expect(await testApp.app.placements.store.draft()).toBeNull();
  });

  it('hides other slots for a viewer in globex, and applies the flags the operator gives', async () => {
    const answer = await preview({
      document: DOCUMENT,
      location: LOCATION,
      context: { roles: ['viewer'], tenant: 'globex', flags: [] },
    });
    expect(answer.context).toEqual({ roles: ['viewer'], permissions: ['records:read'], tenant: 'globex', flags: [] });
    const { slots, placed } = answer.locations[LOCATION]!;
    expect(slots.map((entry) => entry.component)).toEqual(['Welcome', 'InvoiceNote', 'NewsTicker']);
    expect(placed.filter((slot) => slot.outcome === 'hidden').map(({ id, reason }) => [id, reason])).toEqual([
      ['InvoiceBanner', 'hidden by its rule: role operator'],
      ['billing-news', 'hidden by its rule: flag new-billing on'],
    ]);

    const flagged = await preview({
      document: DOCUMENT,
      location: LOCATION,
      context: { roles: ['viewer'], tenant: 'globex', flags: ['new-billing'] },
    });
    expect(flagged.locations[LOCATION]!.slots.map((entry) => entry.component)).toEqual([
      'Welcome',
      'InvoiceNote',
      'NewsTicker',
      'Welcome',
    ]);
  });

  it('evaluates a rule over permissions with those the roles grant, and those given on top', async () => {
    const document = {
      remotes: [
        {
          name: 'team_news',
          slots: { [LOCATION]: [{ component: 'NewsTicker', visibleWhen: { permissions: ['records:write'] } }] },
        },
      ],
    };
    const outcome = async (context: object) =>
      (await preview({ document, location: LOCATION, context })).locations[LOCATION]!.placed.find(
        (slot) => slot.id === 'NewsTicker',
      );
    await expect(outcome({ roles: ['viewer'], tenant: 'acme' })).resolves.toMatchObject({
      outcome: 'hidden',
      reason: 'hidden by its rule: permission records:write',
    });
    await expect(outcome({ roles: ['viewer'], permissions: ['records:write'], tenant: 'acme' })).resolves.toMatchObject(
      {
        outcome: 'shown',
      },
    );
  });

  it('gives the slots /meta serves that account once the document is published', async () => {
    // The document without its slot that cannot render (a publish would refuse it).
    const publishable = {
      remotes: [
        { name: 'team_billing', slots: { [LOCATION]: [DOCUMENT.remotes[0]!.slots[LOCATION]![0]!] } },
        DOCUMENT.remotes[1]!,
      ],
    };
    const forReader = await preview({
      document: publishable,
      context: { roles: ['viewer'], tenant: 'acme' },
    });
    const operatorTenant = ((await operator.get('/me').expect(200)).body as MePayload).user.currentTenant;
    const forOperator = await preview({
      document: publishable,
      context: { roles: ['operator'], tenant: operatorTenant },
    });
    await operator.put('/api/placements/draft').send({ document: publishable }).expect(200);
    await operator.post('/api/placements/publish').send({}).expect(201);

    const reader = await signedInAgent(testApp.app, 'reader', PASSWORD);
    const readerMeta = (await reader.get('/meta').expect(200)).body as MetaPayload;
    const operatorMeta = (await operator.get('/meta').expect(200)).body as MetaPayload;
    const served = (previewed: PlacementsPreviewPayload) =>
      Object.fromEntries(
        Object.entries(previewed.locations).flatMap(([location, { slots }]) =>
          slots.length === 0 ? [] : [[location, slots]],
        ),
      );
    expect(served(forReader)).toEqual(readerMeta.slots);
    expect(served(forOperator)).toEqual(operatorMeta.slots);
    expect(readerMeta.slots[LOCATION]!.map((entry) => entry.component)).toEqual(['Welcome', 'InvoiceNote', 'Welcome']);
  });

  it('previews the saved draft when no document is sent, and every location with a slot when none is named', async () => {
    await operator.put('/api/placements/draft').send({ document: DOCUMENT }).expect(200);
    const answer = await preview({ context: { roles: ['operator'], tenant: 'globex' } });
    expect(answer.locations[LOCATION]!.slots.map((entry) => entry.component)).toEqual([
      'InvoiceBanner',
      'Welcome',
      'InvoiceNote',
      'NewsTicker',
    ]);
    const empty = await preview({ location: 'header-banner', context: { roles: ['viewer'], tenant: 'acme' } });
    expect(empty.locations).toEqual({ 'header-banner': { slots: [], placed: [] } });
  });

  it('names the parts of a document it cannot read, and previews the rest', async () => {
    const answer = await preview({
      document: {
        remotes: [{ name: 'team_news', slots: { [LOCATION]: [{ component: 'NewsTicker' }, { props: 1 }] } }],
      },
      location: LOCATION,
      context: { roles: ['viewer'], tenant: 'acme' },
    });
    expect(answer.problems).toHaveLength(1);
    expect(answer.problems[0]).toMatchObject({ kind: 'invalid-document', remote: 'team_news', index: 1 });
    expect(answer.locations[LOCATION]!.slots.map((entry) => entry.component)).toContain('NewsTicker');
  });

  it('lists the roles, tenants and flags a context is chosen from', async () => {
    const choices = (await operator.get(PLACEMENTS_PREVIEW_PATH).expect(200)).body as PlacementPreviewChoices;
    expect(choices).toEqual({
      roles: ['viewer', 'editor', 'operator'],
      tenants: expect.arrayContaining([
        { id: 'acme', name: 'ACME' },
        { id: 'globex', name: 'GLOBEX' },
      ]) as unknown,
      flags: ['new-billing'],
    });
  });
});

describe('who may preview, and what is refused', () => {
  const CONTEXT = { roles: ['viewer'], tenant: 'acme' };

  it('answers 401 without a session and 403 JSON to staff without the operator role, with no slot', async () => {
    const anonymous = await request(testApp.app.handler)
      .post(PLACEMENTS_PREVIEW_PATH)
      .send({ document: DOCUMENT, context: CONTEXT })
      .expect(401);
    expect(anonymous.body).toEqual({ error: { code: 'unauthenticated', message: expect.any(String) as unknown } });
    const reader = await signedInAgent(testApp.app, 'reader', PASSWORD);
    for (const method of ['get', 'post'] as const) {
      const refused = await reader[method](PLACEMENTS_PREVIEW_PATH).send({ document: DOCUMENT, context: CONTEXT });
      expect([refused.status, refused.body]).toEqual([
        403,
        { error: { code: 'forbidden', message: PERMISSION_REFUSED[PLACEMENTS_EDIT] } },
      ]);
    }
  });

  it.each([
    ['no context', { document: DOCUMENT }, /"context" must say who the preview is for/],
    [
      'a tenant that does not exist',
      { context: { roles: ['viewer'], tenant: 'initech' } },
      /^"context.tenant" names the unknown tenant "initech"; tenants: acme, globex\./,
    ],
    [
      'an unknown location',
      { location: 'sidebar', context: CONTEXT },
      /"location" must be one of .*got the string "sidebar"/,
    ],
    ['roles that are not a list', { context: { roles: 'viewer', tenant: 'acme' } }, /"context.roles" must be a list/],
    [
      'an unknown permission',
      { context: { ...CONTEXT, permissions: ['records:own'] } },
      /^"context.permissions" names the unknown permission "records:own"; permissions: records:read, /,
    ],
    [
      'a role no account can hold',
      { context: { roles: ['viewer', 'admin'], tenant: 'acme' } },
      /^"context.roles" names the unknown role "admin"; roles: viewer, editor, operator\.$/,
    ],
    [
      'a role that is no string',
      { context: { roles: [7], tenant: 'acme' } },
      /"context.roles" must be a list of names, got a number at \[0\]/,
    ],
    [
      'a bad flag name',
      { context: { ...CONTEXT, flags: ['new-billing', 'New Billing'] } },
      /^"context.flags" names the invalid flag name "New Billing": a flag name starts with a lower-case letter/,
    ],
    ['an unknown key', { context: CONTEXT, user: 'admin' }, /unknown key\(s\) user/],
    ['a body that is not an object', [1, 2], /^Send /],
  ])('answers 400 in JSON for %s', async (_what, body, message) => {
    const response = await operator
      .post(PLACEMENTS_PREVIEW_PATH)
      .send(body as object)
      .expect(400);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body.error.code).toBe('invalid_request');
    expect(response.body.error.message).toMatch(message);
  });

  it.each([['bad flag!'], ['ünïcode'], ['']])(
    'answers 400 naming the flag name %j and what a flag name may contain',
    async (flag) => {
      const response = await operator
        .post(PLACEMENTS_PREVIEW_PATH)
        .send({ context: { ...CONTEXT, flags: [flag] } })
        .expect(400);
      expect(response.body).toEqual({
        error: {
          code: 'invalid_request',
          message: `"context.flags" names the invalid flag name ${JSON.stringify(flag)}: ${FLAG_NAME_RULE}.`,
        },
      });
    },
  );

  it('refuses a cross-site preview of an operator', async () => {
    await operator
      .post(PLACEMENTS_PREVIEW_PATH)
      .set('Origin', 'https://evil.example.com')
      .send({ context: CONTEXT })
      .expect(403);
  });
});
