import { context, propagation, trace } from '@opentelemetry/api';
import {
  AlwaysOffSampler,
  InMemorySpanExporter,
  ParentBasedSampler,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { HeldContextManager } from '../../server/observability/held-context';

/**
 * The OpenTelemetry SDK's tracer provider, registered for the test file (the server's AsyncLocalStorage context,
 * `heldContext`, and the W3C propagator, as the server registers them), each span exported at once to memory; the
 * globals are removed after the file's tests. Spans are kept until the test resets the exporter.
 */
export function registerInMemoryTracing(): {
  provider: NodeTracerProvider;
  exporter: InMemorySpanExporter;
  heldContext: HeldContextManager;
} {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const heldContext = new HeldContextManager();
  beforeAll(() => provider.register({ contextManager: heldContext }));
  afterAll(async () => {
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  });
  return { provider, exporter, heldContext };
}

/**
 * A tracer provider that samples every new trace out and follows a caller's sampled one (a parent-based sampler with
 * an always-off root), its spans exported at once to `exporter`: requests with no trace of their own record nothing.
 */
export function newTracesSampledOut(exporter: InMemorySpanExporter): NodeTracerProvider {
  return new NodeTracerProvider({
    sampler: new ParentBasedSampler({ root: new AlwaysOffSampler() }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
}
