import type { RequestListener } from 'node:http';
// Types only: the SDK's module is loaded below, and only when tracing is on.
import type { AnswerAtOnce, TracingSdk } from './tracing-sdk';
import { otlpTracesUrlOf } from './otlp-traces-url';

let started: TracingSdk | null = null;

/**
 * Starts the OpenTelemetry SDK when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set:
 * spans of every HTTP request (Express's routers and route handlers in them), and of the queries, Redis commands and
 * requests sent on that it makes, sent over OTLP/HTTP. Must run before `express`, `pg`, `redis`, `better-sqlite3` and
 * `http` are first loaded, since the instrumentations patch them as they load:
 * entries import start-tracing.ts first. Unset, nothing is loaded and nothing is patched: tracing costs nothing.
 * @returns whether the SDK was started
 */
export function startTracing(env: NodeJS.ProcessEnv, warn: TracingOffWarning = warnInTheLog): boolean {
  if (started !== null) return true;
  // Checked before the SDK loads: a bad endpoint stops the start, naming the variable (otlp-traces-url.ts).
  if (otlpTracesUrlOf(env) === null) {
    const ignored = Object.keys(env)
      .filter((name) => name.startsWith('OTEL_') && (env[name] ?? '').trim() !== '')
      .sort();
    // A sampler or service name set for tracing that never starts was ignored without a word: the operator reading
    // the log waited for spans that no endpoint was named to receive.
    if (ignored.length > 0) {
      warn(
        { ignored },
        `tracing is off: no OTEL_EXPORTER_OTLP_ENDPOINT (nor OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set, so ` +
          `${ignored.join(', ')} ${ignored.length === 1 ? 'is' : 'are'} ignored. Set the collector's address to send ` +
          'spans (docs/operators/traces.md#sending-traces-to-a-collector).',
      );
    }
    return false;
  }
  // Loaded here, not imported above: with tracing off the SDK is never loaded.
  const sdk = require('./tracing-sdk') as typeof import('./tracing-sdk');
  started = sdk.startTracingSdk(env);
  return true;
}

/** How startTracing says that OTEL_ settings are ignored, tracing being off: a warning in the server's log. */
export type TracingOffWarning = (fields: { ignored: string[] }, message: string) => void;

function warnInTheLog(fields: { ignored: string[] }, message: string): void {
  // Loaded only then: the entries import this module before anything else, and most starts have nothing to say.
  const { createLogger } = require('../logger') as typeof import('../logger');
  createLogger(process.env.NODE_ENV ?? 'production', process.env.LOG_LEVEL).warn(fields, message);
}

/** Whether the SDK runs in this process. */
export function tracingStarted(): boolean {
  return started !== null;
}

/** TracingSdk.nameRoute of the SDK running in this process; nothing when tracing is off. */
export function nameTracedRoute(route: string): void {
  started?.nameRoute(route);
}

/**
 * TracingSdk.traceRequests of the SDK running in this process: every server's listener goes through it, node:http's
 * and node:http2's (the HTTP instrumentation traces outgoing requests only). `listener` itself when tracing is off.
 * `answerAtOnce`: the part of `listener` that answers some requests before it returns (the public fast path).
 */
export function tracedRequestListener(
  listener: RequestListener,
  protocol: 'http' | 'http2',
  answerAtOnce?: AnswerAtOnce,
): RequestListener {
  return started?.traceRequests(listener, protocol, answerAtOnce) ?? listener;
}

/**
 * The longest a shutdown waits for its last spans to be sent. A collector that does not answer (or refuses the
 * connection, which the exporter retries) must not hold a stop past the grace its orchestrator gives it, nor make a
 * stop that closed every store a failure.
 */
export const LAST_SPANS_WAIT_MS = 2_000;

/** How sending the last spans ended: sent (or tracing off), or not sent, and why. */
export type LastSpans = { sent: true } | { sent: false; reason: string };

/**
 * Sends the spans not sent yet and stops the SDK, beside `closing` (the app's close, begun once the HTTP server has
 * closed: the last requests' spans have ended). The spans ended so far go out at once, not after the close: a database
 * that does not answer holds the close until the shutdown's deadline, and the spans of the last requests, often the
 * very ones an operator needs to see what went wrong, were lost with it. Those the close itself ends (its last
 * queries) go out once it has, as the SDK stops. The two sends wait `waitMs` at the most together, the close's time
 * not counted (the shutdown gives the stores' close room for it: STORES_CLOSE_MIN_MS); a collector that did not take
 * the first is not waited for again (the SDK is left to the process's end). Nothing when tracing is off. Called by the
 * graceful shutdown, which logs spans left unsent and still exits 0: telemetry lost is not a store left open.
 */
export async function stopTracing(
  closing: Promise<unknown> = Promise.resolve(),
  waitMs = LAST_SPANS_WAIT_MS,
): Promise<LastSpans> {
  const sdk = started;
  started = null;
  if (sdk === null) return { sent: true };
  const began = Date.now();
  const flushed = await within(sdk.flush(), waitMs);
  if (!flushed.sent) return flushed;
  const left = Math.max(waitMs - (Date.now() - began), 0);
  // The close's failure is the shutdown's to say: what matters here is that it ended.
  await closing.catch(() => undefined);
  return within(sdk.shutdown(), left);
}

/** How `sending` ended, or that it did not within `waitMs`. */
async function within(sending: Promise<void>, waitMs: number): Promise<LastSpans> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<LastSpans>((resolve) => {
    timer = setTimeout(() => resolve({ sent: false, reason: `no answer within ${waitMs} ms` }), waitMs);
  });
  const ended = sending.then(
    (): LastSpans => ({ sent: true }),
    (error: unknown): LastSpans => ({ sent: false, reason: error instanceof Error ? error.message : String(error) }),
  );
  try {
    return await Promise.race([ended, late]);
  } finally {
    clearTimeout(timer);
  }
}
