/**
 * SQLite files as this server leaves them, for the backup and restore tests: made with its own migrations, one tenant
 * in each to tell them apart, and that tenant read back to see which file ended up where.
 */
import Database from 'better-sqlite3';
import { migrate } from '../../server/storage/migrate';
import { MIGRATIONS, RELEASE_SCHEMA_VERSION } from '../../server/storage/migrations';

/**
 * A database of this server's at `version` (this release's by default), in WAL mode as a server keeps it, holding the
 * tenant `tenant`; with `fillerMiB` MiB more in a table of its own, for a copy or restore that takes time.
 */
export function serversDatabase(
  file: string,
  tenant: string,
  { version = RELEASE_SCHEMA_VERSION, fillerMiB = 0 }: { version?: number; fillerMiB?: number } = {},
): void {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    migrate(
      db,
      MIGRATIONS.filter((step) => step.version <= version),
    );
    db.prepare('INSERT INTO tenants (id, name) VALUES (?, ?)').run(tenant, tenant);
    if (fillerMiB > 0) {
      db.exec('CREATE TABLE filler (bytes BLOB)');
      const add = db.prepare('INSERT INTO filler VALUES (randomblob(1048576))');
      for (let i = 0; i < fillerMiB; i++) add.run();
    }
  } finally {
    db.close();
  }
}

/** The tenants' ids in the SQLite file, in order: which database a file is (each test database holds its own). */
export function tenantsIn(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare<[], string>('SELECT id FROM tenants ORDER BY id').pluck().all();
  } finally {
    db.close();
  }
}
