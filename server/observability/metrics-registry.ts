// Types only: prom-client itself is loaded by promClient() below, when a metric is first made or read.
import type {
  Counter,
  CounterConfiguration,
  Gauge,
  GaugeConfiguration,
  Histogram,
  HistogramConfiguration,
  Metric,
  Registry,
} from 'prom-client';
import type { RequestDurationHistogram } from './request-duration-histogram';

/** Every metric of the server starts with this, so a Prometheus shared with other services can tell them apart. */
export const METRIC_PREFIX = 'slots_';

/** A metric's configuration without `registers`: the registry below is always the one it joins. */
type Config<C> = Omit<C, 'registers'>;

/**
 * The one Prometheus registry of an app (`app.metrics`), and the only way to add a metric to it: every part that
 * measures something (HTTP, sign-ins, remotes; slot loads and canaries) asks it for a counter, gauge or histogram,
 * so `GET /metrics` shows them all and two apps in one process (tests) never share a metric. prom-client's global
 * registry is not used for that reason.
 *
 * ```ts
 * const loads = app.metrics.counter({ name: 'slots_slot_loads_total', help: '…', labelNames: ['remote'] as const });
 * loads.inc({ remote: 'billing' });
 * ```
 *
 * A metric whose value is read when Prometheus scrapes (a pool's size) gives `collect` in its configuration.
 *
 * Every app has one (`app.metrics`), but only the `metrics` option fills it (app.ts gives it to the modules then and
 * only then): prom-client is loaded when the first metric is made or the registry read, so a server with metrics off
 * never loads it (some 120 modules with the OpenTelemetry API: bench/startup-phases.ts).
 */
export class MetricsRegistry {
  private promRegistry: Registry | undefined;

  private get registry(): Registry {
    this.promRegistry ??= new (promClient().Registry)();
    return this.promRegistry;
  }

  counter<L extends string>(config: Config<CounterConfiguration<L>>): Counter<L> {
    return new (promClient().Counter)({ ...checked(config), registers: [this.registry] });
  }

  gauge<L extends string>(config: Config<GaugeConfiguration<L>>): Gauge<L> {
    return new (promClient().Gauge)({ ...checked(config), registers: [this.registry] });
  }

  histogram<L extends string>(config: Config<HistogramConfiguration<L>>): Histogram<L> {
    return new (promClient().Histogram)({ ...checked(config), registers: [this.registry] });
  }

  /**
   * A metric kept by the server itself (request-duration-histogram.ts), exposed with the others: prom-client's
   * registry asks each metric only for its name, `get()` and `reset()`, which such a metric gives.
   */
  custom(metric: RequestDurationHistogram): RequestDurationHistogram {
    checked(metric);
    this.registry.registerMetric(metric as unknown as Metric);
    return metric;
  }

  /**
   * prom-client's figures of the process (CPU, memory, file descriptors) and of Node.js (event loop lag, heap, GC),
   * prefixed `slots_`. Once per registry.
   */
  defaultMetrics(): void {
    promClient().collectDefaultMetrics({ register: this.registry, prefix: METRIC_PREFIX });
  }

  /** The exposition's Content-Type (Prometheus' text format 0.0.4). */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** Every metric in Prometheus' text format (runs the `collect` of each metric first). */
  text(): Promise<string> {
    return this.registry.metrics();
  }
}

/** prom-client, loaded on first use: see MetricsRegistry. */
function promClient(): typeof import('prom-client') {
  return require('prom-client') as typeof import('prom-client');
}

/** Names are checked when a metric is made: a typo or a second metric of one name fails at start-up, not scrape. */
function checked<C extends { name: string }>(config: C): C {
  if (!config.name.startsWith(METRIC_PREFIX)) {
    throw new Error(`Metric "${config.name}" must start with "${METRIC_PREFIX}".`);
  }
  return config;
}
