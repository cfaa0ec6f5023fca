import { sql, type Kysely, type RawBuilder } from 'kysely';
import { spellUndecomposedLetters, type JsonObject, type JsonValue } from '../../shared';
import type { AppSchema } from '../storage/app-schema';
import type { StorageKind } from '../storage/storage-engine';

/** Longest word kept, in code points once folded: a longer one is cut there, and a search word alike, so it matches. */
const WORD_MAX_LENGTH = 60;
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
/** Combining diacritical marks only: other marks (Devanagari's vowel signs, say) are letters of their word. */
const DIACRITICS = /[\u0300-\u036f]/g;
/**
 * Scripts written without spaces between their words (Chinese, Japanese, Thai, Lao, Khmer, Burmese): a run of them is
 * one sentence, not one word, and a search matched only its start. Such a run is split by ICU's dictionaries
 * (Intl.Segmenter, the same in every Node with its full ICU, whatever the server's locale): `東京都庁の会議室` is
 * 東京, 都庁, の, 会議, 室, so "会議" finds it.
 */
const UNSPACED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const WORD_SEGMENTER = new Intl.Segmenter('und', { granularity: 'word' });

/**
 * The words of a text as the word search knows them: runs of letters, marks and digits, compatibility-normalized
 * (NFKC), lower-cased and folded (accents dropped, ß as ss and the like: staff type "garcia" for "García") by this
 * server, never by a database. Both engines are handed these words as they are and only match them, so SQLite and
 * PostgreSQL hold the same words and answer a search with the same records. The records' words and a search's are
 * split here alike; changing this means raising WORDS_VERSION, so that every record is indexed again.
 */
export function splitWords(text: string): string[] {
  const folded = spellUndecomposedLetters(
    text.normalize('NFKC').toLowerCase().normalize('NFD').replace(DIACRITICS, '').normalize('NFC'),
  );
  return [...folded.matchAll(WORD)]
    .flatMap((match) => wordsOfRun(match[0]))
    .map((word) => [...word].slice(0, WORD_MAX_LENGTH).join(''));
}

/** A run of letters, marks and digits as words: itself, unless a script written without spaces is in it. */
function wordsOfRun(run: string): string[] {
  if (!UNSPACED_SCRIPT.test(run)) return [run];
  const words = [...WORD_SEGMENTER.segment(run)].filter((part) => part.isWordLike).map((part) => part.segment);
  return words.length > 0 ? words : [run];
}

/**
 * The version of splitWords and recordWords: raised whenever they split or fold differently, so that every host's
 * start-up gives the records indexed before the new words (StoredRecordSource.indexWords; the database keeps the
 * version its words were last rebuilt with). 2: folded (accents, ß). 3: runs of scripts written without spaces split
 * into their words.
 */
export const WORDS_VERSION = 3;

/** Longest text value that gets a value word (filters match select options and the like, never long texts). */
const VALUE_WORD_MAX_LENGTH = 60;

/** A value a list can be filtered by: a field (or relation key) equal to a short text, a number or a boolean. */
export type FilterValue = string | number | boolean;

/**
 * The words indexed for a record: its scope word (tenant and resource, so a search never leaves them), the words
 * of every text value of its data, once each, and a value word per short value (see valueWord). `_` is in no
 * searched word, so no search matches a scope or value word.
 */
export function recordWords(tenant: string, resource: string, data: JsonObject): string[] {
  const words = new Set<string>([scopeWord(tenant, resource)]);
  const collect = (key: string, value: JsonValue | undefined): void => {
    if (typeof value === 'string') for (const word of splitWords(value)) words.add(word);
    if (
      typeof value === 'boolean' ||
      (typeof value === 'number' && Number.isFinite(value)) ||
      (typeof value === 'string' && value !== '' && [...value].length <= VALUE_WORD_MAX_LENGTH)
    ) {
      words.add(valueWord(key, value));
    }
  };
  for (const [key, value] of Object.entries(data)) if (key !== 'id') collect(key, value);
  return [...words];
}

/** The word saying "field `key` holds `value`" (its JSON, so 3 and "3" differ): filters match it exactly. */
export function valueWord(key: string, value: FilterValue): string {
  return `_v${Buffer.from(key).toString('hex')}_${Buffer.from(JSON.stringify(value)).toString('hex')}`;
}

/** What a list's records must hold in the word index: a word starting with each prefix, and values in or out. */
export interface WordCondition {
  prefixes: readonly string[];
  /** Value words (valueWord) a record must have. */
  required: readonly string[];
  /** Value words a record must not have. */
  excluded: readonly string[];
}

export function scopeWord(tenant: string, resource: string): string {
  return `_${Buffer.from(tenant).toString('hex')}_${Buffer.from(resource).toString('hex')}`;
}

/** A record's id and its words (recordWords), as the index stores them. */
export interface IndexedWords {
  id: number;
  words: readonly string[];
}

/**
 * Where an engine keeps the words of records, and how it matches them: the one part of the word search written
 * twice. SQLite: an FTS5 table, the record id as rowid. PostgreSQL: a tsvector per record id under a GIN index.
 */
export interface RecordWordIndex {
  /** The column of the word table holding the record id (SQL). */
  readonly recordId: RawBuilder<unknown>;
  /** The condition "has the scope word and meets `condition`" (SQL). */
  matches(scope: string, condition: WordCondition): RawBuilder<boolean>;
  /**
   * The condition "record `record` (an id, SQL) meets `condition`", asked of one record at a time as a walk of a
   * sorted column reaches it: its own words read by id, never a word's postings.
   */
  holds(record: RawBuilder<unknown>, condition: WordCondition): RawBuilder<boolean>;
  /** Replaces the words of record `id`. */
  write(db: Kysely<AppSchema>, id: number, words: readonly string[]): Promise<void>;
  /** Replaces the words of several records at once (a few hundred: two statements, whatever the count). */
  writeMany(db: Kysely<AppSchema>, records: readonly IndexedWords[]): Promise<void>;
  /** Forgets the words of record `id` (PostgreSQL's rows go with their record). */
  remove(db: Kysely<AppSchema>, id: number): Promise<void>;
  /** Forgets the words of every record of `tenant`, before the records go (a tenant removed with its data). */
  removeOfTenant(db: Kysely<AppSchema>, tenant: string): Promise<void>;
  /**
   * Puts the index in the layout its reads are fastest on, after many records were written in a few large
   * transactions (the start-up backfill). SQLite: FTS5 leaves a segment per transaction, merged only as later writes
   * come, and a read goes through every one (at 100,000 records written 500 at a time, 8 segments and a word read
   * about 25 % slower); `optimize` merges them into one. PostgreSQL: the GIN index's pending list (its fast update),
   * which every read scans until a vacuum merges it, is merged now.
   */
  compact(db: Kysely<AppSchema>): Promise<void>;
}

const SQLITE_WORDS: RecordWordIndex = {
  recordId: sql`record_words.rowid`,
  // Every word is letters, marks and digits (or the scope word's hex and `_`): quoted, it is one FTS5 token.
  matches: (scope, { prefixes, required, excluded }) =>
    sql<boolean>`record_words MATCH ${[
      [`"${scope}"`, ...prefixes.map((prefix) => `"${prefix}"*`), ...required.map((word) => `"${word}"`)].join(' AND '),
      ...excluded.map((word) => `"${word}"`),
    ].join(' NOT ')}`,
  // FTS5 asked about one record (rowid = ? AND MATCH) still reads every posting of a prefix: its content table holds
  // the record's words as written, space-separated, so a word starts a token where a space precedes it.
  holds: (record, { prefixes, required, excluded }) => {
    const spaced = sql`' ' || c0 || ' '`;
    const tests = [
      sql`id = ${record}`,
      ...prefixes.map((prefix) => sql`instr(${spaced}, ${` ${prefix}`}) > 0`),
      ...required.map((word) => sql`instr(${spaced}, ${` ${word} `}) > 0`),
      ...excluded.map((word) => sql`instr(${spaced}, ${` ${word} `}) = 0`),
    ];
    return sql<boolean>`EXISTS (SELECT 1 FROM record_words_content WHERE ${sql.join(tests, sql` AND `)})`;
  },
  write: async (db, id, words) => {
    await sql`DELETE FROM record_words WHERE rowid = ${id}`.execute(db);
    await sql`INSERT INTO record_words (rowid, words) VALUES (${id}, ${words.join(' ')})`.execute(db);
  },
  writeMany: async (db, records) => {
    if (records.length === 0) return;
    await sql`DELETE FROM record_words WHERE rowid IN (${sql.join(records.map((record) => record.id))})`.execute(db);
    const rows = records.map((record) => sql`(${record.id}, ${record.words.join(' ')})`);
    await sql`INSERT INTO record_words (rowid, words) VALUES ${sql.join(rows)}`.execute(db);
  },
  remove: async (db, id) => {
    await sql`DELETE FROM record_words WHERE rowid = ${id}`.execute(db);
  },
  // FTS5 has no foreign key to follow: without this, the words of the records stay behind them.
  removeOfTenant: async (db, tenant) => {
    await sql`DELETE FROM record_words WHERE rowid IN (SELECT id FROM records WHERE tenant_id = ${tenant})`.execute(db);
  },
  compact: async (db) => {
    await sql`INSERT INTO record_words (record_words) VALUES ('optimize')`.execute(db);
  },
};

/** PostgreSQL's SQLSTATE for a statement the role may not run. */
const INSUFFICIENT_PRIVILEGE = '42501';

/** A condition's lexemes as tsquery terms, verbatim (no parser, no lower-casing), as array_to_tsvector stores them. */
function tsqueryTerms({ prefixes, required, excluded }: WordCondition): string[] {
  return [
    ...prefixes.map((prefix) => `'${prefix}':*`),
    ...required.map((word) => `'${word}'`),
    ...excluded.map((word) => `!'${word}'`),
  ];
}

const POSTGRES_WORDS: RecordWordIndex = {
  recordId: sql`record_words.record_id`,
  matches: (scope, condition) =>
    sql<boolean>`record_words.words @@ ${[`'${scope}'`, ...tsqueryTerms(condition)].join(' & ')}::tsquery`,
  // The record's tsvector, read by id: PostgreSQL checks one record's words, not a word's postings.
  holds: (record, condition) => {
    const terms = tsqueryTerms(condition);
    const words = terms.length === 0 ? sql`` : sql` AND record_words.words @@ ${terms.join(' & ')}::tsquery`;
    return sql<boolean>`EXISTS (SELECT 1 FROM record_words WHERE record_id = ${record}${words})`;
  },
  write: async (db, id, words) => {
    await sql`INSERT INTO record_words (record_id, words) VALUES (${id}, array_to_tsvector(${[...words]}::text[]))
      ON CONFLICT (record_id) DO UPDATE SET words = excluded.words`.execute(db);
  },
  writeMany: async (db, records) => {
    if (records.length === 0) return;
    const rows = records.map((record) => sql`(${record.id}, array_to_tsvector(${[...record.words]}::text[]))`);
    await sql`INSERT INTO record_words (record_id, words) VALUES ${sql.join(rows)}
      ON CONFLICT (record_id) DO UPDATE SET words = excluded.words`.execute(db);
  },
  remove: async (db, id) => {
    await sql`DELETE FROM record_words WHERE record_id = ${id}`.execute(db);
  },
  removeOfTenant: async (db, tenant) => {
    await sql`DELETE FROM record_words WHERE record_id IN (SELECT id FROM records WHERE tenant_id = ${tenant})`.execute(
      db,
    );
  },
  compact: async (db) => {
    try {
      await sql`SELECT gin_clean_pending_list('record_words_words'::regclass)`.execute(db);
    } catch (error) {
      // Only the index's owner may merge it now: a server signed in as another role leaves it to autovacuum, which
      // merges it as well, later. The backfill is done either way; start-up must not fail for this.
      if ((error as { code?: unknown }).code !== INSUFFICIENT_PRIVILEGE) throw error;
    }
  },
};

export function recordWordIndexFor(kind: StorageKind): RecordWordIndex {
  return kind === 'sqlite' ? SQLITE_WORDS : POSTGRES_WORDS;
}
