import Database from 'better-sqlite3';
import { signIn } from '../../tests/multi-instance/support/session-client';
import { workPath, type BenchContext } from '../harness/bench-context';
import { captureBody } from '../harness/captured-body';
import { compareAlternating, LOAD_GENERATORS } from '../harness/compare-alternating';
import { BENCH_DEMO_PASSWORD, BENCH_DEMO_USERNAME, startRealServer } from '../harness/real-server';
import type { ThroughputResult } from '../report/bench-results';
import { encodeRecordCursor } from '../../server/resources/record-list-cursor';
import { recordWords } from '../../server/resources/record-words';
import { registerSqliteSortFold } from '../../server/storage/sort-fold';
import type { ServerProcess } from '../../testing/system/server-process';

/** The table sizes compared: the large one is the target, the small one its baseline. */
export const LIST_SIZES = Object.freeze({ small: 100, large: 100_000 });

/** 100k records / 100 records in req/s: a page costs the same whatever the table holds, within noise. */
export const LIST_MIN_RATIO = 0.8;

/** The requests measured, each the same answer size on both tables (see `listRequests`). */
interface ListRequest {
  name: string;
  path: (records: number) => string;
}

const AUTHORS = '/api/resources/authors/records';
const ARTICLES = '/api/resources/articles/records';

/** Seeded article `index` went out `index` days after 1800-01-01: the first days are the same in both tables. */
function articleDay(index: number): string {
  return new Date(Date.UTC(1800, 0, 1 + index)).toISOString().slice(0, 10);
}

/** `Author 000042`: names sort as their numbers, so the same place in both tables is easy to name. */
function authorTitle(index: number): string {
  return `Author ${String(index).padStart(6, '0')}`;
}

const LIST_REQUESTS: readonly ListRequest[] = [
  {
    // A page in the middle of the table by name: keyset paging from a cursor, no offset to skip.
    name: 'middle page by name',
    path: (records) => {
      const middle = encodeRecordCursor(
        { sort: 'title', q: '', search: '' },
        // Id 1, the smallest there is: in a descending walk the page starts right below this name.
        { key: authorTitle(Math.floor(records / 2)).toLowerCase(), id: 1 },
      );
      return `${AUTHORS}?sort=title&order=desc&after=${middle}`;
    },
  },
  {
    // The same ten matches in both tables (Author 000050 to 000059).
    name: 'search by name prefix',
    path: () => `${AUTHORS}?q=author%2000005&sort=title`,
  },
  {
    // A word in the middle of the name (and of the email): the same ten matches in both tables, by the word index.
    name: 'search by any word',
    path: () => `${AUTHORS}?search=00005`,
  },
  {
    // The same word sorted by name: its ten matches read from the word index and sorted, in both tables.
    name: 'rare word sorted by name',
    path: () => `${AUTHORS}?search=00005&sort=title`,
  },
  {
    // A word of half the table (every other author is staff) sorted by name: the name's index walked at 100,000
    // records, each author it reaches looked up in the word's matches; the 50 matches read and sorted at 100.
    name: 'common word sorted by name',
    path: () => `${AUTHORS}?search=staff&sort=title`,
  },
  {
    // A filter half the table passes (every other author is staff): a page by id from the word index.
    name: 'filtered page (group)',
    path: () => `${AUTHORS}?filter.group=staff`,
  },
  {
    // Ten days, ten articles in both tables: by id, the range read in its day index.
    name: 'range of ten days',
    path: () => `${ARTICLES}?filter.published=${articleDay(0)}..${articleDay(9)}`,
  },
  {
    // Twenty days, half of them news: the same ten articles in both tables, each of the range checked for its group.
    name: 'range of days with a filter (group)',
    path: () => `${ARTICLES}?filter.published=${articleDay(0)}..${articleDay(19)}&filter.group=news`,
  },
  {
    // Every seeded day: a full page by id in both, each record checked for its day as the id walk reaches it.
    name: 'range of days holding every article',
    path: () => `${ARTICLES}?filter.published=${articleDay(0)}..`,
  },
];

/**
 * `GET /api/resources/authors/records` (and articles' ranges of days) on a table of 100,000 authors (and as many
 * articles) against the same server on a table of 100:
 * the list's cost per request must not grow with the table (keyset pages on indexes). Each server is its own
 * process on its own database; the records are written straight into its file once it has started.
 */
export async function benchListScaling(context: BenchContext): Promise<ThroughputResult[]> {
  const servers: ServerProcess[] = [];
  try {
    const small = await startSeededServer(context, LIST_SIZES.small);
    servers.push(small.server);
    const large = await startSeededServer(context, LIST_SIZES.large);
    servers.push(large.server);
    const results: ThroughputResult[] = [];
    for (const request of LIST_REQUESTS) {
      const largePath = request.path(LIST_SIZES.large);
      const body = await captureBody(
        `${large.server.url}${largePath}`,
        { Cookie: large.cookie },
        workPath(context, `lists-${results.length}.json`),
      );
      const comparison = await compareAlternating(
        { url: `${large.server.url}${largePath}`, headers: { Cookie: large.cookie } },
        { url: `${small.server.url}${request.path(LIST_SIZES.small)}`, headers: { Cookie: small.cookie } },
        context.plans.main,
        LOAD_GENERATORS.autocannon,
      );
      const what = largePath.startsWith(ARTICLES) ? 'articles' : 'authors';
      results.push({
        name: `\`GET ${largePath.split('?')[0] ?? ''}\`, ${request.name}, ${LIST_SIZES.large.toLocaleString('en')} records`,
        target: `${LIST_SIZES.large.toLocaleString('en')} ${what} in the tenant`,
        baseline: `the same server on ${LIST_SIZES.small} ${what} (ratio = req/s at ${LIST_SIZES.large.toLocaleString('en')} / req/s at ${LIST_SIZES.small})`,
        bodyBytes: body.bytes.length,
        minimumRatio: LIST_MIN_RATIO,
        generator: 'autocannon',
        comparison,
      });
    }
    return results;
  } finally {
    for (const server of servers) await server.stop();
  }
}

async function startSeededServer(
  context: BenchContext,
  records: number,
): Promise<{ server: ServerProcess; cookie: string }> {
  const name = `lists-${records}`;
  const server = await startRealServer(context, { name });
  try {
    const db = new Database(`${workPath(context, name)}/app.db`);
    // The server's indexes on text sort keys call its fold: this connection writes records too.
    registerSqliteSortFold(db);
    try {
      const insert = db.prepare(
        "INSERT INTO records (tenant_id, resource, data, created_at, updated_at) VALUES ('acme', ?, ?, ?, ?)",
      );
      // The words the server would index (StoredRecordSource.insert), written alongside as it writes them.
      const insertWords = db.prepare('INSERT INTO record_words (rowid, words) VALUES (?, ?)');
      const now = Date.now();
      const add = (resource: string, data: Record<string, string>) => {
        const { lastInsertRowid } = insert.run(resource, JSON.stringify(data), now, now);
        insertWords.run(lastInsertRowid, recordWords('acme', resource, data).join(' '));
      };
      db.transaction(() => {
        for (let index = 0; index < records; index++) {
          add('authors', {
            title: authorTitle(index),
            label: 'Seeded',
            group: index % 2 ? 'guest' : 'staff',
            email: `author${String(index).padStart(6, '0')}@example.org`,
          });
          add('articles', {
            title: `Article ${String(index).padStart(6, '0')}`,
            label: 'Seeded',
            group: index % 2 ? 'news' : 'guides',
            published: articleDay(index),
          });
        }
      })();
      // One transaction of 200,000 records leaves FTS5's word index in a layout the server's own writes (one record
      // per transaction, merged as they go) do not: with it, every word-index read cost up to 300 us more at 100,000
      // records than at 100. Merged into one segment, its reads cost what they cost in an index the server wrote
      // record by record (within 50 us, measured on both).
      db.prepare("INSERT INTO record_words (record_words) VALUES ('optimize')").run();
    } finally {
      db.close();
    }
    return { server, cookie: await signIn(server.url, BENCH_DEMO_USERNAME, BENCH_DEMO_PASSWORD) };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
