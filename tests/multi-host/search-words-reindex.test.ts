/**
 * The search words of a shared PostgreSQL indexed anew (a release that splits words differently) by hosts started
 * together: one host indexes every record once, the other waits for it, then finds nothing left and starts.
 */
import { WORDS_VERSION } from '../../server/resources/record-words';
import { describeWithPostgres } from '../../testing/server/postgres-server';
import { useHostsOnSharedPostgres } from '../../testing/system/hosts-on-shared-postgres';
import { startPostgresHost } from './support/postgres-host';
import { addArticlesOfOlderWords, queryPostgres } from './support/postgres-query';

jest.setTimeout(180_000);

const describePostgres = describeWithPostgres();

/** Enough for the indexing to outlast the two starts' difference (each took about a second for them alone). */
const RECORDS = 20_000;

/** The start line of an indexing, as ResourcesModule logs it. */
const INDEXING = /^indexing the search words of \d+ records/;

describePostgres('search words indexed anew on a shared PostgreSQL', () => {
  const shared = useHostsOnSharedPostgres('words_reindex_test', startPostgresHost);
  const { started } = shared;

  it('indexes every record once when two hosts of a new words version start together', async () => {
    // A first start makes the schema and the demo tenant; then the database holds words of the previous version.
    const first = await startPostgresHost(shared.databaseUrl);
    await first.stop();
    await addArticlesOfOlderWords(shared.databaseUrl, RECORDS);
    // Every write of a record's words, whoever makes it.
    await queryPostgres(
      shared.databaseUrl,
      `CREATE TABLE words_writes (record_id BIGINT NOT NULL);
       CREATE FUNCTION note_words_write() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN INSERT INTO words_writes VALUES (NEW.record_id); RETURN NEW; END $$;
       CREATE TRIGGER words_written AFTER INSERT OR UPDATE ON record_words
         FOR EACH ROW EXECUTE FUNCTION note_words_write();`,
    );
    const [{ count: records } = { count: '0' }] = await queryPostgres<{ count: string }>(
      shared.databaseUrl,
      'SELECT COUNT(*) AS count FROM records',
    );

    await shared.startTogether(2);

    const [writes] = await queryPostgres<{ writes: string; distinct: string }>(
      shared.databaseUrl,
      'SELECT COUNT(*) AS writes, COUNT(DISTINCT record_id) AS distinct FROM words_writes',
    );
    // Each record's words written once: by one host, never again by the other.
    expect({ writes: Number(writes?.writes), distinct: Number(writes?.distinct) }).toEqual({
      writes: Number(records),
      distinct: Number(records),
    });
    const wordsLines = started.map((host) =>
      host.process
        .logLines<{ msg?: string }>()
        .map((line) => line.msg ?? '')
        .filter((msg) => msg.includes('search words')),
    );
    // One host indexed; the other waited for it (when it came while the first was indexing), then indexed nothing.
    const indexing = wordsLines.map((lines) => lines.filter((msg) => INDEXING.test(msg)).length);
    expect([...indexing].sort()).toEqual([0, 1]);
    const waited = wordsLines[indexing.indexOf(0)] ?? [];
    expect(waited).toEqual(
      waited.length === 0
        ? []
        : [
            expect.stringMatching(
              /^waiting for the search words lock, held by PostgreSQL backend \d+ \(application "slots-server search words"/,
            ),
            expect.stringMatching(/^search words lock taken after \d+\.\d s$/),
          ],
    );
    const [state] = await queryPostgres<{ words_version: number }>(
      shared.databaseUrl,
      'SELECT words_version FROM record_words_state',
    );
    expect(Number(state?.words_version)).toBe(WORDS_VERSION);
  });
});
