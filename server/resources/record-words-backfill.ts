import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql, type RawBuilder } from 'kysely';
import type { JsonObject } from '../../shared';
import type { AdvisoryLockWait } from '../storage/advisory-lock';
import type { StorageEngine } from '../storage/storage-engine';
import { recordWords, WORDS_VERSION, type RecordWordIndex } from './record-words';

/** Records indexed per transaction when the word index is filled at start-up (see run). */
const WORDS_BACKFILL_BATCH = 500;

/** The advisory lock under which one host at a time indexes the words (PostgreSQL; any number no other lock uses). */
export const WORDS_LOCK_KEY = 0x5107_5d8c;
/** How the connection holding it is named in pg_stat_activity, and so in the line of a host waiting for it. */
export const WORDS_LOCK_APPLICATION = 'slots-server search words';

/** What a backfill is about to do: how many records, and why (`wordsVersion` when they were split differently). */
export interface WordsIndexingStart {
  records: number;
  /** The database's words version and this server's; null when only records without words are indexed. */
  wordsVersion: { from: number; to: number } | null;
}

/** The start-up indexing of the records' words (StoredRecordSource.indexWords), for one start. */
export class RecordWordsBackfill {
  constructor(
    private readonly engine: StorageEngine,
    private readonly words: RecordWordIndex,
  ) {}

  /**
   * Gives records their words at start-up: every record when the database's words are of an older version than this
   * server's (WORDS_VERSION: they were split differently), else only the records without words (written before the
   * word index existed, a database older than migration 5). In batches by id, each written in one transaction; after
   * more than one batch, the index is compacted (RecordWordIndex.compact). `announce` is told, before the first batch
   * is written and only when there is one, how many records will be indexed and why. Returns how many records were
   * indexed.
   *
   * On PostgreSQL the work runs under an advisory lock, so hosts started together index the words once: the first
   * indexes, the others wait for it (`lockWait` hears of the wait) and then, looking again, find nothing left. Without
   * it each indexed every record, and one that read the old version before the first had finished went through every
   * record again. A start with nothing to index (nearly every one) sees so before any lock.
   *
   * `announce` is awaited (a start listens meanwhile; one that cannot indexes nothing), and `lockWait.signal` stops
   * the work once the batch under way has committed, rejecting with its reason: the next start goes on from there
   * (records without words), or indexes every record again (words of an older version, recorded only at the end).
   */
  async run(
    announce: (start: WordsIndexingStart) => void | Promise<void> = () => undefined,
    lockWait?: AdvisoryLockWait,
  ): Promise<number> {
    if (!(await this.hasWordsToIndex())) return 0;
    if (!this.engine.whileLocked) return this.indexWordsNow(announce, lockWait?.signal);
    return this.engine.whileLocked(
      WORDS_LOCK_KEY,
      WORDS_LOCK_APPLICATION,
      () => this.indexWordsNow(announce, lockWait?.signal),
      lockWait,
    );
  }

  /** The words version the database's words were last rebuilt with (1: before it was recorded). */
  private async recordedWordsVersion(): Promise<number> {
    const state = await sql<{ words_version: number }>`SELECT words_version FROM record_words_state`.execute(
      this.engine.db,
    );
    return Number(state.rows[0]?.words_version ?? 1);
  }

  /** Whether run has anything to do: words of an older version, or a record without words. */
  private async hasWordsToIndex(): Promise<boolean> {
    if ((await this.recordedWordsVersion()) < WORDS_VERSION) return true;
    const without = await this.engine.db
      .selectFrom('records')
      .select('id')
      .where(this.withoutWords())
      .limit(1)
      .executeTakeFirst();
    return without !== undefined;
  }

  /** run's work, reading what is left to do (under the lock, on PostgreSQL). */
  private async indexWordsNow(
    announce: (start: WordsIndexingStart) => void | Promise<void>,
    signal: AbortSignal | undefined,
  ): Promise<number> {
    const recordedVersion = await this.recordedWordsVersion();
    const stale = recordedVersion < WORDS_VERSION;
    let indexed = 0;
    for (let after = 0; ; ) {
      // The batch's ids only: its data is read in the transaction that writes its words (below).
      const rows = await this.engine.db
        .selectFrom('records')
        .select('id')
        .where('id', '>', after)
        .$if(!stale, (query) => query.where(this.withoutWords()))
        .orderBy('id')
        .limit(WORDS_BACKFILL_BATCH)
        .execute();
      // Counted only once there is work: the start with nothing to index (nearly every one) pays no count.
      if (after === 0 && rows.length > 0) {
        await announce(
          stale
            ? { records: await this.countRecords(false), wordsVersion: { from: recordedVersion, to: WORDS_VERSION } }
            : { records: await this.countRecords(true), wordsVersion: null },
        );
      }
      if (rows.length === 0) break;
      signal?.throwIfAborted();
      // Read where the words are written, the rows locked on PostgreSQL: a record another host saves meanwhile (an
      // older release's during a rollout, whose re-index this is) keeps the words of what it saved. Read before, its
      // words were of its previous data, replacing its own, and a search missed it until it was saved again.
      await this.engine.db.transaction().execute(async (trx) => {
        const current = await trx
          .selectFrom('records')
          .select(['id', 'tenant_id', 'resource', 'data'])
          .where(
            'id',
            'in',
            rows.map((row) => row.id),
          )
          // Locked in id order, as another host's re-index locks them: two never wait on each other's rows.
          .orderBy('id')
          .$if(this.engine.kind === 'postgres', (query) => query.forUpdate())
          .execute();
        const batch = current.map((row) => ({
          id: row.id,
          words: recordWords(row.tenant_id, row.resource, JSON.parse(row.data) as JsonObject),
        }));
        await this.words.writeMany(trx, batch);
      });
      indexed += rows.length;
      const last = rows.at(-1);
      if (!last || rows.length < WORDS_BACKFILL_BATCH) break;
      after = last.id;
      // A turn of the event loop between batches: SQLite's queries are synchronous, and without it the start's
      // listener answered no probe, and heard no signal, until every record was indexed.
      await nextTurn();
    }
    // More than one batch: several transactions' worth of words, in the layout the index reads slowest (compact).
    if (indexed > WORDS_BACKFILL_BATCH) await this.words.compact(this.engine.db);
    if (stale) {
      await sql`UPDATE record_words_state SET words_version = ${WORDS_VERSION}
        WHERE words_version < ${WORDS_VERSION}`.execute(this.engine.db);
    }
    // Lists counted before (RecordPager's counts) counted with the words replaced here.
    if (indexed > 0) this.engine.noteWrite();
    return indexed;
  }

  /** The condition "the record has no words" (a database older than migration 5 left such records). */
  private withoutWords(): RawBuilder<boolean> {
    return sql<boolean>`NOT EXISTS (SELECT 1 FROM record_words WHERE ${this.words.recordId} = records.id)`;
  }

  /** Every record, or those without words (run's announcement). */
  private async countRecords(withoutWordsOnly: boolean): Promise<number> {
    const row = await this.engine.db
      .selectFrom('records')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .$if(withoutWordsOnly, (query) => query.where(this.withoutWords()))
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }
}
