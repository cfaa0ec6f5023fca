import { WORDS_VERSION } from '../../../server/resources/record-words';
import { Client, type QueryResultRow } from 'pg';

/** One query on its own short-lived connection, to look at (or prepare) what the hosts share. */
export async function queryPostgres<Row extends QueryResultRow>(
  databaseUrl: string,
  sql: string,
  values: unknown[] = [],
): Promise<Row[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<Row>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Adds `count` articles to the first tenant with search words of the version before this release's, as a database
 * of the release before holds them: the next start indexes every one again.
 */
export async function addArticlesOfOlderWords(databaseUrl: string, count: number): Promise<void> {
  await queryPostgres(
    databaseUrl,
    `INSERT INTO records (tenant_id, resource, data, created_at, updated_at)
     SELECT (SELECT id FROM tenants ORDER BY id LIMIT 1), 'articles',
            json_build_object('title', 'Article ' || n, 'label', 'A')::text, 0, 0
     FROM generate_series(1, $1::int) AS n`,
    [count],
  );
  await queryPostgres(databaseUrl, `UPDATE record_words_state SET words_version = ${WORDS_VERSION - 1}`);
}
