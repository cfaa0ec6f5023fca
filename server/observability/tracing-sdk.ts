import { ServerResponse, type IncomingMessage, type RequestListener } from 'node:http';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { getRPCMetadata, RPCType, setRPCMetadata, type RPCMetadata } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations, type InstrumentationBase } from '@opentelemetry/instrumentation';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { createLogger } from '../logger';
import { spanRoute } from './error-answer-route';
import { ReportingSpanExporter } from './reporting-span-exporter';

/** Where the exporter sends spans, as the OTEL_EXPORTER_OTLP_* variables say (for the log line). */
function endpointOf(env: NodeJS.ProcessEnv): string {
  return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || `${env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() ?? ''}`;
}

/** A started OpenTelemetry SDK: what stops it (its last spans sent first). */
export interface TracingSdk {
  /**
   * Names the route of the request being answered outside Express's router (the public fast path), as Express's
   * instrumentation names its routes: the request's HTTP span gets `http.route` and is called `GET <route>`.
   */
  nameRoute(route: string): void;
  /** `listener` with a server span per request, for a server the HTTP instrumentation does not see (node:http2's). */
  traceRequests(listener: RequestListener): RequestListener;
  shutdown(): Promise<void>;
}

/** The name spans are sent under when OTEL_SERVICE_NAME is not set. */
export const DEFAULT_SERVICE_NAME = 'slots-server';

/** The status message of a request's span whose answer was cut short: the client gone, or the shutdown's cut. */
export const ANSWER_CUT_SHORT = 'answer cut short';

/** Probes hit these every few seconds, and Prometheus scrapes: a trace for each would drown the others. */
const UNTRACED_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The SDK itself (only tracing.ts loads this file, and only with an OTLP endpoint): a tracer provider with the
 * W3C trace context propagator and an AsyncLocalStorage context, spans batched to the OTLP/HTTP exporter (which
 * reads the standard OTEL_EXPORTER_OTLP_* variables: endpoint, headers, timeout), and the HTTP, Express and pg
 * instrumentations. Incoming `traceparent` headers become the parents of the requests' spans.
 */
export function startTracingSdk(env: NodeJS.ProcessEnv): TracingSdk {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME?.trim() || DEFAULT_SERVICE_NAME }),
    spanProcessors: [
      new BatchSpanProcessor(
        new ReportingSpanExporter(
          new OTLPTraceExporter(),
          createLogger(env.NODE_ENV ?? 'production', env.LOG_LEVEL),
          endpointOf(env),
        ),
      ),
    ],
  });
  provider.register();
  const unregister = registerInstrumentations({ tracerProvider: provider, instrumentations: createInstrumentations() });
  return {
    nameRoute(route) {
      // What Express's instrumentation does for its routes: the HTTP instrumentation reads it when the answer ends.
      const metadata = getRPCMetadata(context.active());
      if (metadata?.type === RPCType.HTTP) metadata.route = route;
    },
    traceRequests(listener) {
      return traceServerRequests(provider.getTracer('slots-server'), listener);
    },
    async shutdown() {
      unregister();
      await provider.shutdown();
    },
  };
}

/**
 * The instrumentations the SDK registers, as it configures them (exported for the tests, which patch the modules
 * themselves: Jest's module loader is not the one the instrumentations hook).
 */
export function createInstrumentations(): InstrumentationBase[] {
  return [
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.has(req.url ?? ''),
      // The instrumentation names a span, as its answer closes, by the route Express last reported: that of the last
      // layer that ran, which for a request the session step refused (its store or the database down), or one cut
      // while it waited for the store, is the step's mount, all its paths. An error answer, and an answer cut short,
      // are named as the request-duration metric labels an error instead: by its route, the one it was refused on
      // its way to, or no route for a path none serves (the method alone, as any unrouted request). Set in the
      // reported route itself, not on the span afterwards: an attribute cannot be removed. This hook runs as the
      // request arrives, before the instrumentation listens for the close: ours runs first. Outgoing requests (their
      // answer is no ServerResponse) are left alone.
      responseHook: (_span, response) => {
        if (!(response instanceof ServerResponse)) return;
        const metadata = getRPCMetadata(context.active());
        if (metadata?.type !== RPCType.HTTP) return;
        response.once('close', () => {
          const cut = !response.writableFinished;
          metadata.route = spanRoute(response.req, response.statusCode, metadata.route, cut);
          // An answer cut before its headers went out sent no status, but Node's statusCode still says 200, which
          // the instrumentation would record as the answer's: with none, it records no status code, and an error.
          if (cut && !response.headersSent) (response as { statusCode: number | undefined }).statusCode = undefined;
        });
      },
      // After the instrumentation set the span's status from the answer's: says why (its own error has no message).
      applyCustomAttributesOnSpan: (span, _request, response) => {
        if (response instanceof ServerResponse && !response.writableFinished) {
          span.setStatus({ code: SpanStatusCode.ERROR, message: ANSWER_CUT_SHORT });
        }
      },
    }),
    // Routers and route handlers, not every middleware: a span per middleware layer cost /slots half its
    // throughput in the benchmark (npm run bench -- --only=observability), for spans that say little.
    new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
    // Queries of a request (or another traced operation) only: the releases poll, every second on every host,
    // would otherwise send a trace of its own each time.
    new PgInstrumentation({ requireParentSpan: true }),
  ];
}

/** A request's span named by its route, as the HTTP instrumentation names it: `GET /meta`, `http.route`. */
function nameSpanRoute(span: Span, method: string | undefined, route: string): void {
  span.updateName(`${method ?? 'GET'} ${route}`);
  span.setAttribute('http.route', route);
}

/**
 * A server span for each request `listener` answers, for servers the HTTP instrumentation does not see: node:http2's
 * (HTTPS from the server itself: HTTP/2, and HTTP/1.1 on the same port). The same span as the instrumentation's for
 * node:http: the caller's `traceparent` as parent, the route named by Express (or by the public fast path) through
 * the RPC metadata (an error answer by the route spanRoute gives, as over node:http), `GET /route` as its name
 * once known, the old HTTP attributes the instrumentation sets by default, an error status for a 5xx or an answer cut
 * short. Exported for the tests.
 */
export function traceServerRequests(tracer: Tracer, listener: RequestListener): RequestListener {
  return (req, res) => {
    if (UNTRACED_PATHS.has(req.url ?? '')) {
      listener(req, res);
      return;
    }
    const method = req.method ?? 'GET';
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const span = tracer.startSpan(method, { kind: SpanKind.SERVER, attributes: requestAttributes(req) }, parent);
    const metadata: RPCMetadata = { type: RPCType.HTTP, span };
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      const cut = !res.writableFinished;
      const route = spanRoute(req, res.statusCode, metadata.type === RPCType.HTTP ? metadata.route : undefined, cut);
      if (route !== undefined) nameSpanRoute(span, method, route);
      // Only a status that went out: an answer cut before its headers has none (Node's statusCode says 200).
      if (res.headersSent) span.setAttribute('http.status_code', res.statusCode);
      if (cut) span.setStatus({ code: SpanStatusCode.ERROR, message: ANSWER_CUT_SHORT });
      else if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    };
    res.once('finish', end);
    res.once('close', end);
    context.with(setRPCMetadata(trace.setSpan(parent, span), metadata), () => listener(req, res));
  };
}

function requestAttributes(req: IncomingMessage): Record<string, string | number> {
  const host = req.headers[':authority'] ?? req.headers.host;
  const agent = req.headers['user-agent'];
  return {
    'http.method': req.method ?? 'GET',
    'http.target': req.url ?? '/',
    'http.scheme': 'https',
    'http.flavor': req.httpVersion,
    ...(typeof host === 'string' ? { 'http.host': host } : {}),
    ...(agent === undefined ? {} : { 'http.user_agent': agent }),
    ...(req.socket.remoteAddress === undefined ? {} : { 'net.peer.ip': req.socket.remoteAddress }),
  };
}
