import { sql, type Insertable } from 'kysely';
import type { SlotLoadStatsTable } from '../storage/app-schema';
import type { StorageEngine } from '../storage/storage-engine';
import { COUNT_COLUMNS, type CountColumn, type SlotLoadKey } from './slot-load-counts';

/** A row's time bucket: a minute (the 5-minute and 1-hour windows) or an hour (the day). */
export type SlotLoadSpan = 'minute' | 'hour';

export const SPAN_MS: Record<SlotLoadSpan, number> = { minute: 60_000, hour: 3_600_000 };

/**
 * How long rows are kept: a minute row a little over the longest window it serves (1 hour), an hour row a little
 * over a day. Hence at most 62 minute rows and 26 hour rows per key, whatever the number of events.
 */
export const KEEP_MS: Record<SlotLoadSpan, number> = { minute: 62 * 60_000, hour: 26 * 3_600_000 };

/** The rows a key holds at most (the bound the operators' guide states). */
export const ROWS_PER_KEY = KEEP_MS.minute / SPAN_MS.minute + KEEP_MS.hour / SPAN_MS.hour;

/** Counts to add to one bucket of one key. */
export interface SlotLoadDelta extends SlotLoadKey {
  span: SlotLoadSpan;
  startAt: number;
  counts: readonly number[];
}

/** Summed counts of one key over a window. */
export interface SlotLoadSum extends SlotLoadKey {
  counts: number[];
}

const KEY_COLUMNS = ['span', 'start_at', 'remote', 'release', 'location', 'component'] as const;
/** Rows per INSERT: SQLite allows 32 766 parameters per statement; each row takes 24. */
const ROWS_PER_INSERT = 500;

/**
 * The tables of counts: the signed-in staff's (a release's health figures, the canary's verdict) and, apart, those of
 * visitors who are not signed in (anyone can send these: they are shown apart and never judged).
 */
export type SlotLoadTable = 'slot_load_stats' | 'slot_load_anonymous_stats';

/**
 * The slot load counts in the database (SQLite or the PostgreSQL every host shares): each write adds to its rows
 * (`INSERT ... ON CONFLICT DO UPDATE`, atomic on both engines), so every host's counts sum, and reads sum the
 * buckets of a window.
 */
export class SlotLoadStore {
  constructor(
    private readonly engine: StorageEngine,
    private readonly table: SlotLoadTable = 'slot_load_stats',
  ) {}

  /** Adds the deltas to their rows (created at zero when missing). */
  async add(deltas: readonly SlotLoadDelta[]): Promise<void> {
    for (let start = 0; start < deltas.length; start += ROWS_PER_INSERT) {
      const rows = deltas.slice(start, start + ROWS_PER_INSERT).map(toRow);
      await this.engine.db
        .insertInto(this.table)
        .values(rows)
        .onConflict((conflict) =>
          conflict
            .columns([...KEY_COLUMNS])
            .doUpdateSet(
              Object.fromEntries(
                COUNT_COLUMNS.map((column) => [
                  column,
                  sql<number>`${sql.ref(`${this.table}.${column}`)} + ${sql.ref(`excluded.${column}`)}`,
                ]),
              ),
            ),
        )
        .execute();
    }
  }

  /** Every key's counts summed over the `span` buckets that start at or after `since`. */
  async sums(span: SlotLoadSpan, since: number): Promise<SlotLoadSum[]> {
    const rows = await this.engine.db
      .selectFrom(this.table)
      .select(['remote', 'release', 'location', 'component'])
      .select((eb) => COUNT_COLUMNS.map((column) => eb.fn.sum<number>(column).as(column)))
      .where('span', '=', span)
      .where('start_at', '>=', since)
      .groupBy(['remote', 'release', 'location', 'component'])
      .execute();
    return rows.map((row) => ({
      remote: row.remote,
      release: row.release,
      location: row.location,
      component: row.component,
      counts: COUNT_COLUMNS.map((column) => Number(row[column] ?? 0)),
    }));
  }

  /** Deletes the rows past their keeping time (KEEP_MS). Any host may run it; running it twice does no harm. */
  async prune(now: number): Promise<void> {
    for (const span of ['minute', 'hour'] as const) {
      await this.engine.db
        .deleteFrom(this.table)
        .where('span', '=', span)
        .where('start_at', '<', now - KEEP_MS[span])
        .execute();
    }
  }

  /** How many rows the table holds (the bound is checked against it). */
  async rowCount(): Promise<number> {
    const row = await this.engine.db
      .selectFrom(this.table)
      .select((eb) => eb.fn.countAll<number>().as('rows'))
      .executeTakeFirst();
    return Number(row?.rows ?? 0);
  }
}

function toRow(delta: SlotLoadDelta): Insertable<SlotLoadStatsTable> {
  const counts = Object.fromEntries(COUNT_COLUMNS.map((column, index) => [column, delta.counts[index] ?? 0]));
  return {
    span: delta.span,
    start_at: delta.startAt,
    remote: delta.remote,
    release: delta.release,
    location: delta.location,
    component: delta.component,
    ...(counts as Record<CountColumn, number>),
  };
}
