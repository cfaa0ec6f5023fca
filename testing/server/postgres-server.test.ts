import fs from 'node:fs';
import { Client } from 'pg';
import { describeWithPostgres, PostgresServer } from './postgres-server';

jest.setTimeout(60_000);

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

describeWithPostgres()('a throwaway PostgreSQL server', () => {
  it('keeps committed rows across a stop and a kill, then removes its folder', async () => {
    const server = await PostgresServer.start();
    try {
      expect(server.url()).toBe(`postgres://postgres@127.0.0.1:${server.port}/postgres`);
      const url = await server.createDatabase('harness_check');
      await query(url, 'CREATE TABLE notes (id serial PRIMARY KEY, text text NOT NULL)');
      await query(url, "INSERT INTO notes (text) VALUES ('before stop')");

      await server.stop();
      expect(server.running).toBe(false);
      await expect(query(url, 'SELECT 1')).rejects.toThrow();
      await server.resume();
      await query(url, "INSERT INTO notes (text) VALUES ('before kill')");

      await server.kill();
      await server.resume();
      const rows = await query<{ text: string }>(url, 'SELECT text FROM notes ORDER BY id');
      expect(rows.map((row) => row.text)).toEqual(['before stop', 'before kill']);
    } finally {
      await server.remove();
    }
    expect(fs.existsSync(server.folderPath)).toBe(false);
  });

  it('refuses a database name that is not a plain identifier', async () => {
    const server = await PostgresServer.start();
    try {
      await expect(server.createDatabase('x; DROP DATABASE postgres')).rejects.toThrow('Not a plain database name');
    } finally {
      await server.remove();
    }
  });
});
