import { Client } from 'pg';
import { ENGINES } from '../../testing/server/engines-under-test';
import { openMigratedStorage, type StorageSettings } from '../storage/open-storage';
import type { StorageEngine } from '../storage/storage-engine';
import { TenantStore } from '../tenants/tenant-store';
import { MissingReferencesError, ReferredRecordError, type RecordReference } from './record-source';
import { StoredRecordSource } from './stored-record-source';

const AUTHORS = { resource: 'articles', foreignKey: 'authorId' };

/**
 * A save pointing a record at another and the delete of that other never both land: the references a write is
 * given and the relations a delete is given are checked in the write's own transaction (record-source.ts).
 */
for (const engineUnderTest of ENGINES) {
  engineUnderTest.describeFor(`record references on ${engineUnderTest.name}`, () => {
    let settings: StorageSettings;
    let engine: StorageEngine;
    let records: StoredRecordSource;
    const authorOf = (id: number): RecordReference[] => [{ field: 'authorId', resource: 'authors', id }];

    beforeAll(() => engineUnderTest.setUp(), 60_000);
    afterAll(() => engineUnderTest.tearDown(), 30_000);

    beforeEach(async () => {
      settings = await engineUnderTest.freshDatabase();
      engine = await openMigratedStorage(settings);
      await new TenantStore(engine).save({ id: 'acme', name: 'Acme' });
      await new TenantStore(engine).save({ id: 'globex', name: 'Globex' });
      records = new StoredRecordSource(engine);
    });

    afterEach(() => engine.close());

    it('refuses a write pointing at a record the tenant does not have, and writes nothing', async () => {
      const ada = await records.insert('acme', 'authors', { title: 'Ada' });
      const theirs = await records.insert('globex', 'authors', { title: 'Grace' });
      const article = await records.insert('acme', 'articles', { title: 'Notes', authorId: ada.id }, authorOf(ada.id));

      for (const id of [theirs.id, ada.id + theirs.id + 100]) {
        const refused = records.insert('acme', 'articles', { title: 'Orphan', authorId: id }, authorOf(id));
        await expect(refused).rejects.toEqual(new MissingReferencesError(authorOf(id)));
        const change = () => ({ title: 'Notes', authorId: id });
        await expect(records.update('acme', 'articles', article.id, change, authorOf(id))).rejects.toBeInstanceOf(
          MissingReferencesError,
        );
      }
      expect((await records.list('acme', 'articles')).map((record) => record.authorId)).toEqual([ada.id]);
    });

    it('refuses the delete of a record that records of a relation hold, and deletes nothing', async () => {
      const ada = await records.insert('acme', 'authors', { title: 'Ada' });
      await records.insert('acme', 'articles', { title: 'Notes', authorId: ada.id });
      // Another tenant's article holding the same id is no referrer here.
      const grace = await records.insert('globex', 'authors', { title: 'Grace' });
      await records.insert('globex', 'articles', { title: 'Theirs', authorId: grace.id });

      await expect(records.delete('acme', 'authors', ada.id, { referrers: [AUTHORS] })).rejects.toEqual(
        new ReferredRecordError(AUTHORS),
      );
      expect(await records.get('acme', 'authors', ada.id)).toEqual(ada);
      const unreferred = await records.insert('acme', 'authors', { title: 'Unreferred' });
      expect(await records.delete('acme', 'authors', unreferred.id, { referrers: [AUTHORS] })).toEqual(unreferred);
    });

    if (engineUnderTest.name !== 'PostgreSQL') return;

    // Another host's transaction, held open at the moment that matters.
    const otherHost = async (): Promise<Client> => {
      if (settings.kind !== 'postgres') throw new Error('PostgreSQL settings expected.');
      const client = new Client({ connectionString: settings.url });
      await client.connect();
      await client.query('BEGIN');
      return client;
    };
    const settledWithin = async (promise: Promise<unknown>, ms: number) =>
      Promise.race([
        promise.then(
          () => true,
          () => true,
        ),
        new Promise((resolve) => setTimeout(() => resolve(false), ms)),
      ]);

    it('makes a save wait for a delete of its related record in flight, then refuses it', async () => {
      const ada = await records.insert('acme', 'authors', { title: 'Ada' });
      const article = await records.insert('acme', 'articles', { title: 'Notes' });
      const deleting = await otherHost();
      try {
        // The other host's delete has locked Ada and found no article pointing at her.
        await deleting.query('SELECT id FROM records WHERE id = $1 FOR UPDATE', [ada.id]);
        const saving = records.update(
          'acme',
          'articles',
          article.id,
          () => ({ title: 'Notes', authorId: ada.id }),
          authorOf(ada.id),
        );
        expect(await settledWithin(saving, 300)).toBe(false);
        await deleting.query('DELETE FROM records WHERE id = $1', [ada.id]);
        await deleting.query('COMMIT');
        await expect(saving).rejects.toBeInstanceOf(MissingReferencesError);
        expect((await records.get('acme', 'articles', article.id))?.authorId).toBeUndefined();
      } finally {
        await deleting.end();
      }
    });

    it('makes a delete wait for a save pointing at the record in flight, then refuses it', async () => {
      const ada = await records.insert('acme', 'authors', { title: 'Ada' });
      const article = await records.insert('acme', 'articles', { title: 'Notes' });
      const saving = await otherHost();
      try {
        // The other host's save has share-locked Ada and written the article pointing at her, not yet committed.
        await saving.query('SELECT id FROM records WHERE id = $1 FOR SHARE', [ada.id]);
        await saving.query('UPDATE records SET data = $1 WHERE id = $2', [
          JSON.stringify({ title: 'Notes', authorId: ada.id }),
          article.id,
        ]);
        const deleting = records.delete('acme', 'authors', ada.id, { referrers: [AUTHORS] });
        expect(await settledWithin(deleting, 300)).toBe(false);
        await saving.query('COMMIT');
        await expect(deleting).rejects.toEqual(new ReferredRecordError(AUTHORS));
        expect(await records.get('acme', 'authors', ada.id)).toEqual(ada);
      } finally {
        await saving.end();
      }
    });
  });
}
