/**
 * A request's trace (W3C Trace Context) in its log lines: the trace id of the `traceparent` it came with, or a new
 * one; with LOG_REQUESTS and without, on the request line and on the error lines the request causes.
 */
import request from 'supertest';
import { createLogger } from '../logger';
import { createDemoApp, type TestApp } from '../../testing/server/test-app';
import { childContextOf, formatTraceparent, parseTraceparent } from './trace-context';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_ID}-01`;

interface LogLine {
  msg: string;
  level: number;
  trace_id?: string;
  span_id?: string;
  req?: { id?: string; url?: string };
}

let testApp: TestApp | undefined;
afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
});

async function appWithLogs(logRequests: boolean): Promise<{ app: TestApp['app']; lines: LogLine[] }> {
  const lines: LogLine[] = [];
  const logger = createLogger('production', 'info', {
    write: (line: string) => void lines.push(JSON.parse(line) as LogLine),
  });
  testApp = await createDemoApp({ logger, logRequests });
  return { app: testApp.app, lines };
}

describe('the trace of a request in its log lines', () => {
  it('with LOG_REQUESTS: the request line carries the trace id of its traceparent, with a span id of its own', async () => {
    const { app, lines } = await appWithLogs(true);
    const response = await request(app.handler).get('/slots').set('traceparent', TRACEPARENT).expect(200);
    const line = lines.find((one) => one.req?.id === response.headers['x-request-id']);
    expect(line?.msg).toBe('request completed');
    expect(line?.trace_id).toBe(TRACE_ID);
    expect(line?.span_id).toMatch(/^[0-9a-f]{16}$/);
    expect(line?.span_id).not.toBe(PARENT_ID);
  });

  it('with LOG_REQUESTS: a request without a valid traceparent gets a new trace of its own', async () => {
    const { app, lines } = await appWithLogs(true);
    const http = request(app.handler);
    await http.get('/slots').expect(200);
    await http
      .get('/slots')
      .set('traceparent', `00-${'0'.repeat(32)}-${PARENT_ID}-01`)
      .expect(200);
    await http.get('/slots').set('traceparent', `00-${TRACE_ID.toUpperCase()}-${PARENT_ID}-01`).expect(200);
    const traces = lines.filter((line) => line.msg === 'request completed').map((line) => line.trace_id);
    expect(traces).toHaveLength(3);
    for (const trace of traces) expect(trace).toMatch(/^(?!0{32})[0-9a-f]{32}$/);
    expect(new Set(traces).size).toBe(3);
    expect(traces).not.toContain(TRACE_ID);
  });

  it('without LOG_REQUESTS: the error lines a request causes carry its trace id', async () => {
    const { app, lines } = await appWithLogs(false);
    // The database goes away under the app: the sign-in fails with a logged error.
    app.database.close();
    const response = await request(app.handler)
      .post('/login')
      .set('traceparent', TRACEPARENT)
      .send({ username: 'admin', password: 'whatever-it-is' });
    expect(response.status).toBeGreaterThanOrEqual(500);
    const errors = lines.filter((line) => line.level >= 50);
    expect(errors.length).toBeGreaterThan(0);
    for (const line of errors) expect(line.trace_id).toBe(TRACE_ID);
  });
});

describe('traceparent', () => {
  it('reads version 00 and later versions, and refuses what the W3C recommendation calls invalid', () => {
    expect(parseTraceparent(TRACEPARENT)).toEqual({ traceId: TRACE_ID, spanId: PARENT_ID, sampled: true });
    expect(parseTraceparent(`00-${TRACE_ID}-${PARENT_ID}-00`)?.sampled).toBe(false);
    expect(parseTraceparent(`01-${TRACE_ID}-${PARENT_ID}-01-future-field`)?.traceId).toBe(TRACE_ID);
    for (const invalid of [
      undefined,
      ['a', 'b'],
      '',
      `ff-${TRACE_ID}-${PARENT_ID}-01`,
      `00-${TRACE_ID}-${PARENT_ID}-01-extra`,
      `00-${'0'.repeat(32)}-${PARENT_ID}-01`,
      `00-${TRACE_ID}-${'0'.repeat(16)}-01`,
      `00-${TRACE_ID.toUpperCase()}-${PARENT_ID}-01`,
      `00-${TRACE_ID.slice(1)}-${PARENT_ID}-01`,
      `00-${TRACE_ID}-${PARENT_ID}-1`,
    ]) {
      expect(parseTraceparent(invalid)).toBeNull();
    }
  });

  it('writes what it reads; a child keeps the trace and gets a span of its own', () => {
    const parent = parseTraceparent(TRACEPARENT)!;
    expect(formatTraceparent(parent)).toBe(TRACEPARENT);
    const child = childContextOf(parent);
    expect(child.traceId).toBe(TRACE_ID);
    expect(child.spanId).not.toBe(PARENT_ID);
    expect(parseTraceparent(formatTraceparent(childContextOf(null)))).not.toBeNull();
  });
});
