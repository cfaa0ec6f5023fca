/**
 * The draft's version (its `updated_at`), which every save, publish and rollback names as the one it read: whether it
 * still holds, whether a save that finds it moved is that same save sent again, and the refusal when it moved.
 */
import type { PlacementsDraft } from '../../shared';
import { instantInUtc } from '../../shared';

/** What a caller was doing when the draft moved under it. */
export type DraftChange = 'save' | 'publish' | 'rollback';

/**
 * A draft save, publish or rollback that lost a race: the draft was saved (by a save, an import or a rollback) since
 * the caller read it. Nothing was saved, or published.
 */
export class DraftMovedError extends Error {
  /** Who saved it since, and when: all the 409 says (`error.savedDraft`), never the draft's document. */
  readonly saved: Pick<PlacementsDraft, 'updatedBy' | 'updatedAt'>;

  constructor(saved: Pick<PlacementsDraft, 'updatedBy' | 'updatedAt'>, during: DraftChange = 'save') {
    // The time readable, in UTC, as the other refusals write it (the host shows it in the reader's zone and form).
    const at = saved.updatedAt === null ? 'an unknown time' : instantInUtc(saved.updatedAt);
    const since = `The draft was saved by ${saved.updatedBy ?? 'someone'} at ${at} since you loaded it`;
    super(
      {
        save: `${since}: reload it to see their changes (yours are not saved), then make yours again.`,
        publish: `${since}, so nothing was published: reload it to see what it holds, then publish again.`,
        rollback:
          `${since}, so nothing was rolled back (its changes would have been replaced unseen): reload it to see ` +
          'what it holds, then roll back again.',
      }[during],
    );
    this.name = 'DraftMovedError';
    // A publish or rollback hands over the whole draft it read: only these two fields are the answer's.
    this.saved = { updatedBy: saved.updatedBy, updatedAt: saved.updatedAt };
  }
}

/** Whether the draft `row` is still at the version `expectedUpdatedAt` names (null: none saved). */
export function isVersion(row: { updated_at: number | string } | undefined, expectedUpdatedAt: string | null): boolean {
  const current = row ? Number(row.updated_at) : null;
  return (expectedUpdatedAt === null ? null : Date.parse(expectedUpdatedAt)) === current;
}

/** `saved_over` of a draft saved when there was none: no version is 0 (a time in milliseconds since 1970). */
export const NO_DRAFT_VERSION = 0;

/**
 * Whether the draft in `row` is what the save of `stored` by `actor` over `expectedUpdatedAt` made: that save, sent
 * again. A draft this release wrote last (`saved_as` its version) is that save's only when made by a save (a
 * rollback's has no `saved_over`) over the caller's version.
 *
 * A host of an earlier release saves the draft leaving both columns as they were (`NULL` on its first): `saved_as`
 * is then behind the draft's version, or none. Its save, sent again to a new host after its answer was lost, is
 * recognised as that host recognised its own: the same document by the same user; and only when the caller's version
 * is one the earlier release's hosts made or saved over, not older than the last version this release made
 * (`saved_as`): a save of this release in between, or a rollback, makes it stale as any other.
 */
export function isResentSave(
  row: {
    document: string;
    updated_by: string;
    updated_at: number | string;
    saved_over: number | string | null;
    saved_as: number | string | null;
  },
  stored: string,
  actor: string,
  expectedUpdatedAt: string | null,
): boolean {
  if (row.document !== stored || row.updated_by !== actor) return false;
  const over = expectedUpdatedAt === null ? NO_DRAFT_VERSION : Date.parse(expectedUpdatedAt);
  const version = Number(row.updated_at);
  const madeHere = row.saved_as === null ? null : Number(row.saved_as);
  if (madeHere === version) return row.saved_over !== null && Number(row.saved_over) === over;
  return (madeHere ?? NO_DRAFT_VERSION) <= over && over < version;
}

/** The draft's version (`updated_at`) against the one a caller read; DraftMovedError when it moved. */
export function assertDraftVersion(
  row: { updated_by: string | null; updated_at: number | string } | undefined,
  expectedUpdatedAt: string | null,
  during: DraftChange,
): void {
  if (isVersion(row, expectedUpdatedAt)) return;
  const current = row ? Number(row.updated_at) : null;
  throw new DraftMovedError(
    { updatedBy: row?.updated_by ?? null, updatedAt: current === null ? null : new Date(current).toISOString() },
    during,
  );
}
