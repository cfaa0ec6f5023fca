/**
 * Schema step 19 (the version each draft save was made over, and the one it made) in a rolling upgrade, both
 * engines: a draft save a host of an earlier release made, sent again to a new host after its answer was lost, is
 * answered as that save (200, the draft not written again) while the draft is that document by that user and no
 * host of this release saved or rolled the draft back since the version the save named; otherwise it is refused as
 * any stale save.
 */
import type { JsonValue } from '../../shared';
import { describeWithPostgres, usePostgresDatabases } from '../../testing/server/postgres-server';
import { makeTempDir } from '../../testing/temp-dir';
import { openMigratedStorage } from '../storage/open-storage';
import { SqliteEngine } from '../storage/sqlite-engine';
import type { StorageEngine } from '../storage/storage-engine';
import { DraftMovedError } from './draft-version';
import { PlacementsStore } from './placements-store';

jest.setTimeout(30_000);

const mine: JsonValue = { placements: [{ location: 'top-bar', component: 'Mine' }] };
const theirs: JsonValue = { placements: [{ location: 'top-bar', component: 'Theirs' }] };

/** PlacementsStore.saveDraft of the release before step 19, its version check aside: the columns it knew. */
async function saveAsEarlierRelease(engine: StorageEngine, document: JsonValue, actor: string): Promise<string> {
  const row = await engine.db.selectFrom('placement_draft').select('updated_at').executeTakeFirst();
  const now = Math.max(Date.now(), row ? Number(row.updated_at) + 1 : 0);
  const values = { document: JSON.stringify(document), updated_by: actor, updated_at: now };
  await engine.db
    .insertInto('placement_draft')
    .values({ only_row: 1, ...values })
    .onConflict((conflict) => conflict.column('only_row').doUpdateSet(values))
    .execute();
  return new Date(now).toISOString();
}

async function expectEarlierReleaseSavesAnsweredOnce(engine: StorageEngine): Promise<void> {
  const store = new PlacementsStore(engine);
  const draftOf = (document: JsonValue, updatedBy: string, updatedAt: string) => ({ document, updatedBy, updatedAt });
  // Saved by an old host over no draft, sent again to a new host: answered as that save, the draft not written.
  const first = await saveAsEarlierRelease(engine, mine, 'admin');
  expect(await store.saveDraft(mine, 'admin', null)).toEqual(draftOf(mine, 'admin', first));
  expect(await store.draft()).toEqual(draftOf(mine, 'admin', first));
  // Another document, or another user: no such save was made, stale.
  await expect(store.saveDraft(theirs, 'admin', null)).rejects.toBeInstanceOf(DraftMovedError);
  await expect(store.saveDraft(mine, 'bob', null)).rejects.toBeInstanceOf(DraftMovedError);

  // Saved over it by a new host, then by old ones: bob's, then admin's back to that very document. The new host's
  // save, sent again, meets a draft it did not make (saved since the version it named, by a host of this release).
  const made = await store.saveDraft(mine, 'admin', first);
  expect((await store.saveDraft(mine, 'admin', first)).updatedAt).toBe(made.updatedAt);
  const bobs = await saveAsEarlierRelease(engine, theirs, 'bob');
  const back = await saveAsEarlierRelease(engine, mine, 'admin');
  await expect(store.saveDraft(mine, 'admin', first)).rejects.toBeInstanceOf(DraftMovedError);
  // The old host's save over bob's, sent again: that save.
  expect(await store.saveDraft(mine, 'admin', bobs)).toEqual(draftOf(mine, 'admin', back));
  expect(await store.draft()).toEqual(draftOf(mine, 'admin', back));

  // A rollback on a new host to that very document, then the old host's save over it: a save over the draft the
  // rollback replaced is stale; the old host's save over the rollback's, sent again, is that save.
  const revision = { action: 'publish', restored: null, actor: 'admin', setDraft: false } as const;
  await store.publish({ ...revision, document: mine, checkedAgainst: 0 });
  await store.publish({ ...revision, document: theirs, checkedAgainst: 1 });
  await store.publish({
    ...revision,
    action: 'rollback',
    restored: 1,
    document: mine,
    checkedAgainst: 2,
    setDraft: true,
  });
  const rolledBack = (await store.draft())?.updatedAt as string;
  await expect(store.saveDraft(mine, 'admin', back)).rejects.toBeInstanceOf(DraftMovedError);
  const overRollback = await saveAsEarlierRelease(engine, mine, 'admin');
  await expect(store.saveDraft(mine, 'admin', back)).rejects.toBeInstanceOf(DraftMovedError);
  expect(await store.saveDraft(mine, 'admin', rolledBack)).toEqual(draftOf(mine, 'admin', overRollback));
}

describe('draft saves of a host of the release before step 19, on a migrated SQLite file', () => {
  it('are answered as the save they are when sent again to a new host, and only then', async () => {
    const dir = makeTempDir('slots-draft-old-host-');
    try {
      const engine = SqliteEngine.open(`${dir.path}/app.db`);
      try {
        await expectEarlierReleaseSavesAnsweredOnce(engine);
      } finally {
        await engine.close();
      }
    } finally {
      dir.remove();
    }
  });
});

describeWithPostgres()('draft saves of a host of the release before step 19, on a migrated PostgreSQL', () => {
  const postgres = usePostgresDatabases('draft_old_host', { poolSize: 2, statementTimeoutMs: 2000 });

  it('are answered as the save they are when sent again to a new host, and only then', async () => {
    const engine = await openMigratedStorage(await postgres.create());
    try {
      await expectEarlierReleaseSavesAnsweredOnce(engine);
    } finally {
      await engine.close();
    }
  });
});
