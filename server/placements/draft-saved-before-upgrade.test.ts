/**
 * Schema step 19 (the version each draft save was made over, and the one it made) in a rolling upgrade, both
 * engines: a draft a host of an earlier release saved carries no save of this release, so a save sent again over
 * it is refused as any stale save, never answered as a resend it may not be.
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

async function expectEarlierReleaseSavesNoResend(engine: StorageEngine): Promise<void> {
  const store = new PlacementsStore(engine);
  // Saved by an old host over no draft: the same save sent again to a new host is not known as its resend.
  const first = await saveAsEarlierRelease(engine, mine, 'admin');
  await expect(store.saveDraft(mine, 'admin', null)).rejects.toBeInstanceOf(DraftMovedError);

  // Saved over it by a new host, then by an old one: bob's, then admin's back to that very document. The new host's
  // save, sent again, meets a draft it did not make (the columns left as that save wrote them).
  const made = await store.saveDraft(mine, 'admin', first);
  expect((await store.saveDraft(mine, 'admin', first)).updatedAt).toBe(made.updatedAt);
  await saveAsEarlierRelease(engine, theirs, 'bob');
  const back = await saveAsEarlierRelease(engine, mine, 'admin');
  await expect(store.saveDraft(mine, 'admin', first)).rejects.toBeInstanceOf(DraftMovedError);
  expect(await store.draft()).toEqual({ document: mine, updatedBy: 'admin', updatedAt: back });
}

describe('draft saves of a host of the release before step 19, on a migrated SQLite file', () => {
  it('are never taken for a save sent again', async () => {
    const dir = makeTempDir('slots-draft-old-host-');
    try {
      const engine = SqliteEngine.open(`${dir.path}/app.db`);
      try {
        await expectEarlierReleaseSavesNoResend(engine);
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

  it('are never taken for a save sent again', async () => {
    const engine = await openMigratedStorage(await postgres.create());
    try {
      await expectEarlierReleaseSavesNoResend(engine);
    } finally {
      await engine.close();
    }
  });
});
