import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import { isTracingSuppressed } from '@opentelemetry/core';
import { InstrumentationBase, InstrumentationNodeModuleDefinition } from '@opentelemetry/instrumentation';
import type BetterSqlite3 from 'better-sqlite3';

/** What a statement's call is given and answers; better-sqlite3's own types, as its methods are called. */
type StatementCall = (this: BetterSqlite3.Statement, ...parameters: unknown[]) => unknown;
type ExecCall = (this: BetterSqlite3.Database, source: string) => BetterSqlite3.Database;
type StatementPrototype = Record<(typeof STATEMENT_CALLS)[number], StatementCall>;

/**
 * The calls that run a prepared statement to its end. Not `iterate`, whose rows are read after it returns (the server
 * never streams a query: its span would measure the first row only).
 */
const STATEMENT_CALLS = ['run', 'get', 'all'] as const;

/**
 * The spans of the statements a request runs on the embedded SQLite file (better-sqlite3): its session, its user and
 * memberships, its records. OpenTelemetry has no instrumentation for better-sqlite3, and without one a slow list on
 * SQLite showed as its handler's span, where on PostgreSQL each query has its own (the pg instrumentation).
 *
 * As pg's queries, a statement has a span only under a span that records (a request sampled in, or other traced
 * work): the session store's sweep and the sign-in counters' expiry, outside any request, start no trace, and a
 * request sampled out pays one look at its context per statement. A span of kind CLIENT named as the semantic
 * conventions name one (`SELECT records`: the operation, then the table when the text names one), with
 * `db.system.name` `sqlite`, `db.operation.name`, `db.collection.name`, `db.query.text` (the statement as prepared:
 * every value the server gives SQLite is a bound parameter, never in the text, so no session id, username or record
 * field reaches a span), `db.response.returned_rows` for a read, and `error.type` (SQLite's code,
 * `SQLITE_CONSTRAINT_UNIQUE`…) for a failure.
 *
 * Not the `PRAGMA` statements: the connection's settings, and the change probe (`PRAGMA data_version`, read once per
 * turn of the event loop for the caches: AppDatabase.turnChangeStamp) that would put a span of a microsecond in the
 * first request of every turn.
 *
 * better-sqlite3 runs a statement synchronously, so the span starts and ends around the call, on the request's
 * context: no callback to bind.
 */
export class SqliteInstrumentation extends InstrumentationBase {
  /** The prototype of better-sqlite3's statements (a class of its native part, not exported): found when patching. */
  private statementPrototype: StatementPrototype | undefined;

  constructor() {
    super('slots-server-sqlite', '1.0.0', {});
  }

  protected init(): InstrumentationNodeModuleDefinition[] {
    return [
      new InstrumentationNodeModuleDefinition(
        'better-sqlite3',
        ['>=12.0.0 <13'],
        (Database: typeof BetterSqlite3) => {
          const statementPrototype = this.statementPrototypeOf(Database);
          for (const call of STATEMENT_CALLS) this._wrap(statementPrototype, call, this.traceStatementCall);
          this._wrap(Database.prototype as unknown as { exec: ExecCall }, 'exec', this.traceExec);
          return Database;
        },
        (Database: typeof BetterSqlite3) => {
          if (this.statementPrototype !== undefined) this._massUnwrap([this.statementPrototype], [...STATEMENT_CALLS]);
          this._unwrap(Database.prototype as unknown as { exec: ExecCall }, 'exec');
        },
      ),
    ];
  }

  /** The statements' prototype, from a statement prepared on a database in memory, closed at once. */
  private statementPrototypeOf(Database: typeof BetterSqlite3): StatementPrototype {
    if (this.statementPrototype === undefined) {
      const scratch = new Database(':memory:');
      try {
        this.statementPrototype = Object.getPrototypeOf(scratch.prepare('SELECT 1')) as StatementPrototype;
      } finally {
        scratch.close();
      }
    }
    return this.statementPrototype;
  }

  private readonly traceStatementCall = (original: StatementCall): StatementCall => {
    const instrumentation = this;
    const kind = original.name === 'run' ? 'write' : 'read';
    return function statementCall(this: BetterSqlite3.Statement, ...parameters: unknown[]): unknown {
      const span = instrumentation.statementSpanOf(this.source);
      if (span === undefined) return original.apply(this, parameters);
      return endedAround(span, kind, () => original.apply(this, parameters));
    };
  };

  private readonly traceExec = (original: ExecCall): ExecCall => {
    const instrumentation = this;
    return function exec(this: BetterSqlite3.Database, source: string): BetterSqlite3.Database {
      const span = instrumentation.statementSpanOf(source);
      if (span === undefined) return original.call(this, source);
      return endedAround(span, 'write', () => original.call(this, source));
    };
  };

  /** A span for `source` when the active span records and the statement is not a PRAGMA; else undefined. */
  private statementSpanOf(source: string): Span | undefined {
    const active = context.active();
    const parent = trace.getSpan(active);
    if (parent === undefined || !parent.isRecording() || isTracingSuppressed(active)) return undefined;
    const attributes = statementAttributes(source);
    if (attributes === undefined) return undefined;
    return this.tracer.startSpan(spanNameOf(attributes), { kind: SpanKind.CLIENT, attributes }, active);
  }
}

/** `run()`'s answer, `span` ended once it answered or failed: its rows for a read, SQLite's code for a failure. */
function endedAround<T>(span: Span, kind: 'read' | 'write', run: () => T): T {
  try {
    const answer = run();
    if (kind === 'read') span.setAttribute('db.response.returned_rows', returnedRows(answer));
    return answer;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    span.setAttribute('error.type', typeof code === 'string' ? code : (error as Error).name);
    span.recordException(error as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
    throw error;
  } finally {
    span.end();
  }
}

/** The first table a statement reads or writes: `FROM x`, `INTO x`, `UPDATE x` (quoted or not). */
const TABLE_NAMED = /\b(?:from|into|update|join)\s+["`[]?([A-Za-z_]\w*)/i;

/** A statement's span attributes; undefined for a PRAGMA (no span). Exported for the tests. */
export function statementAttributes(source: string): Attributes | undefined {
  const text = source.trim();
  const operation = /^[A-Za-z]+/.exec(text)?.[0].toUpperCase() ?? 'SQL';
  if (operation === 'PRAGMA') return undefined;
  const table = TABLE_NAMED.exec(text)?.[1];
  return {
    'db.system.name': 'sqlite',
    'db.operation.name': operation,
    ...(table === undefined ? {} : { 'db.collection.name': table }),
    'db.query.text': text,
  };
}

/** `SELECT records`: the operation, then the table when the statement names one. */
function spanNameOf(attributes: Attributes): string {
  const table = attributes['db.collection.name'];
  return table === undefined ? String(attributes['db.operation.name']) : `${attributes['db.operation.name']} ${table}`;
}

/** The rows a read answered: `all()`'s array, or `get()`'s one row (none when it found nothing). */
function returnedRows(answer: unknown): number {
  if (Array.isArray(answer)) return answer.length;
  return answer === undefined ? 0 : 1;
}
