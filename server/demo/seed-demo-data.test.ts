import { OPERATOR_ROLE, RELEASES_MANAGE, PLACEMENTS_EDIT, VIEWER_ROLE } from '../../shared';
import {
  createDemoApp,
  DEMO_PASSWORD,
  FAST_HASH,
  signedInAgent,
  type DemoTestApp,
} from '../../testing/server/test-app';
import { addDemoMember, DEMO_MEMBER_PASSWORD } from '../../testing/server/demo-member';
import { changeAccount, createAccount } from '../auth/account-change';
import { hashPassword } from '../auth/password-hash';
import { removeAccount } from '../auth/account-removal';
import { administrators, readAccessSnapshot } from '../auth/administrators';
import { removeTenant } from '../cli/tenant-removal';

/**
 * The demo seed on a database an operator changed, reopened as the next start does: what is missing of the demo comes
 * back (docs/operators/README.md), except a tenant that would leave nobody able to administer, as `tenant:add`
 * refuses it.
 */
describe('demo seed at a later start', () => {
  let started: DemoTestApp | undefined;

  afterEach(async () => {
    await started?.close();
    started = undefined;
  });

  /** A start of the demo on the database the last one left. */
  const restart = async (onTenantLeftOut?: (message: string) => void): Promise<DemoTestApp> => {
    const last = started as DemoTestApp;
    await last.close({ keepData: true });
    started = await createDemoApp({
      dir: last.dir,
      demo: { adminPassword: DEMO_PASSWORD, ...(onTenantLeftOut ? { onTenantLeftOut } : {}) },
    });
    return started;
  };

  const administratorsNow = async (app: DemoTestApp) =>
    administrators(await readAccessSnapshot(app.app.storage.db, app.app.storage.dialect));

  it('brings a removed demo tenant back when an administrator keeps administering with it', async () => {
    started = await createDemoApp();
    await removeTenant(started.app.storage, 'globex', { withData: true });
    const { app } = await restart();
    expect((await app.tenants.list()).map((tenant) => tenant.id)).toEqual(['acme', 'globex']);
    expect(await app.records.count('globex', 'articles')).toBeGreaterThan(0);
    expect((await administratorsNow(started)).get(RELEASES_MANAGE)).toEqual(['admin']);
  });

  it('gives no tenant made again to an account an operator left in none', async () => {
    started = await createDemoApp();
    const engine = started.app.storage;
    // Dave belonged to globex alone: removed with it, he belongs to no tenant and cannot sign in to any.
    const dave = await createAccount(engine, 'dave', await hashPassword('a password for dave', FAST_HASH), {
      role: VIEWER_ROLE,
      memberships: [{ tenant: 'globex', role: null }],
    });
    await removeTenant(engine, 'globex', { withData: true });
    const { app } = await restart();
    expect((await app.tenants.list()).map((tenant) => tenant.id)).toEqual(['acme', 'globex']);
    expect(await app.tenants.tenantsOf(dave?.id as number)).toEqual([]);
  });

  it('leaves a removed demo tenant out when nobody could administer with it, and says so', async () => {
    started = await createDemoApp();
    const engine = started.app.storage;
    // Ann administers as the operator of both tenants, by her memberships' roles alone; admin is disabled.
    await addDemoMember(engine, { role: VIEWER_ROLE, tenantRole: OPERATOR_ROLE });
    await changeAccount(engine, 'admin', { disabled: true });
    // Ann is then the operator of every tenant there is: the removal keeps an administrator, so it is made.
    await removeTenant(engine, 'globex', { withData: true });
    expect(await administratorsNow(started)).toEqual(
      new Map([
        [RELEASES_MANAGE, ['ann']],
        [PLACEMENTS_EDIT, ['ann']],
      ]),
    );

    const said: string[] = [];
    const { app } = await restart((message) => said.push(message));
    // Brought back, globex would have no member: Ann's own role (viewer) would apply there and she would administer
    // nothing, as tenant:add refuses.
    expect((await app.tenants.list()).map((tenant) => tenant.id)).toEqual(['acme']);
    expect(await administratorsNow(started)).toEqual(
      new Map([
        [RELEASES_MANAGE, ['ann']],
        [PLACEMENTS_EDIT, ['ann']],
      ]),
    );
    expect(said).toEqual([
      'The demo tenant "globex" is missing and was not made again: "ann" is the last account able to use ' +
        'releases:manage and placements:edit (manage the releases of remotes and edit the placements, for every ' +
        'tenant), and no account could after this (tenant:add refuses it too). It comes back at a start where an ' +
        'account would still administer with it, such as an operator by its own role.',
    ]);
    // Ann still signs in and works in acme.
    await signedInAgent(app, 'ann', DEMO_MEMBER_PASSWORD);

    // Once an account administers by its own role, it comes back, with its records.
    await changeAccount(app.storage, 'admin', { disabled: false });
    const { app: next } = await restart();
    expect((await next.tenants.list()).map((tenant) => tenant.id)).toEqual(['acme', 'globex']);
    expect(await next.records.count('globex', 'articles')).toBeGreaterThan(0);
  });

  it('brings back a removed admin first, so a removed demo tenant comes back with it at the same start', async () => {
    started = await createDemoApp();
    const engine = started.app.storage;
    await addDemoMember(engine, { role: VIEWER_ROLE, tenantRole: OPERATOR_ROLE });
    await removeAccount(engine, 'admin', 'the test database');
    await removeTenant(engine, 'globex', { withData: true });

    const said: string[] = [];
    const { app, demoAccount } = await restart((message) => said.push(message));
    expect(demoAccount.created).toBe(true);
    expect(said).toEqual([]);
    expect((await app.tenants.list()).map((tenant) => tenant.id)).toEqual(['acme', 'globex']);
    const admin = await app.users.findByUsername('admin');
    expect((await app.tenants.tenantsOf(admin?.id as number)).map((tenant) => tenant.id)).toEqual(['acme', 'globex']);
    expect((await administratorsNow(started)).get(RELEASES_MANAGE)).toEqual(['admin']);
    await signedInAgent(app, 'admin', DEMO_PASSWORD);
  });

  it('leaves an admin an operator made an editor as it is', async () => {
    started = await createDemoApp();
    const engine = started.app.storage;
    // Another account keeps administering, so taking admin's own role is allowed.
    await addDemoMember(engine, { role: OPERATOR_ROLE, tenantRole: null });
    await changeAccount(engine, 'admin', { role: null });
    const { app } = await restart();
    expect((await app.users.findByUsername('admin'))?.roles).toEqual([]);
    expect((await administratorsNow(started)).get(RELEASES_MANAGE)).toEqual(['ann']);
  });
});
