/**
 * Roles per tenant membership and permissions granted to accounts, through the whole app on a real SQLite file: what
 * an account may do follows the tenant it works in now (the membership's role wins over the account's own), `/me`
 * and the tenant switch answer that, every guarded route checks it, and `visibleWhen` `permissions` rules follow it.
 */
import type request from 'supertest';
import {
  OPERATOR_ROLE,
  PERMISSION_REFUSED,
  PLACEMENTS_EDIT,
  RECORDS_READ,
  RECORDS_WRITE,
  RELEASES_MANAGE,
  Slot,
  STAFF_PERMISSIONS,
  VIEWER_CANNOT_CHANGE_RECORDS,
  VIEWER_ROLE,
  type MePayload,
  type MetaPayload,
  type RecordListPayload,
  type StaffRole,
} from '../../shared';
import { addUser, createDemoApp, signedInAgent, type DemoTestApp } from '../../testing/server/test-app';
import { SlotRegistrationError } from '../slots/slot-registry';

const PASSWORD = 'correct horse battery';
let host: DemoTestApp;

beforeEach(async () => {
  host = await createDemoApp({
    configure: (app) =>
      app.registerSlots({
        'dashboard-after-cards': [
          Slot.make('Callout', { tone: 'info' }, 'For release managers').placed({
            id: 'release-managers',
            visibleWhen: { permissions: [RELEASES_MANAGE] },
          }),
          Slot.make('Callout', { tone: 'info' }, 'Read only here').placed({
            id: 'read-only',
            visibleWhen: { $not: { permissions: [RECORDS_WRITE] } },
          }),
        ],
      }),
  });
});
afterEach(() => host.close());

/** An account in acme and globex (the demo's tenants, acme first), with these roles. */
async function member(
  username: string,
  roles: { account?: StaffRole; acme?: StaffRole; globex?: StaffRole },
): Promise<request.Agent> {
  await addUser(host.app, username, PASSWORD, []);
  const user = (await host.app.users.findByUsername(username))!;
  if (roles.account) await host.app.users.setRole(username, roles.account);
  await host.app.tenants.setMemberships(user.id, [
    { tenant: 'acme', role: roles.acme ?? null },
    { tenant: 'globex', role: roles.globex ?? null },
  ]);
  return signedInAgent(host.app, username, PASSWORD);
}

async function switchTo(agent: request.Agent, tenant: string): Promise<MePayload> {
  return (await agent.post('/tenant').send({ tenant }).expect(200)).body as MePayload;
}

/** The status of a save of the tenant's first article, and of the releases and placements APIs. */
async function statuses(agent: request.Agent) {
  const list = (await agent.get('/api/resources/articles/records?limit=1').expect(200)).body as RecordListPayload;
  const save = await agent.put(`/api/resources/articles/records/${list.records[0]!.id}`).send({ title: 'Renamed' });
  return {
    save: save.status,
    saveMessage: save.status === 403 ? (save.body.error.message as string) : null,
    releases: (await agent.get('/api/remotes/releases')).status,
    placements: (await agent.get('/api/placements')).status,
  };
}

async function calloutsOnMeta(agent: request.Agent): Promise<string[]> {
  const meta = (await agent.get('/meta').expect(200)).body as MetaPayload;
  // This test's callouts only (the demo has slots of its own there), by their text.
  return (meta.slots['dashboard-after-cards'] ?? []).flatMap((entry) =>
    typeof entry.content === 'string' ? [entry.content] : [],
  );
}

it('lets an operator of tenant A who is a viewer of tenant B change records in A only, following each switch', async () => {
  const agent = await member('tess', { acme: OPERATOR_ROLE, globex: VIEWER_ROLE });
  const me = (await agent.get('/me').expect(200)).body as MePayload;
  expect(me.user.currentTenant).toBe('acme');
  expect(me.user.roles).toEqual([OPERATOR_ROLE]);
  expect(me.user.permissions).toEqual([...STAFF_PERMISSIONS]);
  expect(await statuses(agent)).toEqual({ save: 200, saveMessage: null, releases: 200, placements: 200 });

  // The switch answers the role and permissions of the new tenant: the shell follows them without asking again.
  const inGlobex = await switchTo(agent, 'globex');
  expect(inGlobex.user).toMatchObject({ currentTenant: 'globex', roles: [VIEWER_ROLE], permissions: [RECORDS_READ] });
  expect((await agent.get('/me').expect(200)).body.user.permissions).toEqual([RECORDS_READ]);
  expect(await statuses(agent)).toEqual({
    save: 403,
    saveMessage: VIEWER_CANNOT_CHANGE_RECORDS,
    releases: 403,
    placements: 403,
  });
  const refused = await agent.post('/api/placements/publish').send({});
  expect(refused.status).toBe(403);
  expect(refused.body.error).toEqual({ code: 'forbidden', message: PERMISSION_REFUSED[PLACEMENTS_EDIT] });

  await switchTo(agent, 'acme');
  expect(await statuses(agent)).toEqual({ save: 200, saveMessage: null, releases: 200, placements: 200 });
});

it('refuses a change of releases or placements (which reach every tenant) to staff who lack the permission in one', async () => {
  // An operator of acme who is a viewer of globex: in acme they read releases and placements, and change neither.
  const tess = await member('tess', { acme: OPERATOR_ROLE, globex: VIEWER_ROLE });
  expect(await statuses(tess)).toMatchObject({ releases: 200, placements: 200 });
  const globex = (await host.app.tenants.get('globex'))!.name;
  for (const [path, permission] of [
    ['/api/placements/publish', PLACEMENTS_EDIT],
    ['/api/remotes/team_records/canary', RELEASES_MANAGE],
    ['/api/remotes/team_records/activate', RELEASES_MANAGE],
  ] as const) {
    const refused = await tess.post(path).send({});
    expect([path, refused.status]).toEqual([path, 403]);
    expect(refused.body.error.message).toBe(
      `${PERMISSION_REFUSED[permission]} What it changes reaches every tenant, so it needs that permission in each, ` +
        `and your account does not have it in ${globex}.`,
    );
  }
  await tess.get('/api/placements/revisions').expect(200);
  // The pages learn it before anything is tried: both lists say why a change would be refused, in the 403's words.
  const readOnly = `${PERMISSION_REFUSED[RELEASES_MANAGE]} What it changes reaches every tenant, so it needs that permission in each, and your account does not have it in ${globex}.`;
  expect((await tess.get('/api/remotes/releases').expect(200)).body.changesRefused).toBe(readOnly);
  expect((await tess.get('/api/placements').expect(200)).body.changesRefused).toBe(
    readOnly.replace(PERMISSION_REFUSED[RELEASES_MANAGE], PERMISSION_REFUSED[PLACEMENTS_EDIT]),
  );
  // A preview changes only their own session: the permission here is enough (an unknown version: 404, not 403).
  expect((await tess.post('/api/remotes/team_records/preview').send({ version: '9.9.9' })).status).toBe(404);
  // The placements preview reads only: the read-only page shows it too.
  const preview = { context: { roles: ['viewer'], tenant: 'acme' }, location: 'dashboard-after-cards' };
  expect((await tess.post('/api/placements/preview').send(preview)).status).toBe(200);

  // An operator of globex alone, with no role of their own: acme gets its editor's rights.
  await addUser(host.app, 'gina', PASSWORD, []);
  const gina = (await host.app.users.findByUsername('gina'))!;
  await host.app.tenants.setMemberships(gina.id, [{ tenant: 'globex', role: OPERATOR_ROLE }]);
  const ginaAgent = await signedInAgent(host.app, 'gina', PASSWORD);
  const acme = (await host.app.tenants.get('acme'))!.name;
  const refused = await ginaAgent.post('/api/remotes/team_records/canary').send({});
  expect(refused.status).toBe(403);
  // acme is not hers to know of: the tenant she lacks it in is not named.
  expect(refused.body.error.message).toContain('does not have it in a tenant it does not belong to.');
  expect(refused.body.error.message).not.toContain(acme);

  // The account's own operator role reaches the tenants it is no member of: a platform operator.
  const olga = await member('olga', { account: OPERATOR_ROLE });
  const allowed = await olga.post('/api/remotes/team_records/canary').send({});
  expect(allowed.status).toBe(400);
  expect((await olga.get('/api/remotes/releases').expect(200)).body).not.toHaveProperty('changesRefused');
  expect((await olga.get('/api/placements').expect(200)).body).not.toHaveProperty('changesRefused');
});

it("applies the account's own role where a membership has none, and a membership's role even when it is lower", async () => {
  const viewerOperatingAcme = await member('vic', { account: VIEWER_ROLE, acme: OPERATOR_ROLE });
  expect((await statuses(viewerOperatingAcme)).releases).toBe(200);
  expect((await switchTo(viewerOperatingAcme, 'globex')).user.roles).toEqual([VIEWER_ROLE]);
  expect((await statuses(viewerOperatingAcme)).save).toBe(403);

  const operatorViewingGlobex = await member('olga', { account: OPERATOR_ROLE, globex: VIEWER_ROLE });
  expect(await statuses(operatorViewingGlobex)).toMatchObject({ save: 200, releases: 200 });
  await switchTo(operatorViewingGlobex, 'globex');
  expect(await statuses(operatorViewingGlobex)).toMatchObject({ save: 403, releases: 403, placements: 403 });
});

it('counts a change of a membership role or of granted permissions at the next request, without signing in again', async () => {
  const agent = await member('gus', { globex: VIEWER_ROLE });
  await switchTo(agent, 'globex');
  expect((await statuses(agent)).save).toBe(403);

  // Granted to the account: in every tenant, on top of the role's.
  await host.app.users.grant('gus', [RECORDS_WRITE, RELEASES_MANAGE]);
  const me = (await agent.get('/me').expect(200)).body as MePayload;
  expect(me.user).toMatchObject({ roles: [VIEWER_ROLE], permissions: [RECORDS_READ, RECORDS_WRITE, RELEASES_MANAGE] });
  expect(await statuses(agent)).toEqual({ save: 200, saveMessage: null, releases: 200, placements: 403 });
  await host.app.users.revoke('gus', [RECORDS_WRITE, RELEASES_MANAGE]);

  const user = (await host.app.users.findByUsername('gus'))!;
  await host.app.tenants.setMembershipRole(user.id, 'globex', OPERATOR_ROLE);
  expect(await statuses(agent)).toEqual({ save: 200, saveMessage: null, releases: 200, placements: 200 });
  await host.app.tenants.setMembershipRole(user.id, 'globex', null);
  // No role left anywhere: an editor.
  expect(await statuses(agent)).toEqual({ save: 200, saveMessage: null, releases: 403, placements: 403 });
});

it('shows a slot with a permissions rule on /meta only where the user has one of them', async () => {
  const agent = await member('tess', { acme: OPERATOR_ROLE, globex: VIEWER_ROLE });
  expect(await calloutsOnMeta(agent)).toEqual(['For release managers']);
  await switchTo(agent, 'globex');
  expect(await calloutsOnMeta(agent)).toEqual(['Read only here']);

  await host.app.users.grant('tess', [RELEASES_MANAGE]);
  expect(await calloutsOnMeta(agent)).toEqual(['For release managers', 'Read only here']);
});

it('refuses a permissions rule at a public location: GET /slots has no user to evaluate it for', () => {
  expect(() =>
    host.app.registerSlots({
      'login-after-form': Slot.make('Callout').placed({ visibleWhen: { permissions: [RECORDS_READ] } }),
    }),
  ).toThrow(SlotRegistrationError);
  expect(() =>
    host.app.registerSlots({
      'login-after-form': Slot.make('Callout').placed({ visibleWhen: { $any: [{ permissions: [RECORDS_READ] }] } }),
    }),
  ).toThrow(/rule over the user's roles, permissions or tenant/);
});

it('refuses a rule naming an unknown permission, naming it', () => {
  expect(() => Slot.make('Callout').placed({ visibleWhen: { permissions: ['records:delete'] } })).toThrow(
    /names the unknown permission "records:delete"; permissions: records:read, records:write/,
  );
});
