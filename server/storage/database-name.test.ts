/**
 * The engines' names for log lines: what the operator set (the file, PostgreSQL's database, host and port), never the
 * password, the same way the refusal of a newer schema names them.
 */
import path from 'node:path';
import { makeTempDir } from '../../testing/temp-dir';
import { PostgresEngine } from './postgres-engine';
import { SqliteEngine } from './sqlite-engine';

it('names a SQLite database by its file’s absolute path', async () => {
  const folder = makeTempDir();
  const engine = SqliteEngine.open(path.join(folder.path, 'app.db'));
  try {
    expect(engine.displayName).toBe(`SQLite ${path.join(folder.path, 'app.db')}`);
  } finally {
    await engine.close();
    folder.remove();
  }
});

it('names a PostgreSQL database by its name, host and port, without the password, before connecting', async () => {
  const engine = new PostgresEngine(
    { url: 'postgres://slots:secret-password@db.internal:6543/slots_prod', poolSize: 1, statementTimeoutMs: 1000 },
    () => undefined,
  );
  try {
    expect(engine.displayName).toBe('PostgreSQL "slots_prod" on db.internal:6543');
  } finally {
    await engine.close();
  }
});
