import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { sql } from 'kysely';
import request from 'supertest';
import { OPERATOR_ROLE, type JsonValue, type MePayload } from '../../shared';
import { describeWithPostgres, PostgresServer } from '../../testing/server/postgres-server';
import { runServerCommand, type CommandRun } from '../../testing/server/run-server-command';
import { addUser, createTestApp, sessionCookieOf, type TestApp } from '../../testing/server/test-app';
import type { App } from '../app';
import { PlacementsStore } from '../placements/placements-store';
import { ReleaseStore } from '../releases/release-store';
import type { SqliteEngine } from '../storage/sqlite-engine';
import { CODE_RULES_NOT_READ } from './tenant-references';

jest.setTimeout(90_000);

const PASSWORD = 'member-password-123';

/**
 * Three tenants: acme and globex hold records, initech nothing. zoe operates everything (her own role), in acme and
 * globex; ann belongs to globex alone, bob to acme. globex holds two records, one deleted record still restorable
 * and a feature flag setting.
 */
async function seed(app: App): Promise<void> {
  await addUser(app, 'zoe', PASSWORD, ['acme', 'globex']);
  await app.users.setRole('zoe', OPERATOR_ROLE);
  await addUser(app, 'ann', PASSWORD, ['globex']);
  await addUser(app, 'bob', PASSWORD, ['acme']);
  await app.tenants.save({ id: 'initech', name: 'Initech' });
  await app.records.insert('acme', 'notes', { title: 'kept in acme' });
  await app.records.insert('globex', 'notes', { title: 'first of globex' });
  await app.records.insert('globex', 'notes', { title: 'second of globex' });
  await app.records
    .insert('globex', 'notes', { title: 'deleted of globex' })
    .then((record) => app.records.delete('globex', 'notes', record.id));
  await app.flags.set('beta', true, 'globex');
}

async function countsOf(app: App, tenant: string) {
  const db = app.storage.db;
  const count = async (rows: Promise<unknown[]>) => (await rows).length;
  return {
    records: await count(db.selectFrom('records').select('id').where('tenant_id', '=', tenant).execute()),
    deleted: await count(db.selectFrom('deleted_records').select('id').where('tenant_id', '=', tenant).execute()),
    flags: await count(db.selectFrom('feature_flags').select('name').where('tenant', '=', tenant).execute()),
    memberships: await count(db.selectFrom('memberships').select('user_id').where('tenant_id', '=', tenant).execute()),
  };
}

/** The refusal of a tenant holding data, then its removal with --with-data: the same on either engine. */
async function removeGlobex(testApp: TestApp, run: (args: string[]) => Promise<CommandRun>, where: string) {
  const app = testApp.app;
  const holding = await countsOf(app, 'globex');
  expect(holding).toEqual({ records: 2, deleted: 1, flags: 1, memberships: 2 });
  // A canary given to globex alone: it would reach nobody once globex is gone, so the removal ends it.
  const releases = new ReleaseStore(app.storage);
  await releases.changeRollout({
    remote: 'team_billing',
    action: 'canary',
    actor: 'zoe',
    next: { active: '1.0.0', canary: { version: '1.1.0', percent: 0, tenants: ['globex'] } },
  });
  // One that goes on for acme: globex is taken out of its list, so that a tenant made later as "globex" is not in it.
  await releases.changeRollout({
    remote: 'team_records',
    action: 'canary',
    actor: 'zoe',
    next: { active: '1.0.0', canary: { version: '1.2.0', percent: 0, tenants: ['globex', 'acme'] } },
  });

  const refused = await run(['globex', '--yes']);
  expect([refused.code, refused.stdout]).toEqual([1, '']);
  expect(refused.stderr).toContain(
    `Refused: tenant "globex" (GLOBEX) in ${where} holds 2 records, 1 deleted record still restorable, 1 feature ` +
      'flag setting. To delete them with the tenant: ',
  );
  expect(refused.stderr).toContain('npm run tenant:remove -- globex --with-data. Nothing was changed.\n');
  expect(await countsOf(app, 'globex')).toEqual(holding);
  expect((await releases.rollout('team_billing')).canary?.tenants).toEqual(['globex']);
  expect((await releases.rollout('team_records')).canary?.tenants).toEqual(['globex', 'acme']);

  const removed = await run(['globex', '--with-data', '--yes']);
  expect([removed.code, removed.stderr]).toEqual([0, '']);
  expect(removed.stdout).toContain(
    `Removed tenant "globex" (GLOBEX) with 2 memberships (ann, zoe), and its data: 2 records, 1 deleted record ` +
      `still restorable, 1 feature flag setting from ${where}.\n${CODE_RULES_NOT_READ}\nEnded the canary of ` +
      'team_billing 1.1.0, which ' +
      'reached nobody without "globex" (audited canary-end by tenant:remove; the hosts stop serving it at their next ' +
      'poll).\nTook "globex" out of the tenants of the canary of team_records 1.2.0, which goes on for the others ' +
      '(audited canary by tenant:remove).\nLeft in no tenant, so unable to sign in (kept): ann. ',
  );
  expect(await app.tenants.get('globex')).toBeUndefined();
  expect(await countsOf(app, 'globex')).toEqual({ records: 0, deleted: 0, flags: 0, memberships: 0 });
  // Ended in the change log, with why, as an operator's end is; and a running host stops serving it.
  expect(await releases.rollout('team_billing')).toEqual({ remote: 'team_billing', active: '1.0.0', canary: null });
  const [ended] = await releases.history('team_billing');
  expect(ended).toMatchObject({
    action: 'canary-end',
    actor: 'tenant:remove',
    after: {
      active: '1.0.0',
      canary: null,
      reason:
        'tenant "globex" removed: the canary gave no share of the users and named no tenant still there besides ' +
        'it, so it reached nobody',
    },
  });
  expect(await releases.rollout('team_records')).toEqual({
    remote: 'team_records',
    active: '1.0.0',
    canary: { version: '1.2.0', percent: 0, tenants: ['acme'] },
  });
  const [left] = await releases.history('team_records');
  expect(left).toMatchObject({
    action: 'canary',
    actor: 'tenant:remove',
    before: { canary: { version: '1.2.0', percent: 0, tenants: ['globex', 'acme'] } },
    after: {
      canary: { version: '1.2.0', percent: 0, tenants: ['acme'] },
      reason:
        'tenant "globex" removed: taken out of the canary\'s tenants, so that a tenant made later with the id is not ' +
        'in a canary nobody chose for it',
    },
  });
  await app.releases.snapshot.refresh();
  expect(app.releases.snapshot.rollout('team_billing')?.canary).toBeNull();
  expect(app.releases.snapshot.rollout('team_records')?.canary?.tenants).toEqual(['acme']);
  // The other tenants keep theirs; the account left in no tenant is kept.
  expect((await countsOf(app, 'acme')).records).toBe(1);
  expect(await app.users.findByUsername('ann')).toBeDefined();
  expect((await app.tenants.tenantsOf((await app.users.findByUsername('zoe'))?.id as number)).map((t) => t.id)).toEqual(
    ['acme'],
  );
}

describe('npm run tenant:remove', () => {
  let testApp: TestApp;
  const run = (args: string[]) =>
    runServerCommand('tenant-remove.ts', args, { DATABASE_PATH: testApp.databasePath, DATABASE_URL: '' });

  beforeEach(async () => {
    testApp = await createTestApp();
    await seed(testApp.app);
  });
  afterEach(() => testApp.close());

  it('refuses a tenant holding data, says what; with --with-data deletes it, and a session there moves on', async () => {
    const server = http.createServer(testApp.app.handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const login = await request(server).post('/login').send({ username: 'zoe', password: PASSWORD });
      const zoe = sessionCookieOf(login) as string;
      expect((await request(server).post('/tenant').set('Cookie', zoe).send({ tenant: 'globex' })).status).toBe(200);

      await removeGlobex(testApp, run, `SQLite ${testApp.databasePath}`);

      // Its session goes on, in the tenant left to it; the word index holds no word of globex's records any more.
      const me = await request(server).get('/me').set('Cookie', zoe);
      expect(me.status).toBe(200);
      expect((me.body as MePayload).user.currentTenant).toBe('acme');
      const sqlite = (testApp.app.storage as SqliteEngine).file.db;
      const words = sqlite.prepare('SELECT count(*) AS n FROM record_words').get();
      expect(words).toEqual({ n: 1 });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('removes a tenant that holds nothing, asking first (--yes without a terminal)', async () => {
    const refused = await run(['initech']);
    expect([refused.code, refused.stdout]).toEqual([1, '']);
    expect(refused.stderr).toBe(
      `${CODE_RULES_NOT_READ}\nRefused: there is no terminal to confirm on. Run it in a terminal to be asked, or add --yes ` +
        `(DATABASE_PATH=${testApp.databasePath} npm run tenant:remove -- initech --yes) to remove without being ` +
        'asked. Nothing was changed.\n',
    );
    expect(await testApp.app.tenants.get('initech')).toBeDefined();
    expect(await run(['initech', '--yes'])).toEqual({
      code: 0,
      stdout: `Removed tenant "initech" (Initech) with 0 memberships from SQLite ${testApp.databasePath}.\n${CODE_RULES_NOT_READ}\n`,
      stderr: '',
    });
  });

  it('names the placement rules and canaries that name the tenant, before asking and once removed', async () => {
    const engine = testApp.app.storage;
    const rule = (tenants: string[]): JsonValue => ({ $any: [{ roles: ['operator'] }, { $not: { tenants } }] });
    await new PlacementsStore(engine).publish({
      document: {
        remotes: [
          {
            name: 'team_marketing',
            slots: {
              'dashboard-before-cards': [
                { component: 'Promo', visibleWhen: { tenants: ['acme'] } },
                { component: 'Hint', visibleWhen: rule(['globex', 'initech']) },
              ],
              // An item given alone, not in a list: a host reads it as a list of one, and so does the command.
              'dashboard-after-cards': { component: 'Banner', visibleWhen: { tenants: ['initech'] } },
            },
          },
        ],
      },
      action: 'publish',
      restored: null,
      actor: 'zoe',
      checkedAgainst: 0,
      setDraft: false,
    });
    // A draft saved since, not published: the rules written there are named apart; Banner's, kept as in force, is not,
    // though spelt otherwise (in a list): a publish, comparing rules as read, takes it for kept (a warning only).
    const drafted = { component: 'Chart', visibleWhen: { tenants: ['initech'] } };
    const kept = { component: 'Banner', priority: 5, visibleWhen: { tenants: ['initech'] } };
    await new PlacementsStore(engine).saveDraft(
      {
        remotes: [
          { name: 'team_marketing', slots: { 'dashboard-after-cards': [kept] } },
          { name: 'team_records', slots: { 'dashboard-before-cards': [drafted] } },
        ],
      },
      'zoe',
    );
    const releases = new ReleaseStore(engine);
    const canary = (remote: string, percent: number, tenants: string[]) =>
      releases.changeRollout({
        remote,
        action: 'canary',
        actor: 'zoe',
        next: { active: '1.0.0', canary: { version: '1.1.0', percent, tenants } },
      });
    await canary('team_marketing', 0, ['initech']);
    await canary('team_records', 10, ['initech', 'acme']);
    // Its other tenant removed before (or never made): it reaches nobody once initech goes too.
    await canary('team_billing', 0, ['umbrella', 'initech']);
    // Only tenants, one of them still there: it goes on for acme.
    await canary('team_other', 0, ['initech', 'acme']);
    const named = [
      'Named by the rules of the placements in force (kept): Hint of team_marketing at dashboard-before-cards, ' +
        'Banner of team_marketing at dashboard-after-cards. A rule that needs "initech" then holds for nobody. ' +
        'Publishing other changes goes on (the placements editor shows each such rule with a warning), but a rule ' +
        'changed while it still names "initech" is refused: take "initech" out of each.',
      'Named by rules written in the saved placements draft (kept): Chart of team_records at ' +
        'dashboard-before-cards. It cannot be published until they no longer name "initech".',
      'A tenant made later with the id "initech" would be named by them again.',
    ].join('\n');
    const toLeave = [
      'Named by the canary of team_other 1.1.0, which goes on for its other tenants: "initech" is taken out of its ' +
        'tenants with the tenant, so that a tenant made later with the id is not in it.',
      'Named by the canary of team_records 1.1.0, which goes on for its other tenants and 10 % of the users: ' +
        '"initech" is taken out of its tenants with the tenant, so that a tenant made later with the id is not in it.',
    ];
    const toEnd = ['team_billing', 'team_marketing'].map(
      (remote) =>
        `Named by the canary of ${remote} 1.1.0, ended with the tenant: it gives no share of the users and names no ` +
        'other tenant still there, so it would reach nobody.',
    );
    const ended = ['team_billing', 'team_marketing'].map(
      (remote) =>
        `Ended the canary of ${remote} 1.1.0, which reached nobody without "initech" (audited canary-end by ` +
        'tenant:remove; the hosts stop serving it at their next poll).',
    );
    const left = ['team_other', 'team_records'].map(
      (remote) =>
        `Took "initech" out of the tenants of the canary of ${remote} 1.1.0, which goes on for the others (audited ` +
        'canary by tenant:remove).',
    );

    // Said before the question (here: the refusal for want of a terminal), then with what was removed.
    const asked = await run(['initech']);
    expect(asked.code).toBe(1);
    const before =
      `${[named, ...toLeave, ...toEnd, CODE_RULES_NOT_READ].join('\n')}\n` +
      'Refused: there is no terminal to confirm on.';
    expect(asked.stderr.slice(0, before.length)).toBe(before);
    expect((await releases.rollout('team_marketing')).canary).not.toBeNull();
    expect(await run(['initech', '--yes'])).toEqual({
      code: 0,
      stdout:
        `Removed tenant "initech" (Initech) with 0 memberships from SQLite ${testApp.databasePath}.\n${named}\n` +
        `${[CODE_RULES_NOT_READ, ...ended, ...left].join('\n')}\n`,
      stderr: '',
    });
    for (const remote of ['team_billing', 'team_marketing']) {
      expect((await releases.rollout(remote)).canary).toBeNull();
    }
    // The canaries that go on for others lose initech from their list: a tenant made later as "initech" is not in them.
    expect((await releases.rollout('team_other')).canary).toEqual({ version: '1.1.0', percent: 0, tenants: ['acme'] });
    expect((await releases.rollout('team_records')).canary).toEqual({
      version: '1.1.0',
      percent: 10,
      tenants: ['acme'],
    });
    expect(await releases.history('team_other')).toMatchObject([{ action: 'canary', actor: 'tenant:remove' }, {}]);
  });

  it('names the rules of REMOTES_CONFIG naming the tenant as kept, and says what it cannot read', async () => {
    const file = path.join(testApp.dir.path, 'remotes.json');
    const env = { DATABASE_PATH: testApp.databasePath, DATABASE_URL: '', REMOTES_CONFIG: file };
    const runWithFile = (args: string[]) => runServerCommand('tenant-remove.ts', args, env);
    // A file a host would not read: said, and the removal is not held up by it.
    fs.writeFileSync(file, '{ "remotes": [');
    const unread = await runWithFile(['initech']);
    expect(unread.stderr).toMatch(
      new RegExp(`^REMOTES_CONFIG ${file} could not be read here, so its rules were not looked at: .+\n`),
    );
    fs.writeFileSync(
      file,
      JSON.stringify({
        remotes: [
          {
            name: 'team_billing',
            entry: 'http://127.0.0.1:9/mf-manifest.json',
            components: ['Banner', 'Promo'],
            slots: {
              'dashboard-before-cards': [
                { component: 'Banner', visibleWhen: { $not: { tenants: ['acme', 'initech'] } } },
                { component: 'Promo', visibleWhen: { tenants: ['acme'] } },
              ],
            },
          },
        ],
      }),
    );
    const named =
      `Named by rules of REMOTES_CONFIG ${file} (kept: the command does not change the file): Banner of ` +
      'team_billing at dashboard-before-cards. A rule that needs "initech" then holds for nobody: take "initech" out ' +
      `of each in the file, then DATABASE_PATH=${testApp.databasePath} npm run remotes:reload.\n` +
      'A tenant made later with the id "initech" would be named by them again.\n' +
      `${CODE_RULES_NOT_READ}\n`;
    const asked = await runWithFile(['initech']);
    expect([asked.code, asked.stderr.slice(0, named.length)]).toEqual([1, named]);
    const removed = await runWithFile(['initech', '--yes']);
    expect(removed).toEqual({
      code: 0,
      stdout: `Removed tenant "initech" (Initech) with 0 memberships from SQLite ${testApp.databasePath}.\n${named}`,
      stderr: '',
    });
    // The help says it too.
    expect((await runWithFile(['--help'])).stdout).toContain(CODE_RULES_NOT_READ);
  });

  it('names only what a tenant holds, never a count of nothing', async () => {
    // acme holds one record and nothing else; initech a flag setting only. The refusals listed zero counts too.
    await testApp.app.flags.set('beta', false, 'initech');
    const acme = await run(['acme', '--yes']);
    expect([acme.code, acme.stdout]).toEqual([1, '']);
    expect(acme.stderr).toContain(`in SQLite ${testApp.databasePath} holds 1 record. To delete it with the tenant: `);
    const initech = await run(['initech', '--yes']);
    expect(initech.stderr).toContain(
      `Refused: tenant "initech" (Initech) in SQLite ${testApp.databasePath} holds 1 feature flag setting. To delete it with `,
    );
    for (const said of [acme.stderr, initech.stderr]) expect(said).not.toMatch(/\b0 /);

    const removed = await run(['acme', '--with-data', '--yes']);
    expect([removed.code, removed.stderr]).toEqual([0, '']);
    expect(removed.stdout).toContain(', and its data: 1 record from ');
    expect(removed.stdout).not.toMatch(/\b0 /);
  });

  it('refuses leaving nobody able to administer, an unknown tenant, and a command line it does not take', async () => {
    // zoe, the only operator, in acme alone: acme gone, she belongs to no tenant and cannot sign in.
    const zoe = await testApp.app.users.findByUsername('zoe');
    await testApp.app.tenants.setMemberships(zoe?.id as number, ['acme']);
    const refused = await run(['acme', '--with-data', '--yes']);
    expect([refused.code, refused.stdout]).toEqual([1, '']);
    expect(refused.stderr).toMatch(/^Refused: "zoe" is the last account able to use releases:manage and placements/);
    expect(refused.stderr).toContain(
      `npm run user:add -- <username> --keep-password --role operator), or first give another tenant to each account it leaves in no tenant ` +
        `(DATABASE_PATH=${testApp.databasePath} npm run user:add -- <username> --keep-password --tenant <id>). ` +
        'Nothing was changed.\n',
    );
    expect(await testApp.app.tenants.get('acme')).toBeDefined();
    expect((await countsOf(testApp.app, 'acme')).records).toBe(1);

    expect(await run(['acmee', '--yes'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `Unknown tenant "acmee". Tenants: acme, globex, initech. Nothing was changed in SQLite ${testApp.databasePath}.\n`,
    });
    // Ids are exact; one that differs in case only is pointed at.
    expect((await run(['ACME', '--yes'])).stderr).toMatch(/^Unknown tenant "ACME" \(ids are exact: "acme"\?\)\./);
    // Each says what is wrong before the usage.
    for (const [args, said] of [
      [[], 'Give the tenant id.'],
      [['--with-data'], 'Give the tenant id.'],
      [['acme', 'globex'], 'Give one tenant id, not 2: "acme", "globex".'],
      [['--all'], 'Unknown option --all.'],
    ] as const) {
      const usage = await run([...args]);
      expect([usage.code, usage.stderr]).toEqual([
        2,
        `${said}\nusage: npm run tenant:remove -- <id> [--with-data] [--yes]\n`,
      ]);
    }
  });
});

describeWithPostgres()('npm run tenant:remove with DATABASE_URL', () => {
  let postgres: PostgresServer;
  beforeAll(async () => {
    postgres = await PostgresServer.start();
  }, 60_000);
  afterAll(() => postgres.remove(), 30_000);

  it('refuses a tenant holding data, then removes it with its data on PostgreSQL', async () => {
    const url = await postgres.createDatabase('tenant_remove');
    const testApp = await createTestApp({ storage: { kind: 'postgres', url, poolSize: 3, statementTimeoutMs: 5000 } });
    try {
      await seed(testApp.app);
      await removeGlobex(
        testApp,
        (args) => runServerCommand('tenant-remove.ts', args, { DATABASE_URL: url }),
        // Named as the server names it: `PostgreSQL "tenant_remove" on 127.0.0.1:<port>`.
        testApp.app.storage.displayName,
      );
      // PostgreSQL's word index follows its records by foreign key: acme's record only.
      const words = await sql<{ n: number }>`SELECT count(*)::int AS n FROM record_words`.execute(
        testApp.app.storage.db,
      );
      expect(words.rows).toEqual([{ n: 1 }]);
    } finally {
      await testApp.close();
    }
  });
});
