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
