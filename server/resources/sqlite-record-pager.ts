import type BetterSqlite3 from 'better-sqlite3';
import type { ResourceRecord } from '../../shared';
import { FIELD_NAME_PATTERN } from './field';
import type { RecordPage, RecordPageQuery, RecordPosition, RecordSortKey } from './record-page-query';

interface PageRow {
  id: number;
  data: string;
  sort_key: string | number;
}

type Side = 'forward' | 'backward';

/**
 * Keyset pages of the `records` table (see RecordSource.page). Each sort key is an SQL expression with an index on
 * (tenant_id, resource, expression, id), created the first time a key is used (IF NOT EXISTS: once per database,
 * cheap afterwards); the expression is written into the statements exactly as in the index so SQLite uses it.
 * Column names are checked against FIELD_NAME_PATTERN before they reach any SQL.
 */
export class SqliteRecordPager {
  private readonly statements = new Map<string, BetterSqlite3.Statement<unknown[], PageRow>>();
  private readonly indexedKeys = new Set<string>();

  constructor(
    private readonly db: BetterSqlite3.Database,
    private readonly toRecord: (row: { id: number; data: string }) => ResourceRecord,
  ) {}

  page(tenant: string, resource: string, query: RecordPageQuery): RecordPage {
    const expression = this.indexedExpression(query.sort);
    const fetch = (side: Side, from: RecordPosition | undefined, limit: number): PageRow[] => {
      const { sql, values } = pageSql(expression, query, side, from);
      return this.statement(sql).all(tenant, resource, ...values, limit);
    };

    if (query.before) {
      const rows = fetch('backward', query.before, query.limit + 1);
      const shown = rows.slice(0, query.limit).reverse();
      const first = shown[0];
      const last = shown.at(-1);
      return {
        records: shown.map(this.toRecord),
        ...(rows.length > query.limit && first ? { previous: positionOf(first, query.sort) } : {}),
        ...(last && fetch('forward', positionOf(last, query.sort), 1).length > 0
          ? { next: positionOf(last, query.sort) }
          : {}),
      };
    }
    const rows = fetch('forward', query.after, query.limit + 1);
    const shown = rows.slice(0, query.limit);
    const first = shown[0];
    const last = shown.at(-1);
    return {
      records: shown.map(this.toRecord),
      ...(rows.length > query.limit && last ? { next: positionOf(last, query.sort) } : {}),
      ...(query.after && first && fetch('backward', positionOf(first, query.sort), 1).length > 0
        ? { previous: positionOf(first, query.sort) }
        : {}),
    };
  }

  /** The sort key's SQL expression, its index created on first use. */
  private indexedExpression(sort: RecordSortKey): string {
    if (!('kind' in sort)) return 'id';
    if (!FIELD_NAME_PATTERN.test(sort.column)) throw new Error(`Not a record key: ${JSON.stringify(sort.column)}`);
    const value = `json_extract(data, '$.${sort.column}')`;
    const expression = sort.kind === 'text' ? `lower(coalesce(${value}, ''))` : `coalesce(${value}, '')`;
    if (!this.indexedKeys.has(expression)) {
      // Index names ignore case in SQLite while JSON keys do not: the hex of the column keeps "Name" and "name" apart.
      const name = `records_list_${sort.kind}_${Buffer.from(sort.column).toString('hex')}`;
      this.db.exec(`CREATE INDEX IF NOT EXISTS ${name} ON records (tenant_id, resource, ${expression}, id)`);
      this.indexedKeys.add(expression);
    }
    return expression;
  }

  private statement(sql: string): BetterSqlite3.Statement<unknown[], PageRow> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare<unknown[], PageRow>(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

/**
 * The statement for one walk through the index from `from` (exclusive) and its values after tenant and resource
 * (the limit follows them). Each walk has at most one lower and one upper bound on the key, so the index range
 * starts right at the cursor: a row-value comparison `(key, id) > (?, ?)` would read more naturally, but SQLite
 * does not use it as a range on an expression index and would read every entry before the cursor. The cursor's key
 * lies within the search's range (the router refuses a cursor from another search), so it replaces the bound on
 * its side.
 */
function pageSql(
  expression: string,
  query: RecordPageQuery,
  side: Side,
  from: RecordPosition | undefined,
): { sql: string; values: unknown[] } {
  // Forward in a descending list walks the index downwards, as does backward in an ascending one.
  const downwards = query.descending !== (side === 'backward');
  const direction = downwards ? 'DESC' : 'ASC';
  const conditions: string[] = [];
  const values: unknown[] = [];
  const where = (condition: string, ...conditionValues: unknown[]) => {
    conditions.push(condition);
    values.push(...conditionValues);
  };
  if (expression === 'id') {
    if (from) where(`id ${downwards ? '<' : '>'} ?`, from.id);
  } else {
    const upperBound = query.prefix === undefined ? undefined : prefixUpperBound(query.prefix);
    const key = from?.key ?? '';
    if (from && !downwards) where(`${expression} >= ?`, key);
    else if (query.prefix !== undefined) where(`${expression} >= ?`, query.prefix);
    if (from && downwards) where(`${expression} <= ?`, key);
    else if (upperBound !== undefined) where(`${expression} < ?`, upperBound);
    if (from) where(`(${expression} ${downwards ? '<' : '>'} ? OR id ${downwards ? '<' : '>'} ?)`, key, from.id);
  }
  const order = expression === 'id' ? `id ${direction}` : `${expression} ${direction}, id ${direction}`;
  const filter = conditions.map((condition) => ` AND ${condition}`).join('');
  return {
    sql: `SELECT id, data, ${expression} AS sort_key FROM records WHERE tenant_id = ? AND resource = ?${filter} ORDER BY ${order} LIMIT ?`,
    values,
  };
}

function positionOf(row: PageRow, sort: RecordSortKey): RecordPosition {
  return 'kind' in sort ? { key: row.sort_key, id: row.id } : { id: row.id };
}

/**
 * The least string above every string that starts with `prefix`: its last code point raised by one (SQLite compares
 * text as UTF-8 bytes, which follow code point order). Undefined when no such string exists (only U+10FFFF).
 */
export function prefixUpperBound(prefix: string): string | undefined {
  const points = [...prefix].map((point) => point.codePointAt(0) ?? 0);
  while (points.length > 0) {
    const last = points.pop() ?? 0;
    let next = last + 1;
    if (next >= 0xd800 && next <= 0xdfff) next = 0xe000; // surrogates are not characters
    if (next <= 0x10ffff) return String.fromCodePoint(...points, next);
  }
  return undefined;
}
