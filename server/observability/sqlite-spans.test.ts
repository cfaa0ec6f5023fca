/**
 * The statements run on the embedded SQLite file get spans of their own (sqlite-spans.ts): under a span that records,
 * a CLIENT span per statement with the database attributes, its text as prepared (no value bound to it); outside any
 * span, under one sampled out, or for a PRAGMA, none. A real SQLite file, migrated as the server opens it, queried by
 * the server's own session store and Kysely engine; better-sqlite3 patched by hand by the SDK's instrumentations as
 * the server creates them (createInstrumentations: Jest's module loader is not the one they hook), each span exported
 * at once to memory.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import type { InstrumentationBase } from '@opentelemetry/instrumentation';
import Database from 'better-sqlite3';
import { registerInMemoryTracing } from '../../testing/server/in-memory-tracing';
import { SqliteEngine } from '../storage/sqlite-engine';
import { SqliteSessionStore } from '../storage/sqlite-session-store';
import { statementAttributes } from './sqlite-spans';
import { createInstrumentations } from './tracing-sdk';

const SESSION_ID = 'a-session-id-no-span-may-hold';
const SESSION = JSON.stringify({ cookie: { expires: null }, passport: { user: 'someone-secret' } });

const { provider, exporter } = registerInMemoryTracing();
let instrumentations: InstrumentationBase[] = [];
let folder: string;
let engine: SqliteEngine;
let sessions: SqliteSessionStore;

/** Applies the instrumentations' patches of better-sqlite3 to this file's module (or removes them). */
function patchSqlite(how: 'patch' | 'unpatch'): void {
  for (const instrumentation of instrumentations) {
    for (const definition of instrumentation.getModuleDefinitions()) {
      if (definition.name === 'better-sqlite3') definition[how]?.(Database, '12.0.0');
    }
  }
}

beforeAll(() => {
  instrumentations = createInstrumentations();
  for (const instrumentation of instrumentations) instrumentation.setTracerProvider(provider);
  patchSqlite('patch');
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-spans-'));
  engine = SqliteEngine.open(path.join(folder, 'app.db'));
  sessions = new SqliteSessionStore(engine.file.db, { fallbackTtlMs: 60_000, cleanupIntervalMs: 0 });
});
afterAll(async () => {
  patchSqlite('unpatch');
  for (const instrumentation of instrumentations) instrumentation.disable();
  await engine.close();
  fs.rmSync(folder, { recursive: true, force: true });
});
afterEach(() => exporter.reset());

/** `work`'s answer, run under a recorded span named `request`, ended after it. */
async function underRequest<T>(work: () => T | Promise<T>): Promise<T> {
  const span = provider.getTracer('requests').startSpan('request');
  try {
    return await context.with(trace.setSpan(ROOT_CONTEXT, span), work);
  } finally {
    span.end();
  }
}

function sessionSet(): Promise<void> {
  return new Promise((resolve, reject) =>
    sessions.set(SESSION_ID, JSON.parse(SESSION), (error) => (error ? reject(error) : resolve())),
  );
}

function sessionGet(): Promise<unknown> {
  return new Promise((resolve, reject) =>
    sessions.get(SESSION_ID, (error, found) => (error ? reject(error) : resolve(found))),
  );
}

describe('statements under a span that records', () => {
  it('each is a CLIENT span of it, named by its operation and table, its text without the values bound', async () => {
    const found = await underRequest(async () => {
      await sessionSet();
      return sessionGet();
    });
    expect(found).toEqual(JSON.parse(SESSION));

    const spans = exporter.getFinishedSpans();
    const request = spans.find((span) => span.name === 'request')!;
    const statements = spans.filter((span) => span.attributes['db.system.name'] === 'sqlite');
    expect(statements.map((span) => span.name)).toEqual(['INSERT sessions', 'SELECT sessions']);
    for (const span of statements) {
      expect(span.kind).toBe(SpanKind.CLIENT);
      expect(span.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
      expect(span.spanContext().traceId).toBe(request.spanContext().traceId);
      expect(span.attributes['db.collection.name']).toBe('sessions');
      // Bound parameters only: the session's id and content never reach a span.
      expect(JSON.stringify(span.attributes)).not.toContain(SESSION_ID);
      expect(JSON.stringify(span.attributes)).not.toContain('someone-secret');
    }
    const [insert, select] = statements;
    expect(insert!.attributes).toMatchObject({
      'db.operation.name': 'INSERT',
      'db.query.text': expect.stringMatching(/^INSERT INTO sessions \(sid, sess, expires_at\) VALUES \(\?, \?, \?\)/),
    });
    expect(insert!.attributes['db.response.returned_rows']).toBeUndefined();
    expect(select!.attributes).toEqual({
      'db.system.name': 'sqlite',
      'db.operation.name': 'SELECT',
      'db.collection.name': 'sessions',
      'db.query.text': 'SELECT sess FROM sessions WHERE sid = ? AND expires_at > ?',
      'db.response.returned_rows': 1,
    });
  });

  it('a Kysely query of the engine too, across its asynchronous steps, with the rows it read', async () => {
    await underRequest(() =>
      engine.db.selectFrom('users').select('username').where('username', '=', 'nobody-by-this-name').execute(),
    );
    const [query] = exporter.getFinishedSpans().filter((span) => span.attributes['db.system.name'] === 'sqlite');
    expect(query?.name).toBe('SELECT users');
    expect(query?.attributes['db.query.text']).toBe('select "username" from "users" where "username" = ?');
    expect(query?.attributes['db.response.returned_rows']).toBe(0);
  });

  it('a statement that fails: its span in error with SQLite’s code, the error thrown to the caller', async () => {
    const db = engine.file.db;
    await underRequest(() => {
      expect(() => db.prepare('INSERT INTO sessions (sid, sess) VALUES (?, ?)').run('a', '{}')).toThrow(
        expect.objectContaining({ code: 'SQLITE_CONSTRAINT_NOTNULL' }),
      );
      expect(() => db.exec('DELETE FROM no_such_table')).toThrow(/no such table/);
    });
    const failed = exporter.getFinishedSpans().filter((span) => span.attributes['db.system.name'] === 'sqlite');
    expect(failed.map((span) => [span.name, span.attributes['error.type'], span.status.code])).toEqual([
      ['INSERT sessions', 'SQLITE_CONSTRAINT_NOTNULL', SpanStatusCode.ERROR],
      ['DELETE no_such_table', 'SQLITE_ERROR', SpanStatusCode.ERROR],
    ]);
    expect(failed[1]?.status.message).toMatch(/no such table: no_such_table/);
    expect(failed[1]?.events.map((event) => event.name)).toEqual(['exception']);
  });

  it('no span for a PRAGMA: the connection’s settings, and the change probe the caches read every turn', async () => {
    await underRequest(() => {
      engine.changeStamp();
      engine.file.db.pragma('foreign_keys');
    });
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(['request']);
  });
});

describe('statements with nothing recording', () => {
  it('outside any span (the session sweep, the counters’ expiry): no span, no trace of their own', async () => {
    await sessionSet();
    await sessionGet();
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('under a span sampled out: no span', async () => {
    const sampledOut = trace.wrapSpanContext({
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: TraceFlags.NONE,
    });
    await context.with(trace.setSpan(ROOT_CONTEXT, sampledOut), async () => {
      await sessionSet();
      await sessionGet();
    });
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});

describe('statementAttributes', () => {
  it.each([
    ['UPDATE "records" SET data = ? WHERE id = ?', 'UPDATE', 'records'],
    ['delete from `tenants` where id = ?', 'DELETE', 'tenants'],
    ['  BEGIN IMMEDIATE', 'BEGIN', undefined],
    ['with page as (select id from records) select * from page', 'WITH', 'records'],
    ['SELECT 1', 'SELECT', undefined],
  ])('%s: %s, table %s', (source, operation, table) => {
    const attributes = statementAttributes(source);
    expect(attributes?.['db.operation.name']).toBe(operation);
    expect(attributes?.['db.collection.name']).toBe(table);
    expect(attributes?.['db.query.text']).toBe(source.trim());
  });

  it('none for a PRAGMA, in any case', () => {
    expect(statementAttributes('PRAGMA data_version')).toBeUndefined();
    expect(statementAttributes(' pragma journal_mode = WAL')).toBeUndefined();
  });
});
