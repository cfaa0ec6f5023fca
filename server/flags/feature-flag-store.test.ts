/**
 * Feature flags on both engines (a SQLite file, a real PostgreSQL), with two hosts on one database: a flag set on one
 * changes the rules on the other's next `/meta`; and `npm run flag` on the SQLite file of a running app.
 */
import { OPERATOR_ROLE, Slot, type SlotEntry } from '../../shared';
import { describeWithPostgres, usePostgresDatabases } from '../../testing/server/postgres-server';
import { runServerCommand } from '../../testing/server/run-server-command';
import {
  addUser,
  closeTwoHosts,
  createTestApp,
  createTwoHosts,
  signedInAgent,
  type TestApp,
  type TestAppOptions,
} from '../../testing/server/test-app';
import { FlagTenantMissingError, InvalidFlagError } from './feature-flag-store';

jest.setTimeout(60_000);

const PASSWORD = 'correct horse battery';

const slots = (configure: TestAppOptions) => ({
  ...configure,
  configure: (app: TestApp['app']) =>
    app.registerSlots({
      'dashboard-before-cards': [
        Slot.make('Always'),
        Slot.make('Beta').placed({ visibleWhen: { flags: ['beta'] } }),
        Slot.make('BetaOps').placed({ visibleWhen: { $all: [{ flags: ['beta'] }, { roles: [OPERATOR_ROLE] }] } }),
        Slot.make('NoBeta').placed({ visibleWhen: { $not: { flags: ['beta'] } } }),
      ],
    }),
});

const names = (body: { slots: Record<string, SlotEntry[] | undefined> }) =>
  (body.slots['dashboard-before-cards'] ?? []).map((entry) => entry.component);

function flagCases(name: string, options: () => Promise<TestAppOptions>): void {
  describe(`feature flags on ${name}`, () => {
    const pairs: Array<[TestApp, TestApp]> = [];
    afterEach(async () => {
      for (const pair of pairs.splice(0)) await closeTwoHosts(pair);
    });

    it('are off until set; a tenant setting overrides the global one; unset falls back', async () => {
      const [first, second] = await createTwoHosts(createTestApp, slots(await options()));
      pairs.push([first, second]);
      const flags = first.app.flags;
      await first.app.tenants.save({ id: 'acme', name: 'Acme' });
      /** The flags as the second host's next request reads them (its change stamp is read once per request). */
      const onSecond = async (tenant: string | null) => {
        await new Promise((resolve) => setImmediate(resolve));
        second.app.storage.noteRequestStart();
        return [...(await second.app.flags.enabledFor(tenant))];
      };
      expect([...(await flags.enabledFor('acme'))]).toEqual([]);
      await flags.set('beta', true);
      expect(await onSecond('acme')).toEqual(['beta']);
      expect(await onSecond(null)).toEqual(['beta']);
      await flags.set('beta', false, 'acme');
      expect(await onSecond('acme')).toEqual([]);
      expect(await onSecond('globex')).toEqual(['beta']);
      expect(await flags.list()).toEqual([
        { name: 'beta', tenant: null, enabled: true },
        { name: 'beta', tenant: 'acme', enabled: false },
      ]);
      expect(await flags.unset('beta', 'acme')).toBe(true);
      expect(await flags.unset('beta', 'acme')).toBe(false);
      expect(await onSecond('acme')).toEqual(['beta']);
      await expect(flags.set('Not A Name', true)).rejects.toThrow(InvalidFlagError);
      // A tenant there is not (mistyped, or removed since the caller looked) gets no setting: checked apart from the
      // write, one made while tenant:remove ran outlived the tenant.
      const missing = flags.set('beta', true, 'gone');
      await expect(missing).rejects.toThrow(FlagTenantMissingError);
      await expect(missing).rejects.toMatchObject({
        tenant: 'gone',
        known: expect.arrayContaining([expect.objectContaining({ id: 'acme' })]),
      });
      expect((await flags.list()).filter((setting) => setting.tenant === 'gone')).toEqual([]);
    });

    it("decide on another host's next /meta which slots their rules show", async () => {
      const [first, second] = await createTwoHosts(createTestApp, slots(await options()));
      pairs.push([first, second]);
      await addUser(first.app, 'ada', PASSWORD, ['acme']);
      await first.app.users.setRole('ada', OPERATOR_ROLE);
      const agent = await signedInAgent(second.app, 'ada', PASSWORD);
      expect(names((await agent.get('/meta').expect(200)).body)).toEqual(['Always', 'NoBeta']);
      await first.app.flags.set('beta', true, 'acme');
      expect(names((await agent.get('/meta').expect(200)).body)).toEqual(['Always', 'Beta', 'BetaOps']);
      await first.app.flags.set('beta', false);
      await first.app.flags.unset('beta', 'acme');
      expect(names((await agent.get('/meta').expect(200)).body)).toEqual(['Always', 'NoBeta']);
    });
  });
}

flagCases('SQLite', async () => ({}));

describeWithPostgres()('PostgreSQL', () => {
  const postgres = usePostgresDatabases('flags', { poolSize: 3, statementTimeoutMs: 2000 });
  flagCases('PostgreSQL', async () => ({ storage: await postgres.create() }));
});

describe('npm run flag', () => {
  it('sets, lists and unsets a flag in the database of a running app, which the next /meta follows', async () => {
    const testApp = await createTestApp(slots({}));
    try {
      const env = { DATABASE_PATH: testApp.databasePath, DATABASE_URL: '' };
      await addUser(testApp.app, 'ada', PASSWORD, ['acme']);
      const agent = await signedInAgent(testApp.app, 'ada', PASSWORD);
      const set = await runServerCommand('feature-flag.ts', ['set', 'beta', 'on', '--tenant', 'acme'], env);
      expect(set).toMatchObject({ code: 0, stdout: 'Flag "beta" is on for tenant "acme".\n' });
      expect(names((await agent.get('/meta').expect(200)).body)).toEqual(['Always', 'Beta']);
      const list = await runServerCommand('feature-flag.ts', ['list'], env);
      expect(list.stdout).toBe('beta\ton\tfor tenant "acme"\n');
      expect((await runServerCommand('feature-flag.ts', ['unset', 'beta', '--tenant', 'acme'], env)).code).toBe(0);
      expect(names((await agent.get('/meta').expect(200)).body)).toEqual(['Always', 'NoBeta']);
      const bad = await runServerCommand('feature-flag.ts', ['set', 'beta', 'maybe'], env);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('usage: npm run flag');
      expect((await runServerCommand('feature-flag.ts', ['set', 'Beta!', 'on'], env)).code).toBe(2);
    } finally {
      await testApp.close();
    }
  });
});
