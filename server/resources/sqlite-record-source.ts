import type BetterSqlite3 from 'better-sqlite3';
import type { JsonObject, ResourceRecord } from '../../shared';
import type { AppDatabase } from '../storage/app-database';
import { FIELD_NAME_PATTERN } from './field';
import type { RecordPage, RecordPageQuery } from './record-page-query';
import type { RecordSource } from './record-source';
import { SqliteRecordPager } from './sqlite-record-pager';

interface RecordRow {
  id: number;
  data: string;
}

/** Records in the `records` table of the SQLite file: one row per record, its field values as JSON. */
export class SqliteRecordSource implements RecordSource {
  private readonly statements: {
    list: BetterSqlite3.Statement<[string, string], RecordRow>;
    get: BetterSqlite3.Statement<[string, string, number], RecordRow>;
    count: BetterSqlite3.Statement<[string, string], number>;
    insert: BetterSqlite3.Statement<[string, string, string, number, number]>;
    replace: BetterSqlite3.Statement<[string, number, number, string, string]>;
    findBy: BetterSqlite3.Statement<[string, string, string, number | string], RecordRow>;
  };

  private readonly pager: SqliteRecordPager;

  constructor(private readonly database: AppDatabase) {
    const db = database.db;
    this.pager = new SqliteRecordPager(db, toRecord);
    this.statements = {
      list: db.prepare('SELECT id, data FROM records WHERE tenant_id = ? AND resource = ? ORDER BY id'),
      get: db.prepare('SELECT id, data FROM records WHERE tenant_id = ? AND resource = ? AND id = ?'),
      count: db
        .prepare<[string, string], number>('SELECT COUNT(*) FROM records WHERE tenant_id = ? AND resource = ?')
        .pluck(),
      insert: db.prepare(
        'INSERT INTO records (tenant_id, resource, data, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
      ),
      replace: db.prepare(
        'UPDATE records SET data = ?, updated_at = ? WHERE id = ? AND tenant_id = ? AND resource = ?',
      ),
      findBy: db.prepare(
        `SELECT id, data FROM records WHERE tenant_id = ? AND resource = ? AND json_extract(data, ?) = ? ORDER BY id`,
      ),
    };
  }

  list(tenant: string, resource: string): ResourceRecord[] {
    return this.statements.list.all(tenant, resource).map(toRecord);
  }

  page(tenant: string, resource: string, query: RecordPageQuery): RecordPage {
    return this.pager.page(tenant, resource, query);
  }

  get(tenant: string, resource: string, id: number): ResourceRecord | undefined {
    const row = this.statements.get.get(tenant, resource, id);
    return row ? toRecord(row) : undefined;
  }

  findBy(tenant: string, resource: string, key: string, value: number | string): ResourceRecord[] {
    if (!FIELD_NAME_PATTERN.test(key)) throw new Error(`Not a record key: ${JSON.stringify(key)}`);
    return this.statements.findBy.all(tenant, resource, `$.${key}`, value).map(toRecord);
  }

  count(tenant: string, resource: string): number {
    return this.statements.count.get(tenant, resource) ?? 0;
  }

  insert(tenant: string, resource: string, data: JsonObject): ResourceRecord {
    const now = Date.now();
    const stored = withoutId(data);
    const id = Number(this.statements.insert.run(tenant, resource, JSON.stringify(stored), now, now).lastInsertRowid);
    this.database.noteWrite();
    return toRecord({ id, data: JSON.stringify(stored) });
  }

  replace(tenant: string, resource: string, id: number, data: JsonObject): ResourceRecord | undefined {
    const stored = JSON.stringify(withoutId(data));
    const changes = this.statements.replace.run(stored, Date.now(), id, tenant, resource).changes;
    if (changes === 0) return undefined;
    this.database.noteWrite();
    return toRecord({ id, data: stored });
  }

  changeStamp(): string {
    return this.database.turnChangeStamp();
  }
}

function withoutId(data: JsonObject): JsonObject {
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(data)) if (key !== 'id') copy[key] = value;
  return copy;
}

/** Row -> API record: `id` first, then the data; `title` and `label` always strings; `group` only when set. */
function toRecord(row: RecordRow): ResourceRecord {
  const data = JSON.parse(row.data) as JsonObject;
  const record: ResourceRecord = {
    id: row.id,
    title: typeof data.title === 'string' ? data.title : '',
    label: typeof data.label === 'string' ? data.label : '',
  };
  for (const [key, value] of Object.entries(data)) {
    if (key === 'id' || key === 'title' || key === 'label') continue;
    if (key === 'group' && (value === null || value === '')) continue;
    record[key] = value;
  }
  return record;
}
