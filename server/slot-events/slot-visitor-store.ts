import { sql } from 'kysely';
import type { StorageEngine } from '../storage/storage-engine';
import type { SlotLoadKey } from './slot-load-counts';
import { KEEP_MS, type SlotLoadSpan } from './slot-load-store';

/** Whose loads: signed-in staff (an account), or a visitor not signed in (a client address). */
export type SlotAudience = 'staff' | 'anonymous';

/** One visitor of one slot in one bucket: `failed` / `codeFailed` once any of its loads there failed. */
export interface SlotVisitorRow extends SlotLoadKey {
  span: SlotLoadSpan;
  startAt: number;
  audience: SlotAudience;
  /** A hash of the account or address (visitor-id.ts), never the id itself. */
  visitor: string;
  failed: boolean;
  codeFailed: boolean;
}

/** Distinct visitors of a key (or of a release, `location` and `component` ''), over a window. */
export interface SlotVisitorSum extends SlotLoadKey {
  visitors: number;
  failedVisitors: number;
}

/** One visitor of one slot over a window, its worst outcome there (what a canary's verdict reads). */
export type SlotVisitorOfWindow = SlotLoadKey & Pick<SlotVisitorRow, 'visitor' | 'failed' | 'codeFailed'>;

/** Rows per INSERT (10 parameters each). */
const ROWS_PER_INSERT = 1000;

/**
 * The distinct visitors of each slot per bucket, shared by every host: a visitor seen by two hosts is one row
 * (`ON CONFLICT` keeps the worst outcome, atomic on both engines), and a window's distinct visitors are a
 * `COUNT(DISTINCT visitor)` over its buckets. Kept as long as the counts (KEEP_MS).
 */
export class SlotVisitorStore {
  constructor(private readonly engine: StorageEngine) {}

  async add(rows: readonly SlotVisitorRow[]): Promise<void> {
    for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
      await this.engine.db
        .insertInto('slot_load_visitors')
        .values(
          rows.slice(start, start + ROWS_PER_INSERT).map((row) => ({
            span: row.span,
            start_at: row.startAt,
            remote: row.remote,
            release: row.release,
            location: row.location,
            component: row.component,
            audience: row.audience,
            visitor: row.visitor,
            failed: row.failed ? 1 : 0,
            code_failed: row.codeFailed ? 1 : 0,
          })),
        )
        .onConflict((conflict) =>
          conflict.columns(['span', 'start_at', 'remote', 'release', 'location', 'component', 'visitor']).doUpdateSet({
            failed: sql<number>`CASE WHEN excluded.failed > slot_load_visitors.failed THEN excluded.failed ELSE slot_load_visitors.failed END`,
            code_failed: sql<number>`CASE WHEN excluded.code_failed > slot_load_visitors.code_failed THEN excluded.code_failed ELSE slot_load_visitors.code_failed END`,
          }),
        )
        .execute();
    }
  }

  /**
   * Distinct visitors of `audience` per key (`perRelease`: per remote release, every slot together) over the `span`
   * buckets from `since`.
   */
  async sums(span: SlotLoadSpan, since: number, audience: SlotAudience, perRelease = false): Promise<SlotVisitorSum[]> {
    const groups = perRelease
      ? (['remote', 'release'] as const)
      : (['remote', 'release', 'location', 'component'] as const);
    const rows = await this.engine.db
      .selectFrom('slot_load_visitors')
      .select([...groups])
      .select([
        sql<number>`COUNT(DISTINCT visitor)`.as('visitors'),
        sql<number>`COUNT(DISTINCT CASE WHEN failed = 1 THEN visitor END)`.as('failed_visitors'),
      ])
      .where('span', '=', span)
      .where('start_at', '>=', since)
      .where('audience', '=', audience)
      .groupBy([...groups])
      .execute();
    return rows.map((row) => {
      const keyed = row as { remote: string; release: string; location?: string; component?: string };
      return {
        remote: keyed.remote,
        release: keyed.release,
        location: keyed.location ?? '',
        component: keyed.component ?? '',
        visitors: Number(row.visitors),
        failedVisitors: Number(row.failed_visitors),
      };
    });
  }

  /** Each signed-in visitor of each slot of `remote`'s `releases` over the window, its worst outcome there. */
  async staffVisitorsOf(
    span: SlotLoadSpan,
    since: number,
    remote: string,
    releases: readonly string[],
  ): Promise<SlotVisitorOfWindow[]> {
    const rows = await this.engine.db
      .selectFrom('slot_load_visitors')
      .select(['remote', 'release', 'location', 'component', 'visitor'])
      .select((eb) => [eb.fn.max('failed').as('failed'), eb.fn.max('code_failed').as('code_failed')])
      .where('span', '=', span)
      .where('remote', '=', remote)
      .where('start_at', '>=', since)
      .where('audience', '=', 'staff')
      .where('release', 'in', [...releases])
      .groupBy(['remote', 'release', 'location', 'component', 'visitor'])
      .execute();
    return rows.map((row) => ({
      remote: row.remote,
      release: row.release,
      location: row.location,
      component: row.component,
      visitor: row.visitor,
      failed: Number(row.failed) > 0,
      codeFailed: Number(row.code_failed) > 0,
    }));
  }

  async prune(now: number): Promise<void> {
    for (const span of ['minute', 'hour'] as const) {
      await this.engine.db
        .deleteFrom('slot_load_visitors')
        .where('span', '=', span)
        .where('start_at', '<', now - KEEP_MS[span])
        .execute();
    }
  }
}
