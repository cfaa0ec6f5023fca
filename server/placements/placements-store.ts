import type { Selectable } from 'kysely';
import {
  type JsonValue,
  type PlacementAuditEntry,
  type PlacementRevision,
  type PlacementRevisionSummary,
  type PlacementsDraft,
} from '../../shared';
import type { PlacementRevisionsTable } from '../storage/app-schema';
import type { StorageEngine } from '../storage/storage-engine';
import { assertDraftVersion, isResentSave, isVersion, NO_DRAFT_VERSION } from './draft-version';

/** A publish that lost a race: another revision was published since the caller checked. */
export class RevisionMovedError extends Error {
  /** @param newest the newest revision, when known: who published it and when are said */
  constructor(expected: number, found: number, newest?: Pick<PlacementRevision, 'publishedBy' | 'publishedAt'>) {
    const by = newest ? ` by ${newest.publishedBy} at ${newest.publishedAt}` : '';
    super(
      found > expected
        ? `Revision ${found} was published${by} since this change was checked against revision ${expected}, so ` +
            'nothing was published: look at it, then publish again.'
        : `The newest revision is ${found}, not ${expected}, so nothing was published: look at the revisions, then ` +
            'publish again.',
    );
    this.name = 'RevisionMovedError';
  }
}

export interface NewRevision {
  document: JsonValue;
  action: 'publish' | 'rollback';
  restored: number | null;
  actor: string;
  /** The newest revision the document was checked against (0: none); another one meanwhile refuses the publish. */
  checkedAgainst: number;
  /** Also make this the draft (a rollback: the operator goes on from what is in force). */
  setDraft: boolean;
  /**
   * The `updatedAt` of the draft the caller saw (null: none saved): for a publish, the draft `document` was read
   * from, so what is published is exactly a draft someone looked at; for a rollback, the draft it replaces, so no
   * saved change is lost unseen. A draft saved since refuses either (DraftMovedError).
   */
  draftVersion?: string | null;
}

/**
 * The placements in the database, on either engine: one draft, the published revisions (numbered from 1; the newest
 * is in force), and the audit trail of every publish and rollback. A revision and its audit entry are written in
 * one transaction, so the trail never misses one nor records one that did not happen.
 */
export class PlacementsStore {
  constructor(private readonly engine: StorageEngine) {}

  /** The saved draft, or null when none was ever saved. */
  async draft(): Promise<PlacementsDraft | null> {
    const row = await this.engine.db.selectFrom('placement_draft').selectAll().executeTakeFirst();
    if (!row) return null;
    return {
      document: JSON.parse(row.document) as JsonValue,
      updatedBy: row.updated_by,
      updatedAt: new Date(Number(row.updated_at)).toISOString(),
    };
  }

  /**
   * Saves the draft. With `expectedUpdatedAt` (the `updatedAt` of the draft the caller read; null: none was saved),
   * a draft saved since refuses the save (DraftMovedError); without it, the last save wins. `updated_at` is the
   * draft's version: each save moves it by at least a millisecond, so two saves never share one.
   */
  async saveDraft(document: JsonValue, actor: string, expectedUpdatedAt?: string | null): Promise<PlacementsDraft> {
    return this.engine.exclusive(async (db) => {
      const row = await db
        .selectFrom('placement_draft')
        .select(['document', 'updated_by', 'updated_at', 'saved_over', 'saved_as'])
        .executeTakeFirst();
      const current = row ? Number(row.updated_at) : null;
      const stored = JSON.stringify(document);
      if (expectedUpdatedAt !== undefined && !isVersion(row, expectedUpdatedAt)) {
        // Moved since the caller's version by this very save, sent again (a proxy resends a PUT whose host dropped
        // the connection after saving it): the draft's version is the one a save of this document by this actor
        // made over the caller's version. Answered as the first was, with the draft as it is; not written. Any
        // other save in between (another's, this actor's own from another tab, a rollback) refuses it as stale.
        if (row && current !== null && isResentSave(row, stored, actor, expectedUpdatedAt)) {
          return { document, updatedBy: actor, updatedAt: new Date(current).toISOString() };
        }
        assertDraftVersion(row, expectedUpdatedAt, 'save');
      }
      const now = Math.max(Date.now(), (current ?? 0) + 1);
      const values = {
        document: stored,
        updated_by: actor,
        updated_at: now,
        saved_over: current ?? NO_DRAFT_VERSION,
        saved_as: now,
      };
      await db
        .insertInto('placement_draft')
        .values({ only_row: 1, ...values })
        .onConflict((conflict) => conflict.column('only_row').doUpdateSet(values))
        .execute();
      return { document, updatedBy: actor, updatedAt: new Date(now).toISOString() };
    });
  }

  /** The newest revision's number (0 with none): it moves with every publish and rollback, on any host. */
  async lastNumber(): Promise<number> {
    const row = await this.engine.db
      .selectFrom('placement_revisions')
      .select((eb) => eb.fn.max('number').as('last'))
      .executeTakeFirst();
    return Number(row?.last ?? 0);
  }

  /** The revision in force: the newest, or null before the first publish. */
  async latest(): Promise<PlacementRevision | null> {
    const row = await this.engine.db
      .selectFrom('placement_revisions')
      .selectAll()
      .orderBy('number', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? toRevision(row) : null;
  }

  async revision(number: number): Promise<PlacementRevision | undefined> {
    const row = await this.engine.db
      .selectFrom('placement_revisions')
      .selectAll()
      .where('number', '=', number)
      .executeTakeFirst();
    return row && toRevision(row);
  }

  /** Every revision without its document, newest first. */
  async revisions(): Promise<PlacementRevisionSummary[]> {
    const rows = await this.engine.db
      .selectFrom('placement_revisions')
      .select(['number', 'action', 'restored', 'published_by', 'published_at'])
      .orderBy('number', 'desc')
      .execute();
    return rows.map(toSummary);
  }

  /** Writes the next revision and its audit entry; rejects with RevisionMovedError when another came first. */
  async publish(next: NewRevision): Promise<PlacementRevision> {
    const now = Date.now();
    return this.engine.exclusive(async (db) => {
      const previous = await db
        .selectFrom('placement_revisions')
        .select(['number', 'document'])
        .orderBy('number', 'desc')
        .limit(1)
        .executeTakeFirst();
      const found = previous?.number ?? 0;
      if (found !== next.checkedAgainst) throw new RevisionMovedError(next.checkedAgainst, found);
      if (next.draftVersion !== undefined) {
        const draft = await db.selectFrom('placement_draft').select(['updated_by', 'updated_at']).executeTakeFirst();
        assertDraftVersion(draft, next.draftVersion, next.action);
      }
      const row = {
        number: found + 1,
        document: JSON.stringify(next.document),
        action: next.action,
        restored: next.restored,
        published_by: next.actor,
        published_at: now,
      };
      await db.insertInto('placement_revisions').values(row).execute();
      await db
        .insertInto('placement_audit')
        .values({
          action: next.action,
          actor: next.actor,
          at: now,
          revision: row.number,
          before: previous?.document ?? 'null',
          after: row.document,
        })
        .execute();
      if (next.setDraft) {
        // Past the draft's version, as a save moves it (saveDraft): a save made before this refuses.
        const before = await db.selectFrom('placement_draft').select('updated_at').executeTakeFirst();
        const version = Math.max(now, before ? Number(before.updated_at) + 1 : 0);
        // Made by no save (no `saved_over`): a save sent again over the draft it replaces is stale, as any save made
        // before it. `saved_as` marks it this release's: a draft an earlier release's host saves over it is told apart.
        const draft = {
          document: row.document,
          updated_by: next.actor,
          updated_at: version,
          saved_over: null,
          saved_as: version,
        };
        await db
          .insertInto('placement_draft')
          .values({ only_row: 1, ...draft })
          .onConflict((conflict) => conflict.column('only_row').doUpdateSet(draft))
          .execute();
      }
      return toRevision(row);
    });
  }

  /** The audit trail, newest first. */
  async audit(): Promise<PlacementAuditEntry[]> {
    // The revision restored is read from the revision the entry made (written in the same transaction), not kept
    // twice: entries written before the field existed have it too.
    const rows = await this.engine.db
      .selectFrom('placement_audit')
      .leftJoin('placement_revisions', 'placement_revisions.number', 'placement_audit.revision')
      .selectAll('placement_audit')
      .select('placement_revisions.restored')
      .orderBy('placement_audit.id', 'desc')
      .execute();
    return rows.map((row) => ({
      id: Number(row.id),
      action: row.action as PlacementAuditEntry['action'],
      actor: row.actor,
      at: new Date(Number(row.at)).toISOString(),
      revision: Number(row.revision),
      restored: row.restored === null || row.restored === undefined ? null : Number(row.restored),
      before: JSON.parse(row.before) as JsonValue,
      after: JSON.parse(row.after) as JsonValue,
    }));
  }
}

function toSummary(row: Omit<Selectable<PlacementRevisionsTable>, 'document'>): PlacementRevisionSummary {
  return {
    number: Number(row.number),
    action: row.action,
    restored: row.restored === null ? null : Number(row.restored),
    publishedBy: row.published_by,
    publishedAt: new Date(Number(row.published_at)).toISOString(),
  };
}

function toRevision(row: Selectable<PlacementRevisionsTable>): PlacementRevision {
  return { ...toSummary(row), document: JSON.parse(row.document) as JsonValue };
}
