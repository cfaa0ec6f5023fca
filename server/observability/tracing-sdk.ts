/**
 * The tracing SDK as this server runs it: its start from the environment, the instrumentations, and the sampling
 * decided for each request before any id is made (a sampled-out request's span, a recorded one made by the server
 * itself: request-span.ts, and the instrumentations kept from making spans under a span that records nothing). Above
 * 300 lines for one reason: those parts are one path, which every request takes when tracing is on, and its cost is
 * measured as one (docs/operators/performance.md).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import {
  context,
  INVALID_SPAN_CONTEXT,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type Span,
  type SpanContext,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import {
  getRPCMetadata,
  isTracingSuppressed,
  RPCType,
  setRPCMetadata,
  suppressTracing,
  type RPCMetadata,
} from '@opentelemetry/core';
import { registerInstrumentations, type InstrumentationBase } from '@opentelemetry/instrumentation';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { RedisInstrumentation } from '@opentelemetry/instrumentation-redis';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  RandomIdGenerator,
  TraceIdRatioBasedSampler,
  type IdGenerator,
  type Sampler,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { createLogger, redactUrl } from '../logger';
import { createFetchInstrumentation } from './fetch-spans';
import { spanRoute } from './error-answer-route';
import { SqliteInstrumentation } from './sqlite-spans';
import { OtlpTraceExporter } from './otlp-trace-exporter';
import { otlpTraceProtocolOf } from './otlp-trace-protocol';
import { otlpTracesUrlOf } from './otlp-traces-url';
import { traceSamplerOf, type TraceSamplerSetting } from './trace-sampler-setting';
import { ReportingSpanExporter } from './reporting-span-exporter';
import { HeldContextManager } from './held-context';
import { httpRequestAttributes } from './http-request-attributes';
import { traceResourceAttributes } from './trace-resource';
import { methodInSpanName } from './known-methods';
import { followOpenTelemetry, keepSpanOf } from './request-trace';
import { RequestSpan, spanLimitsOf, type RequestSpanSink } from './request-span';
import { pathOf } from '../http/request-path';

// This module is what registers an SDK, and it is loaded only with tracing on (tracing.ts): from now on, and not
// before, the request's trace is read from OpenTelemetry's context (request-trace.ts does not load the API itself).
followOpenTelemetry({ context, trace, isTracingSuppressed });

/** A started OpenTelemetry SDK: what stops it (its last spans sent first). */
export interface TracingSdk {
  /**
   * Names the route of the request being answered outside Express's router (the public fast path), as Express's
   * instrumentation names its routes: the request's HTTP span gets `http.route` and is called `GET <route>`.
   */
  nameRoute(route: string): void;
  /**
   * `listener` with a server span per request (traceServerRequests), with the attributes of its protocol;
   * `answerAtOnce`, the part of it that answers some requests before it returns (the public fast path).
   */
  traceRequests(listener: RequestListener, protocol: 'http' | 'http2', answerAtOnce?: AnswerAtOnce): RequestListener;
  /** Sends the spans ended so far, and goes on recording; rejects when the receiver did not take them. */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * A part of a request listener that answers a request entirely before it returns and says so, or does nothing to it
 * and returns false (the public fast path for `GET /slots`): all its use of the request's context is over when it
 * returns.
 */
export type AnswerAtOnce = (req: IncomingMessage, res: ServerResponse) => boolean;

/** The status message of a request's span whose answer was cut short: the client gone, or the shutdown's cut. */
export const ANSWER_CUT_SHORT = 'answer cut short';

/** Probes hit these every few seconds, and Prometheus scrapes: a trace for each would drown the others. */
const UNTRACED_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The SDK itself (only tracing.ts loads this file, and only with an OTLP endpoint): a tracer provider with the
 * W3C trace context propagator and an AsyncLocalStorage context held by what needs it (held-context.ts), spans
 * batched to the OTLP/HTTP exporter (sending from a thread of its own, as the standard OTEL_EXPORTER_OTLP_* variables
 * say: endpoint, headers, timeout), and the HTTP, fetch, Express, pg, Redis and SQLite instrumentations. Incoming
 * `traceparent` headers become the parents of the requests' spans.
 */
export function startTracingSdk(env: NodeJS.ProcessEnv): TracingSdk {
  const samplerSetting = traceSamplerOf(env);
  const protocol = otlpTraceProtocolOf(env);
  const exporter = new OtlpTraceExporter(protocol, env);
  // tracing.ts started the SDK because this is set, and checked it.
  const endpoint = otlpTracesUrlOf(env)!.url;
  const logger = createLogger(env.NODE_ENV ?? 'production', env.LOG_LEVEL);
  const requestSpans: RequestSpanSink = {
    resource: resourceFromAttributes(traceResourceAttributes(env)),
    scope: { name: 'slots-server' },
    processor: new BatchSpanProcessor(new ReportingSpanExporter(exporter, logger, endpoint)),
    limits: spanLimitsOf(env),
    ids: new RandomIdGenerator(),
  };
  const rootSampling = rootSamplingOf(samplerSetting, requestSpans);
  const provider = new NodeTracerProvider({
    // Unless the sampler is one rootSamplingOf decides for, the SDK's tracer decides with it.
    sampler: rootSampling?.sampler ?? samplerOf(samplerSetting),
    resource: requestSpans.resource,
    spanProcessors: [requestSpans.processor],
    spanLimits: requestSpans.limits,
    idGenerator: requestSpans.ids,
  });
  const heldContext = new HeldContextManager();
  provider.register({ contextManager: heldContext });
  const unregister = registerInstrumentations({ tracerProvider: provider, instrumentations: createInstrumentations() });
  // Every setting read: the export thread starts now rather than with the first batch (OtlpTraceExporter).
  exporter.startThreadNow();
  // Said once at the start, so an operator sees from the log alone where the spans go and how many are kept.
  logger.info(
    { endpoint, protocol, sampler: samplerSetting.name, ratio: samplerSetting.ratio },
    `tracing: spans sent to ${endpoint} (${protocol}), sampler ${samplerSetting.name}` +
      (samplerSetting.name.endsWith('traceidratio') ? ` ${samplerSetting.ratio}` : ''),
  );
  return {
    nameRoute: nameRequestRoute,
    traceRequests(listener, protocol, answerAtOnce) {
      const attributes = protocol === 'http' ? HTTP_SPAN_ATTRIBUTES : HTTP2_SPAN_ATTRIBUTES;
      return traceServerRequests(provider.getTracer('slots-server'), listener, attributes, {
        rootSampling,
        heldContext,
        answerAtOnce,
      });
    },
    // The processor's own: it rejects with the export's error, where the provider's gives an array of them.
    flush: () => requestSpans.processor.forceFlush(),
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
  const instrumentations = [
    // Outgoing node:http requests only (those of a library that uses it; the server's own go through fetch, below):
    // the server's own requests get their spans from traceServerRequests, which decides whether a request is sampled
    // before it does any other work. The instrumentation's incoming side worked out every attribute of the span (the
    // URL parsed, the host and forwarding headers read), bound the request's and the answer's event emitters to its
    // context and wrapped its hooks, sampled or not: most of what one request in ten sampled still cost GET /slots
    // (docs/operators/performance.md).
    new HttpInstrumentation({ disableIncomingRequestInstrumentation: true }),
    // The requests the server sends with fetch (a remote's descriptor, a release's files), under a span only.
    createFetchInstrumentation(),
    // Routers and route handlers, not every middleware: a span per middleware layer cost /slots half its
    // throughput in the benchmark (npm run bench -- --only=observability), for spans that say little.
    // A router is named by where it is mounted (`router - /api`, `router - /` at the root), span and `express.name`
    // alike: the instrumentation names it by its first route's path, so every request's trace showed the routers
    // it passed through as `router - /healthz`, `router - /api/placements`, routes it never asked for.
    new ExpressInstrumentation({
      ignoreLayersType: [ExpressLayerType.MIDDLEWARE],
      spanNameHook: (info, defaultName) =>
        info.layerType === ExpressLayerType.ROUTER ? `router - ${routerMount(info.route)}` : defaultName,
      requestHook: (span, info) => {
        if (info.layerType === ExpressLayerType.ROUTER) span.setAttribute('express.name', routerMount(info.route));
      },
    }),
    // Queries of a request (or another traced operation) only: the releases poll, every second on every host,
    // would otherwise send a trace of its own each time.
    new PgInstrumentation({ requireParentSpan: true }),
    // Redis's commands (sessions, sign-in throttling with REDIS_URL) of a request only, as pg's queries. A command is
    // written as its name alone: the instrumentation's default keeps its key, and the keys hold session ids (a
    // session is its bearer's credential) and the usernames and addresses sign-ins are throttled by. Its client's
    // connection, made at the start, would be a trace of its own: the instrumentation spans it whatever
    // `requireParentSpan` says, so its tracer starts nothing without a parent.
    withTracersWrapped(
      new RedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
      parentRequiringTracer,
    ),
    // The statements on the embedded SQLite file, under a span only, as pg's queries (OpenTelemetry has no
    // instrumentation for better-sqlite3: sqlite-spans.ts).
    new SqliteInstrumentation(),
  ];
  return instrumentations.map((instrumentation) => withTracersWrapped(instrumentation, sparingTracer));
}

/** Where a router is mounted, from the route the instrumentation built up to it (empty at the root). */
function routerMount(route: string): string {
  return route === '' ? '/' : route;
}

/**
 * `instrumentation`, each tracer it gets wrapped by `wrap`, whatever provider it is given (by registerInstrumentations
 * or by hand). Wrapped again, the first wrap stays the outer one.
 */
function withTracersWrapped<T extends InstrumentationBase>(instrumentation: T, wrap: (tracer: Tracer) => Tracer): T {
  const setTracerProvider = instrumentation.setTracerProvider.bind(instrumentation);
  instrumentation.setTracerProvider = (provider: TracerProvider) =>
    setTracerProvider({ getTracer: (...args) => wrap(provider.getTracer(...args)) });
  return instrumentation;
}

/**
 * `tracer`, except that a span with no parent span (none in its context, or a root asked for) is a span that records
 * nothing: no ids made, the sampler not asked, nothing exported. Exported for the tests.
 */
export function parentRequiringTracer(tracer: Tracer): Tracer {
  return {
    startSpan(name, options, spanContext = context.active()) {
      if (options?.root === true || trace.getSpan(spanContext) === undefined) {
        return trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
      }
      return tracer.startSpan(name, options, spanContext);
    },
    // Not used by the instrumentations; the SDK's own, unchanged.
    startActiveSpan: tracer.startActiveSpan.bind(tracer) as Tracer['startActiveSpan'],
  };
}

/**
 * `tracer`, except that a span started under a span that records nothing (a request sampled out) is that span itself.
 * The SDK would make a new one that records nothing either (its parent-based samplers, the default and the one the
 * guide suggests, follow the parent; a ratio sampler decides the same for the same trace id), but only after making
 * its ids and asking the sampler, and Express's instrumentation would then bind a context of its own to the layer's
 * callbacks: for every router and route handler layer, every query and every request sent on of a request sampled out.
 * With the request's own span, they still carry its trace into the log lines and on in `traceparent`. Exported for
 * the tests.
 */
export function sparingTracer(tracer: Tracer): Tracer {
  return {
    startSpan(name, options, spanContext = context.active()) {
      const parent = trace.getSpan(spanContext);
      if (parent !== undefined && !parent.isRecording() && options?.root !== true) return parent;
      return tracer.startSpan(name, options, spanContext);
    },
    // Not used by these instrumentations; the SDK's own, unchanged.
    startActiveSpan: tracer.startActiveSpan.bind(tracer) as Tracer['startActiveSpan'],
  };
}

/**
 * The sampling of the parent-based samplers (`parentbased_traceidratio`, and `parentbased_always_on`, the default, and
 * `parentbased_always_off`), decided for each request by the server before any id is made, and the span it gives: a
 * request sampled out gets a span whose ids are made only if something reads them (a log line, a request sent on); a
 * recorded one a RequestSpan, made without the SDK's tracer.
 */
export interface RootSampling {
  /** The tracer provider's sampler, for the spans the SDK starts at the root (none today): the same decision. */
  readonly sampler: Sampler;
  /**
   * The span of a request named `name`, its caller's trace (if any) in `parent`, as the ParentBased sampler decides
   * it: with no caller's trace, the root's ratio (drawn at random rather than from the trace id, which the SDK made
   * first for every request; always or never for the other two); with one, whether the caller sampled it.
   */
  spanOf(name: string, parent: Context): Span;
}

/**
 * The RootSampling of the parent-based samplers (`parentbased_traceidratio`, `parentbased_always_on`, the default, and
 * `parentbased_always_off`), its recorded spans made for `sink`; undefined for the others, which the SDK's tracer
 * decides with samplerOf. The same proportion of new traces is sampled, a caller's decision followed as before.
 */
export function rootSamplingOf(setting: TraceSamplerSetting, sink: RequestSpanSink): RootSampling | undefined {
  if (!setting.name.startsWith('parentbased_')) return undefined;
  const { ratio } = setting;
  return {
    sampler: samplerOf(setting),
    spanOf(name, parent) {
      const caller = trace.getSpanContext(parent);
      if (caller === undefined || !isSpanContextValid(caller)) {
        return Math.random() < ratio
          ? new RequestSpan(sink, name, parent)
          : trace.wrapSpanContext(new SampledOutContext(sink.ids));
      }
      if ((caller.traceFlags & TraceFlags.SAMPLED) !== 0) return new RequestSpan(sink, name, parent, caller);
      // As the SDK's tracer gives it: the caller's trace, a span id of its own, not sampled.
      return trace.wrapSpanContext({
        traceId: caller.traceId,
        spanId: sink.ids.generateSpanId(),
        traceFlags: TraceFlags.NONE,
        traceState: caller.traceState,
      });
    },
  };
}

/** The SDK's sampler of `setting`, as the SDK builds it from the same variables. */
function samplerOf({ name, ratio }: TraceSamplerSetting): Sampler {
  const root = name.endsWith('always_on')
    ? new AlwaysOnSampler()
    : name.endsWith('always_off')
      ? new AlwaysOffSampler()
      : new TraceIdRatioBasedSampler(ratio);
  return name.startsWith('parentbased_') ? new ParentBasedSampler({ root }) : root;
}

/** The span context of a new trace sampled out: its ids made on first read (IdGenerator's, as the SDK's). */
class SampledOutContext implements SpanContext {
  readonly traceFlags = TraceFlags.NONE;
  #traceId: string | undefined;
  #spanId: string | undefined;
  constructor(private readonly ids: IdGenerator) {}
  get traceId(): string {
    return (this.#traceId ??= this.ids.generateTraceId());
  }
  get spanId(): string {
    return (this.#spanId ??= this.ids.generateSpanId());
  }
}

/** The attributes of a request's span: those known when it arrives, and those of its answer once it ended. */
export interface ServerSpanAttributes {
  request(req: IncomingMessage): Attributes;
  status(statusCode: number): Attributes;
}

/**
 * What the HTTP instrumentation puts on a node:http request's span (its stable HTTP semantic conventions:
 * `http.request.method`, `url.path`, `url.query` with its signatures redacted, `server.address`, `client.address`,
 * `user_agent.original`, `http.response.status_code`…), for sampled requests only: http-request-attributes.ts.
 */
export const HTTP_SPAN_ATTRIBUTES: ServerSpanAttributes = {
  request: httpRequestAttributes,
  status: (statusCode) => ({ 'http.response.status_code': statusCode }),
};

/** The older HTTP attributes node:http2's spans have carried since they were traced (`http.method`, `http.flavor`). */
export const HTTP2_SPAN_ATTRIBUTES: ServerSpanAttributes = {
  request: (req) => {
    const host = req.headers[':authority'] ?? req.headers.host;
    const agent = req.headers['user-agent'];
    return {
      'http.method': req.method ?? 'GET',
      // As the logs show it: a secret sent by mistake in the query (`?password=…`) redacted.
      'http.target': redactUrl(req.url ?? '/'),
      'http.scheme': 'https',
      'http.flavor': req.httpVersion,
      ...(typeof host === 'string' ? { 'http.host': host } : {}),
      ...(agent === undefined ? {} : { 'http.user_agent': agent }),
      ...(req.socket.remoteAddress === undefined ? {} : { 'net.peer.ip': req.socket.remoteAddress }),
    };
  },
  status: (statusCode) => ({ 'http.status_code': statusCode }),
};

/**
 * TracingSdk.nameRoute: what Express's instrumentation does for its routes, read by traceServerRequests when the
 * answer ends. Nothing for a request sampled out (it has no RPC metadata).
 */
export function nameRequestRoute(route: string): void {
  const metadata = getRPCMetadata(context.active());
  if (metadata?.type === RPCType.HTTP) metadata.route = route;
}

/** A request's span named by its route, as the HTTP instrumentation names it: `GET /meta`, `http.route`. */
function nameSpanRoute(span: Span, method: string | undefined, route: string): void {
  span.updateName(`${methodInSpanName(method)} ${route}`);
  span.setAttribute('http.route', route);
}

/**
 * A server span for each request `listener` answers, on node:http (behind a proxy) and node:http2 (HTTPS from the
 * server itself: HTTP/2, and HTTP/1.1 on the same port): the caller's `traceparent` as parent, the route named by
 * Express (or by the public fast path) through the RPC metadata (an error answer by the route spanRoute gives),
 * `GET /route` as its name once known, `attributes` on it, an error status for a 5xx or an answer cut short.
 *
 * The sampler decides first, from the parent and the trace id alone (ParentBased(TraceIdRatioBased) reads nothing
 * else): a request sampled out gets a span that records nothing, carrying the trace into the logs and on to the
 * remotes, and nothing more: no attributes worked out, no listener on its answer, no route named. With
 * `rootSampling` (a parent-based sampler) the server decides and makes the span itself, the SDK's tracer not asked
 * (RootSampling.spanOf); otherwise `tracer` does. The caller's headers are read only when it sent one the propagators
 * read. With `heldContext` (the registered context manager), a request that records holds its context until its
 * span ends, one sampled out that brought its caller's until answered, and one sampled out that brought no trace of
 * its own runs without one while nothing holds it (held-context.ts). A recorded request that `answerAtOnce` answers
 * has its context active while it does, and neither held nor carried after (runSynchronously): at one request in ten
 * recorded, the recorded `GET /slots` no longer turns AsyncLocalStorage on for the requests sampled out around it.
 * Exported for the tests.
 */
export function traceServerRequests(
  tracer: Tracer,
  listener: RequestListener,
  attributes: ServerSpanAttributes,
  {
    rootSampling,
    heldContext,
    answerAtOnce,
  }: { rootSampling?: RootSampling; heldContext?: HeldContextManager; answerAtOnce?: AnswerAtOnce } = {},
): RequestListener {
  // The headers the registered propagators read (`traceparent`, `tracestate`, `baggage`): most requests carry none.
  const fields = propagation.fields();
  return (req, res) => {
    // By its path: a probe or a scrape with a query (`/healthz?from=lb`) is one still.
    if (UNTRACED_PATHS.has(pathOf(req.url))) {
      // Nothing a probe or a scrape does is traced, a request it sends on included: held until it is answered.
      if (heldContext !== undefined) releaseOnEnd(res, heldContext.hold());
      context.with(suppressTracing(ROOT_CONTEXT), listener, undefined, req, res);
      return;
    }
    const method = methodInSpanName(req.method);
    const parent = fields.some((field) => req.headers[field] !== undefined)
      ? propagation.extract(ROOT_CONTEXT, req.headers)
      : ROOT_CONTEXT;
    const span =
      rootSampling === undefined
        ? tracer.startSpan(method, { kind: SpanKind.SERVER }, parent)
        : rootSampling.spanOf(method, parent);
    if (!span.isRecording()) {
      // A request sampled out that brought no context of its own (no trace, no baggage to send on) needs none
      // carried: its trace goes through the request (keepSpanOf), AsyncLocalStorage off (held-context.ts).
      if (parent === ROOT_CONTEXT && heldContext?.offUnlessHeld() === true) {
        keepSpanOf(req, span);
        listener(req, res);
        return;
      }
      // One that brought its caller's holds it until answered: its trace state and baggage go on with what it sends.
      if (parent !== ROOT_CONTEXT && heldContext !== undefined) releaseOnEnd(res, heldContext.hold());
      context.with(trace.setSpan(parent, span), listener, undefined, req, res);
      return;
    }
    // A RequestSpan keeps the object the attribute function made as its own.
    if (span instanceof RequestSpan) span.setRequestAttributes(attributes.request(req));
    else span.setAttributes(attributes.request(req));
    const metadata: RPCMetadata = { type: RPCType.HTTP, span };
    let ended = false;
    let release: (() => void) | undefined;
    const end = () => {
      if (ended) return;
      ended = true;
      const cut = !res.writableFinished;
      const route = spanRoute(req, res.statusCode, metadata.type === RPCType.HTTP ? metadata.route : undefined, cut);
      if (route !== undefined) nameSpanRoute(span, method, route);
      // Only a status that went out: an answer cut before its headers has none (Node's statusCode says 200).
      if (res.headersSent) span.setAttributes(attributes.status(res.statusCode));
      if (cut) span.setStatus({ code: SpanStatusCode.ERROR, message: ANSWER_CUT_SHORT });
      else if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      release?.();
    };
    res.on('finish', end);
    res.on('close', end);
    const active = setRPCMetadata(trace.setSpan(parent, span), metadata);
    if (answerAtOnce !== undefined && heldContext !== undefined) {
      // Its log line, written once the answer is finished, finds the span through the request (traceOf).
      keepSpanOf(req, span);
      if (heldContext.runSynchronously(active, answerAtOnce, req, res)) return;
    }
    // Its context carried until its span ends (work it leaves running after its answer may lose it).
    release = heldContext?.hold();
    context.with(active, listener, undefined, req, res);
  };
}

/**
 * Calls `release` once `res` is done: its answer sent, or cut short. With `on`, not `once`: the answer's events
 * come once each and `release` (as a request span's `end`) does its work once whatever calls it, where a `once` wrapper
 * is bound for each listener and taken off again at its event (about 2,000 instructions each, counted).
 */
function releaseOnEnd(res: ServerResponse, release: () => void): void {
  res.on('finish', release);
  res.on('close', release);
}
