import { context } from '@opentelemetry/api';
import { getRPCMetadata, RPCType } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { TracingSdk } from './tracing';

/** The name spans are sent under when OTEL_SERVICE_NAME is not set. */
export const DEFAULT_SERVICE_NAME = 'slots-server';

/**
 * The SDK itself (only tracing.ts loads this file, and only with an OTLP endpoint): a tracer provider with the
 * W3C trace context propagator and an AsyncLocalStorage context, spans batched to the OTLP/HTTP exporter (which
 * reads the standard OTEL_EXPORTER_OTLP_* variables: endpoint, headers, timeout), and the HTTP, Express and pg
 * instrumentations. Incoming `traceparent` headers become the parents of the requests' spans.
 */
export function startTracingSdk(env: NodeJS.ProcessEnv): TracingSdk {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME?.trim() || DEFAULT_SERVICE_NAME }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  const unregister = registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        // Probes hit these every few seconds: a trace for each would drown the others.
        ignoreIncomingRequestHook: (req) => req.url === '/healthz' || req.url === '/readyz' || req.url === '/metrics',
      }),
      // Routers and route handlers, not every middleware: a span per middleware layer cost /slots half its
      // throughput in the benchmark (npm run bench -- --only=observability), for spans that say little.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      // Queries of a request (or another traced operation) only: the releases poll, every second on every host,
      // would otherwise send a trace of its own each time.
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  return {
    nameRoute(route) {
      // What Express's instrumentation does for its routes: the HTTP instrumentation reads it when the answer ends.
      const metadata = getRPCMetadata(context.active());
      if (metadata?.type === RPCType.HTTP) metadata.route = route;
    },
    async shutdown() {
      unregister();
      await provider.shutdown();
    },
  };
}
