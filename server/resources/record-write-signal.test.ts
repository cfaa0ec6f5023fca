import { ENGINES } from '../../testing/server/engines-under-test';
import { twoHostsOnOneDatabase } from '../../testing/server/two-hosts-on-one-database';
import { readsAtEachSignal } from '../../testing/server/write-signal-reads';
import { UserStore } from '../auth/user-store';
import { TenantStore } from '../tenants/tenant-store';
import { StoredRecordSource } from './stored-record-source';

/**
 * A record's create is signalled (StorageEngine.noteWrite) once, after it commits, as tenants' writes are
 * (tenant-write-signal.test.ts): a signal from inside a transaction woke the caches to the state before it, and the
 * caller signalled again after. Each signal here reads the records' titles at that moment through another host's
 * engine, which sees committed data only, on both engines.
 */
for (const engineUnderTest of ENGINES) {
  engineUnderTest.describeFor(`record write signal on ${engineUnderTest.name}`, () => {
    const hosts = twoHostsOnOneDatabase(engineUnderTest);
    let records: StoredRecordSource;
    let userId: number;
    /** The titles read at each signal, in the order the signals came. */
    let readsAtSignals: Promise<string[]>[];

    beforeEach(async () => {
      const { engine, anotherHost } = hosts;
      await new TenantStore(engine).save({ id: 'acme', name: 'Acme' });
      userId = (await new UserStore(engine).upsert('member', 'hash')).user.id;
      records = new StoredRecordSource(engine);
      const reader = new StoredRecordSource(anotherHost);
      readsAtSignals = readsAtEachSignal(engine, async () =>
        (await reader.list('acme', 'notes')).map((record) => record.title),
      );
    });

    it("signals a create inside its caller's transaction nothing: the caller signals once, after the commit", async () => {
      await hosts.engine.exclusive(async (db) => {
        await records.insert('acme', 'notes', { title: 'First' }, [], db);
        // A read woken by a signal so far ends before the commit, as it may when the commit is slow.
        await Promise.all(readsAtSignals);
      });
      hosts.engine.noteWrite();
      expect(await Promise.all(readsAtSignals)).toEqual([['First']]);
    });

    it('signals a keyed create once, after its transaction commits, and a replay not at all', async () => {
      const creation = { userId, key: 'key-1' };
      const made = await records.insertOnce('acme', 'notes', { title: 'Keyed' }, [], creation);
      const replayed = await records.insertOnce('acme', 'notes', { title: 'Keyed' }, [], creation);
      expect([made.replayed, replayed.replayed, replayed.id]).toEqual([false, true, made.id]);
      expect(await Promise.all(readsAtSignals)).toEqual([['Keyed']]);
    });

    it('signals a create outside a transaction once, after the write', async () => {
      await records.insert('acme', 'notes', { title: 'Alone' });
      expect(await Promise.all(readsAtSignals)).toEqual([['Alone']]);
    });
  });
}
