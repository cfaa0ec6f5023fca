import { ENGINES } from '../../testing/server/engines-under-test';
import { twoHostsOnOneDatabase } from '../../testing/server/two-hosts-on-one-database';
import { readsAtEachSignal } from '../../testing/server/write-signal-reads';
import { UserStore } from '../auth/user-store';
import { TenantStore } from './tenant-store';

/**
 * A tenant or membership write is signalled (StorageEngine.noteWrite) once, after it commits: caches and readers
 * woken by the signal read the database then, and a signal from inside a transaction woke them to the state before
 * it. Each signal here reads the database at that moment through another host's engine, which sees committed data
 * only, on both engines.
 */

/** What a reader finds: the tenants' ids, and the tenants each user id belongs to. */
interface SeenState {
  tenants: string[];
  memberships: Record<number, string[]>;
}

async function stateSeenBy(reader: TenantStore): Promise<SeenState> {
  const memberships: Record<number, string[]> = {};
  for (const [userId, each] of await reader.everyMembership()) {
    memberships[userId] = each.tenants.map((tenant) => tenant.id);
  }
  return { tenants: (await reader.list()).map((tenant) => tenant.id), memberships };
}

for (const engineUnderTest of ENGINES) {
  engineUnderTest.describeFor(`tenant write signal on ${engineUnderTest.name}`, () => {
    const hosts = twoHostsOnOneDatabase(engineUnderTest);
    let tenants: TenantStore;
    let userId: number;
    /** The state read at each signal, in the order the signals came. */
    let readsAtSignals: Promise<SeenState>[];

    beforeEach(async () => {
      const { engine, anotherHost } = hosts;
      tenants = new TenantStore(engine);
      userId = (await new UserStore(engine).upsert('member', 'hash')).user.id;
      const reader = new TenantStore(anotherHost);
      readsAtSignals = readsAtEachSignal(engine, () => stateSeenBy(reader));
    });

    it('signals nothing inside a transaction: its caller signals once, after the commit, and the tenant is there', async () => {
      await hosts.engine.exclusive(async (db) => {
        await tenants.save({ id: 'acme', name: 'Acme' }, db);
        await tenants.addMembership(userId, 'acme', db);
        // A read woken by a signal so far ends before the commit, as it may when the commit is slow.
        await Promise.all(readsAtSignals);
      });
      hosts.engine.noteWrite();
      expect(await Promise.all(readsAtSignals)).toEqual([{ tenants: ['acme'], memberships: { [userId]: ['acme'] } }]);
    });

    it('signals replaced memberships once, after their transaction commits', async () => {
      await tenants.save({ id: 'acme', name: 'Acme' });
      await tenants.save({ id: 'globex', name: 'Globex' });
      // The saves' reads end before they are set aside: one still running at the end would meet a closed engine.
      await Promise.all(readsAtSignals);
      readsAtSignals.length = 0;
      await tenants.setMemberships(userId, ['acme', { tenant: 'globex', role: 'viewer' }]);
      expect(await Promise.all(readsAtSignals)).toEqual([
        { tenants: ['acme', 'globex'], memberships: { [userId]: ['acme', 'globex'] } },
      ]);
    });

    it('signals a save and a membership made outside a transaction once each, after the write', async () => {
      await tenants.save({ id: 'acme', name: 'Acme' });
      expect(await Promise.all(readsAtSignals)).toEqual([{ tenants: ['acme'], memberships: {} }]);
      await tenants.addMembership(userId, 'acme');
      expect(await Promise.all(readsAtSignals.slice(1))).toEqual([
        { tenants: ['acme'], memberships: { [userId]: ['acme'] } },
      ]);
    });
  });
}
