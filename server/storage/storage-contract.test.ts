import path from 'node:path';
import Database from 'better-sqlite3';
import type { SessionData } from 'express-session';
import { sql } from 'kysely';
import { Client } from 'pg';
import pino from 'pino';
import type { ResourceRecord } from '../../shared';
import { ENGINES } from '../../testing/server/engines-under-test';
import { LoginRateLimiter, rateLimitStoreIn } from '../auth/login-rate-limit/login-rate-limiter';
import { UserStore } from '../auth/user-store';
import type { RecordPageQuery } from './record-page-query';
import { StoredRecordSource } from '../resources/stored-record-source';
import { TenantStore } from '../tenants/tenant-store';
import { createSessionStorage } from './create-session-storage';
import { firstForeignStep, migrate, SchemaStepMismatchError, SchemaTooNewError } from './migrate';
import { MIGRATIONS, POSTGRES_MIGRATIONS, type Migration } from './migrations';
import { openMigratedStorage, type StorageSettings } from './open-storage';
import { migratePostgres } from './postgres-migrate';
import type { SessionStorage } from './session-storage';
import type { StorageEngine } from './storage-engine';

/**
 * The storage contract: the same cases against a SQLite file in a temporary folder and a real PostgreSQL (one
 * server for the file, a fresh database per case). Two engines opened on the same settings stand for two hosts.
 * Above 300 lines for one reason: the contract is one list of cases, run against every engine.
 */
/**
 * The message a promise rejects with. Not `rejects.toThrow()`: better-sqlite3's native part keeps the error class
 * of the first test file that loaded it in the worker, so in later files its errors are no `Error` of this realm.
 */
async function messageOfRejection(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return String((error as { message?: unknown }).message);
  }
  throw new Error('expected a rejection');
}

/** A later request on this host: it starts (PostgreSQL's stamp counts that), in a later event-loop turn (SQLite's). */
const nextRequest = async (engine: StorageEngine): Promise<void> => {
  engine.noteRequestStart();
  await new Promise((resolve) => setImmediate(resolve));
};

for (const engineUnderTest of ENGINES) {
  engineUnderTest.describeFor(`storage contract on ${engineUnderTest.name}`, () => {
    let settings: StorageSettings;
    let engine: StorageEngine;
    const opened: StorageEngine[] = [];

    /** Another process (another host) on the same database. */
    const openAnother = async (): Promise<StorageEngine> => {
      const another = await openMigratedStorage(settings);
      opened.push(another);
      return another;
    };

    beforeAll(() => engineUnderTest.setUp(), 60_000);
    afterAll(() => engineUnderTest.tearDown(), 30_000);

    beforeEach(async () => {
      settings = await engineUnderTest.freshDatabase();
      engine = await openAnother();
    });

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((each) => each.close()));
    });

    describe('users', () => {
      it('creates an account, then sets its password; names compare regardless of case', async () => {
        const users = new UserStore(engine);
        const created = await users.upsert('Editor', 'hash-1', 'The Editor');
        expect(created.created).toBe(true);
        expect(created.user).toMatchObject({ username: 'Editor', displayName: 'The Editor' });
        const updated = await users.upsert('editor', 'hash-2');
        expect(updated.created).toBe(false);
        expect(updated.user.id).toBe(created.user.id);
        expect(updated.user.credentialStamp).not.toBe(created.user.credentialStamp);
        expect((await users.findCredentials('EDITOR'))?.passwordHash).toBe('hash-2');
        expect(await users.findByUsername('nobody')).toBeUndefined();
        expect(await users.count()).toBe(1);
      });

      it('creates only when missing, whatever the case of the existing name', async () => {
        const users = new UserStore(engine);
        expect(await users.createIfMissing('admin', 'first')).toBe(true);
        expect(await users.createIfMissing('ADMIN', 'second')).toBe(false);
        expect((await users.findCredentials('admin'))?.passwordHash).toBe('first');
      });

      it('disables and enables an account: no credentials and no user by id while disabled', async () => {
        const users = new UserStore(engine);
        const { user } = await users.upsert('member', 'hash');
        expect(await users.setDisabled('Member', true)).toBe(true);
        expect(await users.isDisabled('member')).toBe(true);
        expect(await users.findCredentials('member')).toBeUndefined();
        expect(await users.findById(user.id)).toBeUndefined();
        expect(await users.setDisabled('member', false)).toBe(true);
        expect((await users.findById(user.id))?.username).toBe('member');
        // Enabled again, with a stamp of its own: a session kept from before the disabling is not the account's.
        expect((await users.findById(user.id))?.credentialStamp).not.toBe(user.credentialStamp);
        expect(await users.setDisabled('ghost', true)).toBe(false);
      });

      it("sees another host's password change and disabling at its next lookup (cached by id meanwhile)", async () => {
        const here = new UserStore(engine);
        const there = new UserStore(await openAnother());
        const { user } = await here.upsert('member', 'hash-1');
        const before = await here.findById(user.id);
        expect(before?.credentialStamp).toBeDefined();

        await there.upsert('member', 'hash-2');
        await nextRequest(engine);
        expect((await here.findById(user.id))?.credentialStamp).not.toBe(before?.credentialStamp);

        await there.setDisabled('member', true);
        await nextRequest(engine);
        expect(await here.findById(user.id)).toBeUndefined();
      });
    });

    describe('tenants and memberships', () => {
      it('lists tenants in creation order, renames in place, and replaces memberships', async () => {
        const tenants = new TenantStore(engine);
        const users = new UserStore(engine);
        await tenants.save({ id: 'zeta', name: 'Zeta' });
        await tenants.save({ id: 'alpha', name: 'Alpha' });
        await tenants.save({ id: 'zeta', name: 'Zeta Renamed' });
        expect(await tenants.list()).toEqual([
          { id: 'zeta', name: 'Zeta Renamed' },
          { id: 'alpha', name: 'Alpha' },
        ]);
        expect(await tenants.get('alpha')).toEqual({ id: 'alpha', name: 'Alpha' });
        expect(await tenants.get('nope')).toBeUndefined();
        // A new tenant's id is refused as tenant:add refuses it; one saved before the check may still be renamed.
        await expect(tenants.save({ id: 'Acme Corp', name: 'Acme' })).rejects.toThrow(
          '"Acme Corp" is not a tenant id: a letter or digit, then letters, digits and _.- (at most 64).',
        );
        expect(await tenants.get('Acme Corp')).toBeUndefined();
        await engine.db.insertInto('tenants').values({ id: 'Old Id', name: 'Old' }).execute();
        await tenants.save({ id: 'Old Id', name: 'Old, renamed' });
        expect(await tenants.get('Old Id')).toEqual({ id: 'Old Id', name: 'Old, renamed' });
        await engine.db.deleteFrom('tenants').where('id', '=', 'Old Id').execute();
        // A name a terminal or the page would misread is refused; one saved before the check is kept as it is.
        await expect(tenants.save({ id: 'alpha', name: 'Alpha\u001b[2J' })).rejects.toThrow(
          'A tenant name cannot hold control characters (a line break, a tab, an escape) or marks that reverse text. ' +
            'Got "Alpha\\u001b[2J" for tenant "alpha".',
        );
        await engine.db.updateTable('tenants').set({ name: 'Al\npha' }).where('id', '=', 'alpha').execute();
        await tenants.save({ id: 'alpha', name: 'Al\npha' });
        await tenants.save({ id: 'alpha', name: 'Alpha' });

        const { user } = await users.upsert('member', 'hash');
        const { user: loner } = await users.upsert('loner', 'hash');
        await tenants.setMemberships(user.id, ['alpha', 'zeta']);
        expect((await tenants.tenantsOf(user.id)).map((tenant) => tenant.id)).toEqual(['zeta', 'alpha']);
        await tenants.addMembership(user.id, 'alpha');
        await tenants.setMemberships(user.id, ['alpha']);
        expect(await tenants.tenantsOf(user.id)).toEqual([{ id: 'alpha', name: 'Alpha' }]);
        expect(await tenants.usersWithoutTenant()).toEqual([loner.id]);
      });

      it('refuses a membership of a tenant that does not exist', async () => {
        const tenants = new TenantStore(engine);
        const { user } = await new UserStore(engine).upsert('member', 'hash');
        expect(await messageOfRejection(tenants.setMemberships(user.id, ['missing']))).toMatch(/foreign key/i);
        expect(await tenants.tenantsOf(user.id)).toEqual([]);
      });

      it("sees another host's membership change at its next lookup", async () => {
        const here = new TenantStore(engine);
        const there = new TenantStore(await openAnother());
        await here.save({ id: 'north', name: 'North' });
        await here.save({ id: 'south', name: 'South' });
        const { user } = await new UserStore(engine).upsert('member', 'hash');
        await here.setMemberships(user.id, ['north', 'south']);
        expect(await here.tenantsOf(user.id)).toHaveLength(2);
        await there.setMemberships(user.id, ['south']);
        await nextRequest(engine);
        expect(await here.tenantsOf(user.id)).toEqual([{ id: 'south', name: 'South' }]);
      });
    });

    describe('roles per membership and granted permissions', () => {
      it('keeps a role per membership, replaced with the memberships, and set on one membership alone', async () => {
        const tenants = new TenantStore(engine);
        await tenants.save({ id: 'north', name: 'North' });
        await tenants.save({ id: 'south', name: 'South' });
        const { user } = await new UserStore(engine).upsert('member', 'hash');
        await tenants.setMemberships(user.id, [{ tenant: 'north', role: 'operator' }, 'south']);
        const memberships = await tenants.membershipsOf(user.id);
        expect(memberships.tenants).toEqual([
          { id: 'north', name: 'North' },
          { id: 'south', name: 'South' },
        ]);
        expect([...memberships.roles]).toEqual([['north', 'operator']]);

        expect(await tenants.setMembershipRole(user.id, 'south', 'viewer')).toBe(true);
        expect(await tenants.setMembershipRole(user.id, 'north', null)).toBe(true);
        expect([...(await tenants.membershipsOf(user.id)).roles]).toEqual([['south', 'viewer']]);
        // Not a member: nothing to set.
        await tenants.setMemberships(user.id, ['north']);
        expect(await tenants.setMembershipRole(user.id, 'south', 'operator')).toBe(false);
        expect((await tenants.membershipsOf(user.id)).roles.size).toBe(0);
      });

      it('grants and revokes permissions of an account, refusing unknown names before writing anything', async () => {
        const users = new UserStore(engine);
        const { user } = await users.upsert('member', 'hash');
        expect(user.grantedPermissions).toEqual([]);
        expect(await users.grant('Member', ['placements:edit', 'records:write'])).toBe(true);
        expect(await users.grant('member', ['records:write'])).toBe(true);
        expect((await users.findById(user.id))?.grantedPermissions).toEqual(['records:write', 'placements:edit']);
        expect((await users.findCredentials('member'))?.user.grantedPermissions).toEqual([
          'records:write',
          'placements:edit',
        ]);
        expect(await messageOfRejection(users.grant('member', ['records:write', 'records:delete']))).toMatch(
          /Unknown permission "records:delete"/,
        );
        expect(await users.revoke('member', ['placements:edit'])).toBe(true);
        expect((await users.findByUsername('member'))?.grantedPermissions).toEqual(['records:write']);
        expect(await users.setGrantedPermissions('member', [])).toBe(true);
        expect((await users.findById(user.id))?.grantedPermissions).toEqual([]);
        expect(await users.grant('ghost', ['records:read'])).toBe(false);
      });

      it("sees another host's change of a membership role and of grants at its next lookup", async () => {
        const here = { tenants: new TenantStore(engine), users: new UserStore(engine) };
        const another = await openAnother();
        const there = { tenants: new TenantStore(another), users: new UserStore(another) };
        await here.tenants.save({ id: 'north', name: 'North' });
        const { user } = await here.users.upsert('member', 'hash');
        await here.tenants.setMemberships(user.id, ['north']);
        expect((await here.tenants.membershipsOf(user.id)).roles.size).toBe(0);
        expect((await here.users.findById(user.id))?.grantedPermissions).toEqual([]);

        await there.tenants.setMembershipRole(user.id, 'north', 'viewer');
        await there.users.grant('member', ['releases:manage']);
        await nextRequest(engine);
        expect((await here.tenants.membershipsOf(user.id)).roles.get('north')).toBe('viewer');
        expect((await here.users.findById(user.id))?.grantedPermissions).toEqual(['releases:manage']);
      });
    });

    describe('records', () => {
      let records: StoredRecordSource;

      beforeEach(async () => {
        const tenants = new TenantStore(engine);
        await tenants.save({ id: 'acme', name: 'Acme' });
        await tenants.save({ id: 'globex', name: 'Globex' });
        records = new StoredRecordSource(engine);
      });

      it('inserts, reads, lists and counts per tenant and resource; the data never keeps an id', async () => {
        const first = await records.insert('acme', 'articles', { id: 99, title: 'One', label: 'L', views: 3 });
        await records.insert('acme', 'articles', { title: 'Two', label: 'L', group: '' });
        await records.insert('acme', 'authors', { title: 'Ann', label: 'A' });
        await records.insert('globex', 'articles', { title: 'Other', label: 'O' });
        expect(first).toEqual({ id: first.id, title: 'One', label: 'L', views: 3 });
        expect(first.id).not.toBe(99);
        expect(await records.get('acme', 'articles', first.id)).toEqual(first);
        expect((await records.list('acme', 'articles')).map((record) => record.title)).toEqual(['One', 'Two']);
        expect((await records.list('acme', 'articles'))[1]).not.toHaveProperty('group');
        expect(await records.count('acme', 'articles')).toBe(2);
        expect(await records.count('globex', 'articles')).toBe(1);
        expect(await records.count('globex', 'authors')).toBe(0);
      });

      it("never reads or replaces another tenant's record", async () => {
        const mine = await records.insert('acme', 'articles', { title: 'Mine', label: 'M' });
        expect(await records.get('globex', 'articles', mine.id)).toBeUndefined();
        expect(await records.get('acme', 'authors', mine.id)).toBeUndefined();
        expect(await records.replace('globex', 'articles', mine.id, { title: 'Stolen', label: 'S' })).toBeUndefined();
        expect((await records.get('acme', 'articles', mine.id))?.title).toBe('Mine');
        const saved = await records.replace('acme', 'articles', mine.id, { id: 5, title: 'Edited', label: 'E' });
        expect(saved).toEqual({ id: mine.id, title: 'Edited', label: 'E' });
        expect(await records.get('acme', 'articles', mine.id)).toEqual(saved);
      });

      it('finds records by a field, telling numbers from strings', async () => {
        const numeric = await records.insert('acme', 'articles', { title: 'N', label: 'N', authorId: 7 });
        const text = await records.insert('acme', 'articles', { title: 'S', label: 'S', authorId: '7' });
        await records.insert('globex', 'articles', { title: 'G', label: 'G', authorId: 7 });
        expect((await records.findBy('acme', 'articles', 'authorId', 7)).map((record) => record.id)).toEqual([
          numeric.id,
        ]);
        expect((await records.findBy('acme', 'articles', 'authorId', '7')).map((record) => record.id)).toEqual([
          text.id,
        ]);
        await expect(records.findBy('acme', 'articles', "x') OR 1=1 --", 7)).rejects.toThrow(/Not a record key/);
      });

      it('updates atomically: a write by another host between the read and the write is kept, not overwritten', async () => {
        const there = new StoredRecordSource(await openAnother());
        const record = await records.insert('acme', 'articles', { title: 'T', label: 'L' });
        let calls = 0;
        const updated = await records.update('acme', 'articles', record.id, async (current) => {
          calls++;
          // The first time, another host changes another field after this read, before this write.
          if (calls === 1) await there.replace('acme', 'articles', record.id, { ...current, label: 'There' });
          return { ...current, title: 'Here' };
        });
        expect(calls).toBe(2);
        expect(updated).toEqual({ id: record.id, title: 'Here', label: 'There' });
        expect(await there.get('acme', 'articles', record.id)).toEqual(updated);
        expect(
          await records.update('globex', 'articles', record.id, () => ({ title: 'X', label: 'X' })),
        ).toBeUndefined();
      });

      it('moves the change stamp when a record changes here or on another host', async () => {
        const there = new StoredRecordSource(await openAnother());
        const initial = await records.changeStamp();
        await nextRequest(engine);
        expect(await records.changeStamp()).toBe(initial);
        await records.insert('acme', 'articles', { title: 'Here', label: 'H' });
        const afterLocal = await records.changeStamp();
        expect(afterLocal).not.toBe(initial);
        await there.insert('acme', 'articles', { title: 'There', label: 'T' });
        await nextRequest(engine);
        expect(await records.changeStamp()).not.toBe(afterLocal);
      });
    });

    describe('record list pages', () => {
      let records: StoredRecordSource;
      let all: ResourceRecord[];
      const NAMES = ['grace', 'Greta', 'ada', 'Zoe', 'émile', 'Bob', 'gRaham', 'Émile', 'Øyvind', 'ÆSIR'];

      beforeEach(async () => {
        await new TenantStore(engine).save({ id: 'acme', name: 'Acme' });
        await new TenantStore(engine).save({ id: 'globex', name: 'Globex' });
        records = new StoredRecordSource(engine);
        for (let index = 0; index < 30; index++) {
          await records.insert('acme', 'authors', {
            title: `${NAMES[index % NAMES.length]} ${index % 4}`,
            label: `Author ${index}`,
            ...(index % 5 === 0 ? {} : { rank: (index * 7) % 11, active: index % 3 === 0 }),
          });
        }
        await records.insert('globex', 'authors', { title: 'grace of Globex', label: 'G', rank: 1 });
        all = await records.list('acme', 'authors');
      });

      /** Every page from the first following `next`, then back from the last following `previous`. */
      const walk = async (query: Omit<RecordPageQuery, 'after' | 'before'>, resource = 'authors') => {
        const forward: number[] = [];
        let page = await records.page('acme', resource, query);
        forward.push(...page.records.map((record) => record.id));
        while (page.next) {
          page = await records.page('acme', resource, { ...query, after: page.next });
          expect(page.records.length).toBeLessThanOrEqual(query.limit);
          forward.push(...page.records.map((record) => record.id));
        }
        const backward = page.records.map((record) => record.id);
        while (page.previous) {
          page = await records.page('acme', resource, { ...query, before: page.previous });
          backward.unshift(...page.records.map((record) => record.id));
        }
        return { forward, backward };
      };

      /** The order both engines promise: the key (letters lower-cased without accents, bytes), missing as '' after numbers. */
      const expectedOrder = (list: ResourceRecord[], column: string, kind: 'text' | 'number', descending: boolean) => {
        const keyOf = (record: ResourceRecord): string | number => {
          const value = record[column];
          if (kind === 'number')
            return typeof value === 'boolean' ? Number(value) : typeof value === 'number' ? value : '';
          return String(value ?? '')
            .normalize('NFD')
            .toLowerCase()
            .replace(/[\u0300-\u036f]/g, '')
            .replace(/ø/g, 'o')
            .replace(/æ/g, 'ae');
        };
        const compare = (a: string | number, b: string | number): number => {
          if (typeof a === 'number' && typeof b === 'number') return a - b;
          if (typeof a === 'number') return -1;
          if (typeof b === 'number') return 1;
          return Buffer.compare(Buffer.from(a), Buffer.from(b));
        };
        const sorted = [...list].sort((a, b) => compare(keyOf(a), keyOf(b)) || a.id - b.id);
        if (descending) sorted.reverse();
        return sorted.map((record) => record.id);
      };

      it.each([
        ['title', 'text', false],
        ['title', 'text', true],
        ['rank', 'number', false],
        ['rank', 'number', true],
        ['active', 'number', false],
      ] as const)(
        'sorts by %s (%s, descending %s) the same way, page by page, both directions',
        async (column, kind, descending) => {
          const { forward, backward } = await walk({ sort: { column, kind }, descending, limit: 4 });
          expect(forward).toEqual(expectedOrder(all, column, kind, descending));
          expect(backward).toEqual(forward);
        },
      );

      it('walks by id, and searches a text key for a folded prefix, whatever the capitals and accents', async () => {
        expect((await walk({ sort: { column: 'id' }, descending: true, limit: 7 })).forward).toEqual(
          all.map((record) => record.id).reverse(),
        );
        const title = { column: 'title', kind: 'text' } as const;
        const matching = all.filter((record) => /^gr/i.test(record.title));
        const { forward, backward } = await walk({ sort: title, descending: false, limit: 3, prefix: 'gr' });
        expect(forward).toEqual(expectedOrder(matching, 'title', 'text', false));
        expect(backward).toEqual(forward);
        const emile = all.filter((record) => /^[ée]mile/i.test(record.title));
        expect(emile.length).toBeGreaterThan(1);
        expect((await walk({ sort: title, descending: false, limit: 50, prefix: 'emile' })).forward).toEqual(
          expectedOrder(emile, 'title', 'text', false),
        );
        expect(
          (await records.page('acme', 'authors', { sort: title, descending: false, limit: 5, prefix: 'zz' })).records,
        ).toEqual([]);
      });
      it('pages through a thousand records tied on their key, each exactly once, both directions', async () => {
        // Tied keys are where a page must start right after the cursor's id instead of at the first tie.
        const now = Date.now();
        const rows = Array.from({ length: 1000 }, (_, index) => ({
          tenant_id: 'acme',
          resource: 'members',
          data: JSON.stringify({ title: `Member ${index}`, label: 'M', ...(index % 100 === 7 ? {} : { group: 'g' }) }),
          created_at: now,
          updated_at: now,
        }));
        for (let start = 0; start < rows.length; start += 250) {
          await engine.db
            .insertInto('records')
            .values(rows.slice(start, start + 250))
            .execute();
        }
        const members = await records.list('acme', 'members');
        for (const descending of [false, true]) {
          const { forward, backward } = await walk(
            { sort: { column: 'group', kind: 'text' }, descending, limit: 37 },
            'members',
          );
          expect(forward).toEqual(expectedOrder(members, 'group', 'text', descending));
          expect(new Set(forward).size).toBe(1000);
          expect(backward).toEqual(forward);
        }
        const { forward } = await walk(
          { sort: { column: 'group', kind: 'text' }, descending: false, limit: 64, prefix: 'g' },
          'members',
        );
        expect(forward).toEqual(
          expectedOrder(
            members.filter((record) => record.group === 'g'),
            'group',
            'text',
            false,
          ),
        );
      });
    });

    describe('exclusive work', () => {
      it('never interleaves: concurrent read-then-insert work inserts once', async () => {
        await new TenantStore(engine).save({ id: 'acme', name: 'Acme' });
        const records = new StoredRecordSource(engine);
        const seedOnce = () =>
          engine.exclusive(async (db) => {
            if ((await records.count('acme', 'authors', db)) === 0) {
              await records.insert('acme', 'authors', { title: 'Only', label: 'O' }, [], db);
            }
          });
        await Promise.all([seedOnce(), seedOnce(), seedOnce(), seedOnce()]);
        expect(await records.count('acme', 'authors')).toBe(1);
      });

      it('rolls the whole work back when it fails', async () => {
        const tenants = new TenantStore(engine);
        await expect(
          engine.exclusive(async (db) => {
            await tenants.save({ id: 'half', name: 'Half' }, db);
            throw new Error('stop here');
          }),
        ).rejects.toThrow('stop here');
        expect(await tenants.get('half')).toBeUndefined();
      });
    });

    describe('sessions', () => {
      let storage: SessionStorage;

      beforeEach(() => {
        storage = createSessionStorage({
          engine,
          fallbackTtlMs: 60_000,
          cleanupIntervalMs: 0,
          logger: pino({ level: 'silent' }),
        });
      });

      afterEach(() => storage.close());

      const call = <T>(run: (done: (error: unknown, value?: T) => void) => void): Promise<T | undefined> =>
        new Promise((resolve, reject) => run((error, value) => (error ? reject(error as Error) : resolve(value))));
      const sessionFor = (expires: Date, user: number): SessionData =>
        ({ cookie: { originalMaxAge: null, expires }, passport: { user } }) as unknown as SessionData;

      it('keeps, returns and destroys a session, in the database rather than in memory', async () => {
        expect(storage.kind).toBe(engine.kind);
        const expires = new Date(Date.now() + 60_000);
        await call((done) => storage.store.set('sid-1', sessionFor(expires, 1), done));
        const again = createSessionStorage({
          engine: await openAnother(),
          fallbackTtlMs: 60_000,
          cleanupIntervalMs: 0,
          logger: pino({ level: 'silent' }),
        });
        try {
          const read = await call<SessionData | null>((done) => again.store.get('sid-1', done));
          expect(read).toMatchObject({ passport: { user: 1 } });
        } finally {
          await again.close();
        }
        await call((done) => storage.store.destroy('sid-1', done));
        expect(await call<SessionData | null>((done) => storage.store.get('sid-1', done))).toBeFalsy();
      });

      it('never returns a session past its expiry', async () => {
        await call((done) => storage.store.set('old', sessionFor(new Date(Date.now() - 1000), 2), done));
        expect(await call<SessionData | null>((done) => storage.store.get('old', done))).toBeFalsy();
      });
    });

    describe('sign-in rate limits', () => {
      const settings = { perAccountAndIp: 2, perIp: 100, perAccount: null, windowSeconds: 60 };

      it('counts attempts in the database, shared by every host on it', async () => {
        const here = LoginRateLimiter.create(settings, rateLimitStoreIn(engine));
        const there = LoginRateLimiter.create(settings, rateLimitStoreIn(await openAnother()));
        const key = { username: 'admin', ip: '10.0.0.1' };
        try {
          expect(await here.attempt(key)).toEqual({ allowed: true });
          expect(await there.attempt(key)).toEqual({ allowed: true });
          expect(await here.attempt(key)).toMatchObject({ allowed: false });
          expect(await there.attempt({ username: 'admin', ip: '10.0.0.2' })).toEqual({ allowed: true });
          await there.succeeded(key);
          expect(await here.attempt(key)).toEqual({ allowed: true });
        } finally {
          here.close();
          there.close();
        }
      });
    });

    describe('migrations', () => {
      const versionsIn = async (each: StorageEngine): Promise<number[]> =>
        (await sql<{ version: number }>`SELECT version FROM schema_version ORDER BY version`.execute(each.db)).rows.map(
          (row) => Number(row.version),
        );

      it('has every step for both engines, with the same versions and names', () => {
        expect(POSTGRES_MIGRATIONS.map(({ version, name }) => ({ version, name }))).toEqual(
          MIGRATIONS.map(({ version, name }) => ({ version, name })),
        );
      });

      it('applies each step once, also when several hosts start at the same moment', async () => {
        const fresh = await engineUnderTest.freshDatabase();
        const starts = await Promise.all([1, 2, 3].map(() => openMigratedStorage(fresh)));
        opened.push(...starts);
        expect(await versionsIn(starts[0] as StorageEngine)).toEqual(MIGRATIONS.map((step) => step.version));
        await (starts[1] as StorageEngine).migrate();
        expect(await versionsIn(starts[2] as StorageEngine)).toEqual(MIGRATIONS.map((step) => step.version));
      });

      it('applies its steps in order, once, and rolls a failing step back entirely', async () => {
        const fresh = await engineUnderTest.freshDatabase();
        const steps: Migration[] = [
          { version: 1, name: 'a', sql: 'CREATE TABLE a (x INTEGER)' },
          { version: 2, name: 'b', sql: 'CREATE TABLE b (y INTEGER)' },
        ];
        expect(await engineUnderTest.applySteps(fresh, steps.slice(0, 1))).toEqual([1]);
        expect(await engineUnderTest.applySteps(fresh, steps)).toEqual([2]);
        expect(await engineUnderTest.applySteps(fresh, steps)).toEqual([]);
        const broken = [
          ...steps,
          { version: 3, name: 'broken', sql: 'CREATE TABLE c (z INTEGER); SELECT * FROM nowhere' },
        ];
        expect(await messageOfRejection(engineUnderTest.applySteps(fresh, broken))).toMatch(/nowhere/);
        // The failed step left nothing behind: still at version 2, and a fixed step 3 can create its table.
        await expect(engineUnderTest.applySteps(fresh, steps.slice(0, 2))).resolves.toEqual([]);
        const fixed = [...steps, { version: 3, name: 'fixed', sql: 'CREATE TABLE c (z INTEGER)' }];
        expect(await engineUnderTest.applySteps(fresh, fixed)).toEqual([3]);
      });

      it("refuses a database holding another application's tables, writing nothing to it", async () => {
        const foreign = await engineUnderTest.freshDatabase();
        await engineUnderTest.execute(foreign, 'CREATE TABLE invoices (id INTEGER); CREATE TABLE users (id INTEGER)');
        expect(await messageOfRejection(openMigratedStorage(foreign))).toMatch(
          /^(SQLite|PostgreSQL) .+ holds tables this server does not make \(invoices, users\) and none of its own: it belongs to something else\. Nothing was written to it\. Point DATABASE_(PATH|URL) at /,
        );
        expect(await engineUnderTest.tablesIn(foreign)).toEqual(['invoices', 'users']);
      });

      if (engineUnderTest.name === 'PostgreSQL') {
        it("takes a new database an extension's tables came with (pg_stat_statements)", async () => {
          const fresh = await engineUnderTest.freshDatabase();
          await engineUnderTest.execute(fresh, 'CREATE EXTENSION pg_stat_statements');
          opened.push(await openMigratedStorage(fresh));
          expect(await engineUnderTest.tablesIn(fresh)).toEqual(expect.arrayContaining(['records', 'schema_version']));
        });
      }

      /** The steps a database records, read outside the server. */
      const recordedSteps = async (at: StorageSettings): Promise<{ version: number; name: string }[]> => {
        const query = 'SELECT version, name FROM schema_version ORDER BY version';
        if (at.kind === 'sqlite') {
          const db = new Database(at.path, { readonly: true });
          try {
            return db.prepare<[], { version: number; name: string }>(query).all();
          } finally {
            db.close();
          }
        }
        const client = new Client({ connectionString: at.url });
        await client.connect();
        try {
          return (await client.query<{ version: number; name: string }>(query)).rows;
        } finally {
          await client.end();
        }
      };

      it("refuses a database whose step 4 is another release's (a side branch's), naming both and writing nothing", async () => {
        // As commit 040720a made it: its step 4 was what main (after the merge 9dd87f2) numbers step 5, and main's
        // step 4 (slot load statistics) never ran. Going on from MAX(version) failed on "table deleted_records
        // already exists", or would have skipped main's step 4.
        const branch = await engineUnderTest.freshDatabase();
        const steps = branch.kind === 'sqlite' ? MIGRATIONS : POSTGRES_MIGRATIONS;
        const theirs = steps.find((step) => step.version === 5) as Migration;
        expect(await engineUnderTest.applySteps(branch, [...steps.slice(0, 3), { ...theirs, version: 4 }])).toEqual([
          1, 2, 3, 4,
        ]);
        const before = { tables: await engineUnderTest.tablesIn(branch), steps: await recordedSteps(branch) };

        const refusal = await messageOfRejection(openMigratedStorage(branch));
        expect(refusal).toMatch(/^(SQLite|PostgreSQL) .+ records schema step 4 as /);
        expect(refusal).toContain(
          'records schema step 4 as "deleted records kept for restoring, and the word index of records", but this ' +
            'server\'s step 4 is "slot load statistics per remote release, location and component": the database ' +
            "was made by a release whose schema steps are not this server's. Nothing was written to it. Run the " +
            'server release that made this database, or restore a backup made before it.',
        );
        await expect(engineUnderTest.applySteps(branch, steps)).rejects.toThrow(SchemaStepMismatchError);
        expect({ tables: await engineUnderTest.tablesIn(branch), steps: await recordedSteps(branch) }).toEqual(before);
      });

      it('takes a database that recorded a step under a former name of it, and refuses any other name', async () => {
        const fresh = await engineUnderTest.freshDatabase();
        const first = { version: 1, name: 'a', sql: 'CREATE TABLE a (x INTEGER)' };
        const before = { version: 2, name: 'b as it was named', sql: 'CREATE TABLE b (y INTEGER)' };
        expect(await engineUnderTest.applySteps(fresh, [first, before])).toEqual([1, 2]);
        const renamed: Migration[] = [
          first,
          { ...before, name: 'b', formerNames: ['b as it was named'] },
          { version: 3, name: 'c', sql: 'CREATE TABLE c (z INTEGER)' },
        ];
        expect(await messageOfRejection(engineUnderTest.applySteps(fresh, [first, { ...before, name: 'b' }]))).toMatch(
          /records schema step 2 as "b as it was named", but this server's step 2 is "b":.* Nothing was written/,
        );
        // Exact names: another case is another name.
        expect(
          await messageOfRejection(
            engineUnderTest.applySteps(fresh, [first, { ...renamed[1]!, formerNames: ['B as it was named'] }]),
          ),
        ).toMatch(/step 2 as "b as it was named"/);
        expect(await engineUnderTest.applySteps(fresh, renamed)).toEqual([3]);
        expect(await recordedSteps(fresh)).toEqual([
          { version: 1, name: 'a' },
          { version: 2, name: 'b as it was named' },
          { version: 3, name: 'c' },
        ]);
      });

      it('takes every name a step has had on main (its first-parent history), for both engines', () => {
        // Read from `git log --first-parent -p server/storage/migrations.ts`: no released step has been renamed yet.
        // A renamed step keeps its old name in `formerNames`, and the old name is added here.
        const namesOnMain: Record<number, string[]> = {
          1: ['users, tenants, memberships, sessions, records'],
          2: ['accounts can be disabled'],
          3: ['releases of remotes, their rollout, team tokens, audit, roles'],
          4: ['slot load statistics per remote release, location and component'],
          5: ['deleted records kept for restoring, and the word index of records'],
          6: ['feature flags'],
          7: ['placements: a draft, numbered revisions, the audit of publishes'],
          8: ['roles per tenant membership, permissions granted to accounts'],
          9: ['the version of the words records are indexed with'],
          10: ['deleted records by tenant and resource, newest deletion first'],
          11: ['text sort keys folded: the unfolded indexes go'],
          12: ['sessions opened before an account was disabled stay ended when it is enabled again'],
          13: ['sessions by account and credential stamp, for counting those that can still be used'],
          14: ['accounts disabled before sessions_since existed keep their sessions of before ended'],
          15: ['slot loads: distinct visitors, anonymous loads apart, and the load phase'],
          16: ['progressive rollout plans, one per remote'],
          17: ['record creations by Idempotency-Key, kept a day'],
        };
        for (const steps of [MIGRATIONS, POSTGRES_MIGRATIONS]) {
          for (const [version, names] of Object.entries(namesOnMain)) {
            for (const name of names) {
              expect(firstForeignStep([{ version: Number(version), name }], steps)).toBeUndefined();
            }
          }
        }
      });

      it('applies a step below the last recorded one that the database lacks (main recorded 16 before 15)', async () => {
        const fresh = await engineUnderTest.freshDatabase();
        const steps: Migration[] = [
          { version: 1, name: 'a', sql: 'CREATE TABLE a (x INTEGER)' },
          { version: 2, name: 'b', sql: 'CREATE TABLE b (y INTEGER)' },
          { version: 3, name: 'c', sql: 'CREATE TABLE c (z INTEGER)' },
        ];
        expect(await engineUnderTest.applySteps(fresh, [steps[0]!, steps[2]!])).toEqual([1, 3]);
        expect(await engineUnderTest.applySteps(fresh, steps)).toEqual([2]);
        expect(await engineUnderTest.applySteps(fresh, steps)).toEqual([]);
        expect(await engineUnderTest.tablesIn(fresh)).toEqual(['a', 'b', 'c', 'schema_version']);
      });

      it('refuses a database newer than the code, naming it (never the password) and both versions', async () => {
        await sql`INSERT INTO schema_version (version, name, applied_at) VALUES (999, 'from the future', 0)`.execute(
          engine.db,
        );
        const known = MIGRATIONS.at(-1)?.version;
        const attempt = openMigratedStorage(settings);
        await expect(attempt).rejects.toThrow(SchemaTooNewError);
        const database =
          settings.kind === 'sqlite'
            ? `SQLite ${path.resolve(settings.path)}`
            : (() => {
                const url = new URL(settings.url);
                return `PostgreSQL "${url.pathname.slice(1)}" on ${url.hostname}:${url.port}`;
              })();
        // A password in the address (the throwaway server trusts loopback, and ignores it) must not be repeated.
        const withPassword: StorageSettings =
          settings.kind === 'postgres'
            ? { ...settings, url: settings.url.replace('postgres@', 'postgres:hidden-secret-42@') }
            : settings;
        const refused = await openMigratedStorage(withPassword).then(
          () => new Error('opened'),
          (error: Error) => error,
        );
        expect(refused.message).toBe(
          `${database} is at schema version 999, newer than this server knows (${known}). Nothing was ` +
            'written to it. Run a newer server, restore the backup taken before the upgrade to go back, or point ' +
            (settings.kind === 'sqlite' ? 'DATABASE_PATH at another file.' : 'DATABASE_URL at another database.'),
        );
        expect(refused.message).not.toContain('hidden-secret-42');
      });
    });
  });
}
